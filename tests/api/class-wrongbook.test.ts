// 班级错题本: error rates from the rollup equal a recount of the class's answer records, the bands
// split the list without overlap, the detail lists exactly the wrong answers, and other classes,
// schools, roles and hostile input get a Chinese refusal.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../server/db/query';
import { currentSemester } from '../../src/domain/semester';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';

let t: TestApp;
let c: ReturnType<typeof client>;
let classId: number;
let courseId: number;
let tenantId: number;
const BASE = '/api/wrongbook/v1.0/web/class/mistakes';

interface Mistake {
  question: { id: number; type: number; stem: string; knowledgePoints: { id: number; name: string }[] };
  sources: number[];
  answered: number;
  correct: number;
  wrong: number;
  errorRate: number;
}

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
  const classes = await c.data('teacher', '/api/vesta/teaching/getTeachClass');
  const list = Array.isArray(classes) ? classes : classes.records;
  classId = list[0].id;
  const courses = await c.data('teacher', `/api/vesta/teaching/getCourseList?classId=${classId}`);
  courseId = (Array.isArray(courses) ? courses : courses.records).find((x: { courseName: string }) => x.courseName === '数学').courseId;
  [{ tenantId }] = await rows<{ tenantId: number }>(t.database.db, sql`SELECT tenant_id AS "tenantId" FROM classes WHERE id = ${classId}`);
});
afterAll(() => t.close());

const scope = () => `classId=${classId}&courseId=${courseId}&term=${currentSemester()}`;

/** The class's answers on this course and term, counted from answer_records directly. */
async function recount() {
  const term = currentSemester();
  return rows<{ questionId: number; answered: number; wrong: number }>(t.database.db, sql`
    SELECT r.question_id AS "questionId", count(*)::int AS answered, count(*) FILTER (WHERE NOT r.is_correct)::int AS wrong
      FROM answer_records r
      LEFT JOIN homeworks h ON r.source_type <> 2 AND h.id = r.source_id
      LEFT JOIN exams e ON r.source_type = 2 AND e.id = r.source_id
     WHERE r.tenant_id = ${tenantId} AND r.class_id = ${classId} AND coalesce(h.course_id, e.course_id) = ${courseId} AND coalesce(h.term, e.term) = ${term}
     GROUP BY r.question_id HAVING count(*) FILTER (WHERE NOT r.is_correct) > 0`);
}

describe('class wrong-answer book', () => {
  it('gives every wrongly answered question with the error rate of a recount from answer records', async () => {
    const page = await c.data('teacher', `${BASE}?${scope()}&size=500`);
    const expected = await recount();
    expect(expected.length).toBeGreaterThan(10);
    expect(page.total).toBe(expected.length);
    expect(page.bands.all).toBe(expected.length);
    const byId = new Map(expected.map((e) => [e.questionId, e]));
    for (const m of page.records as Mistake[]) {
      const e = byId.get(m.question.id)!;
      expect(e, String(m.question.id)).toBeDefined();
      expect([m.answered, m.wrong], String(m.question.id)).toEqual([e.answered, e.wrong]);
      expect(m.errorRate).toBeCloseTo(e.wrong / e.answered, 4);
      expect(m.question.stem.length).toBeGreaterThan(0);
    }
    // Most-missed first.
    const rates = (page.records as Mistake[]).map((m) => m.errorRate);
    expect([...rates].sort((a, b) => b - a)).toEqual(rates);
  });

  it('splits the list by error-rate band without overlap, and by source and knowledge point', async () => {
    const all: Mistake[] = (await c.data('teacher', `${BASE}?${scope()}&size=500`)).records;
    const bands = {
      gt40: (r: number) => r > 0.4,
      '30to40': (r: number) => r >= 0.3 && r <= 0.4,
      '10to30': (r: number) => r >= 0.1 && r < 0.3,
      lt10: (r: number) => r < 0.1,
    };
    let sum = 0;
    for (const [band, inBand] of Object.entries(bands)) {
      const page = await c.data('teacher', `${BASE}?${scope()}&band=${band}&size=500`);
      const ids = (page.records as Mistake[]).map((m) => m.question.id).sort();
      expect(ids, band).toEqual(all.filter((m) => inBand(m.wrong / m.answered)).map((m) => m.question.id).sort());
      expect(page.bands[band]).toBe(ids.length);
      sum += ids.length;
    }
    expect(sum).toBe(all.length);
    expect(all.some((m) => m.errorRate > 0.4)).toBe(true);

    const exams: Mistake[] = (await c.data('teacher', `${BASE}?${scope()}&sourceType=2&size=500`)).records;
    expect(exams.length).toBeGreaterThan(0);
    expect(exams.every((m) => m.sources.includes(2))).toBe(true);
    const homework: Mistake[] = (await c.data('teacher', `${BASE}?${scope()}&mistakeType=1&size=500`)).records;
    expect(homework.every((m) => m.sources.some((s) => s === 0 || s === 1))).toBe(true);
    // Exams asked for with homework only: nothing, not the exams.
    expect((await c.data('teacher', `${BASE}?${scope()}&sourceType=2&mistakeType=1&size=500`)).records).toEqual([]);

    const kp = all[0].question.knowledgePoints[0];
    const withKp: Mistake[] = (await c.data('teacher', `${BASE}?${scope()}&knowledgePointId=${kp.id}&size=500`)).records;
    expect(withKp.length).toBeGreaterThan(0);
    expect(withKp.every((m) => m.question.knowledgePoints.some((k) => k.id === kp.id))).toBe(true);

    const second = await c.data('teacher', `${BASE}?${scope()}&size=5&current=2`);
    expect(second.records.map((m: Mistake) => m.question.id)).toEqual(all.slice(5, 10).map((m) => m.question.id));
    const past = await c.data('teacher', `${BASE}?${scope()}&size=500&current=99`);
    expect([past.records.length, past.total]).toEqual([0, all.length]);
  });

  it("lists exactly the class's wrong answers of a question, with the option spread", async () => {
    const [top]: Mistake[] = (await c.data('teacher', `${BASE}?${scope()}&band=gt40&size=50`)).records;
    const detail = await c.data('teacher', `${BASE}/${top.question.id}?${scope()}`);
    expect([detail.answered, detail.wrong]).toEqual([top.answered, top.wrong]);
    const wrongRows = await rows<{ studentId: number; answer: string | null }>(t.database.db, sql`
      SELECT r.student_id AS "studentId", r.answer FROM answer_records r
        LEFT JOIN homeworks h ON r.source_type <> 2 AND h.id = r.source_id
        LEFT JOIN exams e ON r.source_type = 2 AND e.id = r.source_id
       WHERE r.tenant_id = ${tenantId} AND r.class_id = ${classId} AND r.question_id = ${top.question.id} AND NOT r.is_correct
         AND coalesce(h.course_id, e.course_id) = ${courseId} AND coalesce(h.term, e.term) = ${currentSemester()}`);
    expect(detail.students.length).toBe(wrongRows.length);
    expect(detail.students.map((s: { studentId: number; answer: string | null }) => `${s.studentId}:${s.answer}`).sort()).toEqual(
      wrongRows.map((r) => `${r.studentId}:${r.answer}`).sort(),
    );
    expect(detail.students[0].name).toMatch(/\S/);
    if (detail.options) {
      const right = detail.options.filter((o: { correct: boolean }) => o.correct);
      expect(right.length).toBeGreaterThan(0);
    }
  });

  it('refuses other classes, schools, roles and hostile input in Chinese', async () => {
    // teacher2 teaches 语文 in this class, not 数学; teacher3 and schooladmin2 are of another school.
    for (const user of ['teacher2', 'teacher3', 'classic', 'schooladmin2']) {
      const res = await c.get(user, `${BASE}?${scope()}`);
      expect(res.statusCode, user).toBe(404);
      expect(res.json().msg, user).toMatch(/^(班级|课程)不存在$/);
    }
    // The platform admin reads any class (tests/api/platform-wrongbook.test.ts).
    for (const user of ['partner1', 'principal']) {
      const res = await c.get(user, `${BASE}?${scope()}`);
      expect([res.statusCode, res.json().msg], user).toEqual([403, '无权访问']);
    }
    // A school admin reads any class of the school.
    expect((await c.get('schooladmin', `${BASE}?${scope()}`)).statusCode).toBe(200);
    const bad = [
      `classId=abc&courseId=${courseId}`,
      `classId=${classId}`,
      `classId=${classId}&courseId=${courseId}&band=50`,
      `classId=${classId}&courseId=${courseId}&term=2026;DROP`,
      `classId=${classId}&courseId=${courseId}&sourceType=9`,
      `classId=${classId}&courseId=${courseId}&size=100000`,
      `classId=2147483648&courseId=${courseId}`,
    ];
    for (const q of bad) {
      const res = await c.get('teacher', `${BASE}?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().msg, q).toMatch(/[\u4e00-\u9fa5]/);
      expect(res.json().msg, q).not.toMatch(/[A-Za-z]{3,}/);
    }
    expect((await c.get('teacher', `${BASE}/0?${scope()}`)).statusCode).toBe(400);
    const none = await c.get('teacher', `${BASE}/2147483647?${scope()}`);
    expect([none.statusCode, none.json().msg]).toEqual([404, '该班级没有做错这道题']);
  });
});
