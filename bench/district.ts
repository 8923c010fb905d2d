// A district generator for PostgreSQL: schools of 2,000 students (36 classes, 12 to a grade),
// teachers with their classes, a term of homework (book pages and a custom review) and three exams
// per grade with their papers,
// and every student's answers — 20 M answer records for the 50 schools of the full district.
//
// Everything is generated set-based inside PostgreSQL (INSERT … SELECT over generate_series and
// the content tables), one school at a time. Answers follow the demo seed's model
// (server/seed/schoolWork.ts): P(correct) = logistic(1.1·ability − 0.9·(difficulty − 3) + ease),
// abilities = a class effect + the student's own, randomness from a hash of each row's key, so
// the district is the same on every run. The rollups are then built by the product's own bulk path
// (rebuildRollups), and a sample is re-graded through recordAnswers — the one write path — to show
// the loaded rollups are exactly what that path keeps current.
import { sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { hashPassword } from '../server/auth/passwords';
import { openDatabase, type Database, type Db } from '../server/db';
import { rows } from '../server/db/query';
import { DEMO_PASSWORD } from '../server/seed';
import { seedContent, type SeededBook } from '../server/seed/content';
import { examPaper } from '../server/seed/schoolWork';
import { rebuildRollups, recordAnswers, type AnswerInput } from '../server/modules/minerva/answers';
import { GradedBy } from '../server/db/schema';
import { QuestionType, SourceType } from '../src/domain/content';
import { currentSemester } from '../src/domain/semester';
import type { BenchRow } from './table';
import { ensureAnswerPartitions } from '../server/modules/minerva/answerPartitions';

/** BENCH_DISTRICT_DB names another database, so two benches on one server do not drop each other's. */
export const DISTRICT_DB = /^[a-z_][a-z0-9_]{0,62}$/.test(process.env.BENCH_DISTRICT_DB ?? '') ? process.env.BENCH_DISTRICT_DB! : 'xz_bench_district';
export const STUDENTS_PER_SCHOOL = 2000;
const LEVELS = [7, 8, 9];
const CLASSES_PER_GRADE = 12;
const CLASSES_PER_SCHOOL = LEVELS.length * CLASSES_PER_GRADE;
/** Teachers of a subject in a grade, each with two classes. */
const TEACHERS_PER_GRADE_SUBJECT = CLASSES_PER_GRADE / 2;
const SUBJECTS = ['语文', '数学', '英语', '物理', '化学', '道德与法治', '历史', '地理', '生物'];
/** Book homework: one printed page (four questions) each, this many per class and subject. */
const HOMEWORK_SUBJECTS = ['语文', '数学', '英语', '物理'];
const HOMEWORKS_PER_SUBJECT = 8;
const DAY = 24 * 3600 * 1000;
const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐许韩冯邓曹彭曾萧田董潘袁蔡蒋余于杜叶程魏苏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方邹熊白孟秦邱侯江尹薛闫段雷';
const GIVEN = '子涵梓轩浩宇欣怡雨桐一诺思远佳琪俊杰嘉怡博文雅婷宇航诗涵泽宇梦瑶晨曦若汐沐阳语桐锦程皓轩可馨明哲静怡天佑书瑶昊然睿喆堃昇玥';
const SHORT = ['七', '八', '九'];

/** The bench teacher: 数学 in classes 1 and 2 of grade 7 of the first school. */
export const benchTeacher = (schoolId: number) => `d${schoolId}g7s${SUBJECTS.indexOf('数学') + 1}t1`;

/** A 64-bit hash of the key parts (as the demo seed draws). */
const digest = (...parts: SQL[]) => sql`hashtextextended(concat_ws(':', ${sql.join(parts, sql`, `)}), 20260901)`;
/** The n-th (0–2) uniform number in [0, 1) of a digest, from 20 of its bits. */
const uniform = (hash: SQL, n: number) => sql`(((${hash}) >> ${n * 20}) & 1048575)::float8 / 1048576`;
/** A standard normal number from two uniforms of a digest (Box–Muller). */
const normal = (hash: SQL) => sql`(sqrt(-2 * ln(1 - ${uniform(hash, 0)})) * cos(2 * pi() * ${uniform(hash, 1)}))`;
/** SPEC §9 term of a timestamp, China time (currentSemester in SQL). */
const termOf = (ts: SQL) => sql`(CASE WHEN extract(month FROM (${ts}) AT TIME ZONE 'Asia/Shanghai') >= 8
  THEN extract(year FROM (${ts}) AT TIME ZONE 'Asia/Shanghai')::int::text || '01'
  ELSE (extract(year FROM (${ts}) AT TIME ZONE 'Asia/Shanghai')::int - 1)::text || '02' END)`;

/** Midnight (China time) of the day, so one day's district is identical. */
function today(now: Date): number {
  const shanghai = now.getTime() + 8 * 3600 * 1000;
  return shanghai - (shanghai % DAY) - 8 * 3600 * 1000;
}

interface ExamPlan {
  level: number;
  subject: string;
  title: string;
  exam_date: string;
  term: string;
  duration: number;
  full_marks: number;
  sections: { title: string; items: { questionId: number; points: number; no: string }[] }[];
}

/** Three exams a grade: maths twice (the second paper in reverse order), English once. */
function examPlans(books: SeededBook[], start: number): ExamPlan[] {
  const plans: ExamPlan[] = [];
  for (const [g, level] of LEVELS.entries()) {
    const sittings = [
      { subject: '数学', title: `${SHORT[g]}年级数学第一次月考`, daysAgo: 45, duration: 90, reverse: false },
      { subject: '数学', title: `${SHORT[g]}年级数学期中考试`, daysAgo: 12, duration: 120, reverse: true },
      { subject: '英语', title: `${SHORT[g]}年级英语期中考试`, daysAgo: 11, duration: 100, reverse: false },
    ];
    for (const s of sittings) {
      const book = books.find((b) => b.subject === s.subject && b.gradeLevel === level);
      if (!book) continue;
      let no = 0;
      const sections = examPaper(book).map((sec) => ({
        title: sec.title,
        items: (s.reverse ? [...sec.questions].reverse() : sec.questions).map((q) => ({ questionId: q.id, points: sec.points, no: String(++no) })),
      }));
      const examDate = new Date(start - s.daysAgo * DAY + 8 * 3600 * 1000);
      plans.push({
        level,
        subject: s.subject,
        title: s.title,
        exam_date: examDate.toISOString().slice(0, 10),
        term: currentSemester(examDate),
        duration: s.duration,
        full_marks: sections.reduce((sum, sec) => sum + sec.items.reduce((t, i) => t + i.points, 0), 0),
        sections,
      });
    }
  }
  return plans;
}

export interface DistrictFigures {
  schools: number;
  students: number;
  answerRecords: number;
  /** Seconds: everything (schema, content, rosters, work, answers, rollups, VACUUM ANALYZE). */
  loadSeconds: number;
  answersSeconds: number;
  rollupsSeconds: number;
  rollupSampleMismatches: number;
  sizes: Record<string, number>;
}

async function admin<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export const districtUrl = (serverUrl: string) => {
  const target = new URL(serverUrl);
  target.pathname = `/${DISTRICT_DB}`;
  return target.toString();
};

export async function districtExists(serverUrl: string): Promise<boolean> {
  return admin(serverUrl, async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [DISTRICT_DB])).rowCount === 1);
}

export async function dropDistrict(serverUrl: string): Promise<void> {
  await admin(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${DISTRICT_DB} WITH (FORCE)`));
}

const log = (msg: string) => console.error(`  ${msg}`);

/**
 * Measures on the district: generated afresh (SCALE × 50 schools; 0.04, two schools, unless given),
 * or the kept one with `--reuse`; dropped afterwards unless `--keep` or `--reuse`.
 */
export async function onDistrict(serverUrl: string, measure: (database: Database) => Promise<BenchRow[]>): Promise<BenchRow[]> {
  const schools = Math.max(1, Math.round(50 * Number(process.env.SCALE ?? 0.04)));
  const reuse = process.argv.includes('--reuse') && (await districtExists(serverUrl));
  const keep = process.argv.includes('--keep') || reuse;
  let database: Database | undefined;
  try {
    if (reuse) database = await openDatabase({ url: districtUrl(serverUrl), poolSize: 10 });
    else {
      log(`generating a district of ${schools} schools`);
      database = (await generateDistrict(serverUrl, schools)).database;
    }
    return await measure(database);
  } finally {
    await database?.close();
    if (!keep) await dropDistrict(serverUrl);
  }
}

/** Creates the district database afresh and loads `schools` schools into it. */
export async function generateDistrict(serverUrl: string, schools: number): Promise<{ database: Database; figures: DistrictFigures }> {
  await dropDistrict(serverUrl);
  await admin(serverUrl, (c) => c.query(`CREATE DATABASE ${DISTRICT_DB}`));
  const t0 = performance.now();
  const database = await openDatabase({ url: districtUrl(serverUrl) });
  const db = database.db;
  // The answer records' term partitions, as the server makes them at start.
  await ensureAnswerPartitions(db);
  const start = today(new Date());
  const startIso = new Date(start).toISOString();

  // Platform content: the demo's knowledge points, question bank and exercise books.
  const subjectRows = await rows<{ id: number; name: string }>(db, sql`
    INSERT INTO subjects (name) SELECT unnest(${`{${SUBJECTS.join(',')}}`}::text[]) RETURNING id, name`);
  const books = await seedContent(db, (name) => subjectRows.find((s) => s.name === name)!.id);

  // Schools, courses, grades, classes, students.
  await db.execute(sql`INSERT INTO tenants (name) SELECT '杭州市滨江区第' || i || '中学' FROM generate_series(1, ${schools}) i`);
  await db.execute(sql`INSERT INTO schools (tenant_id, name, region) SELECT id, name, '杭州市滨江区' FROM tenants ORDER BY id`);
  await db.execute(sql`INSERT INTO courses (tenant_id, school_id, subject_id, name) SELECT sc.tenant_id, sc.id, su.id, su.name FROM schools sc, subjects su ORDER BY sc.id, su.id`);
  await db.execute(sql`
    INSERT INTO grades (tenant_id, school_id, name, level)
    SELECT sc.tenant_id, sc.id, (${`{${SHORT.join(',')}}`}::text[])[l - 6] || '年级', l FROM schools sc, generate_series(7, 9) l ORDER BY sc.id, l`);
  await db.execute(sql`
    INSERT INTO classes (tenant_id, school_id, grade_id, name)
    SELECT g.tenant_id, g.school_id, g.id, (${`{${SHORT.join(',')}}`}::text[])[g.level - 6] || '(' || n || ')班'
      FROM grades g, generate_series(1, ${CLASSES_PER_GRADE}) n ORDER BY g.id, n`);
  await db.execute(sql`
    WITH cls AS (
      SELECT c.id, c.school_id, g.level, row_number() OVER (PARTITION BY c.grade_id ORDER BY c.id) AS no,
             row_number() OVER (PARTITION BY c.school_id ORDER BY c.id) - 1 AS k
        FROM classes c JOIN grades g ON g.id = c.grade_id
    )
    INSERT INTO students (tenant_id, school_id, class_id, name, student_no, gender, parent_phone, binding_status)
    SELECT sc.tenant_id, sc.id, c.id,
           substr(${SURNAMES}, 1 + (hashtext('s' || sc.id || ':' || i) & 65535) % ${[...SURNAMES].length}, 1)
             || substr(${GIVEN}, 1 + (hashtext('g' || sc.id || ':' || i) & 65535) % ${[...GIVEN].length}, 1)
             || CASE WHEN i % 10 < 7 THEN substr(${GIVEN}, 1 + (hashtext('h' || sc.id || ':' || i) & 65535) % ${[...GIVEN].length}, 1) ELSE '' END,
           (2026 - (c.level - 7))::text || lpad(c.no::text, 2, '0') || lpad((i / ${CLASSES_PER_SCHOOL} + 1)::text, 3, '0'),
           1 + i % 2, '137' || lpad((sc.id * ${STUDENTS_PER_SCHOOL} + i)::text, 8, '0'), (i % 5 < 3)::int
      FROM schools sc CROSS JOIN generate_series(0, ${STUDENTS_PER_SCHOOL - 1}) i
      JOIN cls c ON c.school_id = sc.id AND c.k = i % ${CLASSES_PER_SCHOOL}
     ORDER BY sc.id, c.id, i`);

  // Teachers: per grade and subject, six teachers of two classes each; one password hash for all.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.execute(sql`
    INSERT INTO users (tenant_id, username, password_hash, name, phone, school_id)
    SELECT sc.tenant_id, 'd' || sc.id || 'g' || l || 's' || su.id || 't' || k, ${passwordHash},
           substr(${SURNAMES}, 1 + (hashtext('t' || sc.id || l || su.id || k) & 65535) % ${[...SURNAMES].length}, 1) || '老师',
           '138' || lpad((sc.id * 1000 + l * 100 + su.id * 10 + k)::text, 8, '0'), sc.id
      FROM schools sc, generate_series(7, 9) l, subjects su, generate_series(1, ${TEACHERS_PER_GRADE_SUBJECT}) k
     ORDER BY sc.id, l, su.id, k`);
  await db.execute(sql`INSERT INTO user_roles (tenant_id, user_id, role_key) SELECT tenant_id, id, 'xz:teacher' FROM users`);
  await db.execute(sql`
    INSERT INTO teachers (tenant_id, school_id, user_id, name, phone, job)
    SELECT tenant_id, school_id, id, name, phone, '任课教师' FROM users ORDER BY id`);
  await db.execute(sql`
    WITH cls AS (SELECT c.id, c.school_id, g.level, row_number() OVER (PARTITION BY c.grade_id ORDER BY c.id) AS no
                   FROM classes c JOIN grades g ON g.id = c.grade_id)
    INSERT INTO teaching_assignments (tenant_id, teacher_id, class_id, course_id)
    SELECT te.tenant_id, te.id, c.id, co.id
      FROM teachers te JOIN users u ON u.id = te.user_id
      CROSS JOIN LATERAL (SELECT (regexp_match(u.username, '^d(\\d+)g(\\d)s(\\d+)t(\\d+)$'))::int[] AS m) p
      JOIN cls c ON c.school_id = p.m[1] AND c.level = p.m[2] AND (c.no + 1) / 2 = p.m[4]
      JOIN courses co ON co.school_id = p.m[1] AND co.subject_id = p.m[3]`);

  // Book homework: each teacher gives a page of the grade's book to both classes (one batch).
  const homeworkSubjects = `{${HOMEWORK_SUBJECTS.join(',')}}`;
  await db.execute(sql`
    WITH pages AS (
      SELECT bp.id, bp.book_id, bp.page_no, s.title AS section_title,
             row_number() OVER (PARTITION BY bp.book_id ORDER BY bp.page_no) - 1 AS k,
             (SELECT jsonb_agg(jsonb_build_object('questionId', q.id, 'points', q.points, 'no', bq.sort_order::text) ORDER BY bq.sort_order)
                FROM book_page_questions bq JOIN questions q ON q.id = bq.question_id WHERE bq.page_id = bp.id) AS items
        FROM book_pages bp JOIN book_sections s ON s.id = bp.section_id
    ),
    given AS (
      SELECT ta.tenant_id, ta.teacher_id, ta.class_id, ta.course_id, b.id AS book_id, j, p.id AS page_id, p.page_no, p.section_title, p.items,
             ${startIso}::timestamptz - (72 - j * 9 - co.subject_id % 3) * interval '1 day' + interval '8 hours' AS assigned_at
        FROM teaching_assignments ta
        JOIN classes c ON c.id = ta.class_id JOIN grades g ON g.id = c.grade_id
        JOIN courses co ON co.id = ta.course_id JOIN subjects su ON su.id = co.subject_id AND su.name = ANY(${homeworkSubjects}::text[])
        JOIN exercise_books b ON b.tenant_id IS NULL AND b.subject_id = co.subject_id AND b.grade_level = g.level
        CROSS JOIN generate_series(0, ${HOMEWORKS_PER_SUBJECT - 1}) j
        JOIN pages p ON p.book_id = b.id AND p.k = j
    )
    INSERT INTO homeworks (tenant_id, teacher_id, class_id, course_id, title, assigned_at, due_at, source_type, book_id, selection, items, term)
    SELECT tenant_id, teacher_id, class_id, course_id, section_title || '（第' || page_no || '页）', assigned_at, assigned_at + interval '28 hours',
           ${SourceType.bookHomework}, book_id, jsonb_build_object('pageIds', jsonb_build_array(page_id)), items, ${termOf(sql`assigned_at`)}
      FROM given ORDER BY tenant_id, teacher_id, j, class_id`);
  // And a custom review in maths: two bank questions of each of the first three sections.
  const reviews = JSON.stringify(
    LEVELS.map((level) => {
      const book = books.find((b) => b.subject === '数学' && b.gradeLevel === level);
      const items = (book?.sections.slice(0, 3).flatMap((sec) => sec.bank.slice(0, 2)) ?? []).map((q, k) => ({ questionId: q.id, points: q.points, no: String(k + 1) }));
      return { level, items };
    }),
  );
  await db.execute(sql`
    WITH review AS (SELECT * FROM jsonb_to_recordset(${reviews}::jsonb) AS x(level int, items jsonb)),
    given AS (
      SELECT ta.tenant_id, ta.teacher_id, ta.class_id, ta.course_id, r.items, ${startIso}::timestamptz - interval '40 days' + interval '8 hours' AS assigned_at
        FROM teaching_assignments ta
        JOIN classes c ON c.id = ta.class_id JOIN grades g ON g.id = c.grade_id
        JOIN courses co ON co.id = ta.course_id JOIN subjects su ON su.id = co.subject_id AND su.name = '数学'
        JOIN review r ON r.level = g.level AND jsonb_array_length(r.items) > 0
    )
    INSERT INTO homeworks (tenant_id, teacher_id, class_id, course_id, title, assigned_at, due_at, source_type, items, term)
    SELECT tenant_id, teacher_id, class_id, course_id, '阶段复习（1）', assigned_at, assigned_at + interval '28 hours',
           ${SourceType.customHomework}, items, ${termOf(sql`assigned_at`)}
      FROM given ORDER BY tenant_id, teacher_id, class_id`);
  await db.execute(sql`
    UPDATE homeworks h SET batch_id = b.first FROM (
      SELECT teacher_id, title, assigned_at, min(id) AS first FROM homeworks GROUP BY teacher_id, title, assigned_at) b
     WHERE b.teacher_id = h.teacher_id AND b.title = h.title AND b.assigned_at = h.assigned_at`);

  // Exams: a paper per school and sitting, written by the grade's first teacher of the subject.
  const plans = JSON.stringify(examPlans(books, start));
  await db.execute(sql`
    WITH plan AS (SELECT * FROM jsonb_to_recordset(${plans}::jsonb) AS x(level int, subject text, title text, exam_date date, term text, duration int, full_marks real, sections jsonb))
    INSERT INTO papers (tenant_id, school_id, created_by, title, subject_id, grade_level, duration_minutes, total_points)
    SELECT sc.tenant_id, sc.id, u.id, p.title, su.id, p.level, p.duration, p.full_marks
      FROM schools sc CROSS JOIN plan p JOIN subjects su ON su.name = p.subject
      JOIN users u ON u.username = 'd' || sc.id || 'g' || p.level || 's' || su.id || 't1'
     ORDER BY sc.id, p.level, p.exam_date`);
  await db.execute(sql`
    WITH plan AS (SELECT * FROM jsonb_to_recordset(${plans}::jsonb) AS x(title text, sections jsonb))
    INSERT INTO paper_sections (tenant_id, paper_id, title, sort_order)
    SELECT pa.tenant_id, pa.id, s.value->>'title', s.n FROM papers pa JOIN plan p ON p.title = pa.title,
           jsonb_array_elements(p.sections) WITH ORDINALITY s(value, n) ORDER BY pa.id, s.n`);
  await db.execute(sql`
    WITH plan AS (SELECT * FROM jsonb_to_recordset(${plans}::jsonb) AS x(title text, sections jsonb)),
    item AS (
      SELECT pa.tenant_id, pa.id AS paper_id, s.n AS section_no, it.value AS item
        FROM papers pa JOIN plan p ON p.title = pa.title,
             jsonb_array_elements(p.sections) WITH ORDINALITY s(value, n), jsonb_array_elements(s.value->'items') it
    )
    INSERT INTO paper_questions (tenant_id, paper_id, section_id, question_id, sort_order, points)
    SELECT i.tenant_id, i.paper_id, ps.id, (i.item->>'questionId')::int, (i.item->>'no')::int, (i.item->>'points')::real
      FROM item i JOIN paper_sections ps ON ps.paper_id = i.paper_id AND ps.sort_order = i.section_no
     ORDER BY i.paper_id, (i.item->>'no')::int`);
  await db.execute(sql`
    WITH plan AS (SELECT * FROM jsonb_to_recordset(${plans}::jsonb) AS x(level int, subject text, title text, exam_date date, term text, sections jsonb))
    INSERT INTO exams (tenant_id, school_id, paper_id, grade_id, course_id, title, exam_date, term, full_marks, items, created_by)
    SELECT pa.tenant_id, pa.school_id, pa.id, g.id, co.id, pa.title, p.exam_date, p.term, pa.total_points,
           (SELECT jsonb_agg(it ORDER BY (it->>'no')::int) FROM jsonb_array_elements(p.sections) s, jsonb_array_elements(s->'items') it),
           pa.created_by
      FROM papers pa JOIN plan p ON p.title = pa.title
      JOIN grades g ON g.school_id = pa.school_id AND g.level = p.level
      JOIN courses co ON co.school_id = pa.school_id AND co.subject_id = pa.subject_id
     ORDER BY pa.id`);
  await db.execute(sql`
    INSERT INTO exam_classes (tenant_id, exam_id, class_id)
    SELECT e.tenant_id, e.id, c.id FROM exams e JOIN classes c ON c.grade_id = e.grade_id ORDER BY e.id, c.id`);
  log(`rosters and work: ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // Answers, a school at a time, in the order grading writes them (a class's sheets together).
  const tenants = (await rows<{ id: number }>(db, sql`SELECT id FROM tenants ORDER BY id`)).map((r) => r.id);
  const t1 = performance.now();
  for (const [n, tenantId] of tenants.entries()) {
    await db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL work_mem = '256MB'`);
      await tx.execute(simulateAnswers(tenantId));
    });
    if (n % 5 === 4 || n === tenants.length - 1) log(`answers: ${n + 1}/${tenants.length} schools, ${((performance.now() - t1) / 1000).toFixed(1)} s`);
  }
  const answersSeconds = (performance.now() - t1) / 1000;

  // Rollups the product's way: rebuildRollups is the bulk path recordAnswers' upkeep must agree with.
  const t2 = performance.now();
  for (const tenantId of tenants) await rebuildRollups(db, tenantId);
  const rollupsSeconds = (performance.now() - t2) / 1000;
  log(`rollups: ${rollupsSeconds.toFixed(1)} s`);
  // What autovacuum would do after a bulk load, before anyone reads: visibility map and statistics.
  await db.execute(sql`VACUUM ANALYZE`);
  const loadSeconds = (performance.now() - t0) / 1000;

  const rollupSampleMismatches = await checkSample(db, tenants[0]);
  const [counts] = await rows<{ students: number; records: number }>(db, sql`
    SELECT (SELECT count(*)::int FROM students) AS students, (SELECT count(*)::int FROM answer_records) AS records`);
  return {
    database,
    figures: { schools, students: counts.students, answerRecords: counts.records, loadSeconds, answersSeconds, rollupsSeconds, rollupSampleMismatches, sizes: await sizes(db) },
  };
}

/** One school's answer records: every student of every class its work was given to. */
function simulateAnswers(tenantId: number): SQL {
  const classEffect = normal(digest(sql`'class'`, sql`s.class_id`));
  const own = normal(digest(sql`'student'`, sql`s.id`));
  return sql`
    WITH question AS MATERIALIZED (
      SELECT id, type, answer AS key, difficulty, knowledge_point_ids,
             ARRAY(SELECT o->>'key' FROM jsonb_array_elements(options) WITH ORDINALITY AS x(o, n) WHERE o->>'key' <> answer ORDER BY n) AS wrong
        FROM questions
    ),
    student AS MATERIALIZED (
      SELECT s.id AS student_id, s.class_id, s.school_id, 0.35 * ${classEffect} + ${own} AS ability
        FROM students s WHERE s.tenant_id = ${tenantId} AND s.status = 0
    ),
    work AS MATERIALIZED (
      SELECT h.source_type, h.id AS source_id, h.class_id, h.term, co.subject_id, h.items,
             h.assigned_at + interval '5 hours' AS answered_at, 0.7::float8 AS ease, 0.04::float8 AS skip
        FROM homeworks h JOIN courses co ON co.id = h.course_id WHERE h.tenant_id = ${tenantId}
      UNION ALL
      SELECT ${SourceType.exam}::smallint, e.id, ec.class_id, e.term, co.subject_id, e.items,
             (e.exam_date::timestamp + interval '1 hour') AT TIME ZONE 'UTC', 0::float8, 0.01::float8
        FROM exams e JOIN exam_classes ec ON ec.exam_id = e.id JOIN courses co ON co.id = e.course_id WHERE e.tenant_id = ${tenantId}
    ),
    sitting AS (
      -- Who handed the work in (a few students miss a homework, fewer an exam).
      SELECT w.*, s.student_id, s.school_id, s.ability
        FROM work w JOIN student s ON s.class_id = w.class_id
       WHERE ${uniform(digest(sql`s.student_id`, sql`w.source_type`, sql`w.source_id`), 0)} >= w.skip
    ),
    drawn AS (
      SELECT w.*, q.id AS question_id, q.type, q.key, q.wrong, q.knowledge_point_ids, (it->>'points')::real AS points,
             1 / (1 + exp(-(1.1 * w.ability - 0.9 * (q.difficulty - 3) + w.ease))) AS p,
             ${digest(sql`w.student_id`, sql`w.source_type`, sql`w.source_id`, sql`q.id`)} AS hash
        FROM sitting w CROSS JOIN LATERAL jsonb_array_elements(w.items) it
        JOIN question q ON q.id = (it->>'questionId')::int
    ),
    graded AS (
      SELECT d.*, ${uniform(sql`d.hash`, 0)} < d.p AS correct, ${uniform(sql`d.hash`, 1)} AS u2, ${uniform(sql`d.hash`, 2)} AS u3 FROM drawn d
    )
    INSERT INTO answer_records (tenant_id, source_type, source_id, student_id, question_id, school_id, class_id, subject_id, term,
                                knowledge_point_ids, is_correct, score, max_score, answer, graded_by, answered_at)
    SELECT ${tenantId}, source_type, source_id, student_id, question_id, school_id, class_id, subject_id, term, knowledge_point_ids,
           correct,
           CASE WHEN correct THEN points
                WHEN type = ${QuestionType.answer} THEN floor(points * 0.8 * u2)
                WHEN type = ${QuestionType.multiple} AND u2 < 0.5 THEN points / 2
                ELSE 0 END,
           points,
           CASE WHEN type IN (${QuestionType.single}, ${QuestionType.judge}) THEN
                  -- Distractors draw unequally: the first wrong option tempts most, then the next.
                  CASE WHEN correct THEN key
                       ELSE wrong[1 + least(CASE WHEN u3 < 0.55 THEN 0 WHEN u3 < 0.85 THEN 1 ELSE 2 END, cardinality(wrong) - 1)] END
                WHEN type = ${QuestionType.multiple} THEN CASE WHEN correct THEN key ELSE left(key, 1) END
                WHEN correct THEN key END,
           ${GradedBy.machine}, answered_at
      FROM graded
     ORDER BY source_type, source_id, class_id, student_id, question_id`;
}

interface Tally {
  k: string;
  answered: number;
  correct: number;
  score: number;
  max_score: number;
  squares: number;
}

/** The rollups of a class and its students, keyed, read from the rollup tables. */
async function rollupsOf(db: Db, tenantId: number, classId: number, studentIds: number[]): Promise<Map<string, Tally>> {
  const ids = `{${studentIds.join(',')}}`;
  const found = await rows<Tally>(db, sql`
    SELECT 'q:' || source_type || ':' || source_id || ':' || question_id AS k, answered, correct, score, max_score, score_squares AS squares
      FROM work_question_stats WHERE tenant_id = ${tenantId} AND class_id = ${classId}
    UNION ALL
    SELECT 's:' || source_type || ':' || source_id || ':' || student_id, answered, correct, score, max_score, 0
      FROM work_student_stats WHERE tenant_id = ${tenantId} AND student_id = ANY(${ids}::int[])
    UNION ALL
    SELECT 'c:' || knowledge_point_id || ':' || day, answered, correct, score, max_score, 0
      FROM class_knowledge_stats WHERE tenant_id = ${tenantId} AND class_id = ${classId}
    UNION ALL
    SELECT 'p:' || student_id || ':' || term || ':' || knowledge_point_id, answered, correct, score, max_score, 0
      FROM student_knowledge_stats WHERE tenant_id = ${tenantId} AND student_id = ANY(${ids}::int[])
    UNION ALL
    -- The class sums of a piece of work, in two rows: hand-ins, excellent, score, full marks; then
    -- the other bands (good, pass, fail).
    SELECT 'w:' || source_type || ':' || source_id, submitted, excellent, score, max_score, 0
      FROM work_class_stats WHERE tenant_id = ${tenantId} AND class_id = ${classId}
    UNION ALL
    SELECT 'b:' || source_type || ':' || source_id, good, pass, fail, 0, 0
      FROM work_class_stats WHERE tenant_id = ${tenantId} AND class_id = ${classId}
    UNION ALL
    SELECT 'n:' || term || ':' || course_id, count(*)::int, 0, 0, 0, 0
      FROM class_participants WHERE tenant_id = ${tenantId} AND class_id = ${classId} GROUP BY term, course_id`);
  return new Map(found.map((r) => [r.k, r]));
}

/** The same rollups recomputed from the answer records (the definitions in answers.ts). */
async function recomputed(db: Db, tenantId: number, classId: number, studentIds: number[]): Promise<Map<string, Tally>> {
  const ids = `{${studentIds.join(',')}}`;
  const tally = sql`count(*)::int AS answered, (count(*) FILTER (WHERE is_correct))::int AS correct, sum(score)::float8 AS score, sum(max_score)::float8 AS max_score`;
  const day = sql`((answered_at AT TIME ZONE 'UTC') + interval '8 hours')::date`;
  // Each student's totals on each piece of work given to the class, and their score-rate band.
  const handIns = sql`SELECT source_type, source_id, student_id, min(term) AS term, sum(score)::real AS score, sum(max_score)::real AS max_score
      FROM answer_records WHERE tenant_id = ${tenantId} AND class_id = ${classId} GROUP BY source_type, source_id, student_id`;
  const band = (low: number, high: number) => sql.raw(`max_score > 0 AND score >= ${low} * max_score AND score < ${high} * max_score`);
  const found = await rows<Tally>(db, sql`
    SELECT 'q:' || source_type || ':' || source_id || ':' || question_id AS k, ${tally}, sum(score * score)::float8 AS squares
      FROM answer_records WHERE tenant_id = ${tenantId} AND class_id = ${classId} GROUP BY source_type, source_id, question_id
    UNION ALL
    SELECT 's:' || source_type || ':' || source_id || ':' || student_id, ${tally}, 0
      FROM answer_records WHERE tenant_id = ${tenantId} AND student_id = ANY(${ids}::int[]) GROUP BY source_type, source_id, student_id
    UNION ALL
    SELECT 'c:' || kp || ':' || ${day}, ${tally}, 0
      FROM answer_records, unnest(knowledge_point_ids) kp WHERE tenant_id = ${tenantId} AND class_id = ${classId} GROUP BY kp, ${day}
    UNION ALL
    SELECT 'p:' || student_id || ':' || term || ':' || kp, ${tally}, 0
      FROM answer_records, unnest(knowledge_point_ids) kp WHERE tenant_id = ${tenantId} AND student_id = ANY(${ids}::int[]) GROUP BY student_id, term, kp
    UNION ALL
    SELECT 'w:' || source_type || ':' || source_id, count(*)::int, count(*) FILTER (WHERE ${band(0.9, 2)})::int, sum(score)::float8, sum(max_score)::float8, 0
      FROM (${handIns}) h GROUP BY source_type, source_id
    UNION ALL
    SELECT 'b:' || source_type || ':' || source_id, count(*) FILTER (WHERE ${band(0.7, 0.9)})::int, count(*) FILTER (WHERE ${band(0.6, 0.7)})::int,
           count(*) FILTER (WHERE ${band(-1, 0.6)})::float8, 0, 0
      FROM (${handIns}) h GROUP BY source_type, source_id
    UNION ALL
    SELECT 'n:' || h.term || ':' || x.course_id, count(DISTINCT h.student_id)::int, 0, 0, 0, 0
      FROM (${handIns}) h JOIN (SELECT source_type, id, course_id FROM homeworks WHERE tenant_id = ${tenantId}
                                UNION ALL SELECT ${SourceType.exam}::smallint, id, course_id FROM exams WHERE tenant_id = ${tenantId}) w
        ON w.source_type = h.source_type AND w.id = h.source_id, LATERAL (VALUES (w.course_id), (0)) x(course_id)
     GROUP BY h.term, x.course_id`);
  return new Map(found.map((r) => [r.k, r]));
}

/** Rows that differ between two sets of rollups (sums are `real`: a cent of tolerance). */
function differences(a: Map<string, Tally>, b: Map<string, Tally>): number {
  const near = (x: number, y: number) => Math.abs(x - y) <= 0.01 + 1e-6 * Math.abs(y);
  let n = 0;
  for (const k of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(k);
    const y = b.get(k);
    // A rollup row at zero is what upkeep leaves when records are taken back; none are here.
    if (!x || !y || x.answered !== y.answered || x.correct !== y.correct || !near(x.score, y.score) || !near(x.max_score, y.max_score) || !near(x.squares, y.squares)) n++;
  }
  return n;
}

/**
 * The check on a sample: the loaded rollups of one class and ten of its students equal their
 * records; re-grading those students' answers on an exam and a homework through recordAnswers
 * keeps them equal; grading the original scores back restores the loaded rollups exactly.
 */
async function checkSample(db: Db, tenantId: number): Promise<number> {
  const [cls] = await rows<{ classId: number }>(db, sql`SELECT min(class_id)::int AS "classId" FROM exam_classes WHERE tenant_id = ${tenantId}`);
  const students = (await rows<{ id: number }>(db, sql`SELECT id FROM students WHERE tenant_id = ${tenantId} AND class_id = ${cls.classId} ORDER BY id LIMIT 10`)).map((r) => r.id);
  const loaded = await rollupsOf(db, tenantId, cls.classId, students);
  let mismatches = differences(loaded, await recomputed(db, tenantId, cls.classId, students));

  const records = await rows<AnswerInput & { maxScore: number; isCorrect: boolean; answeredAt: Date }>(db, sql`
    SELECT source_type AS "sourceType", source_id AS "sourceId", student_id AS "studentId", question_id AS "questionId", score,
           max_score AS "maxScore", is_correct AS "isCorrect", answer, answered_at AS "answeredAt"
      FROM answer_records
     WHERE tenant_id = ${tenantId} AND student_id = ANY(${`{${students.join(',')}}`}::int[])
       AND (source_type, source_id) IN (
         SELECT ${SourceType.exam}::smallint, min(exam_id) FROM exam_classes WHERE class_id = ${cls.classId}
         UNION ALL
         (SELECT source_type, id FROM homeworks WHERE class_id = ${cls.classId} ORDER BY id LIMIT 1))`);
  if (!records.length) return mismatches + 1;
  const original = records.map(({ maxScore: _max, ...r }) => ({ ...r, answeredAt: new Date(r.answeredAt) }));
  // Flip every score: right answers become wrong ones and the other way round.
  const flipped = records.map(({ maxScore, ...r }) => ({ ...r, score: maxScore - r.score, isCorrect: r.score === 0, answeredAt: new Date(r.answeredAt) }));
  await recordAnswers(db, tenantId, flipped, { by: 'machine' });
  mismatches += differences(await rollupsOf(db, tenantId, cls.classId, students), await recomputed(db, tenantId, cls.classId, students));
  await recordAnswers(db, tenantId, original, { by: 'machine' });
  mismatches += differences(await rollupsOf(db, tenantId, cls.classId, students), loaded);
  return mismatches;
}

/** Table + index sizes in MB (pg_total_relation_size). */
/** Sizes in MB; a partitioned table's are its partitions' (answer_records is partitioned by term). */
async function sizes(db: Db): Promise<Record<string, number>> {
  const found = await rows<{ name: string; total: string; heap: string }>(db, sql`
    SELECT c.relname AS name, sum(pg_total_relation_size(coalesce(t.relid, c.oid)))::text AS total, sum(pg_relation_size(coalesce(t.relid, c.oid)))::text AS heap
      FROM pg_class c LEFT JOIN LATERAL pg_partition_tree(c.oid) t ON true
     WHERE c.relname IN ('answer_records', 'work_question_stats', 'work_student_stats', 'work_class_stats', 'class_participants', 'school_question_stats', 'class_knowledge_stats', 'student_knowledge_stats')
     GROUP BY c.relname
    UNION ALL SELECT 'database', pg_database_size(current_database())::text, '0'`);
  const mb = (x: string) => Number(x) / 1024 / 1024;
  const out: Record<string, number> = {};
  for (const r of found) {
    out[r.name] = mb(r.total);
    if (r.name === 'answer_records') out.answer_records_heap = mb(r.heap);
  }
  return out;
}

/** Counts and sizes of a district kept from an earlier run (`--reuse`). */
export async function describeDistrict(db: Db): Promise<Pick<DistrictFigures, 'schools' | 'students' | 'answerRecords' | 'sizes'>> {
  const [counts] = await rows<{ schools: number; students: number; records: number }>(db, sql`
    SELECT (SELECT count(*)::int FROM schools) AS schools, (SELECT count(*)::int FROM students) AS students,
           (SELECT count(*)::int FROM answer_records) AS records`);
  return { schools: counts.schools, students: counts.students, answerRecords: counts.records, sizes: await sizes(db) };
}
