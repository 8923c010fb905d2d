// AI批改 set-up shared by the browser tests: a roster answer sheet for a class (made by the server,
// laid out again here so the test can render the students' scans), and scans uploaded into a task
// and graded by the server's own worker.
import { buildLayout, type SectionSpec, type SheetLayout } from '../../server/grading';
import type { CorrectTaskDetail } from '../../src/dataProvider/correct';
import type { Page as ApiPage } from '../../src/domain/envelope';
import type { SessionHeaders } from './browser';

const BASE = '/api/wrongbook/v1.0/correct';
type Call = <T>(headers: SessionHeaders, path: string, init?: { method?: string; json?: unknown; form?: FormData }) => Promise<T>;
export type Student = { id: number; name: string; studentNo: string };

/** The class's roster sheet of `sections`: its id, its students and its layout. */
export async function rosterSheet(call: Call, headers: SessionHeaders, klass: { id: number; className: string }, title: string, sections: SectionSpec[]) {
  const roster = await call<ApiPage<Student>>(headers, `/api/vesta/student/page?classId=${klass.id}&status=0&size=100`);
  const sheet = await call<{ sheetId: string; copies: number }>(headers, `${BASE}/sheet/create`, { json: { title, paper: 'A4', identity: 'roster', classId: klass.id, sections } });
  const layout: SheetLayout = buildLayout({
    sheetId: sheet.sheetId,
    title,
    paper: 'A4',
    identity: { mode: 'roster', students: roster.records.map((s) => ({ id: `s${s.id}`, name: s.name, className: klass.className })) },
    sections,
  });
  return { sheetId: sheet.sheetId, copies: sheet.copies, students: roster.records, layout };
}

/** Uploads the scans into the task, submits it and waits until the server has graded it (已完成). */
export async function uploadAndGrade(call: Call, headers: SessionHeaders, taskId: number, scans: Buffer[]): Promise<CorrectTaskDetail> {
  for (const [i, scan] of scans.entries()) {
    const form = new FormData();
    form.append('taskId', String(taskId));
    form.append('file', new Blob([new Uint8Array(scan)], { type: 'image/jpeg' }), `扫描${i + 1}.jpg`);
    await call(headers, `${BASE}/task/upload`, { form });
  }
  await call(headers, `${BASE}/task/submit`, { json: { taskId } });
  for (let i = 0; ; i++) {
    const detail = await call<CorrectTaskDetail>(headers, `${BASE}/task/detail?taskId=${taskId}`);
    if (detail.task.status === 4 || i >= 600) return detail;
    await new Promise((r) => setTimeout(r, 500));
  }
}
