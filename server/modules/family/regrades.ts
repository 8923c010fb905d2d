// 复核申请, the teacher's side: the requests on one piece of work — an AI批改 task (through the
// homework or exam it is tied to, or an essay task's own), a homework or an exam — and the answer, which the family page
// shows. A homework's requests are its teacher's; an exam's are those of the students in the
// classes the teacher teaches with the exam's course. Anything else is "not found".
import { sql, type SQL } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SourceType } from '../../../src/domain/content';
import { FAMILY_LIMITS, REGRADE_ESSAY, REGRADE_STATUS_LABELS, RegradeStatus, type RegradeRow } from '../../../src/domain/family';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { isoTime, rows } from '../../db/query';
import { badRequest, notFound, ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { recordAudit } from '../audit/record';
import { me, teachersOnly } from '../minerva/access';
import { FAMILY_BASE } from './links';
import { TaskType } from '../../grading/statuses';

interface Work {
  sourceType: number;
  sourceId: number;
  /** The students whose requests the caller answers. */
  students: SQL;
}

/** The work of a homework, exam or AI批改 task, as the calling teacher may answer for it. */
async function teacherWork(db: Db, p: Principal, q: { taskId?: number; homeworkId?: number; examId?: number }): Promise<Work | null> {
  const given = [q.taskId, q.homeworkId, q.examId].filter((v) => v !== undefined).length;
  if (given !== 1) throw badRequest('请指定一个批改任务、作业或考试');
  const { tenantId, teacherId } = await me(db, p);
  let sourceType: number;
  let sourceId: number;
  if (q.taskId !== undefined) {
    const [task] = await rows<{ type: number; work: { sourceType: number; sourceId: number } | null }>(db, sql`
      SELECT type, answer_key->'work' AS work FROM grading_tasks WHERE id = ${q.taskId} AND tenant_id = ${tenantId} AND teacher_id = ${teacherId}`);
    if (!task) throw notFound('批改任务不存在');
    // An essay task: families ask about the essay itself (REGRADE_ESSAY); the task's teacher answers.
    if (task.type === TaskType.essay) return { sourceType: REGRADE_ESSAY.sourceType, sourceId: q.taskId, students: sql`TRUE` };
    // A task tied to no homework or exam writes no answer records: nothing a family can ask about.
    if (!task.work) return null;
    ({ sourceType, sourceId } = task.work);
  } else if (q.homeworkId !== undefined) {
    sourceType = -1;
    sourceId = q.homeworkId;
  } else {
    sourceType = SourceType.exam;
    sourceId = q.examId!;
  }
  if (sourceType !== SourceType.exam) {
    const [hw] = await rows<{ sourceType: number }>(db, sql`
      SELECT source_type::int AS "sourceType" FROM homeworks WHERE id = ${sourceId} AND tenant_id = ${tenantId} AND teacher_id = ${teacherId}`);
    if (!hw) throw notFound('作业不存在');
    return { sourceType: hw.sourceType, sourceId, students: sql`TRUE` };
  }
  const [exam] = await rows<{ courseId: number }>(db, sql`SELECT course_id AS "courseId" FROM exams WHERE id = ${sourceId} AND tenant_id = ${tenantId}`);
  if (!exam) throw notFound('考试不存在');
  return {
    sourceType,
    sourceId,
    students: sql`st.class_id IN (SELECT ta.class_id FROM teaching_assignments ta WHERE ta.teacher_id = ${teacherId} AND ta.course_id = ${exam.courseId})`,
  };
}

const REGRADE_COLUMNS = sql`rr.id, rr.student_id AS "studentId", st.name AS "studentName", st.student_no AS "studentNo",
  rr.source_type::int AS "sourceType", rr.source_id AS "sourceId", rr.question_id AS "questionId", rr.reason, rr.status, rr.answer,
  rr.answered_by_name AS "answeredByName", ${isoTime(sql`rr.answered_at`)} AS "answeredAt", ${isoTime(sql`rr.created_at`)} AS "createdAt",
  coalesce(h.title, e.title, gt.title, '') AS "workTitle",
  CASE WHEN rr.source_type = ${REGRADE_ESSAY.sourceType} THEN '作文' ELSE coalesce((SELECT it->>'no' FROM jsonb_array_elements(coalesce(h.items, e.items)) it WHERE (it->>'questionId')::int = rr.question_id LIMIT 1), '') END AS "questionNo"`;

const REGRADE_FROM = sql`regrade_requests rr JOIN students st ON st.id = rr.student_id
  LEFT JOIN homeworks h ON rr.source_type IN (${SourceType.customHomework}, ${SourceType.bookHomework}) AND h.id = rr.source_id
  LEFT JOIN grading_tasks gt ON rr.source_type = ${REGRADE_ESSAY.sourceType} AND gt.id = rr.source_id
  LEFT JOIN exams e ON rr.source_type = ${SourceType.exam} AND e.id = rr.source_id`;

const regradeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get(
    `${FAMILY_BASE}/regrades`,
    {
      preHandler: teachersOnly,
      schema: { querystring: Type.Object({ taskId: Type.Optional(Id), homeworkId: Type.Optional(Id), examId: Type.Optional(Id) }, { additionalProperties: false }) },
    },
    async (request) => {
      const work = await teacherWork(db, request.principal, request.query);
      if (!work) return ok({ records: [], open: 0 });
      const records = await rows<RegradeRow>(db, sql`
        SELECT ${REGRADE_COLUMNS} FROM ${REGRADE_FROM}
         WHERE rr.tenant_id = ${request.principal.tenantId} AND rr.source_type = ${work.sourceType} AND rr.source_id = ${work.sourceId} AND ${work.students}
         ORDER BY rr.status, rr.created_at DESC, rr.id DESC LIMIT 200`);
      return ok({ records: records.map((r) => ({ ...r, statusLabel: REGRADE_STATUS_LABELS[r.status] })), open: records.filter((r) => r.status === RegradeStatus.open).length });
    },
  );

  app.post(
    `${FAMILY_BASE}/regrades/:regradeId/answer`,
    {
      preHandler: teachersOnly,
      schema: {
        params: Type.Object({ regradeId: Id }),
        body: Type.Object({ answer: Type.String({ maxLength: FAMILY_LIMITS.answerMax * 2 }) }, { additionalProperties: false }),
      },
    },
    async (request) => {
      const p = request.principal;
      const answer = request.body.answer.trim();
      if (!answer) throw badRequest('请填写答复');
      if ([...answer].length > FAMILY_LIMITS.answerMax) throw badRequest(`答复最多 ${FAMILY_LIMITS.answerMax} 字`);
      const [found] = await rows<{ sourceType: number; sourceId: number; studentName: string }>(db, sql`
        SELECT rr.source_type::int AS "sourceType", rr.source_id AS "sourceId", st.name AS "studentName"
          FROM regrade_requests rr JOIN students st ON st.id = rr.student_id
         WHERE rr.id = ${request.params.regradeId} AND rr.tenant_id = ${p.tenantId ?? -1}`);
      if (!found) throw notFound('复核申请不存在');
      const which = found.sourceType === SourceType.exam ? { examId: found.sourceId } : found.sourceType === REGRADE_ESSAY.sourceType ? { taskId: found.sourceId } : { homeworkId: found.sourceId };
      const work = await teacherWork(db, p, which).catch(() => null);
      const [mine] = work
        ? await rows(db, sql`SELECT 1 FROM regrade_requests rr JOIN students st ON st.id = rr.student_id WHERE rr.id = ${request.params.regradeId} AND ${work.students}`)
        : [];
      if (!mine) throw notFound('复核申请不存在');
      await db.transaction(async (tx) => {
        await tx.execute(sql`
          UPDATE regrade_requests SET status = ${RegradeStatus.answered}, answer = ${answer}, answered_by = ${p.userId}, answered_by_name = ${p.name}, answered_at = now()
           WHERE id = ${request.params.regradeId}`);
        await recordAudit(tx, request, { action: 'update', kind: 'regrade', recordId: request.params.regradeId, summary: `答复学生 ${found.studentName} 的复核申请` });
      });
      const [row] = await rows<RegradeRow>(db, sql`SELECT ${REGRADE_COLUMNS} FROM ${REGRADE_FROM} WHERE rr.id = ${request.params.regradeId}`);
      return ok({ ...row, statusLabel: REGRADE_STATUS_LABELS[row.status] }, '已答复');
    },
  );
};
export default regradeRoutes;
