// Exams for leaders (grade and subject leaders, the principal, regional researchers): the same
// report teachers read, but no student's score, and per student only what the school allows
// beyond teachers (schools.score_disclosure): a rank, a band or nothing. Class figures stay.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SCORE_BAND_LABELS, ScoreDisclosure, scoreBand, SourceType } from '../../../src/domain/content';
import type { Role } from '../../../src/domain/roles';
import { allow } from '../../auth/plugin';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import type { WorkItem } from '../../db/schema';
import { forbidden, notFound, ok } from '../../http/envelope';
import { page, PagingQuery, pageWindow } from '../../http/paging';
import { Id } from '../../http/schemas';
import { EnvelopeSchema, PageSchema } from '../../../src/domain/envelope';
import { LeaderExamReportSchema, LeaderExamSummarySchema, type LeaderExamSummary } from '../../../src/domain/leaderExams';
import { classScope, courseScope } from '../vesta/scope';
import { examReport } from './exams';

export const LEADER_ROLES: readonly Role[] = ['gradeLeader', 'subjectleader', 'schoolMaster', 'regionResearcher'];
export const leadersOnly = allow({ roles: LEADER_ROLES });

/** Exam classes the leader oversees, for an `exams` row aliased `e`. */
export const SCOPED_CLASSES = (p: Principal) => sql`
  SELECT c.id FROM exam_classes ec JOIN classes c ON c.id = ec.class_id WHERE ec.exam_id = e.id AND ${classScope(p)}`;
/** Exams (aliased `e`) of the leader's courses sitting one of `classIds` (classes already in scope). */
export const inScopedClasses = (p: Principal, classIds: number[]) => sql`e.tenant_id = ${p.tenantId}
  AND EXISTS (SELECT 1 FROM exam_classes ec WHERE ec.exam_id = e.id AND ec.class_id = ANY(${`{${classIds.join(',')}}`}::int[]))
  AND e.course_id IN (SELECT co.id FROM courses co WHERE ${courseScope(p)})`;
export const inScope = (p: Principal) => sql`e.tenant_id = ${p.tenantId} AND EXISTS (${SCOPED_CLASSES(p)})
  AND e.course_id IN (SELECT co.id FROM courses co WHERE ${courseScope(p)})`;

export async function findLeaderExam(db: Db, p: Principal, examId: number) {
  const [exam] = await rows<{
    id: number; title: string; examDate: string; term: string; fullMarks: number; gradeId: number; gradeName: string;
    courseId: number; courseName: string; items: WorkItem[]; scopedClassIds: number[]; scoreDisclosure: number; schoolId: number;
    classNames: { classId: number; className: string }[];
  }>(db, sql`
    SELECT e.id, e.title, e.exam_date::text AS "examDate", e.term, e.full_marks AS "fullMarks", e.grade_id AS "gradeId", g.name AS "gradeName",
           e.course_id AS "courseId", co.name AS "courseName", e.items, ARRAY(${SCOPED_CLASSES(p)} ORDER BY 1) AS "scopedClassIds",
           s.score_disclosure AS "scoreDisclosure", e.school_id AS "schoolId",
           (SELECT json_agg(json_build_object('classId', c.id, 'className', c.name) ORDER BY c.id)
              FROM exam_classes ec JOIN classes c ON c.id = ec.class_id WHERE ec.exam_id = e.id) AS "classNames"
      FROM exams e JOIN grades g ON g.id = e.grade_id JOIN courses co ON co.id = e.course_id JOIN schools s ON s.id = e.school_id
     WHERE e.id = ${examId} AND e.tenant_id = ${p.tenantId} AND e.course_id IN (SELECT co.id FROM courses co WHERE ${courseScope(p)})`);
  // The class scope is tested on the classes read above rather than with a second EXISTS subquery,
  // which costs PGlite's planner some 15 ms (as findExam in exams.ts).
  if (!exam || !exam.scopedClassIds.length) throw notFound('考试不存在');
  return exam;
}

type Report = Awaited<ReturnType<typeof examReport>>;

/**
 * The teacher's report as a leader may read it. No score of any student leaves the server; the
 * per-student list carries what the school allows. A band list is in class and student-number
 * order, so that its order does not give the ranking away.
 */
export function discloseToLeader(report: Report, disclosure: number) {
  const { ranking, classes, ...rest } = withoutExtremes(report);
  const fullMarks = report.exam.fullMarks;
  const students =
    disclosure === ScoreDisclosure.rank
      ? ranking.map((r) => ({ studentId: r.studentId, name: r.name, className: r.className ?? '', rank: r.rank }))
      : disclosure === ScoreDisclosure.band
        ? [...ranking]
            .sort((a, b) => a.classId - b.classId || a.studentNo.localeCompare(b.studentNo))
            .map((r) => ({ studentId: r.studentId, name: r.name, className: r.className ?? '', band: SCORE_BAND_LABELS[scoreBand(r.score, fullMarks)] }))
        : [];
  // The scope's own figures too: a report of one small class is that class's figures.
  return { ...smallGroupGuard(rest), disclosure, students, classes: classes.map(groupFigures) };
}

/** Fewer students than this and a class's average is, in effect, someone's score. */
export const MIN_GROUP_FOR_AVERAGE = 5;

/**
 * A class as a leader sees it: no highest or lowest (each is one student's score), and no average
 * or spread for a group so small that they would identify its students.
 */
function groupFigures(c: Report['classes'][number]) {
  return smallGroupGuard(withoutExtremes(c));
}

function smallGroupGuard<T extends { participants: number; average: number | null; stdDev: number | null }>(figures: T): T {
  return figures.participants < MIN_GROUP_FOR_AVERAGE ? { ...figures, average: null, stdDev: null } : figures;
}

function withoutExtremes<T extends { highest: unknown; lowest: unknown }>(figures: T): Omit<T, 'highest' | 'lowest'> {
  const copy: Partial<T> = { ...figures };
  delete copy.highest;
  delete copy.lowest;
  return copy as Omit<T, 'highest' | 'lowest'>;
}

const examLeaderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get(
    '/api/minerva/v1.0/leader/exams',
    {
      preHandler: leadersOnly,
      schema: {
        querystring: Type.Object({ ...PagingQuery, gradeId: Type.Optional(Id), courseId: Type.Optional(Id) }),
        response: { 200: EnvelopeSchema(PageSchema(LeaderExamSummarySchema)) },
      },
    },
    async (request) => {
      const p = request.principal;
      if (p.tenantId === null) throw forbidden();
      const q = request.query;
      const { current, size, offset } = pageWindow(q);
      const where = sql`${inScope(p)} ${q.gradeId ? sql`AND e.grade_id = ${q.gradeId}` : sql``} ${q.courseId ? sql`AND e.course_id = ${q.courseId}` : sql``}`;
      const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM exams e WHERE ${where}`);
      const records = await rows<LeaderExamSummary>(db, sql`
        SELECT e.id, e.title, e.exam_date::text AS "examDate", e.term, e.full_marks AS "fullMarks", e.grade_id AS "gradeId", g.name AS "gradeName",
               e.course_id AS "courseId", co.name AS "courseName", jsonb_array_length(e.items) AS "questionCount",
               (SELECT count(*)::int FROM work_student_stats s WHERE s.tenant_id = e.tenant_id AND s.source_type = ${SourceType.exam} AND s.source_id = e.id
                   AND s.class_id IN (${SCOPED_CLASSES(p)})) AS participants,
               (SELECT CASE WHEN count(*) >= ${MIN_GROUP_FOR_AVERAGE} THEN round(avg(s.score)::numeric, 2)::float8 END
                  FROM work_student_stats s WHERE s.tenant_id = e.tenant_id AND s.source_type = ${SourceType.exam} AND s.source_id = e.id
                   AND s.class_id IN (${SCOPED_CLASSES(p)})) AS average
          FROM exams e JOIN grades g ON g.id = e.grade_id JOIN courses co ON co.id = e.course_id
         WHERE ${where} ORDER BY e.exam_date DESC, e.id DESC LIMIT ${size} OFFSET ${offset}`);
      return ok(page(records, total, current, size));
    },
  );

  app.get(
    '/api/minerva/v1.0/leader/exams/:examId/report',
    {
      preHandler: leadersOnly,
      schema: {
        params: Type.Object({ examId: Id }),
        querystring: Type.Object({ classId: Type.Optional(Id) }),
        // The reply schema also keeps anything but these fields (a score) from leaving the server.
        response: { 200: EnvelopeSchema(LeaderExamReportSchema) },
      },
    },
    async (request) => {
      const p = request.principal;
      if (p.tenantId === null) throw forbidden();
      const { examId } = request.params;
      const { classId } = request.query;
      const { scopedClassIds, scoreDisclosure, ...exam } = await findLeaderExam(db, p, examId);
      if (classId !== undefined && !scopedClassIds.includes(classId)) throw notFound('班级不存在');
      const report = await examReport(db, p.tenantId, exam, classId !== undefined ? [classId] : scopedClassIds);
      return ok(discloseToLeader(report, scoreDisclosure));
    },
  );
};

export default examLeaderRoutes;
