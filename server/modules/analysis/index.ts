// analysis: 学情分析 for teachers and leaders (/analysis) and 使用统计 for the mini-program teacher
// (/usageStatistics). Read-only figures from the rollups; each caller exactly their scope
// (server/modules/vesta/scope.ts, the same rule the leaders' exam reports use).
import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { termLabel } from '../../../src/domain/semester';
import type { Role } from '../../../src/domain/roles';
import { allow } from '../../auth/plugin';
import { sendWorkbook } from '../../http/download';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { forbidden, notFound, ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { EnvelopeSchema } from '../../../src/domain/envelope';
import { ActivitySchema, ANALYSIS_FIGURES, AnalysisSchema, JointExamReportSchema, JointExamSummarySchema, UsageSchema } from '../../../src/domain/analysis';
import { schoolActivity } from './activity';
import { jointExamReport, listJointExams } from './jointExams';
import { fileStamp } from '../../../src/domain/format';
import { analysis, type AnalysisQuery } from './figures';
import { analysisWorkbook } from './export';
import { usage } from './usage';
import { classScope, courseScope, tenantScope } from '../vesta/scope';
import { schoolCurrentTerm } from '../vesta/schoolTerm';
import historyRoutes from './studentHistory';

export const ANALYSIS_ROLES: readonly Role[] = ['teacher', 'subjectleader', 'gradeLeader', 'schoolMaster', 'regionResearcher'];
/** 联考 reports: the region's researcher, and each sitting school's principal. */
export const JOINT_EXAM_ROLES: readonly Role[] = ['schoolMaster', 'regionResearcher'];

const Query = {
  /** SPEC term value: year + '01' | '02'. */
  term: Type.Optional(Type.String({ pattern: '^20[0-9]{2}0[12]$', maxLength: 6 })),
  /** A school of the researcher's region (others: their own school only). */
  schoolId: Type.Optional(Id),
  gradeId: Type.Optional(Id),
  courseId: Type.Optional(Id),
  /** A subject (all schools' courses of it): how a researcher chooses across schools. */
  subjectId: Type.Optional(Id),
  classId: Type.Optional(Id),
  leaderType: Type.Optional(Type.Integer({ minimum: 1, maximum: 9 })),
};

/**
 * The query with its default term. A grade, course or class outside the caller's scope (another
 * subject, grade, school or tenant) is refused by name rather than answered with empty figures.
 */
async function readQuery(db: Db, p: Principal, q: Partial<AnalysisQuery>): Promise<AnalysisQuery> {
  if (p.tenantId === null) throw forbidden();
  const scope = classScope(p, q.leaderType);
  // A school outside the caller's scope (another region, or for a principal any other school) is 404.
  if (q.schoolId && !(await rows(db, sql`SELECT 1 FROM classes c WHERE ${scope} AND c.school_id = ${q.schoolId} LIMIT 1`)).length) throw notFound('学校不存在');
  if (q.classId && !(await rows(db, sql`SELECT 1 FROM classes c WHERE ${scope} AND c.id = ${q.classId}`)).length) throw notFound('班级不存在');
  if (q.gradeId && !(await rows(db, sql`SELECT 1 FROM classes c WHERE ${scope} AND c.grade_id = ${q.gradeId} LIMIT 1`)).length) throw notFound('年级不存在');
  if (q.courseId && !(await rows(db, sql`SELECT 1 FROM courses co WHERE ${tenantScope(p, sql`co.tenant_id`)} AND co.id = ${q.courseId} AND ${courseScope(p)}`)).length) {
    throw notFound('课程不存在');
  }
  if (q.subjectId && !(await rows(db, sql`SELECT 1 FROM courses co WHERE ${tenantScope(p, sql`co.tenant_id`)} AND co.subject_id = ${q.subjectId} AND ${courseScope(p)} LIMIT 1`)).length) {
    throw notFound('学科不存在');
  }
  // No term chosen: the school's current term (学年/学期 settings), the calendar's for a region.
  return { ...q, term: q.term || (await schoolCurrentTerm(db, p.schoolId)).term };
}

/**
 * What an export covers, in words: the school (the region for a researcher), then the grade,
 * class and course chosen, or the part of the school the role itself is limited to.
 */
async function scopeLabel(db: Db, p: Principal, q: AnalysisQuery): Promise<string> {
  const role = p.activeRole;
  // The ids were checked against the caller's scope by readQuery; the names are read by id.
  const [names] = await rows<{ school: string | null; grade: string | null; className: string | null; course: string | null; ledGrades: string | null; ledSubjects: string | null }>(db, sql`
    SELECT (SELECT name FROM schools WHERE id = ${q.schoolId ?? p.schoolId ?? -1}) AS school,
           (SELECT name FROM grades WHERE id = ${q.gradeId ?? -1}) AS grade,
           (SELECT name FROM classes WHERE id = ${q.classId ?? -1}) AS "className",
           coalesce((SELECT name FROM courses WHERE id = ${q.courseId ?? -1}), (SELECT name FROM subjects WHERE id = ${q.subjectId ?? -1})) AS course,
           (SELECT string_agg(g.name, '、' ORDER BY g.level) FROM leader_scopes ls JOIN grades g ON g.id = ls.grade_id WHERE ls.user_id = ${p.userId} AND ls.role = 'gradeLeader') AS "ledGrades",
           (SELECT string_agg(su.name, '、' ORDER BY su.id) FROM leader_scopes ls JOIN subjects su ON su.id = ls.subject_id WHERE ls.user_id = ${p.userId} AND ls.role = 'subjectleader') AS "ledSubjects"`);
  const parts = role === 'regionResearcher' ? [p.region || '本区域', ...(q.schoolId && names.school ? [names.school] : [])] : [names.school || '本校'];
  if (names.grade) parts.push(names.grade);
  else if (role === 'gradeLeader' && names.ledGrades) parts.push(names.ledGrades);
  if (names.className) parts.push(names.className);
  else if (role === 'teacher') parts.push('任教班级');
  if (names.course) parts.push(names.course);
  else if (role === 'subjectleader' && names.ledSubjects) parts.push(names.ledSubjects);
  return parts.join(' · ');
}

const analysisRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get('/api/analysis/v1.0/overview', { preHandler: allow({ roles: ANALYSIS_ROLES }), schema: { querystring: Type.Object(Query), response: { 200: EnvelopeSchema(AnalysisSchema) } } }, async (request) => {
    return ok(await analysis(db, request.principal, await readQuery(db, request.principal, request.query)));
  });

  app.get(
    '/api/analysis/v1.0/overview/export',
    { preHandler: allow({ roles: ANALYSIS_ROLES }), schema: { querystring: Type.Object({ ...Query, figure: Type.Union(ANALYSIS_FIGURES.map((f) => Type.Literal(f))) }) } },
    async (request, reply) => {
      const p = request.principal;
      const q = await readQuery(db, p, request.query);
      const scope = await scopeLabel(db, p, q);
      const now = new Date();
      const { title, bytes } = await analysisWorkbook(await analysis(db, p, q), request.query.figure, { scope, termLabel: termLabel(q.term), now });
      const name = `学情分析_${title}_${scope.replaceAll(' · ', '_')}_${termLabel(q.term)}_${fileStamp(now)}`.replace(/[\\/:*?"<>|]/g, '_');
      return sendWorkbook(reply, bytes, `${name}.xlsx`);
    },
  );

  // The subjects taught in the caller's scope: the researcher's 学科 picker (a subject spans the
  // region's schools, whose courses each have their own ids).
  app.get('/api/analysis/v1.0/subjects', { preHandler: allow({ roles: ANALYSIS_ROLES }), schema: { querystring: Type.Object({ schoolId: Type.Optional(Id) }) } }, async (request) => {
    const p = request.principal;
    const { schoolId } = request.query;
    if (schoolId && !(await rows(db, sql`SELECT 1 FROM classes c WHERE ${classScope(p)} AND c.school_id = ${schoolId} LIMIT 1`)).length) throw notFound('学校不存在');
    return ok(
      await rows<{ id: number; name: string }>(db, sql`
        SELECT su.id, su.name FROM subjects su
         WHERE su.id IN (SELECT co.subject_id FROM teaching_assignments ta JOIN classes c ON c.id = ta.class_id JOIN courses co ON co.id = ta.course_id
                          WHERE ${classScope(p)} AND ${courseScope(p)} ${schoolId ? sql`AND c.school_id = ${schoolId}` : sql``})
         ORDER BY su.id`),
    );
  });

  // 学校概况: the principal's whole school, per class for the term and term by term.
  app.get(
    '/api/analysis/v1.0/activity',
    { preHandler: allow({ roles: ['schoolMaster'] }), schema: { querystring: Type.Object({ term: Query.term }), response: { 200: EnvelopeSchema(ActivitySchema) } } },
    async (request) => {
      const p = request.principal;
      if (p.tenantId === null || p.schoolId === null) throw forbidden();
      const term = request.query.term || (await schoolCurrentTerm(db, p.schoolId)).term;
      return ok(await schoolActivity(db, p, term));
    },
  );

  // 联考: the researcher's region, or the principal's own school against the region.
  app.get(
    '/api/analysis/v1.0/jointExams',
    { preHandler: allow({ roles: JOINT_EXAM_ROLES }), schema: { querystring: Type.Object({ term: Query.term }), response: { 200: EnvelopeSchema(Type.Array(JointExamSummarySchema)) } } },
    async (request) => ok(await listJointExams(db, request.principal, request.query.term)),
  );
  app.get(
    '/api/analysis/v1.0/jointExams/:id',
    { preHandler: allow({ roles: JOINT_EXAM_ROLES }), schema: { params: Type.Object({ id: Id }), response: { 200: EnvelopeSchema(JointExamReportSchema) } } },
    async (request) => ok(await jointExamReport(db, request.principal, request.params.id)),
  );

  app.get('/api/analysis/v1.0/usage', { preHandler: allow({ roles: ['mpTeacher'] }), schema: { querystring: Type.Object(Query), response: { 200: EnvelopeSchema(UsageSchema) } } }, async (request) => {
    return ok(await usage(db, request.principal, await readQuery(db, request.principal, request.query)));
  });
};

export default fp(async (app) => {
  await app.register(analysisRoutes);
  await app.register(historyRoutes);
});
