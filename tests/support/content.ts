// Helpers for the teaching-content API tests: raw reads of the answer records, so figures the
// server reports can be checked against an independent computation.
import { sql } from 'drizzle-orm';
import type { TestApp } from './testApp';
import { ROLLUPS } from '../../server/modules/minerva/answers';

export interface RawRecord {
  studentId: number;
  classId: number;
  questionId: number;
  score: number;
  maxScore: number;
  isCorrect: boolean;
  answer: string | null;
}

export async function rawRecords(t: TestApp, sourceType: number, sourceId: number): Promise<RawRecord[]> {
  const result = (await t.database.db.execute(sql`
    SELECT student_id AS "studentId", class_id AS "classId", question_id AS "questionId", score, max_score AS "maxScore",
           is_correct AS "isCorrect", answer
      FROM answer_records WHERE source_type = ${sourceType} AND source_id = ${sourceId}`)) as unknown as { rows: RawRecord[] };
  return result.rows;
}

export async function query<T>(t: TestApp, text: ReturnType<typeof sql>): Promise<T[]> {
  return ((await t.database.db.execute(text)) as unknown as { rows: T[] }).rows;
}

/** What the seed says `username` teaches: class names in id order, and courses per class name. */
export async function taught(t: TestApp, username: string) {
  const rows = await query<{ classId: number; className: string; courseName: string }>(t, sql`
    SELECT c.id AS "classId", c.name AS "className", co.name AS "courseName" FROM teaching_assignments ta
      JOIN teachers te ON te.id = ta.teacher_id JOIN users u ON u.id = te.user_id
      JOIN classes c ON c.id = ta.class_id JOIN courses co ON co.id = ta.course_id
     WHERE u.username = ${username} ORDER BY c.id, co.id`);
  return {
    classes: [...new Set(rows.map((r) => r.className))],
    classIds: [...new Set(rows.map((r) => r.classId))],
    courses: (className: string) => rows.filter((r) => r.className === className).map((r) => r.courseName),
  };
}

/** The course names of every teaching assignment of one class, sorted. */
export async function classCourses(t: TestApp, classId: number): Promise<string[]> {
  const rows = await query<{ courseName: string }>(t, sql`
    SELECT co.name AS "courseName" FROM teaching_assignments ta JOIN courses co ON co.id = ta.course_id
     WHERE ta.class_id = ${classId}`);
  return rows.map((r) => r.courseName).sort();
}

/** How many students a class has on its roll (the demo's classes are not all alike). */
export async function classSize(t: TestApp, classId: number): Promise<number> {
  const [row] = await query<{ n: number }>(t, sql`SELECT count(*)::int AS n FROM students WHERE class_id = ${classId} AND status = 0`);
  return row.n;
}

/** Every rollup of a tenant, as sorted text, to compare upkeep on write with a rebuild. */
export async function rollupSnapshot(t: TestApp, tenantId: number): Promise<string> {
  const tables = ROLLUPS;
  const parts: string[] = [];
  for (const table of tables) {
    const rows = await query<Record<string, unknown>>(t, sql`SELECT * FROM ${sql.identifier(table)} WHERE tenant_id = ${tenantId}`);
    parts.push(table, ...rows.map((r) => JSON.stringify(Object.keys(r).sort().map((k) => [k, typeof r[k] === 'number' ? Math.round((r[k] as number) * 1000) / 1000 : r[k]]))).sort());
  }
  return parts.join('\n');
}

/**
 * A school's own exercise book for `tenantId`: the chapters, sections and pages of book `likeId`,
 * without its questions. The API has no call that creates books, so tests make them here.
 */
export async function schoolBookLike(t: TestApp, tenantId: number, likeId: number, title: string): Promise<number> {
  const [book] = await query<{ id: number }>(t, sql`
    INSERT INTO exercise_books (tenant_id, title, subject_id, grade_level, term, edition)
    SELECT ${tenantId}, ${title}, subject_id, grade_level, term, '校本' FROM exercise_books WHERE id = ${likeId} RETURNING id`);
  await query(t, sql`INSERT INTO book_chapters (book_id, title, sort_order) SELECT ${book.id}, title, sort_order FROM book_chapters WHERE book_id = ${likeId}`);
  await query(t, sql`
    INSERT INTO book_sections (book_id, chapter_id, title, sort_order, knowledge_point_id)
    SELECT ${book.id}, nc.id, s.title, s.sort_order, s.knowledge_point_id
      FROM book_sections s JOIN book_chapters oc ON oc.id = s.chapter_id
      JOIN book_chapters nc ON nc.book_id = ${book.id} AND nc.sort_order = oc.sort_order
     WHERE s.book_id = ${likeId}`);
  await query(t, sql`
    INSERT INTO book_pages (book_id, section_id, page_no)
    SELECT ${book.id}, ns.id, p.page_no
      FROM book_pages p JOIN book_sections os ON os.id = p.section_id JOIN book_chapters oc ON oc.id = os.chapter_id
      JOIN book_chapters nc ON nc.book_id = ${book.id} AND nc.sort_order = oc.sort_order
      JOIN book_sections ns ON ns.chapter_id = nc.id AND ns.sort_order = os.sort_order
     WHERE p.book_id = ${likeId}`);
  return book.id;
}

/**
 * Rows where student_counts (kept by triggers) differs from a count of the students themselves:
 * empty when every write so far moved the counts exactly.
 */
export async function studentCountsDrift(t: TestApp): Promise<unknown[]> {
  return query(t, sql`
    WITH kept AS (SELECT tenant_id, school_id, class_id, status, binding_status, n FROM student_counts WHERE n <> 0),
    counted AS (SELECT tenant_id, school_id, coalesce(class_id, 0) AS class_id, status, binding_status, count(*)::int AS n FROM students GROUP BY 1, 2, 3, 4, 5)
    SELECT * FROM (SELECT * FROM kept EXCEPT SELECT * FROM counted) a
    UNION ALL SELECT * FROM (SELECT * FROM counted EXCEPT SELECT * FROM kept) b`);
}
