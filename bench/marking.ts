// 网上阅卷 figures on the real server process: a class of 45 roster sheets with a 解答题 (8 points),
// graded, then the question marked for the whole class as a teacher does by keyboard — one score
// saved after another, each moving on to the next paper. Reports the p95 and the median of a saved
// score as the client sees it (localhost: little more than the server's time), and the time to open
// the question's papers.
import { buildLayout, type SectionSpec } from '../server/grading';
import { makeScan } from '../server/grading/corpus/generate';
import { startServer } from '../tests/support/serverProcess';
import type { MarkingSheet } from '../src/domain/marking';
import { call, classOf45, login, p95 } from './aiCorrect';
import type { BenchRow } from './table';

const BASE = '/api/wrongbook/v1.0/correct';
const SECTIONS: SectionSpec[] = [
  { kind: 'objective', title: '一、选择题', items: [1, 2, 3].map((no) => ({ no, type: 'single' as const, options: 4 })) },
  { kind: 'short', title: '二、解答题', items: [{ no: 4, heightMm: 60 }] },
];
const KEY = { items: { '1': { answer: 'A', points: 4 }, '2': { answer: 'B', points: 4 }, '3': { answer: 'C', points: 4 }, '4': { manual: true, points: 8 } } };

export async function benchMarking(): Promise<BenchRow[]> {
  const server = await startServer();
  try {
    const teacher = await login(server.url, 'teacher');
    const { klass, roster } = await classOf45(server, teacher);
    const students = roster.slice(0, 45);
    const title = '解答题阅卷';
    const sheet = await call<{ sheetId: string }>(`${server.url}${BASE}/sheet/create`, teacher, { json: { title, paper: 'A4', identity: 'roster', classId: klass.id, sections: SECTIONS } });
    const layout = buildLayout({ sheetId: sheet.sheetId, title, paper: 'A4', identity: { mode: 'roster', students: roster.map((s) => ({ id: `s${s.id}`, name: s.name, className: klass.className })) }, sections: SECTIONS });
    const task = await call<{ id: number }>(`${server.url}${BASE}/task/create`, teacher, { json: { type: 3, title, classId: klass.id, sheetId: sheet.sheetId, answerKey: KEY } });
    for (const [i, s] of students.entries()) {
      const scan = await makeScan(layout, { copy: { sheetId: sheet.sheetId, page: 1, studentId: `s${s.id}` }, objective: { 1: [{ label: 'A', style: 'full' }] } }, { rotateDeg: (i % 5) - 2, noise: 3 }, 700 + i);
      const form = new FormData();
      form.append('taskId', String(task.id));
      form.append('file', new Blob([new Uint8Array(scan)], { type: 'image/jpeg' }), `扫描${i + 1}.jpg`);
      await call(`${server.url}${BASE}/task/upload`, teacher, { form });
    }
    await call(`${server.url}${BASE}/task/submit`, teacher, { json: { taskId: task.id } });
    const t0 = performance.now();
    for (;;) {
      const detail = await call<{ task: { status: number } }>(`${server.url}${BASE}/task/detail?taskId=${task.id}`, teacher);
      if (detail.task.status === 4) break;
      if (detail.task.status === 7 || performance.now() - t0 > 600_000) throw new Error('grading did not finish');
      await new Promise((r) => setTimeout(r, 250));
    }
    const o0 = performance.now();
    const { papers } = await call<MarkingSheet>(`${server.url}${BASE}/marking/question?taskId=${task.id}&no=4`, teacher);
    const openMs = performance.now() - o0;
    const times: number[] = [];
    for (const [i, p] of papers.entries()) {
      const s0 = performance.now();
      await call(`${server.url}${BASE}/marking/score`, teacher, { json: { taskId: task.id, no: 4, resultId: p.resultId, score: i % 9 } });
      times.push(performance.now() - s0);
    }
    const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
    console.error(`  marked ${times.length} papers; question opened in ${openMs.toFixed(0)} ms`);
    return [
      { name: 'marking_class45_score_save_p95_ms', value: p95(times), unit: 'ms', target: '≤ 100' },
      { name: 'marking_class45_score_save_median_ms', value: median, unit: 'ms', target: '' },
      { name: 'marking_class45_open_question_ms', value: openMs, unit: 'ms', target: '≤ 500' },
      { name: 'marking_class45_papers', value: times.length, unit: '', target: '45' },
    ];
  } finally {
    await server.stop();
  }
}
