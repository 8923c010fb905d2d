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
import { callerZone } from '../../http/schoolZone';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { forbidden, notFound, ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { EnvelopeSchema } from '../../../src/domain/envelope';
import { ActivitySchema, ANALYSIS_FIGURES, AnalysisSchema, JointExamReportSchema, JointExamSummarySchema, UsageSchema } from '../../../src/domain/analysis';
import { schoolActivity } from './activity';
import { createJointExam, deleteJointExam, jointExamCandidates, jointExamReport, listJointExams } from './jointExams';
import { recordAudit } from '../audit/record';
import { fileStamp } from '../../../src/domain/format';
import { analysis, type AnalysisQuery } from './figures';
import { analysisWorkbook, sheetsWorkbook } from './export';
import { activitySheets, fileName, jointExamSheets } from './reportExports';
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
  // The figures, reports and files read from the replica when one is configured (DATABASE_READ_URL);
  // the 联考 list and its writes stay on the primary, so a researcher sees their own change at once.
  const reads = app.readDb;

  app.get('/api/analysis/v1.0/overview', { preHandler: allow({ roles: ANALYSIS_ROLES }), schema: { querystring: Type.Object(Query), response: { 200: EnvelopeSchema(AnalysisSchema) } } }, async (request) => {
    return ok(await analysis(reads, request.principal, await readQuery(reads, request.principal, request.query)));
  });

  app.get(
    '/api/analysis/v1.0/overview/export',
    { preHandler: allow({ roles: ANALYSIS_ROLES }), schema: { querystring: Type.Object({ ...Query, figure: Type.Union(ANALYSIS_FIGURES.map((f) => Type.Literal(f))) }) } },
    async (request, reply) => {
      const p = request.principal;
      const q = await readQuery(reads, p, request.query);
      const scope = await scopeLabel(reads, p, q);
      const now = new Date();
      const zone = await callerZone(reads, p);
      const { title, bytes } = await analysisWorkbook(await analysis(reads, p, q), request.query.figure, { scope, termLabel: termLabel(q.term), now, zone });
      const name = `学情分析_${title}_${scope.replaceAll(' · ', '_')}_${termLabel(q.term)}_${fileStamp(now, zone)}`.replace(/[\\/:*?"<>|]/g, '_');
      return sendWorkbook(reply, bytes, `${name}.xlsx`);
    },
  );

  // The subjects taught in the caller's scope: the researcher's 学科 picker (a subject spans the
  // region's schools, whose courses each have their own ids).
  app.get('/api/analysis/v1.0/subjects', { preHandler: allow({ roles: ANALYSIS_ROLES }), schema: { querystring: Type.Object({ schoolId: Type.Optional(Id) }) } }, async (request) => {
    const p = request.principal;
    const { schoolId } = request.query;
    if (schoolId && !(await rows(reads, sql`SELECT 1 FROM classes c WHERE ${classScope(p)} AND c.school_id = ${schoolId} LIMIT 1`)).length) throw notFound('学校不存在');
    return ok(
      await rows<{ id: number; name: string }>(reads, sql`
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
      const term = request.query.term || (await schoolCurrentTerm(reads, p.schoolId)).term;
      return ok(await schoolActivity(reads, p, term));
    },
  );

  app.get(
    '/api/analysis/v1.0/activity/export',
    { preHandler: allow({ roles: ['schoolMaster'] }), schema: { querystring: Type.Object({ term: Query.term }) } },
    async (request, reply) => {
      const p = request.principal;
      if (p.tenantId === null || p.schoolId === null) throw forbidden();
      const term = request.query.term || (await schoolCurrentTerm(reads, p.schoolId)).term;
      const a = await schoolActivity(reads, p, term);
      const [school] = await rows<{ name: string }>(reads, sql`SELECT name FROM schools WHERE id = ${p.schoolId}`);
      const now = new Date();
      const zone = await callerZone(reads, p);
      const bytes = await sheetsWorkbook('学校概况', activitySheets(a), { scope: school.name, termLabel: a.label, now, zone });
      return sendWorkbook(reply, bytes, fileName(`学校概况_${school.name}_${a.label}_${fileStamp(now, zone)}`));
    },
  );

  // 联考: the researcher's region, or the principal's own school against the region.
  app.get(
    '/api/analysis/v1.0/jointExams',
    { preHandler: allow({ roles: JOINT_EXAM_ROLES }), schema: { querystring: Type.Object({ term: Query.term }), response: { 200: EnvelopeSchema(Type.Array(JointExamSummarySchema)) } } },
    async (request) => ok(await listJointExams(db, request.principal, request.query.term)),
  );
  // A researcher makes a 联考 of their region from one exam of each school, and deletes their own.
  const researcherOnly = allow({ roles: ['regionResearcher'] });
  app.get(
    '/api/analysis/v1.0/jointExams/candidates',
    {
      preHandler: researcherOnly,
      config: { fieldLabels: { gradeLevel: '年级', subjectId: '学科' } },
      schema: { querystring: Type.Object({ gradeLevel: Type.Integer({ minimum: 1, maximum: 12 }), subjectId: Id }) },
    },
    async (request) => ok(await jointExamCandidates(db, request.principal, request.query.gradeLevel, request.query.subjectId)),
  );
  app.post(
    '/api/analysis/v1.0/jointExams',
    {
      preHandler: researcherOnly,
      config: { fieldLabels: { title: '联考名称', gradeLevel: '年级', subjectId: '学科', examIds: '考试' } },
      schema: {
        body: Type.Object({
          title: Type.String({ minLength: 1, maxLength: 60 }),
          gradeLevel: Type.Integer({ minimum: 1, maximum: 12 }),
          subjectId: Id,
          examIds: Type.Array(Id, { minItems: 2, maxItems: 50 }),
        }),
      },
    },
    async (request) => {
      const made = await createJointExam(db, request.principal, request.body, (tx, m) =>
        recordAudit(tx, request, { action: 'create', kind: 'jointExam', recordId: m.id, summary: `新增联考 ${m.title}（${m.schools.join('、')}）` }),
      );
      return ok({ id: made.id }, `已创建联考“${made.title}”（${made.schools.length} 所学校）`);
    },
  );
  app.delete('/api/analysis/v1.0/jointExams/:id', { preHandler: researcherOnly, schema: { params: Type.Object({ id: Id }) } }, async (request) => {
    const gone = await deleteJointExam(db, request.principal, request.params.id, (tx, title) =>
      recordAudit(tx, request, { action: 'delete', kind: 'jointExam', recordId: request.params.id, summary: `删除联考 ${title}` }),
    );
    return ok(null, `已删除联考“${gone.title}”`);
  });
  app.get(
    '/api/analysis/v1.0/jointExams/:id',
    { preHandler: allow({ roles: JOINT_EXAM_ROLES }), schema: { params: Type.Object({ id: Id }), response: { 200: EnvelopeSchema(JointExamReportSchema) } } },
    async (request) => ok(await jointExamReport(reads, request.principal, request.params.id)),
  );

  // The report as the caller's screen shows it: every school for the researcher, the principal's
  // own school (and the region only where the screen shows it).
  app.get('/api/analysis/v1.0/jointExams/:id/export', { preHandler: allow({ roles: JOINT_EXAM_ROLES }), schema: { params: Type.Object({ id: Id }) } }, async (request, reply) => {
    const p = request.principal;
    const j = await jointExamReport(reads, p, request.params.id);
    const scope = j.view === 'region' ? j.region : `${j.schools[0]?.schoolName ?? '本校'}（对比${j.region}）`;
    const now = new Date();
    // A researcher has no school: China time; a principal's file follows their school's clock.
    const zone = await callerZone(reads, p);
    const bytes = await sheetsWorkbook(`区域联考 · ${j.title}（满分 ${j.fullMarks}，${j.examDate}）`, jointExamSheets(j), { scope, termLabel: termLabel(j.term), now, zone });
    return sendWorkbook(reply, bytes, fileName(`联考_${j.title}_${scope}_${termLabel(j.term)}_${fileStamp(now, zone)}`));
  });

  app.get('/api/analysis/v1.0/usage', { preHandler: allow({ roles: ['mpTeacher'] }), schema: { querystring: Type.Object(Query), response: { 200: EnvelopeSchema(UsageSchema) } } }, async (request) => {
    return ok(await usage(reads, request.principal, await readQuery(reads, request.principal, request.query)));
  });
};

export default fp(async (app) => {
  await app.register(analysisRoutes);
  await app.register(historyRoutes);
});
