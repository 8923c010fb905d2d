// A homework's record as listed and in detail (students and questions with their figures), read
// by the homework calls and by its workbook export.
import { sql } from 'drizzle-orm';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { isoTime, rows } from '../../db/query';
import type { WorkItem } from '../../db/schema';
import { notFound } from '../../http/envelope';
import { RecognitionStatus } from '../../grading/statuses';
import { me } from './access';
import { enrolledAt } from '../vesta/enrolment';
import { QUESTION_COLUMNS, type QuestionView } from './questions';

/** A homework as listed (docs/api-content.md "Homework"). */
export interface HomeworkRecord {
  id: number;
  batchId: number;
  title: string;
  classId: number;
  className: string;
  gradeId: number;
  gradeName: string;
  courseId: number;
  courseName: string;
  sourceType: number;
  bookId: number | null;
  bookTitle: string | null;
  assignedAt: string;
  dueAt: string;
  term: string;
  questionCount: number;
  studentCount: number;
  submittedCount: number;
  gradedCount: number;
  pendingReview: number;
  accuracy: number | null;
  scoreRate: number | null;
  /** The teacher's note to the students, or null. */
  note: string | null;
  /** Scheduled publishing time, or null (published when assigned). */
  startAt: string | null;
  /** Students can see it (its publishing time has come). */
  published: boolean;
  /** A homework given as a photo or PDF with its own answer key: that file (GET /homework-files/:id). */
  fileId: number | null;
}

/** A page a student handed in as a photo or scan (AI批改 of this homework), viewed at the task's file view. */
export interface StudentPage {
  fileId: number;
  taskId: number;
  name: string;
  mime: string;
}

export interface HomeworkDetail extends HomeworkRecord {
  students: { studentId: number; name: string; studentNo: string; submitted: boolean; score: number | null; maxScore: number | null; answered: number | null; correct: number | null; accuracy: number | null; pages: StudentPage[] }[];
  questions: { no: string; points: number; question: QuestionView; answered: number; correct: number; accuracy: number | null; scoreRate: number | null; answers: GivenAnswer[] }[];
}

/** One answer the class gave to a question (as read), how many gave it, and whether it was marked right. */
export interface GivenAnswer {
  answer: string;
  count: number;
  correct: boolean;
}

/** The most common answers per question; the rest are few and would only crowd the screen. */
const ANSWERS_SHOWN = 4;

/**
 * Homework students can see: published when assigned, or its scheduled time has come. Every
 * student- or family-facing list of homework filters on this (alias `h`).
 */
export const PUBLISHED = sql`(h.start_at IS NULL OR h.start_at <= now())`;

/** A homework's figures: class size, who handed in, how they did (rollups). */
export const FIGURES = sql`
  (SELECT count(*)::int FROM students st WHERE st.class_id = h.class_id AND ${enrolledAt('st', sql`h.assigned_at`)}) AS "studentCount",
  coalesce(ws.submitted, 0) AS "submittedCount",
  greatest(coalesce(ws.submitted, 0) - h.pending_review, 0) AS "gradedCount",
  h.pending_review AS "pendingReview",
  CASE WHEN ws.answered > 0 THEN round((ws.correct::numeric / ws.answered), 4)::float8 END AS accuracy,
  CASE WHEN ws.max_score > 0 THEN round((ws.score / ws.max_score)::numeric, 4)::float8 END AS "scoreRate"`;
export const FIGURES_JOIN = sql`
  LEFT JOIN LATERAL (SELECT count(*)::int AS submitted, sum(s.answered)::int AS answered, sum(s.correct)::int AS correct,
                            sum(s.score)::float8 AS score, sum(s.max_score)::float8 AS max_score
                       FROM work_student_stats s WHERE s.tenant_id = h.tenant_id AND s.source_type = h.source_type AND s.source_id = h.id) ws ON TRUE`;
export const HOMEWORK_COLUMNS = sql`h.id, h.batch_id AS "batchId", h.title, h.class_id AS "classId", c.name AS "className", g.id AS "gradeId", g.name AS "gradeName",
  h.course_id AS "courseId", co.name AS "courseName", h.source_type AS "sourceType", h.book_id AS "bookId", b.title AS "bookTitle",
  ${isoTime(sql`h.assigned_at`)} AS "assignedAt", ${isoTime(sql`h.due_at`)} AS "dueAt", h.term, jsonb_array_length(h.items) AS "questionCount", h.note,
  ${isoTime(sql`h.start_at`)} AS "startAt", ${PUBLISHED} AS published, h.file_id AS "fileId"`;
export const HOMEWORK_FROM = sql`homeworks h JOIN classes c ON c.id = h.class_id JOIN grades g ON g.id = c.grade_id JOIN courses co ON co.id = h.course_id
  LEFT JOIN exercise_books b ON b.id = h.book_id`;

type HomeworkStudent = HomeworkDetail['students'][number];

/** The caller's own homework as listed, with its frozen items; another teacher's or tenant's is 404. */
async function ownRecord(db: Db, p: Principal, homeworkId: number): Promise<{ homework: HomeworkRecord; tenantId: number; teacherId: number; items: WorkItem[] }> {
  const { tenantId, teacherId } = await me(db, p);
  const [homework] = await rows<HomeworkRecord & { items: WorkItem[] }>(db, sql`
    SELECT ${HOMEWORK_COLUMNS}, h.items, ${FIGURES} FROM ${HOMEWORK_FROM} ${FIGURES_JOIN}
     WHERE h.id = ${homeworkId} AND h.tenant_id = ${tenantId} AND h.teacher_id = ${teacherId}`);
  if (!homework) throw notFound('作业不存在');
  const { items, ...record } = homework;
  return { homework: record, tenantId, teacherId, items };
}

/** Every student now enrolled in the homework's class, by student number, with how they did. */
async function classStudents(db: Db, tenantId: number, homework: HomeworkRecord): Promise<Omit<HomeworkStudent, 'pages'>[]> {
  return rows<Omit<HomeworkStudent, 'pages'>>(db, sql`
    SELECT st.id AS "studentId", st.name, st.student_no AS "studentNo", (s.student_id IS NOT NULL) AS submitted,
           s.score, s.max_score AS "maxScore", s.answered, s.correct,
           CASE WHEN s.answered > 0 THEN round(s.correct::numeric / s.answered, 4)::float8 END AS accuracy
      FROM students st
      LEFT JOIN work_student_stats s ON s.tenant_id = ${tenantId} AND s.source_type = ${homework.sourceType} AND s.source_id = ${homework.id} AND s.student_id = st.id
     WHERE st.class_id = ${homework.classId} AND ${enrolledAt('st', sql`${homework.assignedAt}::timestamptz`)}
     ORDER BY st.student_no`);
}

/** Who has not handed a homework in: the reminder list (printed, exported, later sent home). */
export interface MissingList extends HomeworkRecord {
  /** The deadline has passed: these students are late, not just not yet done. */
  overdue: boolean;
  students: { studentId: number; studentNo: string; name: string }[];
}

export async function missingList(db: Db, p: Principal, homeworkId: number): Promise<MissingList> {
  const { homework, tenantId } = await ownRecord(db, p, homeworkId);
  const students = (await classStudents(db, tenantId, homework))
    .filter((s) => !s.submitted)
    .map(({ studentId, studentNo, name }) => ({ studentId, studentNo, name }));
  return { ...homework, overdue: new Date(homework.dueAt).getTime() <= Date.now(), students };
}

/**
 * The pages each student handed in, when the homework was graded from photos: the files of her AI批改
 * tasks linked to it (answer_key.work), uploaded for a student, in upload order.
 */
async function studentPages(db: Db, tenantId: number, teacherId: number, homework: HomeworkRecord): Promise<Map<number, StudentPage[]>> {
  const found = await rows<StudentPage & { studentId: number }>(db, sql`
    SELECT f.student_id AS "studentId", f.id AS "fileId", f.task_id AS "taskId", f.file_name AS name, f.mime
      FROM grading_tasks t JOIN grading_files f ON f.task_id = t.id
     WHERE t.tenant_id = ${tenantId} AND t.teacher_id = ${teacherId}
       AND t.answer_key->'work'->>'sourceType' = ${String(homework.sourceType)} AND t.answer_key->'work'->>'sourceId' = ${String(homework.id)}
       AND f.student_id IS NOT NULL AND f.recognition_status <> ${RecognitionStatus.deleted}
     ORDER BY f.id`);
  const byStudent = new Map<number, StudentPage[]>();
  for (const { studentId, ...page } of found) byStudent.set(studentId, [...(byStudent.get(studentId) ?? []), page]);
  return byStudent;
}

/** A homework's record with its students and questions; another teacher's or tenant's is 404. */
export async function homeworkDetail(db: Db, p: Principal, homeworkId: number): Promise<HomeworkDetail> {
  const { homework, tenantId, teacherId, items } = await ownRecord(db, p, homeworkId);
  const pages = await studentPages(db, tenantId, teacherId, homework);
  const students = (await classStudents(db, tenantId, homework)).map((s) => ({ ...s, pages: pages.get(s.studentId) ?? [] }));
  const questionRows = await rows<QuestionView & { answered: number | null; correct: number | null; score: number | null; maxScore: number | null }>(db, sql`
    SELECT ${QUESTION_COLUMNS}, s.answered, s.correct, s.score, s.max_score AS "maxScore"
      FROM questions q
      LEFT JOIN work_question_stats s ON s.tenant_id = ${tenantId} AND s.source_type = ${homework.sourceType} AND s.source_id = ${homework.id}
                                     AND s.class_id = ${homework.classId} AND s.question_id = q.id
     WHERE q.id = ANY(${`{${items.map((i) => i.questionId).join(',')}}`}::int[])`);
  // The answers given, per question (one homework's records: a class times its questions, by key).
  const given = await rows<GivenAnswer & { questionId: number }>(db, sql`
    SELECT question_id AS "questionId", btrim(answer) AS answer, count(*)::int AS count, bool_or(is_correct) AS correct
      FROM answer_records
     WHERE tenant_id = ${tenantId} AND source_type = ${homework.sourceType} AND source_id = ${homework.id} AND answer IS NOT NULL AND btrim(answer) <> ''
     GROUP BY 1, 2 ORDER BY 1, 3 DESC, 2`);
  const questions = items.map((item) => {
    const q = questionRows.find((r) => r.id === item.questionId)!;
    const { answered, correct, score, maxScore, ...question } = q;
    return {
      no: item.no,
      points: item.points,
      question,
      answered: answered ?? 0,
      correct: correct ?? 0,
      accuracy: answered ? Math.round((correct! / answered) * 10000) / 10000 : null,
      scoreRate: maxScore ? Math.round((score! / maxScore) * 10000) / 10000 : null,
      answers: given
        .filter((g) => g.questionId === item.questionId)
        .slice(0, ANSWERS_SHOWN)
        .map(({ answer, count, correct }) => ({ answer: answer.slice(0, 40), count, correct })),
    };
  });
  return { ...homework, students, questions };
}
