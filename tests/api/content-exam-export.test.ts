// The exam report's xlsx export: the same access as the report (other roles, another teacher's or
// tenant's exam, a class not taught → Chinese 4xx), and a workbook whose every figure is the
// report's, with each question's knowledge points and the exercise-book page it is printed on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';
import { query } from '../support/content';

let t: TestApp;
let c: ReturnType<typeof client>;

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
});
afterAll(() => t.close());

interface Report {
  exam: { id: number; title: string; fullMarks: number };
  scope: { classNames: string[] };
  participants: number;
  absent: number;
  average: number;
  highest: number;
  lowest: number;
  stdDev: number;
  reliability: number | null;
  bands: Record<'excellent' | 'good' | 'pass' | 'fail', { count: number; rate: number }>;
  ranking: { rank: number; name: string; studentNo: string; className: string; score: number }[];
  questions: {
    no: string;
    questionId: number;
    points: number;
    answered: number;
    average: number | null;
    scoreRate: number | null;
    difficulty: number | null;
    discrimination: number | null;
    knowledgePoints: { name: string }[];
    optionRates: { key: string; rate: number; correct: boolean }[] | null;
  }[];
  classes: { className: string; participants: number; average: number; highest: number; lowest: number; stdDev: number; excellentRate: number; passRate: number }[];
}

const exportUrl = (examId: number, classId?: number) => `/api/minerva/v1.0/exams/${examId}/report/export${classId ? `?classId=${classId}` : ''}`;

async function workbookOf(user: string, url: string) {
  const res = await c.get(user, url);
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  expect(res.headers['content-type']).toContain('spreadsheetml');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  return { wb, disposition: String(res.headers['content-disposition']) };
}

/** A sheet's rows below its header, as plain values. */
function body(wb: ExcelJS.Workbook, name: string): unknown[][] {
  const sheet = wb.getWorksheet(name);
  expect(sheet, name).toBeDefined();
  const out: unknown[][] = [];
  sheet!.eachRow((row, n) => n > 1 && out.push((row.values as unknown[]).slice(1)));
  return out;
}

async function classicExam() {
  const [exam] = (await c.data('classic', '/api/minerva/v1.0/exams')).records as { id: number; title: string; classes: { classId: number; className: string }[] }[];
  return exam;
}

describe('exam report export', () => {
  it('writes the report of one class: summary, ranking, questions and class comparison', async () => {
    const exam = await classicExam();
    const classId = exam.classes[0].classId;
    // One of the exam's questions printed in a book too: its page goes with its knowledge points.
    const report0 = (await c.data('classic', `/api/minerva/v1.0/exams/${exam.id}/report?classId=${classId}`)) as Report;
    const printed = report0.questions[2];
    const [page] = await query<{ id: number; pageNo: number; title: string }>(t, sql`
      SELECT bp.id, bp.page_no AS "pageNo", b.title FROM book_pages bp JOIN exercise_books b ON b.id = bp.book_id
       WHERE b.tenant_id IS NULL ORDER BY bp.id LIMIT 1`);
    await query(t, sql`INSERT INTO book_page_questions (page_id, question_id, sort_order, answer_area) VALUES (${page.id}, ${printed.questionId}, 99, '{"x":0,"y":0,"width":10,"height":10}'::jsonb)`);

    const report = (await c.data('classic', `/api/minerva/v1.0/exams/${exam.id}/report?classId=${classId}`)) as Report;
    const { wb, disposition } = await workbookOf('classic', exportUrl(exam.id, classId));
    expect(decodeURIComponent(disposition)).toContain(`${exam.title}_${exam.classes[0].className}_成绩分析.xlsx`);
    expect(wb.worksheets.map((s) => s.name)).toEqual(['成绩概况', '成绩排名', '小题分析', '班级对比', '指标说明']);

    const summary = new Map(body(wb, '成绩概况').map(([k, v]) => [k, v]));
    expect(summary.get('考试')).toBe(exam.title);
    expect(summary.get('统计范围')).toBe(exam.classes[0].className);
    expect(summary.get('满分')).toBe(report.exam.fullMarks);
    expect(summary.get('参考人数')).toBe(report.participants);
    expect(summary.get('缺考人数')).toBe(report.absent);
    expect(summary.get('平均分')).toBe(report.average);
    expect(summary.get('最高分')).toBe(report.highest);
    expect(summary.get('最低分')).toBe(report.lowest);
    expect(summary.get('标准差')).toBe(report.stdDev);
    expect(summary.get('信度（克隆巴赫 α）')).toBe(report.reliability);
    expect(summary.get('优秀（≥90%）人数')).toBe(report.bands.excellent.count);
    expect(summary.get('良好（70%–90%）人数')).toBe(report.bands.good.count);
    expect(summary.get('及格（60%–70%）人数')).toBe(report.bands.pass.count);
    expect(summary.get('不及格（<60%）人数')).toBe(report.bands.fail.count);
    expect(summary.get('不及格（<60%）占比')).toBe(report.bands.fail.rate);
    expect(report.participants).toBeGreaterThan(20);

    expect(body(wb, '成绩排名')).toEqual(report.ranking.map((r) => [r.rank, r.name, r.studentNo, r.className, r.score]));

    const questions = body(wb, '小题分析');
    expect(questions).toHaveLength(report.questions.length);
    // Where each question is printed, as the database has it (the demo paper reuses book questions too).
    const placements = await query<{ questionId: number; place: string }>(t, sql`
      SELECT bpq.question_id AS "questionId", '《' || b.title || '》第 ' || bp.page_no || ' 页' AS place
        FROM book_page_questions bpq JOIN book_pages bp ON bp.id = bpq.page_id JOIN exercise_books b ON b.id = bp.book_id
       WHERE bpq.question_id = ANY(${`{${report.questions.map((q) => q.questionId).join(',')}}`}::int[])`);
    const placesOf = (questionId: number) => placements.filter((p) => p.questionId === questionId).map((p) => p.place);
    expect(placesOf(printed.questionId)).toContain(`《${page.title}》第 ${page.pageNo} 页`);
    expect(report.questions.filter((q) => placesOf(q.questionId).length === 0).length).toBeGreaterThan(0);
    report.questions.forEach((q, k) => {
      const row = questions[k];
      expect(row[0]).toBe(Number(q.no));
      expect(typeof row[2]).toBe('string');
      expect(row.slice(3, 9)).toEqual([q.points, q.answered, q.average, q.scoreRate, q.difficulty, q.discrimination]);
      if (q.optionRates) {
        for (const o of q.optionRates) expect(row[9]).toContain(`${o.key}${o.correct ? '（正确）' : ''} ${(o.rate * 100).toFixed(1)}%`);
      } else expect(row[9] ?? '').toBe('');
      expect(row[10]).toBe(q.knowledgePoints.map((p) => p.name).join('、'));
      expect(q.knowledgePoints.length).toBeGreaterThan(0);
      const places = placesOf(q.questionId);
      if (places.length) expect(String(row[11]).split('；').sort()).toEqual(places.sort());
      else expect(row[11]).toBe('未收录于练习册');
    });
    expect(body(wb, '班级对比')).toEqual(report.classes.map((x) => [x.className, x.participants, x.average, x.highest, x.lowest, x.stdDev, x.excellentRate, x.passRate]));
  });

  it('writes the whole grade when no class is given', async () => {
    const exam = await classicExam();
    const report = (await c.data('classic', `/api/minerva/v1.0/exams/${exam.id}/report`)) as Report;
    const { wb, disposition } = await workbookOf('classic', exportUrl(exam.id));
    expect(decodeURIComponent(disposition)).toContain('全年级');
    const summary = new Map(body(wb, '成绩概况').map(([k, v]) => [k, v]));
    expect([summary.get('参考人数'), summary.get('平均分'), summary.get('标准差')]).toEqual([report.participants, report.average, report.stdDev]);
    expect(summary.get('统计范围')).toBe(report.scope.classNames.join('、'));
    expect(body(wb, '成绩排名')).toHaveLength(report.participants);
  });

  it('refuses other roles, other teachers, other tenants, classes not taught and bad ids, in Chinese', async () => {
    const exam = await classicExam();
    const [notMine] = await query<{ id: number }>(t, sql`
      SELECT ec.class_id AS id FROM exam_classes ec WHERE ec.exam_id = ${exam.id} AND ec.class_id <> ALL(${`{${exam.classes.map((x) => x.classId).join(',')}}`}::int[]) LIMIT 1`);
    const cases: [string, string, number, string | RegExp][] = [
      ['schooladmin', exportUrl(exam.id), 403, /[\u4e00-\u9fa5]/],
      ['parttime', exportUrl(exam.id), 403, /[\u4e00-\u9fa5]/],
      ['admin', exportUrl(exam.id), 403, /[\u4e00-\u9fa5]/],
      ['teacher', exportUrl(exam.id), 404, '考试不存在'],
      ['teacher3', exportUrl(exam.id), 404, '考试不存在'],
      ['classic', exportUrl(exam.id, notMine.id), 404, '班级不存在'],
      ['classic', exportUrl(999999), 404, '考试不存在'],
      ['classic', '/api/minerva/v1.0/exams/abc/report/export', 400, /[\u4e00-\u9fa5]/],
      ['classic', `/api/minerva/v1.0/exams/${exam.id}/report/export?classId=-1`, 400, /班级/],
    ];
    for (const [user, url, status, msg] of cases) {
      const res = await c.get(user, url);
      expect(res.statusCode, `${user} ${url}`).toBe(status);
      expect(res.headers['content-type']).toContain('json');
      const text = res.json().msg as string;
      if (typeof msg === 'string') expect(text).toBe(msg);
      else expect(text).toMatch(msg);
    }
    // Another tenant's teacher cannot reach it even with a class id of the exam.
    expect((await c.get('teacher3', exportUrl(exam.id, exam.classes[0].classId))).statusCode).toBe(404);
  });
});
