// 阅卷进度 of an exam marked online: the AI批改 answer-sheet tasks made with the exam (one per class),
// each hand-marked question (解答题, essay) with papers marked / papers, and each marker's own queue
// as 网上阅卷 splits it (correct/markers.ts progressOf, the numbers the task owner sees). A question
// given to no one is the task owner's to mark.
import { and, eq, sql } from 'drizzle-orm';
import { SourceType } from '../../../src/domain/content';
import type { ExamMarkingProgress } from '../../../src/domain/leaderExams';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { gradingTasks } from '../../db/schema';
import { TaskType } from '../../grading/statuses';
import { doubleOf, markersOf, marksOf, progressOf } from '../correct/markers';
import { manualQuestions, sheetNos } from '../correct/marking';

export async function examMarkingProgress(db: Db, tenantId: number, examId: number, classIds: number[]): Promise<ExamMarkingProgress> {
  if (!classIds.length) return { tasks: [] };
  const tasks = await db
    .select({
      task: gradingTasks,
      owner: sql<string>`(SELECT name FROM teachers WHERE id = ${gradingTasks.teacherId})`,
      className: sql<string>`(SELECT name FROM classes WHERE id = ${gradingTasks.classId})`,
    })
    .from(gradingTasks)
    .where(
      and(
        eq(gradingTasks.tenantId, tenantId),
        eq(gradingTasks.type, TaskType.answerSheet),
        sql`${gradingTasks.answerKey} -> 'work' ->> 'sourceType' = ${String(SourceType.exam)}`,
        sql`${gradingTasks.answerKey} -> 'work' ->> 'sourceId' = ${String(examId)}`,
        sql`${gradingTasks.classId} = ANY(${`{${classIds.join(',')}}`}::int[])`,
      ),
    )
    .orderBy(gradingTasks.classId, gradingTasks.id);
  const out: ExamMarkingProgress['tasks'] = [];
  for (const { task, owner, className } of tasks) {
    const questions = task.sheetId === null ? [] : manualQuestions(task, await sheetNos(db, task));
    const [markers, results, marks] = await Promise.all([
      markersOf(db, task.id),
      rows<{ id: number; review: Record<string, number> | null }>(db, sql`SELECT id, review FROM grading_results WHERE task_id = ${task.id}`),
      marksOf(db, task.id),
    ]);
    out.push({
      taskId: task.id,
      title: task.title,
      classId: task.classId!,
      className,
      owner,
      papers: results.length,
      questions: questions.map((q) => {
        const threshold = doubleOf(task, q.no);
        const progress = progressOf(results, q.no, markers, threshold, marks);
        return {
          no: q.no,
          kind: q.kind,
          double: threshold !== null,
          marked: progress.marked,
          total: progress.total,
          arbitration: progress.arbitration,
          markers: progress.markers.length ? progress.markers : [{ teacherId: task.teacherId, name: owner, marked: progress.marked, total: progress.total }],
        };
      }),
    });
  }
  return { tasks: out };
}
