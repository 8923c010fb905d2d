// Who may use AI correction, and the lookups every call makes: a teacher works on their own tasks
// and sheets only; another teacher's or another tenant's ids are simply not found.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db';
import { answerSheets, gradingTasks, teachers } from '../../db/schema';
import { allow } from '../../auth/plugin';
import type { Principal } from '../../auth/principal';
import { forbidden, notFound } from '../../http/envelope';

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
