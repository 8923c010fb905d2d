// 作业详情 export: the homework's own teacher gets a workbook whose rows are the detail call's
// figures; other roles, other teachers, other tenants and hostile ids get a Chinese refusal.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';

let t: TestApp;
let c: ReturnType<typeof client>;

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
});
afterAll(() => t.close());

interface Detail {
  id: number;
  title: string;
  className: string;
  studentCount: number;
  submittedCount: number;
  gradedCount: number;
  accuracy: number | null;
  students: { studentNo: string; name: string; submitted: boolean; score: number | null; maxScore: number | null; answered: number | null; correct: number | null; accuracy: number | null }[];
  questions: { no: string; points: number; answered: number; correct: number; accuracy: number | null; scoreRate: number | null; question: { stem: string } }[];
}

async function readSheets(body: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const values = (name: string) => {
    const sheet = workbook.getWorksheet(name)!;
    const out: unknown[][] = [];
    sheet.eachRow((row) => out.push((row.values as unknown[]).slice(1)));
    return out;
  };
  return { names: workbook.worksheets.map((w) => w.name), values };
}

const blankAsNull = (v: unknown) => (v === undefined ? null : v);

describe('homework export', () => {
  it("writes the detail's students and questions for the homework's teacher", async () => {
    const list = await c.data('teacher', '/api/minerva/v1.0/homeworks?size=50');
    const withGaps = (list.records as Detail[]).find((h) => h.submittedCount > 0 && h.submittedCount < h.studentCount) ?? list.records[0];
    const detail: Detail = await c.data('teacher', `/api/minerva/v1.0/homeworks/${withGaps.id}`);
    const res = await c.get('teacher', `/api/minerva/v1.0/homeworks/${detail.id}/export`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const fileName = decodeURIComponent(String(res.headers['content-disposition']).split("UTF-8''")[1]);
    expect(fileName).toMatch(new RegExp(`^作业详情_${detail.className.replace(/[()]/g, '\\$&')}_\\d{14}\\.xlsx$`));
    const book = await readSheets(res.rawPayload);
    expect(book.names).toEqual(['概况', '学生', '题目']);

    const summary = Object.fromEntries(book.values('概况').slice(1).map(([k, v]) => [k, v]));
    expect(summary).toMatchObject({ 作业: detail.title, 学生数: detail.studentCount, 已提交: detail.submittedCount, 已批改: detail.gradedCount, 正确率: detail.accuracy });

    const students = book.values('学生');
    expect(students[0]).toEqual(['学号', '姓名', '状态', '得分', '满分', '答题数', '答对数', '正确率']);
    expect(students.slice(1).map((r) => [...r, ...Array(8 - r.length).fill(undefined)].map(blankAsNull))).toEqual(
      detail.students.map((s) => [s.studentNo, s.name, s.submitted ? '已提交' : '未提交', s.score, s.maxScore, s.answered, s.correct, s.accuracy]),
    );
    expect(students.slice(1).filter((r) => r[2] === '未提交').length).toBe(detail.studentCount - detail.submittedCount);

    const questions = book.values('题目');
    expect(questions[0]).toEqual(['题号', '题型', '题干', '分值', '作答人数', '答对人数', '正确率', '得分率', '知识点']);
    expect(questions.slice(1).map((r) => [r[0], r[2], r[3], r[4], r[5], blankAsNull(r[6]), blankAsNull(r[7])])).toEqual(
      detail.questions.map((q) => [q.no, q.question.stem, q.points, q.answered, q.correct, q.accuracy, q.scoreRate]),
    );
  });

  it("shows China times in the sheet and the file name, whatever the server's zone", async () => {
    const zone = process.env.TZ;
    process.env.TZ = 'UTC';
    try {
      const [own] = (await c.data('teacher', '/api/minerva/v1.0/homeworks?size=1')).records;
      const detail: Detail & { assignedAt: string; dueAt: string } = await c.data('teacher', `/api/minerva/v1.0/homeworks/${own.id}`);
      const before = Date.now();
      const res = await c.get('teacher', `/api/minerva/v1.0/homeworks/${own.id}/export`);
      // Written here with another formatter than the product's: Sweden's locale reads 2026-11-22 08:00.
      const china = (at: string | number) => new Date(at).toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' });
      const summary = Object.fromEntries((await readSheets(res.rawPayload)).values('概况').slice(1).map(([k, v]) => [k, v]));
      expect(summary['布置时间']).toBe(china(detail.assignedAt).slice(0, 16));
      expect(summary['截止时间']).toBe(china(detail.dueAt).slice(0, 16));
      const fileStampOf = String(res.headers['content-disposition']).match(/_(\d{14})\.xlsx/)![1];
      const minutes = [china(before), china(Date.now())].map((t) => t.replace(/\D/g, '').slice(0, 12));
      expect(minutes).toContain(fileStampOf.slice(0, 12));
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it("refuses other roles, another teacher's and another tenant's homework, and hostile ids, in Chinese", async () => {
    const [own] = (await c.data('teacher', '/api/minerva/v1.0/homeworks?size=1')).records;
    const url = `/api/minerva/v1.0/homeworks/${own.id}/export`;
    for (const user of ['schooladmin', 'parttime', 'admin', 'partner1']) {
      const res = await c.get(user, url);
      expect([res.statusCode, res.json().msg], user).toEqual([403, '无权访问']);
    }
    for (const user of ['teacher2', 'teacher3']) {
      const res = await c.get(user, url);
      expect([res.statusCode, res.json().msg], user).toEqual([404, '作业不存在']);
      expect(res.headers['content-type']).toContain('application/json');
    }
    expect((await c.get('teacher', '/api/minerva/v1.0/homeworks/2147483647/export')).json()).toMatchObject({ code: 404, msg: '作业不存在' });
    for (const bad of ['0', '-1', 'abc', '2147483648', '1.5']) {
      const res = await c.get('teacher', `/api/minerva/v1.0/homeworks/${bad}/export`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().msg, bad).toMatch(/^[^A-Za-z]*作业[^A-Za-z]*$/);
    }
  });
});
