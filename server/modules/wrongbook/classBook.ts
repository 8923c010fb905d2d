// The class wrong-answer book (班级错题本, /wrongbook/index, /errorNote, /learningGroup): for one class,
// course and term, the questions the class got wrong with their error rate, read from the rollup
// work_question_stats (one row per class × question × piece of work); and for one question, who
// got it wrong with which answer (a small read of that class's answer_records for that question).
// Error rate = sum(answered − correct) / sum(answered) over the class's homework and exams of the
// course in the term (docs/api-wrongbook-class.md).
import { sql, type SQL } from 'drizzle-orm';
import { Type, type Static } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { OBJECTIVE_TYPES } from '../../../src/domain/content';
import { currentSemester } from '../../../src/domain/semester';
import { allow } from '../../auth/plugin';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { isoTime, rows } from '../../db/query';
import { notFound, ok } from '../../http/envelope';
import { page, PagingQuery, pageWindow } from '../../http/paging';
import { Id } from '../../http/schemas';
import { me, teaches } from '../minerva/access';
import { QUESTION_COLUMNS } from '../minerva/questions';
import { findClassForPlatform, isPlatformAdmin } from './platform';
import { ADMIN_ROLES, checkCourse, findClass, isAdmin, schoolOf, TEACHER_ROLES, type ClassRow } from '../vesta/access';

/** Teachers (their own classes and courses), school admins (any class of their school) and the platform admin (any class). */
const readers = allow({ roles: [...TEACHER_ROLES, ...ADMIN_ROLES, 'admin'] });

/** Error-rate bands of the filter chips; bounds compare whole numbers (no float edges), see inBand. */
export const BANDS = ['all', 'gt40', '30to40', '10to30', 'lt10'] as const;
export type Band = (typeof BANDS)[number];

/** 'YYYY01' / 'YYYY02' is one term; 'YYYY03' (a learning year) is both terms of that year. */
function termsOf(term: string | undefined): string[] {
  const value = term ?? currentSemester();
  const year = value.slice(0, 4);
  return value.endsWith('03') ? [`${year}01`, `${year}02`] : [value];
}

const ScopeQuery = Type.Object(
  {
    classId: Id,
    courseId: Id,
    term: Type.Optional(Type.String({ pattern: '^[0-9]{4}0[123]$', maxLength: 6 })),
    sourceType: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)])),
    /** SPEC §3 mistake type 1 (作业): homework only, both book and custom. */
    mistakeType: Type.Optional(Type.Literal(1)),
  },
  { additionalProperties: false },
);
type ScopeQuery = Static<typeof ScopeQuery>;

/** The class, after checking the caller may read it: a teacher only for a course they teach there. */
async function checkScope(db: Db, p: Principal, q: ScopeQuery): Promise<{ tenantId: number; cls: ClassRow }> {
  if (isPlatformAdmin(p)) return findClassForPlatform(db, q.classId, q.courseId);
  const { tenantId } = schoolOf(p);
  const cls = await findClass(db, p, q.classId);
  await checkCourse(db, p, q.courseId);
  if (!isAdmin(p)) {
    const { teacherId } = await me(db, p);
    if (!(await teaches(db, teacherId, cls.id, q.courseId))) throw notFound('班级不存在');
  }
  return { tenantId, cls };
}

/**
 * The class's pieces of work of the course in the terms (homework by the class index, exams by
 * exam_classes), then their rollup rows by primary-key prefix: a bounded read for one class.
 */
function classWork(tenantId: number, q: ScopeQuery): SQL {
  const terms = termsOf(q.term);
  const termList = sql`${`{${terms.join(',')}}`}::text[]`;
  const homework = q.sourceType !== 2;
  // mistakeType 1 means homework only, whatever the source filter says.
  const exam = q.mistakeType === undefined && (q.sourceType === undefined || q.sourceType === 2);
  // No part (exams asked for with homework only): an empty list, still valid SQL.
  const parts: SQL[] = [sql`SELECT NULL::smallint, NULL::int WHERE false`];
  if (homework)
    parts.push(sql`SELECT h.source_type, h.id FROM homeworks h
      WHERE h.tenant_id = ${tenantId} AND h.class_id = ${q.classId} AND h.course_id = ${q.courseId} AND h.term = ANY(${termList})
      ${q.sourceType !== undefined ? sql`AND h.source_type = ${q.sourceType}` : sql``}`);
  if (exam)
    parts.push(sql`SELECT 2::smallint, e.id FROM exam_classes ec JOIN exams e ON e.id = ec.exam_id
      WHERE ec.tenant_id = ${tenantId} AND ec.class_id = ${q.classId} AND e.tenant_id = ${tenantId} AND e.course_id = ${q.courseId} AND e.term = ANY(${termList})`);
  return sql.join(parts, sql` UNION ALL `);
}

/** Per question of the class's work: answered and correct summed over every piece of work. */
function tallies(tenantId: number, q: ScopeQuery): SQL {
  return sql`
    WITH work(source_type, source_id) AS MATERIALIZED (${classWork(tenantId, q)}),
    a AS (
      SELECT s.question_id, sum(s.answered)::int AS answered, sum(s.correct)::int AS correct,
             array_agg(DISTINCT s.source_type::int ORDER BY s.source_type::int) AS sources, count(*)::int AS works
        FROM work w JOIN work_question_stats s
          ON s.tenant_id = ${tenantId} AND s.source_type = w.source_type AND s.source_id = w.source_id AND s.class_id = ${q.classId}
       GROUP BY s.question_id
      HAVING sum(s.answered) > sum(s.correct)
    )`;
}

export interface ClassMistake {
  question: Record<string, unknown>;
  sources: number[];
  works: number;
  answered: number;
  correct: number;
  wrong: number;
  errorRate: number;
}

/** Whether a question's rate (wrong / answered) lies in the band, on whole numbers. */
function inBand(band: Band, wrong: number, answered: number): boolean {
  switch (band) {
    case 'gt40':
      return wrong * 10 > answered * 4;
    case '30to40':
      return wrong * 10 >= answered * 3 && wrong * 10 <= answered * 4;
    case '10to30':
      return wrong * 10 >= answered && wrong * 10 < answered * 3;
    case 'lt10':
      return wrong * 10 < answered;
    default:
      return true;
  }
}

/**
 * The book of one class: one read of the class's rollup rows (a few hundred questions a term at
 * most), bands, filters, order and the page worked out here, then the page's questions fetched.
 */
export async function classMistakes(
  db: Db,
  tenantId: number,
  q: ScopeQuery & { band?: Band; knowledgePointId?: number; current?: number; size?: number },
) {
  const { current, size, offset } = pageWindow(q);
  const band = q.band ?? 'all';
  const all = await rows<{ id: number; answered: number; correct: number; sources: number[]; works: number; points: number[] }>(db, sql`
    ${tallies(tenantId, q)}
    SELECT a.question_id AS id, a.answered, a.correct, a.sources, a.works, q.knowledge_point_ids AS points
      FROM a JOIN questions q ON q.id = a.question_id`);
  const bands = Object.fromEntries(BANDS.map((b) => [b, all.filter((r) => inBand(b, r.answered - r.correct, r.answered)).length])) as Record<Band, number>;
  const pointCounts = new Map<number, number>();
  for (const r of all) for (const k of r.points) pointCounts.set(k, (pointCounts.get(k) ?? 0) + 1);
  const topPoints = [...pointCounts].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 50);
  const chosen = all
    .filter((r) => inBand(band, r.answered - r.correct, r.answered) && (!q.knowledgePointId || r.points.includes(q.knowledgePointId)))
    // Most missed first: rate (cross-multiplied, exact), then wrong count, then id.
    .sort((a, b) => (b.answered - b.correct) * a.answered - (a.answered - a.correct) * b.answered || b.answered - b.correct - (a.answered - a.correct) || a.id - b.id);
  const pageRows = chosen.slice(offset, offset + size);
  const ids = (list: number[]) => sql`${`{${list.join(',')}}`}::int[]`;
  const [questions, names] = await Promise.all([
    pageRows.length
      ? rows<{ id: number; question: Record<string, unknown> }>(db, sql`SELECT q.id, json_build_object(${sql.raw(jsonPairs())}) AS question FROM questions q WHERE q.id = ANY(${ids(pageRows.map((r) => r.id))})`)
      : [],
    topPoints.length ? rows<{ id: number; name: string }>(db, sql`SELECT id, name FROM knowledge_points WHERE id = ANY(${ids(topPoints.map(([id]) => id))})`) : [],
  ]);
  const byId = new Map(questions.map((x) => [x.id, x.question]));
  const nameOf = new Map(names.map((n) => [n.id, n.name]));
  const records: ClassMistake[] = pageRows.map((r) => ({
    question: byId.get(r.id)!,
    sources: r.sources,
    works: r.works,
    answered: r.answered,
    correct: r.correct,
    wrong: r.answered - r.correct,
    errorRate: Math.round(((r.answered - r.correct) / r.answered) * 10000) / 10000,
  }));
  return {
    ...page(records, chosen.length, current, size),
    bands,
    knowledgePoints: topPoints.filter(([id]) => nameOf.has(id)).map(([id, count]) => ({ id, name: nameOf.get(id)!, count })),
  };
}

/** QUESTION_COLUMNS without children (the list shows stems; a 综合's parts come with the detail). */
function jsonPairs(): string {
  return `'id', q.id, 'type', q.type, 'stem', q.stem, 'options', q.options, 'answer', q.answer, 'analysis', q.analysis,
    'difficulty', q.difficulty, 'points', q.points, 'knowledgePoints',
    (SELECT coalesce(json_agg(json_build_object('id', k.id, 'name', k.name) ORDER BY k.id), '[]'::json) FROM knowledge_points k WHERE k.id = ANY(q.knowledge_point_ids))`;
}

/** One question for the class: its tally, how the answers spread over the options, and who got it wrong. */
async function mistakeDetail(db: Db, tenantId: number, questionId: number, q: ScopeQuery) {
  const base = tallies(tenantId, q);
  const [tally] = await rows<{ answered: number; correct: number; sources: number[]; works: number }>(db, sql`
    ${base} SELECT a.answered, a.correct, a.sources, a.works FROM a WHERE a.question_id = ${questionId}`);
  if (!tally) throw notFound('该班级没有做错这道题');
  const [question] = await rows<{ id: number; type: number; answer: string; options: { key: string; text: string }[] | null }>(db, sql`
    SELECT ${QUESTION_COLUMNS} FROM questions q WHERE q.id = ${questionId}`);
  const records = await rows<{ studentId: number; name: string; studentNo: string; answer: string | null; isCorrect: boolean; score: number; maxScore: number; sourceType: number; sourceId: number; workTitle: string; answeredAt: string }>(
    db,
    sql`
    WITH work(source_type, source_id) AS MATERIALIZED (${classWork(tenantId, q)}),
    -- Only the pieces of work that had this question (by the rollup's key), then their records.
    hit AS MATERIALIZED (
      SELECT w.source_type, w.source_id FROM work w JOIN work_question_stats s
          ON s.tenant_id = ${tenantId} AND s.source_type = w.source_type AND s.source_id = w.source_id AND s.class_id = ${q.classId} AND s.question_id = ${questionId})
    SELECT r.student_id AS "studentId", st.name, st.student_no AS "studentNo", r.answer, r.is_correct AS "isCorrect", r.score, r.max_score AS "maxScore",
           r.source_type::int AS "sourceType", r.source_id AS "sourceId",
           coalesce(h.title, e.title, '') AS "workTitle", ${isoTime(sql`r.answered_at`)} AS "answeredAt"
      FROM hit w JOIN answer_records r
        ON r.tenant_id = ${tenantId} AND r.source_type = w.source_type AND r.source_id = w.source_id AND r.question_id = ${questionId} AND r.class_id = ${q.classId}
      JOIN students st ON st.id = r.student_id
      LEFT JOIN homeworks h ON w.source_type <> 2 AND h.id = r.source_id
      LEFT JOIN exams e ON w.source_type = 2 AND e.id = r.source_id
     ORDER BY r.answered_at DESC, st.student_no
     LIMIT 2000`,
  );
  const answers = records.map((r) => (r.answer ?? '').trim().toUpperCase());
  // Objective items: how many answers chose each option (the correct one marked); 未作答 for blanks.
  let options: { key: string; count: number; rate: number; correct: boolean }[] | null = null;
  if (OBJECTIVE_TYPES.includes(question.type)) {
    const keys = question.options?.length ? question.options.map((o) => o.key) : [...new Set(answers.filter(Boolean))].sort();
    const rightKey = question.answer.trim().toUpperCase();
    const tally = (match: (a: string) => boolean) => answers.filter(match).length;
    const n = answers.length || 1;
    options = keys.map((key) => {
      const count = tally((a) => (question.type === 2 ? a.includes(key) : a === key));
      return { key, count, rate: Math.round((count / n) * 10000) / 10000, correct: rightKey.includes(key) };
    });
    const blank = tally((a) => a === '');
    if (blank) options.push({ key: '未作答', count: blank, rate: Math.round((blank / n) * 10000) / 10000, correct: false });
  }
  const wrong = records.filter((r) => !r.isCorrect).map(({ isCorrect: _c, ...r }) => r);
  return {
    question,
    sources: tally.sources,
    works: tally.works,
    answered: tally.answered,
    correct: tally.correct,
    wrong: tally.answered - tally.correct,
    errorRate: Math.round(((tally.answered - tally.correct) / tally.answered) * 10000) / 10000,
    options,
    students: wrong,
  };
}

const classBookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get(
    '/api/wrongbook/v1.0/web/class/mistakes',
    {
      preHandler: readers,
      schema: {
        querystring: Type.Object(
          {
            ...PagingQuery,
            ...ScopeQuery.properties,
            band: Type.Optional(Type.Union(BANDS.map((b) => Type.Literal(b)))),
            knowledgePointId: Type.Optional(Id),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const q = request.query;
      const { tenantId } = await checkScope(db, request.principal, q);
      return ok(await classMistakes(db, tenantId, q));
    },
  );

  app.get(
    '/api/wrongbook/v1.0/web/class/mistakes/:questionId',
    {
      preHandler: readers,
      schema: {
        params: Type.Object({ questionId: Id }),
        querystring: ScopeQuery,
      },
    },
    async (request) => {
      const { questionId } = request.params;
      const q = request.query;
      const { tenantId } = await checkScope(db, request.principal, q);
      return ok(await mistakeDetail(db, tenantId, questionId, q));
    },
  );
};
export default classBookRoutes;
