// Free exams for a new 联考: each school of the demo region gets a second 七年级数学 exam, a copy of
// its sitting of the demo 联考 with its classes and each student's total (as if the same students
// had sat a unit test), joined to no 联考. The demo seed has no such exams of its own.
import { sql } from 'drizzle-orm';
import type { Db } from '../../server/db';

export const UNIT_TEST_TITLE = '七年级数学单元测验';

export async function addFreeRegionExams(db: Db, region = '杭州市西湖区'): Promise<{ examId: number; schoolId: number }[]> {
  const made = (await db.execute(sql`
    WITH src AS (
      SELECT e.* FROM exams e JOIN joint_exams j ON j.id = e.joint_exam_id WHERE j.region = ${region}
    ), ins AS (
      INSERT INTO exams (tenant_id, school_id, paper_id, grade_id, course_id, title, exam_date, term, full_marks, items, created_by)
      SELECT tenant_id, school_id, paper_id, grade_id, course_id, ${UNIT_TEST_TITLE}, exam_date + 7, term, full_marks, items, created_by FROM src
      RETURNING id, school_id, grade_id, course_id
    )
    SELECT ins.id AS "examId", ins.school_id AS "schoolId", src.id AS "sourceId" FROM ins JOIN src ON src.school_id = ins.school_id AND src.grade_id = ins.grade_id AND src.course_id = ins.course_id`)) as unknown as {
    rows: { examId: number; schoolId: number; sourceId: number }[];
  };
  for (const m of made.rows) {
    await db.execute(sql`INSERT INTO exam_classes (tenant_id, exam_id, class_id) SELECT tenant_id, ${m.examId}, class_id FROM exam_classes WHERE exam_id = ${m.sourceId}`);
    // Each student's tally on the copy: the sitting's, a point lower where there is one to lose.
    await db.execute(sql`
      INSERT INTO work_student_stats (tenant_id, source_type, source_id, student_id, class_id, answered, correct, score, max_score)
      SELECT tenant_id, source_type, ${m.examId}, student_id, class_id, answered, correct, greatest(score - 1, 0), max_score
        FROM work_student_stats WHERE source_type = 2 AND source_id = ${m.sourceId}`);
  }
  return made.rows.map(({ examId, schoolId }) => ({ examId, schoolId }));
}
