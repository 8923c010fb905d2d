// 网上阅卷 markers (docs/api-correct.md "Markers"): the task owner gives each hand-marked question to
// teachers of the task's course in its class, marked once or twice (双评, with the points two marks
// may differ by); a teacher given questions finds the task among their 阅卷任务.
import { and, eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rows } from '../../db/query';
import { gradingMarkers, gradingTasks } from '../../db/schema';
import { badRequest, ok } from '../../http/envelope';
import { EnvelopeSchema } from '../../../src/domain/envelope';
import { AssignedMarkingSchema, MarkerSetupSchema, type AssignedMarking } from '../../../src/domain/marking';
import { BASE, correctors, findMyTask, myTeacherId, type TaskRow } from './access';
import { doubleOf, markersOf, marksOf, progressOf } from './markers';
import { checkHalf, questionOf } from './markingRoutes';
import { manualQuestions, sheetNos } from './marking';
import { Id } from './schemas';
import type { Db } from '../../db';

const No = Type.Integer({ minimum: 1, maximum: 200 });
/** More markers than this for one question is a mistake, not a plan. */
const MAX_MARKERS = 20;
/** The 阅卷任务 list shows the latest tasks only. */
const MAX_ASSIGNED = 50;

/** Teachers of the owner's courses in the task's class (the school's teaching assignments). */
export const candidatesOf = (db: Db, task: TaskRow) =>
  task.classId === null
    ? Promise.resolve([])
    : rows<{ teacherId: number; name: string }>(db, sql`
        SELECT DISTINCT t.id AS "teacherId", t.name FROM teaching_assignments ta JOIN teachers t ON t.id = ta.teacher_id
         WHERE ta.tenant_id = ${task.tenantId} AND ta.class_id = ${task.classId}
           AND ta.course_id IN (SELECT course_id FROM teaching_assignments WHERE teacher_id = ${task.teacherId} AND class_id = ${task.classId})
         ORDER BY t.id`);

const markerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get(
    `${BASE}/marking/markers`,
    { preHandler: correctors, schema: { querystring: Type.Object({ taskId: Id }), response: { 200: EnvelopeSchema(MarkerSetupSchema) } } },
    async (request) => {
      const task = await findMyTask(db, request.principal, request.query.taskId);
      const questions = task.sheetId === null ? [] : manualQuestions(task, await sheetNos(db, task));
      const markers = await markersOf(db, task.id);
      return ok({
        candidates: await candidatesOf(db, task),
        questions: questions.map((q) => ({ no: q.no, teacherIds: markers.filter((m) => m.no === q.no).map((m) => m.teacherId), double: doubleOf(task, q.no) })),
      });
    },
  );

  app.post(
    `${BASE}/marking/markers`,
    {
      preHandler: correctors,
      schema: {
        body: Type.Object({
          taskId: Id,
          no: No,
          teacherIds: Type.Array(Id, { maxItems: MAX_MARKERS, uniqueItems: true }),
          double: Type.Union([Type.Null(), Type.Number({ minimum: 0, maximum: 150 })]),
        }),
      },
    },
    async (request) => {
      const { taskId, no, teacherIds, double } = request.body;
      const task = await findMyTask(db, request.principal, taskId);
      const question = await questionOf(db, task, no);
      if (task.classId === null) throw badRequest('任务没有班级，不能分配阅卷老师');
      const candidates = new Set((await candidatesOf(db, task)).map((c) => c.teacherId));
      if (teacherIds.some((id) => !candidates.has(id))) throw badRequest('只能分配给在本班任教本课程的老师');
      if (double !== null) {
        checkHalf(double);
        if (teacherIds.length < 2) throw badRequest('双评至少需要两位阅卷老师');
        if (question.fullMarks !== null && double > question.fullMarks) throw badRequest(`双评分差不能超过满分 ${question.fullMarks} 分`);
      }
      await db.transaction(async (tx) => {
        await tx.delete(gradingMarkers).where(and(eq(gradingMarkers.taskId, task.id), eq(gradingMarkers.no, no)));
        if (teacherIds.length) await tx.insert(gradingMarkers).values(teacherIds.map((teacherId) => ({ tenantId: task.tenantId, taskId: task.id, no, teacherId })));
        const current = { ...((task.markingDouble as Record<string, number> | null) ?? {}) };
        if (double === null) delete current[String(no)];
        else current[String(no)] = double;
        await tx.update(gradingTasks).set({ markingDouble: current }).where(eq(gradingTasks.id, task.id));
      });
      return ok({ no, teacherIds, double }, teacherIds.length ? `第 ${no} 题已分配给 ${teacherIds.length} 位老师${double !== null ? '（双评）' : ''}` : `第 ${no} 题由您自己阅`);
    },
  );

  // The tasks other teachers gave the caller questions of: only the marking part, with their own progress.
  app.get(
    `${BASE}/marking/assigned`,
    { preHandler: correctors, schema: { response: { 200: EnvelopeSchema(Type.Array(AssignedMarkingSchema)) } } },
    async (request) => {
      const me = await myTeacherId(db, request.principal);
      const tasks = await db
        .select({ task: gradingTasks, owner: sql<string>`(SELECT name FROM teachers WHERE id = ${gradingTasks.teacherId})` })
        .from(gradingTasks)
        .where(and(eq(gradingTasks.tenantId, request.principal.tenantId!), sql`${gradingTasks.teacherId} <> ${me}`, sql`${gradingTasks.id} IN (SELECT task_id FROM grading_markers WHERE teacher_id = ${me})`))
        .orderBy(sql`${gradingTasks.id} DESC`)
        .limit(MAX_ASSIGNED);
      const out: AssignedMarking[] = [];
      for (const { task, owner } of tasks) {
        const markers = await markersOf(db, task.id);
        const mine = new Set(markers.filter((m) => m.teacherId === me).map((m) => m.no));
        const questions = task.sheetId === null ? [] : manualQuestions(task, await sheetNos(db, task)).filter((q) => mine.has(q.no));
        const results = await rows<{ id: number; review: Record<string, number> | null }>(db, sql`SELECT id, review FROM grading_results WHERE task_id = ${task.id}`);
        const marks = await marksOf(db, task.id);
        out.push({
          taskId: task.id,
          title: task.title,
          owner,
          questions: questions.map((q) => {
            const threshold = doubleOf(task, q.no);
            const own = progressOf(results, q.no, markers, threshold, marks).markers.find((m) => m.teacherId === me)!;
            return { no: q.no, kind: q.kind, double: threshold !== null, marked: own.marked, total: own.total };
          }),
        });
      }
      return ok(out);
    },
  );
};

export default markerRoutes;
