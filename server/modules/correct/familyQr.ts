// 附家长查看二维码 on the feedback pages of an AI批改 task handed back to students: a fresh family
// link per student, issued when the teacher prints (only a token's hash is stored, so an earlier
// link cannot be printed again), 30 days by default, written to 操作日志 — the same issuing as a
// personalised 错题卷's QR codes (family/links.ts issueFamilyLinks).
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db';
import { FAMILY_LIMITS } from '../../../src/domain/family';
import { rows } from '../../db/query';
import { badRequest, ok } from '../../http/envelope';
import { familyPath } from '../family/access';
import { issueFamilyLinks } from '../family/links';
import { BASE, correctors, findMyTask, type TaskRow } from './access';
import { Id } from './schemas';
import { linkOf } from './workLink';

/** A student's link as printed: the address the QR code carries, and until when it works. */
export interface FeedbackFamilyLink {
  resultId: number;
  studentId: number;
  url: string;
  days: number;
}

/**
 * Issues a fresh family link for each result's student of one of the caller's tasks (one link per
 * student, written to 操作日志). Results naming nobody of the task's class get none; all such is a 400.
 */
export async function taskFamilyLinks(db: Db, request: FastifyRequest, task: TaskRow, requested: number[], days: number): Promise<FeedbackFamilyLink[]> {
  const p = request.principal;
  if (task.classId === null) throw badRequest('任务未选择班级，无法生成家长查看二维码');
  const resultIds = [...new Set(requested)];
  // Results of this task whose student is still in its class (a page naming nobody has no family).
  const found = await rows<{ resultId: number; id: number; name: string; studentNo: string }>(db, sql`
    SELECT r.id AS "resultId", st.id, st.name, st.student_no AS "studentNo"
      FROM grading_results r JOIN students st ON st.id = r.student_id
     WHERE r.task_id = ${task.id} AND r.tenant_id = ${task.tenantId} AND r.id = ANY(${`{${resultIds.join(',')}}`}::int[])
       AND st.tenant_id = ${task.tenantId} AND st.class_id = ${task.classId} AND st.status = 0
     ORDER BY st.student_no`);
  // One link per student, printed on each of her pages.
  const students = found.filter((s, i) => found.findIndex((o) => o.id === s.id) === i);
  if (!students.length) throw badRequest('所选结果没有对应本班的学生，无法生成家长查看二维码');
  // The link covers the course the work belongs to: a linked homework's or exam's, else the
  // teacher's course in the class (a teacher's link always names a course).
  const link = linkOf(task.answerKey);
  const [course] = await rows<{ id: number; name: string }>(db, sql`
    SELECT co.id, co.name FROM teaching_assignments ta JOIN courses co ON co.id = ta.course_id
     WHERE ta.teacher_id = ${task.teacherId} AND ta.class_id = ${task.classId} AND ta.tenant_id = ${task.tenantId}
     ORDER BY ${
       link === null
         ? sql`co.id IS NULL`
         : link.sourceType === 2
           ? sql`(co.id = (SELECT course_id FROM exams WHERE id = ${link.sourceId})) DESC`
           : sql`(co.id = (SELECT course_id FROM homeworks WHERE id = ${link.sourceId})) DESC`
     }, co.subject_id, co.id LIMIT 1`);
  if (!course) throw badRequest('您未在该班级任教，无法生成家长查看二维码');
  const issued = await issueFamilyLinks(db, request, {
    tenantId: task.tenantId,
    schoolId: p.schoolId!,
    courseId: course.id,
    courseName: course.name,
    label: `批改反馈：${task.title}`.slice(0, FAMILY_LIMITS.labelMax),
    days,
    students,
  });
  // The address the teacher reached the product at: the one families can reach too.
  const origin = `${request.protocol}://${request.host}`;
  const links: FeedbackFamilyLink[] = found.map((s) => ({ resultId: s.resultId, studentId: s.id, url: `${origin}${familyPath(issued.find((l) => l.studentId === s.id)!.token)}`, days }));
  return links;
}

const familyQrRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.post(
    `${BASE}/task/familyLinks`,
    {
      preHandler: correctors,
      schema: {
        body: Type.Object(
          {
            taskId: Id,
            resultIds: Type.Array(Id, { minItems: 1, maxItems: 200 }),
            days: Type.Optional(Type.Integer({ minimum: 1, maximum: FAMILY_LIMITS.maxDays })),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const { taskId, days = FAMILY_LIMITS.defaultDays } = request.body;
      const task = await findMyTask(db, request.principal, taskId);
      const links = await taskFamilyLinks(db, request, task, request.body.resultIds, days);
      return ok(links, `已为 ${links.length} 名学生生成家长查看二维码`);
    },
  );
};

export default familyQrRoutes;
