// Who may use AI correction, and the lookups every call makes: a teacher works on their own tasks,
// sheets and results only; another teacher's or another tenant's ids are simply not found.
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { answerSheets, gradingResults, gradingTasks, teachers } from '../../db/schema';
import { allow } from '../../auth/plugin';
import type { Principal } from '../../auth/principal';
import { badRequest, forbidden, notFound } from '../../http/envelope';

/** Where every correction call lives. */
export const BASE = '/api/wrongbook/v1.0/correct';

/** The roles that correct work: the mini-program teacher (/AICorrect) and the classic teacher. */
export const correctors = allow({ roles: ['mpTeacher', 'teacher'] });

export async function myTeacherId(db: Db, p: Principal): Promise<number> {
  const [row] = await db.select({ id: teachers.id }).from(teachers).where(eq(teachers.userId, p.userId));
  if (!row || p.tenantId === null) throw forbidden('仅任课教师可以使用 AI 批改');
  return row.id;
}

export type TaskRow = typeof gradingTasks.$inferSelect;

export async function findMyTask(db: Db, p: Principal, taskId: number): Promise<TaskRow> {
  const teacherId = await myTeacherId(db, p);
  const [task] = await db
    .select()
    .from(gradingTasks)
    .where(and(eq(gradingTasks.id, taskId), eq(gradingTasks.tenantId, p.tenantId!), eq(gradingTasks.teacherId, teacherId)));
  if (!task) throw notFound('批改任务不存在');
  return task;
}

export async function findMySheet(db: Db, p: Principal, sheetId: string) {
  const teacherId = await myTeacherId(db, p);
  const [sheet] = await db
    .select()
    .from(answerSheets)
    .where(and(eq(answerSheets.id, sheetId), eq(answerSheets.tenantId, p.tenantId!), eq(answerSheets.teacherId, teacherId)));
  if (!sheet) throw notFound('答题卡不存在');
  return sheet;
}

export async function findMyResult(db: Db, p: Principal, resultId: number) {
  const [result] = await db.select().from(gradingResults).where(and(eq(gradingResults.id, resultId), eq(gradingResults.tenantId, p.tenantId ?? -1)));
  if (!result) throw notFound('批改结果不存在');
  await findMyTask(db, p, result.taskId).catch(() => {
    throw notFound('批改结果不存在');
  });
  return result;
}

/** A named student must be in a class the teacher teaches, and in the task's class when it has one. */
export async function checkStudent(db: Db, task: TaskRow, studentId: number): Promise<void> {
  if (!Number.isInteger(studentId) || studentId < 1 || studentId > 2 ** 31 - 1) throw badRequest('学生格式不正确');
  const [student] = await rows<{ classId: number | null }>(db, sql`
    SELECT s.class_id AS "classId" FROM students s
     WHERE s.id = ${studentId} AND s.tenant_id = ${task.tenantId}
       AND s.class_id IN (SELECT ta.class_id FROM teaching_assignments ta WHERE ta.teacher_id = ${task.teacherId})`);
  if (!student) throw notFound('学生不存在或不在您任教的班级');
  if (task.classId !== null && student.classId !== task.classId) throw badRequest('该学生不在本任务的班级中');
}
