// A homework's record as listed and in detail (students and questions with their figures), read
// by the homework calls and by its workbook export.
import { sql } from 'drizzle-orm';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { isoTime, rows } from '../../db/query';
import type { WorkItem } from '../../db/schema';
import { notFound } from '../../http/envelope';
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
}

export interface HomeworkDetail extends HomeworkRecord {
  students: { studentId: number; name: string; studentNo: string; submitted: boolean; score: number | null; maxScore: number | null; answered: number | null; correct: number | null; accuracy: number | null }[];
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
  ${isoTime(sql`h.assigned_at`)} AS "assignedAt", ${isoTime(sql`h.due_at`)} AS "dueAt", h.term, jsonb_array_length(h.items) AS "questionCount"`;
export const HOMEWORK_FROM = sql`homeworks h JOIN classes c ON c.id = h.class_id JOIN grades g ON g.id = c.grade_id JOIN courses co ON co.id = h.course_id
  LEFT JOIN exercise_books b ON b.id = h.book_id`;

/** A homework's record with its students and questions; another teacher's or tenant's is 404. */
export async function homeworkDetail(db: Db, p: Principal, homeworkId: number): Promise<HomeworkDetail> {
  const { tenantId, teacherId } = await me(db, p);
  const [homework] = await rows<HomeworkRecord & { items?: WorkItem[] }>(db, sql`
    SELECT ${HOMEWORK_COLUMNS}, h.items, ${FIGURES} FROM ${HOMEWORK_FROM} ${FIGURES_JOIN}
     WHERE h.id = ${homeworkId} AND h.tenant_id = ${tenantId} AND h.teacher_id = ${teacherId}`);
  if (!homework) throw notFound('作业不存在');
  const items = homework.items!;
  delete homework.items;
  const students = await rows<HomeworkDetail['students'][number]>(db, sql`
    SELECT st.id AS "studentId", st.name, st.student_no AS "studentNo", (s.student_id IS NOT NULL) AS submitted,
           s.score, s.max_score AS "maxScore", s.answered, s.correct,
           CASE WHEN s.answered > 0 THEN round(s.correct::numeric / s.answered, 4)::float8 END AS accuracy
      FROM students st
      LEFT JOIN work_student_stats s ON s.tenant_id = ${tenantId} AND s.source_type = ${homework.sourceType} AND s.source_id = ${homework.id} AND s.student_id = st.id
     WHERE st.class_id = ${homework.classId} AND ${enrolledAt('st', sql`${homework.assignedAt}::timestamptz`)}
     ORDER BY st.student_no`);
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
