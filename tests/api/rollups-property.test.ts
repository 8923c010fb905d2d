// The reports read rollups, never the records: after any sequence of grading writes and teacher
// reviews (random, by fast-check), each rollup row equals a recount from the answer records (the
// class and school rollups, from the student and class rows that are recounted first).
import { afterAll, beforeAll, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';
import { query } from '../support/content';
import { recordAnswers } from '../../server/modules/minerva/answers';

let t: TestApp;
let c: ReturnType<typeof client>;

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
});
afterAll(() => t.close());

type Row = Record<string, unknown>;
/** What a rollup row is keyed by: its ids, term and day. */
const keyOf = (r: Row) => JSON.stringify(Object.entries(r).filter(([k]) => k.endsWith('_id') || k === 'term' || k === 'day').sort());

/**
 * The same rows on both sides, keys exact, counts exact, sums within float rounding (the rollups
 * keep `real`, which holds about seven digits).
 */
async function expectSameRows(rollup: ReturnType<typeof sql>, recount: ReturnType<typeof sql>) {
  const [a, b] = [await query<Row>(t, rollup), await query<Row>(t, recount)];
  const byKey = new Map(b.map((r) => [keyOf(r), r]));
  expect(a.map(keyOf).sort()).toEqual([...byKey.keys()].sort());
  for (const row of a) {
    const other = byKey.get(keyOf(row))!;
    for (const [k, v] of Object.entries(row)) {
      if (typeof v === 'number') expect(Math.abs(v - (other[k] as number)), `${k} of ${keyOf(row)}`).toBeLessThanOrEqual(1e-4 * Math.max(1, Math.abs(v)));
      else expect(v).toEqual(other[k]);
    }
  }
}

it('after random grading and reviews, every rollup equals a recount from the records', async () => {
  const { tenantId } = await c.data('teacher', '/api/juno/personal/info');
  const [cls] = (await c.data('teacher', '/api/vesta/teaching/getTeachClass?leaderType=1')) as { id: number }[];
  const maths = ((await c.data('teacher', '/api/vesta/teaching/getTeacherCourse')) as { courseId: number; courseName: string }[]).find((x) => x.courseName === '数学')!;
  const bank = (await c.data('teacher', '/api/minerva/v1.0/questions?gradeLevel=7&type=1&size=4&subjectId=2')).records as { id: number; points: number; answer: string }[];
  const dueAt = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();
  const created = await c.done('teacher', '/api/minerva/v1.0/homeworks', { courseId: maths.courseId, classIds: [cls.id], dueAt, questionIds: bank.map((q) => q.id) });
  const students = ((await c.data('teacher', `/api/minerva/v1.0/homeworks/${created.batchId}`)).students as { studentId: number }[]).slice(0, 6).map((s) => s.studentId);
  const source = sql`tenant_id = ${tenantId} AND source_type = 0 AND source_id = ${created.batchId}`;
  const studentList = sql.join(students.map((id) => sql`${id}`), sql`, `);

  const write = fc.record({
    student: fc.nat({ max: students.length - 1 }),
    question: fc.nat({ max: bank.length - 1 }),
    // A score in hundredths of the question's points, full marks often.
    share: fc.oneof(fc.constant(1), fc.constant(0), fc.integer({ min: 0, max: 100 }).map((n) => n / 100)),
    review: fc.boolean(),
    // Some answers on an earlier day, so day rollups of several days move.
    daysAgo: fc.constantFrom(0, 0, 1, 3),
  });

  await fc.assert(
    fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 20 }), async (writes) => {
      for (const w of writes) {
        const q = bank[w.question];
        const score = Math.round(q.points * w.share * 100) / 100;
        await recordAnswers(
          t.database.db,
          tenantId,
          [{ sourceType: 0, sourceId: created.batchId, studentId: students[w.student], questionId: q.id, score, answer: score === q.points ? q.answer : 'Z', answeredAt: new Date(Date.now() - w.daysAgo * 24 * 3600 * 1000) }],
          { by: w.review ? 'review' : 'machine' },
        );
      }
      const tally = sql`count(*)::int AS answered, (count(*) FILTER (WHERE is_correct))::int AS correct, sum(score)::float8 AS score, sum(max_score)::float8 AS max_score`;
      await expectSameRows(sql`SELECT class_id, question_id, answered, correct, score::float8, max_score::float8, score_squares::float8 FROM work_question_stats WHERE ${source}`, sql`SELECT class_id, question_id, ${tally}, sum(score * score)::float8 AS score_squares FROM answer_records WHERE ${source} GROUP BY class_id, question_id`);
      await expectSameRows(sql`SELECT student_id, class_id, answered, correct, score::float8, max_score::float8 FROM work_student_stats WHERE ${source}`, sql`SELECT student_id, min(class_id) AS class_id, ${tally} FROM answer_records WHERE ${source} GROUP BY student_id`);
      // The students' knowledge rollups cover all their work, the demo term's included.
      await expectSameRows(sql`SELECT student_id, knowledge_point_id, term, answered, correct, score::float8, max_score::float8 FROM student_knowledge_stats
                         WHERE tenant_id = ${tenantId} AND student_id IN (${studentList})`, sql`SELECT student_id, kp AS knowledge_point_id, term, ${tally} FROM answer_records, unnest(knowledge_point_ids) kp
                         WHERE tenant_id = ${tenantId} AND student_id IN (${studentList}) GROUP BY student_id, kp, term`);
      // The class sums of the work, against the students' rows (themselves checked above): the
      // hand-ins, totals and bands, whichever band a re-grade moved a student into.
      const band = (low: string, high: string) => sql.raw(`max_score > 0 AND score >= ${low} * max_score AND score < ${high} * max_score`);
      await expectSameRows(sql`SELECT class_id, submitted, score, max_score, excellent, good, pass, fail FROM work_class_stats WHERE ${source}`,
        sql`SELECT class_id, count(*)::int AS submitted, sum(score::float8) AS score, sum(max_score::float8) AS max_score,
                   count(*) FILTER (WHERE ${band('0.9', '2')})::int AS excellent, count(*) FILTER (WHERE ${band('0.7', '0.9')})::int AS good,
                   count(*) FILTER (WHERE ${band('0.6', '0.7')})::int AS pass, count(*) FILTER (WHERE ${band('-1', '0.6')})::int AS fail
              FROM work_student_stats WHERE ${source} GROUP BY class_id`);
      // Who handed in the class's work of the term, per course and of any course (course 0).
      const work = sql`(SELECT source_type, id, term, course_id FROM homeworks WHERE tenant_id = ${tenantId}
                        UNION ALL SELECT 2::smallint, id, term, course_id FROM exams WHERE tenant_id = ${tenantId})`;
      await expectSameRows(sql`SELECT term, class_id, course_id, student_id FROM class_participants WHERE tenant_id = ${tenantId} AND class_id = ${cls.id}`,
        sql`SELECT DISTINCT w.term, s.class_id, x.course_id, s.student_id FROM work_student_stats s JOIN ${work} w ON w.source_type = s.source_type AND w.id = s.source_id,
                   LATERAL (VALUES (w.course_id), (0)) x(course_id) WHERE s.tenant_id = ${tenantId} AND s.class_id = ${cls.id}`);
      // The school's answers to the homework's questions, against the classes' rows.
      const questions = sql.join(bank.map((q) => sql`${q.id}`), sql`, `);
      await expectSameRows(sql`SELECT term, school_id, course_id, question_id, answered, correct FROM school_question_stats WHERE tenant_id = ${tenantId} AND question_id IN (${questions})`,
        sql`SELECT w.term, c.school_id, w.course_id, s.question_id, sum(s.answered)::int AS answered, sum(s.correct)::int AS correct
              FROM work_question_stats s JOIN classes c ON c.id = s.class_id JOIN ${work} w ON w.source_type = s.source_type AND w.id = s.source_id
             WHERE s.tenant_id = ${tenantId} AND s.question_id IN (${questions}) GROUP BY 1, 2, 3, 4`);
      // The class's day rollups of the last few days (China time), against the class's records.
      const day = sql`((answered_at AT TIME ZONE 'UTC') + interval '8 hours')::date`;
      await expectSameRows(sql`SELECT knowledge_point_id, day::text, answered, correct, score::float8, max_score::float8 FROM class_knowledge_stats
                         WHERE tenant_id = ${tenantId} AND class_id = ${cls.id} AND day >= current_date - 5`, sql`SELECT kp AS knowledge_point_id, ${day}::text AS day, ${tally} FROM answer_records, unnest(knowledge_point_ids) kp
                         WHERE tenant_id = ${tenantId} AND class_id = ${cls.id} AND ${day} >= current_date - 5 GROUP BY kp, ${day}`);
    }),
    { numRuns: 15 },
  );
  // Not vacuous: the writes reached the rollups.
  const [{ n }] = await query<{ n: number }>(t, sql`SELECT coalesce(sum(answered), 0)::int AS n FROM work_question_stats WHERE ${source}`);
  expect(n).toBeGreaterThan(0);
}, 120_000);
