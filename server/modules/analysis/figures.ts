// The learning-situation figures (definitions in docs/analysis-figures.md), read from the rollups
// only (work_class_stats, class_participants, school_question_stats, work_question_stats,
// class_knowledge_stats, and work_student_stats for 使用统计), never answer_records.
// Every figure is a ratio of summed counts; a ratio without a denominator is null ('暂无数据').
import { sql, type SQL } from 'drizzle-orm';
import { BAND_MIN_ITEMS, type Analysis, type GroupFigures } from '../../../src/domain/analysis';
import { SourceType } from '../../../src/domain/content';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { classScope, courseScope, coursesNarrowed, tenantScope, wholeSchools } from '../vesta/scope';
import { leftAfter } from '../vesta/enrolment';

export interface AnalysisQuery {
  term: string;
  /** A school of the researcher's region (the drill's second level); others: their own school. */
  schoolId?: number;
  gradeId?: number;
  courseId?: number;
  /** A subject across schools (a region's schools each have their own course ids). */
  subjectId?: number;
  classId?: number;
  leaderType?: number;
}

/** What the groups are: a region's schools, a school's grades, or classes (docs/analysis-figures.md). */
export type GroupBy = 'school' | 'grade' | 'class';

/** A researcher drills region → school → grade → class; everyone else compares classes. */
export function groupByOf(p: Principal, q: AnalysisQuery): GroupBy {
  if (p.activeRole !== 'regionResearcher' || q.gradeId || q.classId) return 'class';
  return q.schoolId ? 'grade' : 'school';
}

/** The classes in scope narrowed by the query: school, grade, class (a condition on `classes c`). */
function classFilter(p: Principal, q: AnalysisQuery): SQL {
  return sql`${classScope(p, q.leaderType)} ${q.schoolId ? sql`AND c.school_id = ${q.schoolId}` : sql``} ${q.gradeId ? sql`AND c.grade_id = ${q.gradeId}` : sql``} ${q.classId ? sql`AND c.id = ${q.classId}` : sql``}`;
}

/** The chosen course or subject, within the subjects the caller may see (a condition on `courses co`). */
function courseFilter(p: Principal, q: AnalysisQuery): SQL {
  return sql`${q.courseId ? sql`AND co.id = ${q.courseId}` : sql``} ${q.subjectId ? sql`AND co.subject_id = ${q.subjectId}` : sql``} AND ${courseScope(p)}`;
}

/** Whether the figures cover every course: neither the query nor the caller's role narrows them. */
const anyCourse = (p: Principal, q: AnalysisQuery) => !q.courseId && !q.subjectId && !coursesNarrowed(p);

/**
 * The courses whose hand-ins make a participant (a condition on `class_participants cp`): any
 * course (the rows of course 0) unless the query or the caller's role narrows the courses.
 */
function participantCourses(p: Principal, q: AnalysisQuery): SQL {
  if (anyCourse(p, q)) return sql`cp.course_id = 0`;
  return sql`cp.course_id IN (SELECT co.id FROM courses co WHERE ${tenantScope(p, sql`co.tenant_id`)} ${courseFilter(p, q)})`;
}

/** A ratio of counts, four decimals; null when nothing was counted below it. */
export const ratio = (num: number, den: number): number | null => (den > 0 ? Math.round((num / den) * 10000) / 10000 : null);

/** The classes in scope (`sc`) and the pieces of work given to them in the term (`work`). */
export function scopeCtes(p: Principal, q: AnalysisQuery): SQL {
  const course = courseFilter(p, q);
  // A part of a school (a teacher's classes, a grade, a class) reads its homework by class
  // (homeworks_class_idx); whole schools read their tenants' term, where naming every class of a
  // region again cost it about 20 of its 250 ms.
  const byClass = wholeSchools(p, q) ? sql`` : sql`AND h.class_id IN (SELECT id FROM sc)`;
  // Every read below is bounded by the classes in scope and joined by the class's own tenant, an
  // equality: a region's list of tenants, checked beside its list of schools, made the planner
  // pair every tenant with every school (62,500 pairs for 250 schools) before the classes.
  return sql`
    sc AS (
      SELECT c.id, c.name, c.school_id, c.grade_id, c.tenant_id,
             -- In school now, read off the partial index of those in school (students_enrolled_class_idx).
             (SELECT count(*) FROM students st WHERE st.tenant_id = c.tenant_id AND st.class_id = c.id AND st.status = 0)::int AS enrolled
        FROM classes c WHERE ${classFilter(p, q)}
    ),
    enrolled AS (SELECT id AS class_id, enrolled AS n FROM sc),
    gone AS (
      SELECT st.class_id, st.left_on FROM sc JOIN students st
          ON st.tenant_id = sc.tenant_id AND st.class_id = sc.id AND st.status <> 0 AND st.left_on IS NOT NULL
    ),
    -- The work of the classes in scope (a class's work is its school's); each piece carries its
    -- class's head count, for the hand-ins expected once it is due. The homework's own columns are
    -- read first (OFFSET 0 keeps the planner from merging the two): joined whole, each row carried
    -- its questions (items) through the joins, and a region's term of homework spilled to disk.
    work AS (
      SELECT h.tenant_id, h.source_type, h.id AS source_id, h.class_id, h.assigned_at AS at, h.pending_review, h.due_at > now() AS open,
             h.banded, sc.enrolled
        FROM (SELECT h.tenant_id, h.source_type, h.id, h.class_id, h.course_id, h.assigned_at, h.pending_review, h.due_at,
                     jsonb_array_length(h.items) >= ${BAND_MIN_ITEMS} AS banded
                FROM homeworks h
               WHERE ${tenantScope(p, sql`h.tenant_id`)} AND h.term = ${q.term} ${byClass} OFFSET 0) h
        JOIN sc ON sc.id = h.class_id JOIN courses co ON co.id = h.course_id
       WHERE TRUE ${course}
      UNION ALL
      SELECT e.tenant_id, ${SourceType.exam}::smallint, e.id, ec.class_id, e.exam_date::timestamptz, 0, false, true, sc.enrolled FROM exams e
        JOIN exam_classes ec ON ec.exam_id = e.id JOIN sc ON sc.id = ec.class_id JOIN courses co ON co.id = e.course_id
       WHERE ${tenantScope(p, sql`e.tenant_id`)} AND e.term = ${q.term} ${course}
    ),
    ws AS (
      SELECT w.class_id, w.source_type, w.source_id, w.at, w.open, w.banded, s.student_id, s.score, s.max_score, s.answered, s.correct FROM work w
        -- The work's own tenant (already in scope), joined as an equality: checking a region's list
        -- of tenants on each of millions of rollup rows made the planner look each up by index.
        JOIN work_student_stats s ON s.tenant_id = w.tenant_id AND s.source_type = w.source_type AND s.source_id = w.source_id AND s.class_id = w.class_id
    ),
    -- The hand-ins expected of a piece of homework: once due, the students of the class on the day
    -- it was given (those in school now and those who left after that day, not before:
    -- server/modules/vesta/enrolment.ts); before the deadline only those already handed in (not yet
    -- due is not missing: docs/analysis-figures.md). Figures only ever sum them by class and by
    -- week, so those who left after the day are their own rows (later, a join on the class rather
    -- than a count per piece of work), summed beside the rest.
    later AS (
      SELECT w.class_id, w.at, count(*)::int AS n FROM work w
        JOIN gone ON gone.class_id = w.class_id AND ${leftAfter(sql`gone.left_on`, sql`w.at`)}
       WHERE w.${HOMEWORK} AND NOT w.open GROUP BY w.source_type, w.source_id, w.class_id, w.at
    ),
    -- A row per class and piece of work: its class sums (work_class_stats, zero when nobody handed
    -- it in) and the hand-ins expected of those in school now. A region's term is a few hundred
    -- thousand of these where ws has tens of millions. Not kept aside (NOT MATERIALIZED): each
    -- query reads it once, and a copy of it cost a 50-school region 35 of its 290 ms. A query that
    -- read both wk and expected would compute it twice: make it MATERIALIZED there.
    wk AS NOT MATERIALIZED (
      SELECT w.class_id, w.source_type, w.source_id, w.at, w.open, w.banded, coalesce(s.submitted, 0) AS submitted,
             coalesce(s.score, 0) AS score, coalesce(s.max_score, 0) AS max_score, coalesce(s.excellent, 0) AS excellent,
             coalesce(s.good, 0) AS good, coalesce(s.pass, 0) AS pass, coalesce(s.fail, 0) AS fail,
             CASE WHEN NOT w.${HOMEWORK} THEN 0 WHEN w.open THEN coalesce(s.submitted, 0) ELSE w.enrolled END AS expected
        FROM work w
        LEFT JOIN work_class_stats s ON s.tenant_id = w.tenant_id AND s.source_type = w.source_type AND s.source_id = w.source_id AND s.class_id = w.class_id
                                    AND ${tenantScope(p, sql`s.tenant_id`)}
    ),
    -- Hand-ins expected of homework, to be summed by class or week.
    expected AS (
      SELECT class_id, at, expected AS n FROM wk WHERE ${HOMEWORK}
      UNION ALL
      SELECT class_id, at, n FROM later
    )`;
}

/** Counts of one class; every group figure (class, school, region) is a sum of these. */
export interface Counts {
  enrolled: number;
  /** Students 在读 in the classes given work in scope: the participation rate's denominator. */
  enrolledWithWork: number;
  participants: number;
  homeworkAssigned: number;
  homeworkSubmitted: number;
  works: number;
  score: number;
  maxScore: number;
  excellent: number;
  good: number;
  pass: number;
  fail: number;
}

interface ClassRow extends Counts {
  classId: number;
  className: string;
  gradeId: number;
  gradeLevel: number;
  gradeName: string;
  schoolId: number;
  schoolName: string;
}

export const HOMEWORK = sql`source_type <> ${SourceType.exam}`;

interface WeekRow {
  week: string;
  score: number;
  maxScore: number;
  submitted: number;
  assigned: number;
}

/**
 * One pass over the scope's class sums of each piece of work, grouped two ways at once (GROUPING
 * SETS): per class and per week.
 */
export async function classAndWeekCounts(db: Db, p: Principal, q: AnalysisQuery): Promise<{ classes: ClassRow[]; weeks: WeekRow[] }> {
  const found = await rows<ClassRow & { byWeek: boolean; week: string | null }>(db, sql`
    WITH ${scopeCtes(p, q)},
    -- Participants: the distinct students who handed in any of the scope's work, kept per class,
    -- term and course by the write path (class_participants; course 0 = any course).
    part AS (
      SELECT cp.class_id, ${anyCourse(p, q) ? sql`count(*)` : sql`count(DISTINCT cp.student_id)`}::int AS n
        FROM sc JOIN class_participants cp ON cp.tenant_id = sc.tenant_id AND cp.class_id = sc.id
       WHERE cp.term = ${q.term} AND ${participantCourses(p, q)}
       GROUP BY cp.class_id
    ),
    -- A class with a row here was given work in scope; a week, if homework was given in it or
    -- anything was handed in.
    agg AS (
      SELECT class_id, date_trunc('week', at)::date AS week, grouping(class_id) = 1 AS "byWeek",
             sum(expected)::int AS "homeworkAssigned",
             sum(submitted) FILTER (WHERE ${HOMEWORK})::int AS "homeworkSubmitted", sum(submitted)::int AS works,
             sum(score)::float8 AS score, sum(max_score)::float8 AS "maxScore",
             sum(excellent) FILTER (WHERE banded)::int AS excellent, sum(good) FILTER (WHERE banded)::int AS good,
             sum(pass) FILTER (WHERE banded)::int AS pass, sum(fail) FILTER (WHERE banded)::int AS fail
        FROM (SELECT class_id, source_type, at, banded, submitted, score, max_score, excellent, good, pass, fail, expected FROM wk
              UNION ALL
              SELECT class_id, ${SourceType.customHomework}::smallint, at, false, 0, 0, 0, 0, 0, 0, 0, n FROM later) wk
       GROUP BY GROUPING SETS ((class_id), (date_trunc('week', at)::date))
      HAVING grouping(class_id) = 0 OR count(*) FILTER (WHERE ${HOMEWORK}) > 0 OR sum(submitted) > 0
    )
    SELECT false AS "byWeek", NULL AS week, sc.id AS "classId", sc.name AS "className", sc.grade_id AS "gradeId", g.level AS "gradeLevel", g.name AS "gradeName", sc.school_id AS "schoolId", s.name AS "schoolName",
           coalesce(en.n, 0) AS enrolled, CASE WHEN agg.class_id IS NULL THEN 0 ELSE coalesce(en.n, 0) END AS "enrolledWithWork", coalesce(part.n, 0) AS participants,
           coalesce(agg."homeworkAssigned", 0) AS "homeworkAssigned", coalesce(agg."homeworkSubmitted", 0) AS "homeworkSubmitted",
           coalesce(agg.works, 0) AS works, coalesce(agg.score, 0) AS score, coalesce(agg."maxScore", 0) AS "maxScore",
           coalesce(agg.excellent, 0) AS excellent, coalesce(agg.good, 0) AS good, coalesce(agg.pass, 0) AS pass, coalesce(agg.fail, 0) AS fail
      FROM sc JOIN grades g ON g.id = sc.grade_id JOIN schools s ON s.id = sc.school_id
      LEFT JOIN enrolled en ON en.class_id = sc.id LEFT JOIN part ON part.class_id = sc.id LEFT JOIN agg ON agg.class_id = sc.id AND NOT agg."byWeek"
    UNION ALL
    SELECT true, agg.week::text, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, coalesce(agg."homeworkAssigned", 0), coalesce(agg."homeworkSubmitted", 0),
           0, agg.score, agg."maxScore", 0, 0, 0, 0
      FROM agg WHERE agg."byWeek"`);
  return {
    classes: found.filter((r) => !r.byWeek),
    weeks: found
      .filter((r) => r.byWeek)
      .map((r) => ({ week: r.week as string, score: r.score, maxScore: r.maxScore, submitted: r.homeworkSubmitted, assigned: r.homeworkAssigned }))
      .sort((a, b) => a.week.localeCompare(b.week)),
  };
}

const ZERO: Counts = { enrolled: 0, enrolledWithWork: 0, participants: 0, homeworkAssigned: 0, homeworkSubmitted: 0, works: 0, score: 0, maxScore: 0, excellent: 0, good: 0, pass: 0, fail: 0 };
const KEYS = Object.keys(ZERO) as (keyof Counts)[];

function add(a: Counts, b: Counts): Counts {
  const out = { ...a };
  for (const k of KEYS) out[k] += b[k];
  return out;
}

/** Counts and the rates made from them. */
export function figures(c: Counts): GroupFigures {
  const banded = c.excellent + c.good + c.pass + c.fail;
  return {
    ...c,
    score: Math.round(c.score * 100) / 100,
    maxScore: Math.round(c.maxScore * 100) / 100,
    scoreRate: ratio(c.score, c.maxScore),
    // A class given no work in the term has nothing to take part in: it is not a non-participant.
    participationRate: ratio(c.participants, c.enrolledWithWork),
    completionRate: ratio(c.homeworkSubmitted, c.homeworkAssigned),
    bands: {
      excellent: ratio(c.excellent, banded),
      good: ratio(c.good, banded),
      pass: ratio(c.pass, banded),
      fail: ratio(c.fail, banded),
    },
  };
}

const byName = (a: string, b: string) => a.localeCompare(b, 'zh-Hans-CN', { numeric: true });

/** Weekly figures of the scope over the term (weeks start on Monday). */
function weeklyTrend(weeks: WeekRow[]) {
  return weeks.map((w) => ({ ...w, score: Math.round(w.score * 100) / 100, maxScore: Math.round(w.maxScore * 100) / 100, scoreRate: ratio(w.score, w.maxScore), completionRate: ratio(w.submitted, w.assigned) }));
}

/** Subjects the knowledge figures may cover: the chosen course's, and for a subject leader only theirs. */
function subjectFilter(p: Principal, q: AnalysisQuery): SQL {
  return sql`k.subject_id IN (SELECT co.subject_id FROM courses co WHERE ${tenantScope(p, sql`co.tenant_id`)} ${courseFilter(p, q)})`;
}

const KNOWLEDGE_COLUMNS = 12;

/**
 * Group × knowledge point mastery (correct / answered), the most-practised points of the scope.
 * One column per point as a teacher names it: the curriculum tree lists some points under two
 * parents (词语运用 under 语言积累与运用 and under 文言文阅读), and those rows of a subject count
 * as one column, under the smallest of their ids.
 */
export async function knowledgeMap(db: Db, p: Principal, q: AnalysisQuery, groupBy: GroupBy) {
  const cells = await rows<{ groupId: number; knowledgePointId: number; name: string; subject: string; answered: number; correct: number }>(db, sql`
    WITH sc AS (SELECT c.id, c.school_id, c.grade_id, c.tenant_id FROM classes c WHERE ${classFilter(p, q)}),
    cells AS (
      SELECT ${groupBy === 'school' ? sql`sc.school_id` : groupBy === 'grade' ? sql`sc.grade_id` : sql`sc.id`} AS "groupId", kp.subject_id, kp.name, min(kp.id) AS kid,
             sum(k.answered)::int AS answered, sum(k.correct)::int AS correct
        FROM sc JOIN class_knowledge_stats k ON k.tenant_id = sc.tenant_id AND k.class_id = sc.id JOIN knowledge_points kp ON kp.id = k.knowledge_point_id
       WHERE k.term = ${q.term} AND ${subjectFilter(p, q)}
       GROUP BY 1, 2, 3
    ),
    top AS (SELECT subject_id, name, min(kid) AS id FROM cells GROUP BY 1, 2 ORDER BY sum(answered) DESC, 3 LIMIT ${KNOWLEDGE_COLUMNS})
    SELECT cells."groupId", top.id AS "knowledgePointId", top.name, su.name AS subject, cells.answered, cells.correct
      FROM cells JOIN top USING (subject_id, name) JOIN subjects su ON su.id = cells.subject_id`);
  const points = new Map<number, { name: string; subject: string }>();
  for (const c of cells) points.set(c.knowledgePointId, { name: c.name, subject: c.subject });
  // Two subjects may name a point alike: their columns say which subject.
  const named = (name: string) => [...points.values()].filter((k) => k.name === name).length > 1;
  return {
    knowledgePoints: [...points]
      .map(([id, k]) => ({ id, name: named(k.name) ? `${k.name}（${k.subject}）` : k.name }))
      .sort((a, b) => a.id - b.id),
    cells: cells.map((c) => ({ groupId: c.groupId, knowledgePointId: c.knowledgePointId, answered: c.answered, correct: c.correct, mastery: ratio(c.correct, c.answered) })),
  };
}

const MISSED_LIMIT = 10;
/** Fewer answers than this and a question's error rate is one or two students. */
const MISSED_MIN_ANSWERS = 5;

/** The questions most often answered wrong in the scope (wrong / answered, summed over classes). */
export async function mostMissed(db: Db, p: Principal, q: AnalysisQuery) {
  // Whole schools read the school sums; a part of a school (grades, classes) its classes' rows.
  const qs = wholeSchools(p, q)
    ? sql`
    sch AS (SELECT c.school_id, c.tenant_id FROM classes c WHERE ${classFilter(p, q)} GROUP BY 1, 2),
    qs AS (
      SELECT s.question_id, sum(s.answered)::int AS answered, sum(s.correct)::int AS correct
        FROM sch JOIN school_question_stats s ON s.tenant_id = sch.tenant_id AND s.school_id = sch.school_id
       WHERE s.term = ${q.term}
         AND s.course_id IN (SELECT co.id FROM courses co WHERE ${tenantScope(p, sql`co.tenant_id`)} ${courseFilter(p, q)})
       GROUP BY 1 HAVING sum(s.answered) >= ${MISSED_MIN_ANSWERS}
    )`
    : sql`
    ${scopeCtes(p, q)},
    qs AS (
      SELECT s.question_id, sum(s.answered)::int AS answered, sum(s.correct)::int AS correct FROM work w
        JOIN work_question_stats s ON s.tenant_id = w.tenant_id AND s.source_type = w.source_type AND s.source_id = w.source_id AND s.class_id = w.class_id
       GROUP BY 1 HAVING sum(s.answered) >= ${MISSED_MIN_ANSWERS}
    )`;
  const list = await rows<{ questionId: number; stem: string; answered: number; correct: number }>(db, sql`
    WITH ${qs}
    SELECT qs.question_id AS "questionId", left(qu.stem, 300) AS stem, qs.answered, qs.correct FROM qs JOIN questions qu ON qu.id = qs.question_id
     ORDER BY (qs.answered - qs.correct)::float8 / qs.answered DESC, qs.answered DESC, qs.question_id LIMIT ${MISSED_LIMIT}`);
  return list.map((r) => ({ ...r, wrong: r.answered - r.correct, wrongRate: ratio(r.answered - r.correct, r.answered) }));
}

/**
 * The whole analysis of the caller's scope. A regional researcher compares schools; everyone else
 * classes. Groups come in name order: a comparison, not a ranking.
 */
export async function analysis(db: Db, p: Principal, q: AnalysisQuery): Promise<Analysis> {
  const groupBy = groupByOf(p, q);
  // Side by side: on PostgreSQL three connections of the pool work at once (a region's figures
  // take the time of the slowest part instead of the sum); PGlite serves them one after another.
  const [{ classes, weeks }, knowledge, questions] = await Promise.all([classAndWeekCounts(db, p, q), knowledgeMap(db, p, q, groupBy), mostMissed(db, p, q)]);
  const trend = weeklyTrend(weeks);
  const groups = new Map<number, { id: number; name: string; level: number; counts: Counts }>();
  for (const c of classes) {
    const id = groupBy === 'school' ? c.schoolId : groupBy === 'grade' ? c.gradeId : c.classId;
    const name = groupBy === 'school' ? c.schoolName : groupBy === 'grade' ? c.gradeName : c.className;
    const g = groups.get(id) ?? { id, name, level: c.gradeLevel, counts: ZERO };
    g.counts = add(g.counts, c);
    groups.set(id, g);
  }
  const total = classes.reduce<Counts>((s, c) => add(s, c), ZERO);
  return {
    term: q.term,
    groupBy,
    total: figures(total),
    // Grades from the youngest up (七, 八, 九: their names' pinyin order is 八, 九, 七); the rest by name.
    groups: [...groups.values()].sort((a, b) => (groupBy === 'grade' ? a.level - b.level : 0) || byName(a.name, b.name)).map((g) => ({ id: g.id, name: g.name, ...figures(g.counts) })),
    trend,
    knowledge,
    questions,
  };
}
