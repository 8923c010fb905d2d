// The demo as a teacher reads it: exercise-book pages and reviews with varied questions (not one
// stem with other numbers), exam scores where real ones sit (no class far below or above what
// schools see, nobody below what guessing alone gives, each item its own answer pattern), the
// wrong answers students write in blanks, and a calendar without homework on public holidays.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/testApp';
import { query } from '../support/content';
import { PUBLIC_HOLIDAYS, isSchoolDay } from '../../server/seed/calendar';
import { QuestionType } from '../../src/domain/content';

let t: TestApp;

// The first file to run after a seed change builds the seeded snapshot (about a minute).
beforeAll(async () => {
  t = await createTestApp();
}, 180_000);
afterAll(() => t.close());

/** A stem without its numbers, spacing and LaTeX markup: what is left when only numbers change. */
const skeleton = (stem: string) => stem.replace(/[0-9０-９.．]+/g, '').replace(/[\s$\\{}]/g, '');

/** Dice similarity of two texts' character pairs (1: same pairs, 0: none shared). */
function similarity(a: string, b: string): number {
  const pairs = (s: string) => {
    const m = new Map<string, number>();
    for (let k = 0; k + 1 < s.length; k++) m.set(s.slice(k, k + 2), (m.get(s.slice(k, k + 2)) ?? 0) + 1);
    return m;
  };
  const [pa, pb] = [pairs(a), pairs(b)];
  let shared = 0;
  for (const [p, n] of pa) shared += Math.min(n, pb.get(p) ?? 0);
  const total = [...pa.values(), ...pb.values()].reduce((s, n) => s + n, 0);
  return total ? (2 * shared) / total : 1;
}

/** Pairs of stems in a group that are one stem with other numbers, or nearly the same sentence. */
function copies(stems: string[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < stems.length; i++) {
    for (let j = i + 1; j < stems.length; j++) {
      const [a, b] = [skeleton(stems[i]), skeleton(stems[j])];
      if (a === b || similarity(a, b) >= 0.75) found.push(`${stems[i]} ≈ ${stems[j]}`);
    }
  }
  return found;
}

describe('questions a teacher believes', () => {
  it('no exercise-book page prints one stem twice with other numbers or one word changed', async () => {
    const pages = await query<{ book: string; pageNo: number; stems: string[] }>(t, sql`
      SELECT b.title AS book, p.page_no AS "pageNo", array_agg(q.stem ORDER BY pq.sort_order) AS stems
        FROM book_pages p JOIN exercise_books b ON b.id = p.book_id
        JOIN book_page_questions pq ON pq.page_id = p.id JOIN questions q ON q.id = pq.question_id
       GROUP BY b.title, p.page_no`);
    expect(pages.length).toBeGreaterThan(100);
    const bad = pages.flatMap((p) => copies(p.stems).map((pair) => `${p.book} 第${p.pageNo}页: ${pair}`));
    expect(bad).toEqual([]);
  });

  it('a page mixes question types or forms, as a real exercise-book page does', async () => {
    const pages = await query<{ book: string; pageNo: number; types: number }>(t, sql`
      SELECT b.title AS book, p.page_no AS "pageNo", count(DISTINCT q.type)::int AS types
        FROM book_pages p JOIN exercise_books b ON b.id = p.book_id
        JOIN book_page_questions pq ON pq.page_id = p.id JOIN questions q ON q.id = pq.question_id
       GROUP BY b.title, p.page_no`);
    const mixed = pages.filter((p) => p.types >= 2).length;
    // Most pages mix choice, blanks and worked problems; a few drill one form (默写, 判断).
    expect(mixed / pages.length).toBeGreaterThanOrEqual(0.75);
  });

  it('no review homework repeats one stem with a word or a number changed', async () => {
    const reviews = await query<{ id: number; title: string; stems: string[] }>(t, sql`
      SELECT h.id, h.title, array_agg(q.stem ORDER BY (it->>'no')::int) AS stems
        FROM homeworks h CROSS JOIN LATERAL jsonb_array_elements(h.items) it JOIN questions q ON q.id = (it->>'questionId')::int
       WHERE h.source_type = 0 GROUP BY h.id, h.title`);
    expect(reviews.length).toBeGreaterThan(10);
    const bad = reviews.flatMap((r) => copies(r.stems).map((pair) => `${r.title}#${r.id}: ${pair}`));
    expect(bad).toEqual([]);
  });
});

interface Sitting {
  examId: number;
  title: string;
  classId: number;
  className: string;
  studentId: number;
  score: number;
  fullMarks: number;
}

describe('exam scores where real ones sit', () => {
  let sittings: Sitting[];
  beforeAll(async () => {
    sittings = await query<Sitting>(t, sql`
      SELECT e.id AS "examId", e.title, c.id AS "classId", c.name AS "className", r.student_id AS "studentId",
             sum(r.score)::float8 AS score, e.full_marks AS "fullMarks"
        FROM answer_records r JOIN exams e ON e.id = r.source_id JOIN classes c ON c.id = r.class_id
       WHERE r.source_type = 2 GROUP BY e.id, e.title, c.id, c.name, r.student_id, e.full_marks`);
  });

  it('every class average sits between 55 % and 88 % of full marks, most between 60 % and 85 %', async () => {
    const byClass = new Map<string, number[]>();
    for (const s of sittings) {
      const key = `${s.title}#${s.examId} ${s.className}`;
      byClass.set(key, [...(byClass.get(key) ?? []), s.score / s.fullMarks]);
    }
    expect(byClass.size).toBeGreaterThanOrEqual(12);
    const averages = [...byClass].map(([key, rates]) => [key, rates.reduce((a, b) => a + b, 0) / rates.length] as const);
    expect(averages.filter(([, avg]) => avg < 0.55 || avg > 0.88)).toEqual([]);
    expect(averages.filter(([, avg]) => avg >= 0.6 && avg <= 0.85).length / averages.length).toBeGreaterThanOrEqual(0.75);
    // Classes differ, and students within a class spread as a real class does.
    const values = averages.map(([, avg]) => avg);
    expect(Math.max(...values) - Math.min(...values)).toBeGreaterThan(0.04);
    for (const rates of byClass.values()) {
      const mean = rates.reduce((a, b) => a + b, 0) / rates.length;
      const sd = Math.sqrt(rates.reduce((a, r) => a + (r - mean) ** 2, 0) / rates.length);
      expect(sd).toBeGreaterThan(0.08);
      expect(sd).toBeLessThan(0.25);
    }
  });

  it('no student scores below what guessing every choice question gives on average', async () => {
    // Guessing's expected marks: each choice item's points over its number of options.
    const chance = await query<{ examId: number; chance: number }>(t, sql`
      SELECT e.id AS "examId", sum(CASE WHEN q.type IN (${QuestionType.single}, ${QuestionType.judge}) THEN (it->>'points')::float8 / jsonb_array_length(q.options) ELSE 0 END) AS chance
        FROM exams e CROSS JOIN LATERAL jsonb_array_elements(e.items) it JOIN questions q ON q.id = (it->>'questionId')::int
       GROUP BY e.id`);
    expect(chance.length).toBeGreaterThanOrEqual(4);
    const floor = new Map(chance.map((c) => [c.examId, c.chance]));
    for (const c of chance) expect(c.chance).toBeGreaterThan(5);
    const below = sittings.filter((s) => s.score < floor.get(s.examId)!).map((s) => `${s.title}#${s.examId} ${s.className} ${s.score}/${s.fullMarks}`);
    expect(below).toEqual([]);
  });

  it('no two choice items of an exam share one answer pattern', async () => {
    const items = await query<{ examId: number; questionId: number; counts: string }>(t, sql`
      SELECT r.source_id AS "examId", r.question_id AS "questionId",
             string_agg(x.answer || ':' || x.n, ',' ORDER BY x.answer) AS counts
        FROM (SELECT source_id, question_id, coalesce(answer, '-') AS answer, count(*) AS n
                FROM answer_records WHERE source_type = 2 GROUP BY source_id, question_id, coalesce(answer, '-')) x
        JOIN (SELECT DISTINCT source_id, question_id FROM answer_records WHERE source_type = 2) r ON r.source_id = x.source_id AND r.question_id = x.question_id
        JOIN questions q ON q.id = r.question_id
       WHERE q.type = ${QuestionType.single}
       GROUP BY r.source_id, r.question_id`);
    expect(items.length).toBeGreaterThan(20);
    // How many students chose each option, ranked: two items alike in this are one pattern twice.
    const shape = (counts: string) => counts.split(',').map((p) => Number(p.split(':')[1])).sort((a, b) => b - a).join('/');
    const seen = new Map<string, number>();
    const repeated: string[] = [];
    for (const it of items) {
      // An item nine in ten got right (53 and 2, or 56/1/1/1) looks like another such item in a
      // real class too; a template shows in spread-out answers, so only those must not repeat.
      const counts = it.counts.split(',').map((p) => Number(p.split(':')[1]));
      if (Math.max(...counts) >= 0.9 * counts.reduce((a, b) => a + b, 0)) continue;
      const key = `${it.examId}|${shape(it.counts)}`;
      if (seen.has(key) && seen.get(key) !== it.questionId) repeated.push(`${key} (${seen.get(key)}, ${it.questionId})`);
      seen.set(key, it.questionId);
    }
    expect(repeated).toEqual([]);
    // Distractors draw unequally and differently: the most chosen wrong option is not always the same letter.
    const topWrong = await query<{ key: string }>(t, sql`
      SELECT DISTINCT ON (r.source_id, r.question_id) r.answer AS key
        FROM answer_records r JOIN questions q ON q.id = r.question_id
       WHERE r.source_type = 2 AND q.type = ${QuestionType.single} AND NOT r.is_correct AND r.answer IS NOT NULL
       GROUP BY r.source_id, r.question_id, r.answer ORDER BY r.source_id, r.question_id, count(*) DESC`);
    expect(new Set(topWrong.map((x) => x.key)).size).toBeGreaterThanOrEqual(3);
  });
});

describe('wrong answers students write', () => {
  it('most wrong fill-ins are an answer (a slip, a near word), some are left blank', async () => {
    const [counts] = await query<{ wrong: number; written: number; blank: number; asKey: number }>(t, sql`
      SELECT count(*)::int AS wrong, count(r.answer)::int AS written, count(*) FILTER (WHERE r.answer IS NULL)::int AS blank,
             count(*) FILTER (WHERE r.answer = q.answer)::int AS "asKey"
        FROM answer_records r JOIN questions q ON q.id = r.question_id
       WHERE q.type = ${QuestionType.blank} AND NOT r.is_correct`);
    expect(counts.wrong).toBeGreaterThan(1000);
    expect(counts.written / counts.wrong).toBeGreaterThan(0.6);
    expect(counts.blank).toBeGreaterThan(0);
    expect(counts.asKey).toBe(0);
    // Different students write different wrong answers to one question.
    const [variety] = await query<{ questions: number; varied: number }>(t, sql`
      SELECT count(*)::int AS questions, count(*) FILTER (WHERE n >= 2)::int AS varied
        FROM (SELECT r.question_id, count(DISTINCT r.answer) AS n FROM answer_records r JOIN questions q ON q.id = r.question_id
               WHERE q.type = ${QuestionType.blank} AND NOT r.is_correct GROUP BY r.question_id) x`);
    expect(variety.varied / variety.questions).toBeGreaterThan(0.5);
  });
});

describe('a school calendar', () => {
  const chinaDay = sql.raw(`'YYYY-MM-DD'`);
  it('no homework is set or due on a public holiday or a weekend that is not a school day', async () => {
    const homeworks = await query<{ title: string; assigned: string; due: string }>(t, sql`
      SELECT title, to_char(assigned_at AT TIME ZONE 'Asia/Shanghai', ${chinaDay}) AS assigned, to_char(due_at AT TIME ZONE 'Asia/Shanghai', ${chinaDay}) AS due
        FROM homeworks`);
    expect(homeworks.length).toBeGreaterThan(500);
    expect(homeworks.filter((h) => h.due.endsWith('-10-01'))).toEqual([]);
    expect(homeworks.filter((h) => PUBLIC_HOLIDAYS.has(h.assigned) || PUBLIC_HOLIDAYS.has(h.due))).toEqual([]);
    expect(homeworks.filter((h) => !isSchoolDay(h.assigned) || !isSchoolDay(h.due))).toEqual([]);
    const exams = await query<{ title: string; examDate: string }>(t, sql`SELECT title, to_char(exam_date, ${chinaDay}) AS "examDate" FROM exams`);
    expect(exams.filter((e) => !isSchoolDay(e.examDate))).toEqual([]);
  });

  it('物理 starts in 八年级 with the 八年级上册 book', async () => {
    const books = await query<{ title: string; gradeLevel: number }>(t, sql`
      SELECT b.title, b.grade_level AS "gradeLevel" FROM exercise_books b JOIN subjects s ON s.id = b.subject_id WHERE s.name = '物理' AND b.tenant_id IS NULL`);
    expect(Math.min(...books.map((b) => b.gradeLevel))).toBe(8);
    expect(books.find((b) => b.gradeLevel === 8)?.title).toContain('八年级物理上册');
    const grade7 = await query<{ n: number }>(t, sql`
      SELECT count(*)::int AS n FROM homeworks h JOIN courses co ON co.id = h.course_id JOIN subjects s ON s.id = co.subject_id
        JOIN classes c ON c.id = h.class_id JOIN grades g ON g.id = c.grade_id WHERE s.name = '物理' AND g.level = 7`);
    expect(grade7[0].n).toBe(0);
  });
});

describe('classes as a school has them', () => {
  it('class sizes differ within a grade and sit where a junior high school’s do', async () => {
    const sizes = await query<{ schoolId: number; gradeId: number; className: string; n: number }>(t, sql`
      SELECT c.school_id AS "schoolId", c.grade_id AS "gradeId", c.name AS "className", count(s.id)::int AS n
        FROM classes c LEFT JOIN students s ON s.class_id = c.id AND s.status = 0
       GROUP BY c.id ORDER BY c.id`);
    expect(sizes.length).toBeGreaterThan(20);
    for (const size of sizes) {
      expect(size.className).toMatch(/^[七八九]\(\d+\)班$/);
      expect(size.n, size.className).toBeGreaterThanOrEqual(25);
      expect(size.n, size.className).toBeLessThanOrEqual(46);
    }
    // No grade of any school has every class the same size.
    const grades = new Map<number, Set<number>>();
    for (const size of sizes) grades.set(size.gradeId, (grades.get(size.gradeId) ?? new Set()).add(size.n));
    for (const [gradeId, distinct] of grades) expect(distinct.size, `grade ${gradeId}`).toBeGreaterThan(1);
  });
});
