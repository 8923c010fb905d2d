// Replacing one page of a task: the teacher uploads a better photo or scan for a page that failed
// or was read wrongly. The old file is retired (status 5) and what was graded from it alone goes
// with it; a sheet result that also has other pages is replaced when the new page is graded,
// because the scoring job merges a student's new pages with the ones kept (jobs.ts).
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { gradingFiles } from '../../db/schema';
import { RecognitionStatus } from '../../grading/statuses';
import { notFound } from '../../http/envelope';

export type FileRow = typeof gradingFiles.$inferSelect;

/** The page to replace: a file of this task, still there. Another task's file is simply not found. */
export async function replaceable(db: Db, taskId: number, tenantId: number, fileId: number): Promise<FileRow> {
  const [file] = await db
    .select()
    .from(gradingFiles)
    .where(and(eq(gradingFiles.id, fileId), eq(gradingFiles.taskId, taskId), eq(gradingFiles.tenantId, tenantId), ne(gradingFiles.recognitionStatus, RecognitionStatus.deleted)));
  if (!file) throw notFound('要替换的文件不存在');
  return file;
}

export async function retireFile(tx: Db, file: FileRow): Promise<void> {
  await tx.update(gradingFiles).set({ recognitionStatus: RecognitionStatus.deleted }).where(eq(gradingFiles.id, file.id));
  // A photo's result names its file; a sheet result names the file of each of its pages.
  await tx.execute(sql`
    DELETE FROM grading_results r
     WHERE r.task_id = ${file.taskId}
       AND ((r.result->>'fileId')::int = ${file.id}
            OR (jsonb_typeof(r.result->'detail'->'pages') = 'array' AND jsonb_array_length(r.result->'detail'->'pages') > 0
                AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(r.result->'detail'->'pages') p
                                 WHERE (p->>'fileId')::int IS DISTINCT FROM ${file.id})))`);
}
