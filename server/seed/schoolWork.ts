// A term of school work for the demo: the books each class uses, 20 homeworks per class and course
// (book pages, and every fifth a custom review) on school days only (calendar.ts), exams with their
// papers, and every student's answers. Answers are simulated set-based in SQL from a latent
// ability × difficulty model: a student knows an item with P = logistic(1.1·ability −
// 0.9·(difficulty − 3) + ease); one who does not know a choice item guesses, drawn to each option
// by the item's own attractiveness (so no two items share an answer pattern and nobody scores far
// below chance), and one who does not know a blank writes a typical slip of that item (a sign, a
// unit, a near word) or leaves it empty. So reports look like a real school's: strong and weak
// classes, hard questions, popular distractors, a few missed homeworks. Randomness comes from a
// hash of the row's key, so the data is the same on every run.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db';
import * as t from '../db/schema';
import { rows } from '../db/query';
import { OBJECTIVE_TYPES, QuestionType, SourceType } from '../../src/domain/content';
import { currentSemester } from '../../src/domain/semester';
import { rebuildRollups } from '../modules/minerva/answers';
import { random } from './draft';
import { chinaDate, isSchoolDay } from './calendar';
import type { SeededBook, SeededQuestion, SeededSection } from './content';

export const HOMEWORKS_PER_CLASS_COURSE = 20;
const DAY = 24 * 3600 * 1000;

interface Assignment {
  tenantId: number;
  teacherId: number;
  userId: number;
  classId: number;
  courseId: number;
  subject: string;
  level: number;
}

/** A 64-bit hash of the key parts: one hash gives three independent uniform draws. */
const digest = (...parts: SQL[]) => sql`hashtextextended(concat_ws(':', ${sql.join(parts, sql`, `)}), 20260901)`;
/** The n-th (0–2) uniform number in [0, 1) of a digest, from 20 of its bits. */
const uniform = (hash: SQL, n: number) => sql`(((${hash}) >> ${n * 20}) & 1048575)::float8 / 1048576`;

/**
 * How strongly each option of a choice item draws a student who does not know the answer: the
 * item's own weights (heavy-tailed, so one distractor often stands out), as cumulative ranges
 * [lo, hi) per (question_id, opt). The region's schools (region.ts) draw from the same ranges, so
 * an item's popular distractor is popular everywhere.
 */
export const OPTION_RANGES = sql`
      SELECT question_id, opt, coalesce(sum(w) OVER (PARTITION BY question_id ORDER BY n ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) / sum(w) OVER (PARTITION BY question_id) AS lo,
             sum(w) OVER (PARTITION BY question_id ORDER BY n) / sum(w) OVER (PARTITION BY question_id) AS hi
        FROM (SELECT q.id AS question_id, x.o->>'key' AS opt, x.n,
                     0.05 + power(-ln(1 - ${uniform(sql`hashtextextended(q.id || ':' || (x.o->>'key'), 7)`, 0)}), 1.6) AS w
                FROM questions q CROSS JOIN LATERAL jsonb_array_elements(q.options) WITH ORDINALITY AS x(o, n)
               WHERE q.type IN (${QuestionType.single}, ${QuestionType.judge})) o`;

/** Midnight (China time) of the seeding day, so one day's seeds are identical. */
function today(now: Date): number {
  const shanghai = now.getTime() + 8 * 3600 * 1000;
  return shanghai - (shanghai % DAY) - 8 * 3600 * 1000;
}

/** The exam paper of a book: 100 marks, as the demo and the district bench give it. */
export function examPaper(book: SeededBook): { title: string; questions: SeededQuestion[]; points: number }[] {
  const bank = book.sections.flatMap((s) => s.bank);
  // As teachers do, the paper reuses a few exercise-book questions (one choice question from each
  // of the first sections' first pages): the report then points at their book pages.
  const fromBook = book.sections
    .slice(0, 3)
    .flatMap((s) => s.pages[0]?.questions.filter((q) => OBJECTIVE_TYPES.includes(q.type)).slice(0, 1) ?? []);
  // When the bank has too few of a type, the paper takes more from the book's later pages.
  const printed = book.sections.flatMap((s) => s.pages.slice(1).flatMap((p) => p.questions));
  const ofType = (types: readonly number[]) => [...bank, ...printed].filter((q) => types.includes(q.type) && !fromBook.includes(q));
  const objective = [...fromBook, ...ofType(OBJECTIVE_TYPES)];
  const blanks = ofType([QuestionType.blank]);
  const answers = bank.filter((q) => q.type === QuestionType.answer);
  // 100 marks either way: 12×3 + 8×3 + 4×10 with worked problems, 20×4 + 8×2.5 without.
  if (answers.length >= 4) {
    return [
      { title: '一、选择题', questions: objective.slice(0, 12), points: 3 },
      { title: '二、填空题', questions: blanks.slice(0, 8), points: 3 },
      { title: '三、解答题', questions: answers.slice(0, 4), points: 10 },
    ];
  }
  return [
    { title: '一、选择题', questions: objective.slice(0, 20), points: 4 },
    { title: '二、填空题', questions: blanks.slice(0, 8), points: 2.5 },
  ];
}

/** A stem without numbers and markup, to tell two questions of one form apart from two different ones. */
const skeleton = (stem: string) => stem.replace(/[0-9.]+/g, '').replace(/[\s$\\{}]/g, '');
function alike(a: string, b: string): boolean {
  const [x, y] = [skeleton(a), skeleton(b)];
  if (x === y) return true;
  const pairs = (t: string) => new Set(Array.from({ length: Math.max(0, t.length - 1) }, (_, k) => t.slice(k, k + 2)));
  const [px, py] = [pairs(x), pairs(y)];
  const shared = [...px].filter((p) => py.has(p)).length;
  return (2 * shared) / (px.size + py.size || 1) >= 0.6;
}

/**
 * A review as a teacher builds one: up to six bank questions of the latest sections covered, two a
 * section, never two of one form (the same stem with other numbers or another word).
 */
function reviewQuestions(covered: SeededSection[]): SeededQuestion[] {
  const chosen: SeededQuestion[][] = [];
  let count = 0;
  for (const section of [...covered].reverse()) {
    const taken: SeededQuestion[] = [];
    for (const q of section.bank) {
      if (taken.length === 2 || count === 6) break;
      if ([...chosen.flat(), ...taken].some((c) => alike(c.stem ?? '', q.stem ?? ''))) continue;
      taken.push(q);
      count++;
    }
    chosen.unshift(taken);
    if (count === 6) break;
  }
  return chosen.flat();
}

/** School days (China dates, oldest first) from `from` to `to` days before `start`. */
function schoolDays(start: number, from: number, to: number): number[] {
  const out: number[] = [];
  for (let d = from; d >= to; d--) if (isSchoolDay(chinaDate(start - d * DAY))) out.push(start - d * DAY);
  return out;
}

/** The school day on or before `day` (midnight China time). */
function schoolDayOnOrBefore(day: number): number {
  let d = day;
  while (!isSchoolDay(chinaDate(d))) d -= DAY;
  return d;
}

export async function seedSchoolWork(db: Db, books: SeededBook[], now = new Date()): Promise<void> {
  const start = today(now);
  // Homework over the last ten weeks, on school days: none set or due on a holiday or a weekend.
  const days = schoolDays(start, 72, 2);
  const assignments = await rows<Assignment>(db, sql`
    SELECT ta.tenant_id AS "tenantId", ta.teacher_id AS "teacherId", te.user_id AS "userId", ta.class_id AS "classId",
           ta.course_id AS "courseId", su.name AS subject, g.level
      FROM teaching_assignments ta
      JOIN teachers te ON te.id = ta.teacher_id
      JOIN classes c ON c.id = ta.class_id
      JOIN grades g ON g.id = c.grade_id
      JOIN courses co ON co.id = ta.course_id
      JOIN subjects su ON su.id = co.subject_id
     ORDER BY ta.class_id, ta.course_id, ta.teacher_id`);
  // The autumn term's book (上册) of the class's grade.
  const bookFor = (a: { subject: string; level: number }) => books.find((b) => b.subject === a.subject && b.gradeLevel === a.level && b.term === 1);

  const classBooks = new Map<string, typeof t.classBooks.$inferInsert>();
  const homeworkRows: (typeof t.homeworks.$inferInsert)[] = [];
  for (const a of assignments) {
    const book = bookFor(a);
    if (!book) continue;
    classBooks.set(`${a.classId}|${book.id}`, { tenantId: a.tenantId, classId: a.classId, bookId: book.id, courseId: a.courseId });
    const pages = book.sections.flatMap((s) => s.pages.map((p) => ({ section: s, page: p })));
    let nextPage = 0;
    for (let j = 0; j < HOMEWORKS_PER_CLASS_COURSE; j++) {
      // Two a week over the last ten weeks, spread over the school days (each course on its own
      // days), assigned at 08:00 China time, due at noon of the next school day.
      const at = Math.min(days.length - 2, Math.round((j * (days.length - 2)) / (HOMEWORKS_PER_CLASS_COURSE - 1)) + (a.courseId % 2));
      const assignedAt = new Date(days[at] + 8 * 3600 * 1000);
      const dueAt = new Date(days[at + 1] + 12 * 3600 * 1000);
      const base = { tenantId: a.tenantId, teacherId: a.teacherId, classId: a.classId, courseId: a.courseId, assignedAt, dueAt, term: currentSemester(assignedAt), bookId: book.id };
      if (j % 5 === 4) {
        // A custom review: bank questions of the sections covered so far.
        const covered = [...new Set(pages.slice(0, nextPage).map((p) => p.section))];
        const review = reviewQuestions(covered);
        homeworkRows.push({
          ...base,
          title: `阶段复习（${(j + 1) / 5}）`,
          sourceType: SourceType.customHomework,
          items: review.map((q, k) => ({ questionId: q.id, points: q.points, no: String(k + 1) })),
        });
        continue;
      }
      const { section, page } = pages[nextPage++ % pages.length];
      homeworkRows.push({
        ...base,
        title: `${section.title}（第${page.pageNo}页）`,
        sourceType: SourceType.bookHomework,
        selection: { pageIds: [page.id] },
        items: page.questions.map((q, k) => ({ questionId: q.id, points: q.points, no: String(k + 1) })),
      });
    }
  }
  if (classBooks.size) await db.insert(t.classBooks).values([...classBooks.values()]);
  for (let k = 0; k < homeworkRows.length; k += 500) await db.insert(t.homeworks).values(homeworkRows.slice(k, k + 500));
  // Each demo homework was assigned to its class alone.
  await db.execute(sql`UPDATE homeworks SET batch_id = id WHERE batch_id IS NULL`);

  await seedExams(db, books, assignments, start);
  await simulateAnswers(db, books);
  const tenants = await rows<{ id: number }>(db, sql`SELECT id FROM tenants ORDER BY id`);
  for (const { id } of tenants) await rebuildRollups(db, id);
}

/** Three exams in the first school (grade 7 maths twice, grade 8 English) and one in the second. */
async function seedExams(db: Db, books: SeededBook[], assignments: Assignment[], start: number): Promise<void> {
  const plan = [
    { school: 0, subject: '数学', level: 7, title: '七年级数学第一次月考', daysAgo: 45, duration: 90 },
    { school: 0, subject: '数学', level: 7, title: '七年级数学期中考试', daysAgo: 12, duration: 120 },
    { school: 0, subject: '英语', level: 8, title: '八年级英语期中考试', daysAgo: 11, duration: 100 },
    { school: 1, subject: '数学', level: 7, title: '七年级数学期中考试', daysAgo: 12, duration: 120 },
  ];
  const schoolRows = await rows<{ id: number; tenantId: number }>(db, sql`SELECT id, tenant_id AS "tenantId" FROM schools ORDER BY id`);
  for (const [n, e] of plan.entries()) {
    const school = schoolRows[e.school];
    const book = books.find((b) => b.subject === e.subject && b.gradeLevel === e.level && b.term === 1)!;
    const [grade] = await rows<{ id: number }>(db, sql`SELECT id FROM grades WHERE school_id = ${school.id} AND level = ${e.level}`);
    const [course] = await rows<{ id: number; subjectId: number }>(db, sql`
      SELECT co.id, co.subject_id AS "subjectId" FROM courses co JOIN subjects su ON su.id = co.subject_id WHERE co.school_id = ${school.id} AND su.name = ${e.subject}`);
    const author = assignments.find((a) => a.tenantId === school.tenantId && a.subject === e.subject && a.level === e.level)!;
    const sections = examPaper(book);
    // The second sitting of a subject uses the questions in reverse, so the two papers differ in order.
    if (n === 1) for (const s of sections) s.questions = [...s.questions].reverse();
    const fullMarks = sections.reduce((sum, s) => sum + s.questions.length * s.points, 0);
    const [paper] = await db
      .insert(t.papers)
      .values({ tenantId: school.tenantId, schoolId: school.id, createdBy: author.userId, title: e.title, subjectId: course.subjectId, gradeLevel: e.level, durationMinutes: e.duration, totalPoints: fullMarks })
      .returning();
    const sectionRows = await db
      .insert(t.paperSections)
      .values(sections.map((s, k) => ({ tenantId: school.tenantId, paperId: paper.id, title: s.title, sortOrder: k + 1 })))
      .returning();
    let no = 0;
    const items = sections.flatMap((s, k) => s.questions.map((q) => ({ sectionId: sectionRows[k].id, questionId: q.id, points: s.points, no: String(++no) })));
    await db.insert(t.paperQuestions).values(items.map((it, k) => ({ tenantId: school.tenantId, paperId: paper.id, sectionId: it.sectionId, questionId: it.questionId, sortOrder: k + 1, points: it.points })));
    const examDate = new Date(schoolDayOnOrBefore(start - e.daysAgo * DAY) + 8 * 3600 * 1000);
    const [exam] = await db
      .insert(t.exams)
      .values({
        tenantId: school.tenantId,
        schoolId: school.id,
        paperId: paper.id,
        gradeId: grade.id,
        courseId: course.id,
        title: e.title,
        examDate: examDate.toISOString().slice(0, 10),
        term: currentSemester(examDate),
        fullMarks,
        items: items.map(({ questionId, points, no: label }) => ({ questionId, points, no: label })),
        createdBy: author.userId,
      })
      .returning();
    await db.execute(sql`
      INSERT INTO exam_classes (tenant_id, exam_id, class_id)
      SELECT ${school.tenantId}, ${exam.id}, id FROM classes WHERE grade_id = ${grade.id} ORDER BY id`);
  }
}

/** Latent abilities: a class effect (some classes are stronger) plus each student's own. */
async function abilities(db: Db): Promise<string> {
  const students = await rows<{ id: number; classId: number }>(db, sql`SELECT id, class_id AS "classId" FROM students ORDER BY id`);
  const classEffect = new Map<number, number>();
  const next = random(7_000_003);
  const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  return JSON.stringify(
    students.map((s) => {
      // Classes differ, but within what one school's classes of a grade do (about ±12 points).
      if (!classEffect.has(s.classId)) classEffect.set(s.classId, Math.max(-0.45, Math.min(0.45, normal() * 0.3)));
      return { student_id: s.id, ability: classEffect.get(s.classId)! + normal() };
    }),
  );
}

/** Typical wrong answers of each fill-in and worked problem, for the students who get it wrong. */
function slipTable(books: SeededBook[]): string {
  const seen = new Map<number, string[]>();
  for (const b of books) for (const s of b.sections) for (const q of [...s.pages.flatMap((p) => p.questions), ...s.bank]) if (q.slips?.length) seen.set(q.id, q.slips);
  return JSON.stringify([...seen].map(([question_id, slips]) => ({ question_id, slips })));
}

async function simulateAnswers(db: Db, books: SeededBook[]): Promise<void> {
  await db.execute(sql`
    WITH ability AS (
      SELECT * FROM jsonb_to_recordset(${await abilities(db)}::jsonb) AS a(student_id int, ability float8)
    ),
    slips AS (
      SELECT * FROM jsonb_to_recordset(${slipTable(books)}::jsonb) AS s(question_id int, slips jsonb)
    ),
    work AS (
      SELECT h.tenant_id, h.source_type, h.id AS source_id, h.class_id, h.term, co.subject_id, h.items,
             h.assigned_at + interval '5 hours' AS answered_at, 0.7::float8 AS ease, 0.04::float8 AS skip
        FROM homeworks h JOIN courses co ON co.id = h.course_id
      UNION ALL
      -- A paper is set for an average of about 70 %: a harder paper is marked as such (its ease
      -- offsets its mean difficulty), so a class's exam average follows its students, not the paper.
      SELECT e.tenant_id, ${SourceType.exam}::smallint, e.id, ec.class_id, e.term, co.subject_id, e.items,
             (e.exam_date::timestamp + interval '1 hour') AT TIME ZONE 'UTC',
             0.9 * ((SELECT avg(q.difficulty) FROM jsonb_array_elements(e.items) it JOIN questions q ON q.id = (it->>'questionId')::int) - 3) + 0.5,
             0.01::float8
        FROM exams e JOIN exam_classes ec ON ec.exam_id = e.id JOIN courses co ON co.id = e.course_id
    ),
    options AS (${OPTION_RANGES}),
    sitting AS (
      -- Who handed the work in (a few students miss a homework, fewer an exam).
      SELECT w.*, s.id AS student_id, s.school_id, a.ability
        FROM work w
        JOIN students s ON s.class_id = w.class_id AND s.status = 0
        JOIN ability a ON a.student_id = s.id
       WHERE ${uniform(digest(sql`s.id`, sql`w.source_type`, sql`w.source_id`), 0)} >= w.skip
    ),
    drawn AS (
      SELECT w.*, q.id AS question_id, q.type, q.answer AS key, q.knowledge_point_ids, (it->>'points')::real AS points,
             1 / (1 + exp(-(1.1 * w.ability - 0.9 * (q.difficulty - 3) + w.ease))) AS p,
             ${digest(sql`w.student_id`, sql`w.source_type`, sql`w.source_id`, sql`q.id`)} AS hash
        FROM sitting w
        CROSS JOIN LATERAL jsonb_array_elements(w.items) it
        JOIN questions q ON q.id = (it->>'questionId')::int
    ),
    graded AS (
      SELECT d.*, ${uniform(sql`d.hash`, 0)} < d.p AS knows, ${uniform(sql`d.hash`, 1)} AS u2, ${uniform(sql`d.hash`, 2)} AS u3 FROM drawn d
    ),
    answered AS (
      SELECT g.*,
             CASE WHEN g.knows THEN g.key
                  -- A guess: the option the item draws this student to (the right one now and then).
                  WHEN g.type IN (${QuestionType.single}, ${QuestionType.judge}) THEN o.opt
                  WHEN g.type = ${QuestionType.multiple} THEN left(g.key, 1)
                  -- A fill-in or worked problem left empty, or one of the item's typical slips.
                  WHEN g.u2 < 0.2 OR s.slips IS NULL THEN NULL
                  ELSE s.slips->>(floor(power(g.u3, 1.5) * jsonb_array_length(s.slips))::int) END AS written
        FROM graded g
        LEFT JOIN options o ON o.question_id = g.question_id AND g.type IN (${QuestionType.single}, ${QuestionType.judge}) AND g.u3 >= o.lo AND g.u3 < o.hi
        LEFT JOIN slips s ON s.question_id = g.question_id
    ),
    scored AS (
      SELECT a.*, CASE WHEN a.type IN (${QuestionType.single}, ${QuestionType.judge}) THEN a.written IS NOT DISTINCT FROM a.key ELSE a.knows END AS correct FROM answered a
    )
    INSERT INTO answer_records (tenant_id, source_type, source_id, student_id, question_id, school_id, class_id, subject_id, term,
                                knowledge_point_ids, is_correct, score, max_score, answer, graded_by, answered_at)
    SELECT tenant_id, source_type, source_id, student_id, question_id, school_id, class_id, subject_id, term, knowledge_point_ids,
           correct,
           CASE WHEN correct THEN points
                -- A worked problem with a wrong result still earns the steps that were right.
                WHEN type = ${QuestionType.answer} AND written IS NOT NULL THEN floor(points * (0.2 + 0.6 * u2))
                WHEN type = ${QuestionType.multiple} AND u2 < 0.5 THEN points / 2
                ELSE 0 END,
           points,
           written,
           ${t.GradedBy.machine}, answered_at
      FROM scored`);
}
