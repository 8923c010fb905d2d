// Who a task has accounted for, so nobody is lost between the upload and the report: results
// graded and awaiting review, pages that could not be read (with the reason and the file to look
// at), pages uploaded but not graded yet, and the students of the task's class with no page at all.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { RecognitionStatus } from '../../grading/statuses';
import type { TaskCoverage } from '../../../src/domain/correct';

interface TaskRef {
  id: number;
  tenantId: number;
  classId: number | null;
}

/** Reading results a file keeps (answer sheets): its pages, and why other pages could not be read. */
type SheetReading = { pages?: unknown[]; failures?: string[] } | null;

export async function taskCoverage(db: Db, task: TaskRef): Promise<TaskCoverage> {
  const files = await rows<{ id: number; fileName: string; status: number; error: string | null; reading: SheetReading; studentId: number | null; studentName: string | null }>(db, sql`
    SELECT f.id, f.file_name AS "fileName", f.recognition_status AS status, f.error, f.reading, f.student_id AS "studentId", s.name AS "studentName"
      FROM grading_files f LEFT JOIN students s ON s.id = f.student_id
     WHERE f.task_id = ${task.id} AND f.recognition_status <> ${RecognitionStatus.deleted}
     ORDER BY f.id`);
  // A failed file, or a read scan some of whose pages failed (a sheet file whose only page could
  // not be read has no pages and would otherwise vanish between upload and report).
  const failed = files
    .filter((f) => f.status === RecognitionStatus.failed || (f.status === RecognitionStatus.recognised && (f.error || f.reading?.pages?.length === 0)))
    .map((f) => ({ fileId: f.id, fileName: f.fileName, reason: f.error ?? '没有找到答题卡页面', studentId: f.studentId, studentName: f.studentName }));
  const waiting = files.filter((f) => f.status === RecognitionStatus.new || f.status === RecognitionStatus.uploading || f.status === RecognitionStatus.recognising).length;
  const [counts] = await rows<{ graded: number; review: number; unmatched: number }>(db, sql`
    SELECT count(*) FILTER (WHERE NOT needs_review)::int AS graded, count(*) FILTER (WHERE needs_review)::int AS review,
           count(*) FILTER (WHERE student_id IS NULL)::int AS unmatched
      FROM grading_results WHERE task_id = ${task.id}`);
  // The class roster (students still enrolled) less anyone with a result or a page named for them
  // that has been read (or failed): a page still waiting to be graded is not yet their work handed in.
  const absent =
    task.classId === null
      ? []
      : await rows<{ studentId: number; name: string; studentNo: string | null }>(db, sql`
          SELECT s.id AS "studentId", s.name, s.student_no AS "studentNo" FROM students s
           WHERE s.tenant_id = ${task.tenantId} AND s.class_id = ${task.classId} AND s.status = 0
             AND NOT EXISTS (SELECT 1 FROM grading_results r WHERE r.task_id = ${task.id} AND r.student_id = s.id)
             AND NOT EXISTS (SELECT 1 FROM grading_files f WHERE f.task_id = ${task.id} AND f.student_id = s.id AND f.recognition_status IN (${RecognitionStatus.recognised}, ${RecognitionStatus.failed}))
           ORDER BY s.student_no NULLS LAST, s.id`);
  return {
    files: files.length,
    graded: counts.graded,
    review: counts.review,
    unmatched: counts.unmatched,
    waiting,
    failed,
    absent,
  };
}
