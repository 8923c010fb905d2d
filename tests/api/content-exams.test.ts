// Exams and the exam report: every figure checked against an independent computation from the
// answer records; a teacher reaches only exams of classes they teach; papers CRUD with refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';
import { query, rawRecords, type RawRecord } from '../support/content';

let t: TestApp;
let c: ReturnType<typeof client>;

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
});
afterAll(() => t.close());

interface ExamListItem {
  id: number;
  title: string;
  fullMarks: number;
  classes: { classId: number; className: string }[];
  participants: number;
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const variance = (xs: number[]) => mean(xs.map((x) => x * x)) - mean(xs) ** 2;

/** The report's figures computed here from raw records, the textbook way. */
function expected(records: RawRecord[], classIds: number[], items: { questionId: number; points: number }[], fullMarks: number) {
  const scoped = records.filter((r) => classIds.includes(r.classId));
  const totals = new Map<number, number>();
  for (const r of scoped) totals.set(r.studentId, (totals.get(r.studentId) ?? 0) + r.score);
  const scores = [...totals.values()];
  const sorted = [...totals.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const g = Math.max(1, Math.round(sorted.length * 0.27));
  const upper = new Set(sorted.slice(0, g).map(([id]) => id));
  const lower = new Set(sorted.slice(-g).map(([id]) => id));
  const perItem = items.map((item) => {
    const rs = scoped.filter((r) => r.questionId === item.questionId);
    const avg = mean(rs.map((r) => r.score));
    const groupAvg = (set: Set<number>) => mean(rs.filter((r) => set.has(r.studentId)).map((r) => r.score));
    return { avg, rate: avg / item.points, discrimination: (groupAvg(upper) - groupAvg(lower)) / item.points, variance: variance(rs.map((r) => r.score)), rs };
  });
  const k = items.length;
  const alpha = (k / (k - 1)) * (1 - perItem.reduce((s, i) => s + i.variance, 0) / variance(scores));
  const band = (lo: number, hi: number) => scores.filter((s) => s / fullMarks >= lo && s / fullMarks < hi).length;
  return {
    participants: scores.length,
    average: mean(scores),
    highest: Math.max(...scores),
    lowest: Math.min(...scores),
    stdDev: Math.sqrt(variance(scores)),
    bands: { excellent: band(0.9, 2), good: band(0.7, 0.9), pass: band(0.6, 0.7), fail: band(-1, 0.6) },
    perItem,
    alpha,
    top: sorted[0],
  };
}

describe('exam list', () => {
  it("lists the exams of a teacher's classes with only their classes", async () => {
    const page = await c.data('teacher', '/api/minerva/v1.0/exams?size=50');
    const titles = page.records.map((e: ExamListItem) => e.title).sort();
    expect(titles).toEqual(['七年级数学期中考试', '七年级数学第一次月考']);
    for (const exam of page.records as ExamListItem[]) {
      expect(exam.classes.map((x) => x.className)).toEqual(['七(1)班', '七(2)班']);
      expect(exam.participants).toBeGreaterThan(70);
      expect(exam.participants).toBeLessThanOrEqual(80);
    }
    const english = await c.data('classic', '/api/minerva/v1.0/exams');
    expect(english.records.map((e: ExamListItem) => [e.title, e.classes.map((x) => x.className)])).toEqual([['八年级英语期中考试', ['八(2)班', '八(3)班']]]);
    expect((await c.data('teacher2', '/api/minerva/v1.0/exams')).total).toBe(0);
    const foreign = await c.data('teacher3', '/api/minerva/v1.0/exams');
    expect(foreign.records.map((e: ExamListItem) => e.title)).toEqual(['七年级数学期中考试']);
  });

  it('is for teachers only', async () => {
    for (const user of ['schooladmin', 'parttime', 'partner1', 'admin']) {
      expect((await c.get(user, '/api/minerva/v1.0/exams')).statusCode, user).toBe(403);
    }
  });
});

describe('exam report', () => {
  const reportOf = async (user: string, examId: number, classId?: number) =>
    c.data(user, `/api/minerva/v1.0/exams/${examId}/report${classId ? `?classId=${classId}` : ''}`);

  for (const scope of ['class', 'grade'] as const) {
    it(`matches the answer records (${scope})`, async () => {
      const [exam] = (await c.data('teacher', '/api/minerva/v1.0/exams?size=50')).records.filter((e: ExamListItem) => e.title === '七年级数学期中考试');
      const myClass = exam.classes[0].classId;
      const report = await reportOf('teacher', exam.id, scope === 'class' ? myClass : undefined);
      const [row] = await query<{ items: { questionId: number; points: number }[]; fullMarks: number }>(t, sql`SELECT items, full_marks AS "fullMarks" FROM exams WHERE id = ${exam.id}`);
      const classIds = scope === 'class' ? [myClass] : (await query<{ id: number }>(t, sql`SELECT class_id AS id FROM exam_classes WHERE exam_id = ${exam.id}`)).map((r) => r.id);
      const want = expected(await rawRecords(t, 2, exam.id), classIds, row.items, row.fullMarks);

      expect(report.participants).toBe(want.participants);
      expect(report.average).toBeCloseTo(want.average, 2);
      expect(report.highest).toBe(want.highest);
      expect(report.lowest).toBe(want.lowest);
      expect(report.stdDev).toBeCloseTo(want.stdDev, 2);
      expect(Object.fromEntries(Object.entries(report.bands).map(([k, v]) => [k, (v as { count: number }).count]))).toEqual(want.bands);
      expect(report.distribution.reduce((s: number, b: { count: number }) => s + b.count, 0)).toBe(want.participants);
      expect(report.reliability).toBeCloseTo(want.alpha, 3);
      expect(report.ranking[0]).toMatchObject({ rank: 1, studentId: want.top[0], score: want.top[1] });
      expect(report.ranking).toHaveLength(want.participants);
      for (let k = 1; k < report.ranking.length; k++) {
        const [a, b] = [report.ranking[k - 1], report.ranking[k]];
        expect(b.score).toBeLessThanOrEqual(a.score);
        expect(b.rank).toBe(a.score === b.score ? a.rank : k + 1);
      }
      expect(report.questions).toHaveLength(row.items.length);
      report.questions.forEach((q: { scoreRate: number; difficulty: number; discrimination: number; optionRates: { key: string; count: number; correct: boolean }[] | null; answered: number }, k: number) => {
        const w = want.perItem[k];
        expect(q.scoreRate).toBeCloseTo(w.rate, 3);
        expect(q.difficulty).toBeCloseTo(w.rate, 3);
        expect(q.discrimination).toBeCloseTo(w.discrimination, 3);
        if (q.optionRates) {
          for (const o of q.optionRates) expect(o.count).toBe(w.rs.filter((r) => r.answer?.includes(o.key)).length);
          expect(q.optionRates.filter((o) => o.correct).reduce((s, o) => s + o.count, 0)).toBeGreaterThanOrEqual(w.rs.filter((r) => r.isCorrect).length);
        }
      });
      // Like a real school's: spread out, hard items separate strong from weak students.
      expect(want.stdDev).toBeGreaterThan(8);
      expect(want.alpha).toBeGreaterThan(0.6);
      expect(mean(want.perItem.map((i) => i.discrimination))).toBeGreaterThan(0.2);
      expect(report.classes.map((x: { className: string }) => x.className)).toEqual(['七(1)班', '七(2)班', '七(3)班', '七(4)班']);
    });
  }

  it("refuses classes and exams the teacher does not teach, and other tenants' exams", async () => {
    const [exam] = (await c.data('teacher', '/api/minerva/v1.0/exams')).records;
    const [other] = await query<{ id: number }>(t, sql`SELECT class_id AS id FROM exam_classes WHERE exam_id = ${exam.id} ORDER BY class_id DESC LIMIT 1`);
    expect((await c.get('teacher', `/api/minerva/v1.0/exams/${exam.id}/report?classId=${other.id}`)).statusCode).toBe(404);
    expect((await c.get('teacher2', `/api/minerva/v1.0/exams/${exam.id}/report`)).json()).toMatchObject({ code: 404, msg: '考试不存在', success: false });
    expect((await c.get('teacher3', `/api/minerva/v1.0/exams/${exam.id}/report`)).statusCode).toBe(404);
    expect((await c.get('schooladmin', `/api/minerva/v1.0/exams/${exam.id}/report`)).statusCode).toBe(403);
    expect((await c.get('teacher', '/api/minerva/v1.0/exams/abc/report')).statusCode).toBe(400);
  });
});

describe('papers', () => {
  const bankPage = async (user: string, query: string) => (await c.data(user, `/api/minerva/v1.0/questions?${query}`)).records as { id: number; type: number; subjectId: number }[];

  it('a teacher builds, reads, revises and deletes a paper of a subject they teach', async () => {
    const info = await c.data('teacher', '/api/juno/personal/info');
    const maths = (await c.data('teacher', '/api/vesta/teaching/getTeacherCourse')).find((x: { courseName: string }) => x.courseName === '数学');
    const singles = await bankPage('teacher', `subjectId=${maths.subjectId}&gradeLevel=7&type=1&size=5`);
    const answers = await bankPage('teacher', `subjectId=${maths.subjectId}&gradeLevel=7&type=5&size=2`);
    const body = {
      title: '七年级数学周测',
      subjectId: maths.subjectId,
      gradeLevel: 7,
      durationMinutes: 45,
      sections: [
        { title: '一、选择题', questions: singles.map((q) => ({ questionId: q.id, points: 4 })) },
        { title: '二、解答题', questions: answers.map((q) => ({ questionId: q.id, points: 10 })) },
      ],
    };
    const paper = await c.done('teacher', '/api/minerva/v1.0/papers', body);
    expect(paper).toMatchObject({ title: '七年级数学周测', totalPoints: 40, durationMinutes: 45 });
    expect(paper.sections.map((s: { questions: unknown[] }) => s.questions.length)).toEqual([5, 2]);
    expect(paper.sections[1].questions[0]).toMatchObject({ no: 6, points: 10 });
    expect((await c.data('teacher', `/api/minerva/v1.0/papers/${paper.id}`)).totalPoints).toBe(40);
    const list = await c.data('teacher', '/api/minerva/v1.0/papers');
    expect(list.records.map((p: { id: number }) => p.id)).toContain(paper.id);

    const revised = await t.call(await c.token('teacher'), { method: 'PUT', url: `/api/minerva/v1.0/papers/${paper.id}`, payload: { ...body, sections: [body.sections[1]] } });
    expect(revised.json().data).toMatchObject({ totalPoints: 20 });
    // Another teacher, another tenant: not found.
    expect((await c.get('teacher2', `/api/minerva/v1.0/papers/${paper.id}`)).statusCode).toBe(404);
    expect((await c.get('teacher3', `/api/minerva/v1.0/papers/${paper.id}`)).statusCode).toBe(404);
    expect((await t.call(await c.token('teacher3'), { method: 'DELETE', url: `/api/minerva/v1.0/papers/${paper.id}` })).statusCode).toBe(404);
    const removed = await t.call(await c.token('teacher'), { method: 'DELETE', url: `/api/minerva/v1.0/papers/${paper.id}` });
    expect(removed.statusCode).toBe(200);
    expect((await c.get('teacher', `/api/minerva/v1.0/papers/${paper.id}`)).statusCode).toBe(404);
    expect(info.userId ?? info.id).toBeTruthy();
  });

  it('refuses other subjects, foreign questions, duplicates, bad input and other roles', async () => {
    const courses = await c.data('teacher', '/api/vesta/teaching/getTeacherCourse');
    const maths = courses.find((x: { courseName: string }) => x.courseName === '数学');
    const [q] = await bankPage('teacher', `subjectId=${maths.subjectId}&size=1`);
    const base = { title: '测验', subjectId: maths.subjectId, gradeLevel: 7, durationMinutes: 40, sections: [{ title: '一', questions: [{ questionId: q.id, points: 5 }] }] };
    const chinese = (await c.data('teacher2', '/api/vesta/teaching/getTeacherCourse'))[0];
    const [chineseQuestion] = await bankPage('teacher2', `subjectId=${chinese.subjectId}&size=1`);
    const cases: [object, number, string][] = [
      [{ ...base, subjectId: chinese.subjectId }, 403, '只能为任教学科组卷'],
      [{ ...base, sections: [{ title: '一', questions: [{ questionId: chineseQuestion.id, points: 5 }] }] }, 404, '题目不存在'],
      [{ ...base, sections: [{ title: '一', questions: [{ questionId: q.id, points: 5 }, { questionId: q.id, points: 5 }] }] }, 400, '同一道题不能在试卷中出现两次'],
      [{ ...base, sections: [] }, 400, ''],
      [{ ...base, durationMinutes: 5 }, 400, ''],
      [{ ...base, title: '   ' }, 400, '试卷标题不能为空'],
    ];
    for (const [body, status, msg] of cases) {
      const res = await c.post('teacher', '/api/minerva/v1.0/papers', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      if (msg) expect(res.json().msg).toBe(msg);
    }
    expect((await c.post('schooladmin', '/api/minerva/v1.0/papers', base)).statusCode).toBe(403);
    expect((await c.post('parttime', '/api/minerva/v1.0/papers', base)).statusCode).toBe(403);
  });

  it('keeps a paper that an exam used', async () => {
    const [exam] = (await c.data('teacher', '/api/minerva/v1.0/exams')).records;
    const res = await t.call(await c.token('teacher'), { method: 'DELETE', url: `/api/minerva/v1.0/papers/${exam.paperId}` });
    expect([res.statusCode, res.json().msg]).toEqual([409, '该试卷已用于考试，不能删除']);
  });
});
