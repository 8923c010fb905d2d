// A grading task tied to a piece of school work — a homework (source type 0/1) or an exam (2) —
// writes its results into the answer records (minerva/answers.ts recordAnswers), so wrong-answer
// books and reports fill by themselves. The link is chosen when the task is created and frozen in
// the task's answer_key jsonb as `work`: the work, and for each item number of the task the bank
// question and its points. Machine grading writes the records (graded by machine); the teacher's
// review overwrites them (graded by teacher, which grading never overrides).
import { sql } from 'drizzle-orm';
import { normalizeKeyAnswer, QuestionType, SourceType, type HomeworkKeyKind } from '../../../src/domain/content';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import type { WorkItem } from '../../db/schema';
import { badRequest, notFound } from '../../http/envelope';
import { TaskType } from '../../grading/statuses';
import { recordAnswers, type AnswerInput } from '../minerva/answers';
import type { GradedWork } from './results';

export interface WorkLink {
  sourceType: number;
  sourceId: number;
  /** Task item number → the work's question and its points. */
  items: Record<string, { questionId: number; points: number; studentIds?: number[]; key?: LinkKey }>;
}

/** A photo/PDF homework's own answer key for an item: what the photo's answer is compared with. */
export interface LinkKey {
  kind: HomeworkKeyKind;
  answer?: string;
}

const KIND_OF_TYPE: Record<number, HomeworkKeyKind> = {
  [QuestionType.single]: 'choice',
  [QuestionType.multiple]: 'choice',
  [QuestionType.judge]: 'judge',
  [QuestionType.blank]: 'blank',
  [QuestionType.answer]: 'answer',
};

interface LinkRequest {
  type: number;
  classId?: number;
  homeworkId?: number;
  examId?: number;
  answerKey?: { items: Record<string, { points: number }> };
}

/**
 * Item numbers of the task: a work item printed as a plain number keeps it ("12"); the others
 * ("12(2)") take their position, so every question still has a number on the sheet.
 */
export function itemMap(items: WorkItem[]): WorkLink['items'] {
  const map: WorkLink['items'] = {};
  items.forEach((it, i) => {
    const no = /^\d+$/.test(it.no) ? it.no : String(i + 1);
    map[no] ??= { questionId: it.questionId, points: it.points, ...(it.studentIds ? { studentIds: it.studentIds } : {}) };
  });
  return map;
}

/**
 * Checks the link a task is created with and returns it with the class the task is for: the
 * teacher's own homework (a homework or answer-sheet task), or an exam with a class they teach in
 * its course (an answer-sheet task). Anything else is "not found"; an answer key that gives a
 * linked question other points than the work is refused, since its records would not add up.
 */
export async function resolveLink(db: Db, p: Principal, teacherId: number, body: LinkRequest): Promise<{ link: WorkLink; classId: number } | null> {
  if (body.homeworkId === undefined && body.examId === undefined) return null;
  if (body.homeworkId !== undefined && body.examId !== undefined) throw badRequest('作业和考试只能关联一个');
  let link: WorkLink;
  let classIds: number[];
  if (body.homeworkId !== undefined) {
    if (body.type === TaskType.essay) throw badRequest('作文批改不能关联作业');
    const [homework] = await rows<{ id: number; sourceType: number; classId: number; items: WorkItem[]; fileId: number | null }>(db, sql`
      SELECT id, source_type AS "sourceType", class_id AS "classId", items, file_id AS "fileId" FROM homeworks
       WHERE id = ${body.homeworkId} AND tenant_id = ${p.tenantId} AND teacher_id = ${teacherId}`);
    if (!homework) throw notFound('作业不存在');
    link = { sourceType: homework.sourceType, sourceId: homework.id, items: itemMap(homework.items) };
    // A photo/PDF homework brings its own answer key: the photo's answers are scored against it.
    if (homework.fileId !== null) {
      const keyRows = await rows<{ id: number; type: number; answer: string }>(db, sql`
        SELECT id, type, answer FROM questions WHERE id = ANY(${`{${homework.items.map((i) => i.questionId).join(',') || 0}}`}::int[]) AND homework_batch_id IS NOT NULL`);
      for (const item of Object.values(link.items)) {
        const q = keyRows.find((r) => r.id === item.questionId);
        const kind = q && KIND_OF_TYPE[q.type];
        if (kind) item.key = kind === 'answer' ? { kind } : { kind, answer: q.answer };
      }
    }
    classIds = [homework.classId];
  } else {
    if (body.type !== TaskType.answerSheet) throw badRequest('只有答题卡批改可以关联考试');
    const [exam] = await rows<{ id: number; items: WorkItem[]; classIds: number[] }>(db, sql`
      SELECT e.id, e.items,
             ARRAY(SELECT ec.class_id FROM exam_classes ec
                     JOIN teaching_assignments ta ON ta.class_id = ec.class_id AND ta.course_id = e.course_id AND ta.teacher_id = ${teacherId}
                    WHERE ec.exam_id = e.id ORDER BY 1) AS "classIds"
        FROM exams e WHERE e.id = ${body.examId} AND e.tenant_id = ${p.tenantId}`);
    if (!exam || !exam.classIds.length) throw notFound('考试不存在');
    link = { sourceType: SourceType.exam, sourceId: exam.id, items: itemMap(exam.items) };
    classIds = exam.classIds;
  }
  if (body.classId === undefined && classIds.length > 1) throw badRequest('请选择参加考试的班级');
  const classId = body.classId ?? classIds[0];
  if (!classIds.includes(classId)) throw badRequest(body.examId !== undefined ? '该班级没有参加这次考试' : '作业不是布置给这个班级的');
  for (const [no, key] of Object.entries(body.answerKey?.items ?? {})) {
    const item = link.items[no];
    if (item && item.points !== key.points) throw badRequest(`第 ${no} 题的分值（${key.points} 分）与${body.examId !== undefined ? '考试' : '作业'}中的分值（${item.points} 分）不一致`);
  }
  return { link, classId };
}

/**
 * A homework photo's answers scored against the homework's own key: an objective item full points
 * when it reads the same as the key (letters, 对/错, blanks as normalizeKeyAnswer folds them),
 * else 0; a 解答题 waits for the teacher. Items without a key are left as they are.
 */
export function scoreWithKey(work: GradedWork, link: WorkLink): GradedWork {
  if (work.kind !== 'homework') return work;
  const items = work.items.map((item) => {
    const target = link.items[String(item.no)];
    const key = target?.key;
    if (!key) return item;
    if (key.kind === 'answer') return { ...item, needsReview: true, reasons: [...item.reasons, '解答题请老师评分'] };
    const given = normalizeKeyAnswer(key.kind, item.given);
    return { ...item, expected: key.answer, score: given !== null && given === key.answer ? target.points : 0 };
  });
  return { ...work, items };
}

export const linkOf = (answerKey: unknown): WorkLink | null => ((answerKey as { work?: WorkLink } | null)?.work ?? null);

interface ResultToRecord {
  studentId: number | null;
  work: GradedWork;
  /** The teacher's points per item; only these are written on a review. */
  review?: Record<string, number>;
}

/**
 * Writes the answer records of results of a linked task: the machine's points after grading
 * (items it could score), or the teacher's points on review. Only students of the task's own
 * class count (a sheet can name any student of the school, and another class of the same exam is
 * another teacher's to record); students no longer in it, and never recorded in it, are left out
 * rather than failing the whole write.
 */
export async function recordTaskAnswers(db: Db, task: { tenantId: number; classId: number | null; answerKey: unknown; submittedAt: Date | null }, results: ResultToRecord[], by: 'machine' | 'review', reviewerId?: number): Promise<number> {
  const link = linkOf(task.answerKey);
  if (!link || task.classId === null) return 0;
  const studentIds = [...new Set(results.map((r) => r.studentId).filter((id): id is number => id !== null))];
  if (!studentIds.length) return 0;
  const workClasses =
    link.sourceType === SourceType.exam
      ? sql`SELECT class_id FROM exam_classes WHERE exam_id = ${link.sourceId}`
      : sql`SELECT class_id FROM homeworks WHERE id = ${link.sourceId}`;
  const eligible = new Set(
    (
      await rows<{ id: number }>(db, sql`
        SELECT s.id FROM students s
         WHERE s.tenant_id = ${task.tenantId} AND s.id IN (SELECT unnest(${`{${studentIds.join(',')}}`}::int[]))
           AND ${task.classId}::int IN (${workClasses})
           AND (s.class_id = ${task.classId}
                OR EXISTS (SELECT 1 FROM answer_records r WHERE r.tenant_id = ${task.tenantId} AND r.source_type = ${link.sourceType}
                              AND r.source_id = ${link.sourceId} AND r.student_id = s.id AND r.class_id = ${task.classId}))`)
    ).map((r) => r.id),
  );
  const answeredAt = task.submittedAt ?? new Date();
  const input: AnswerInput[] = [];
  for (const r of results) {
    if (r.studentId === null || !eligible.has(r.studentId)) continue;
    for (const item of r.work.items) {
      const target = link.items[String(item.no)];
      if (!target) continue;
      // A personalised sheet prints every item on each copy: one the student was not given is
      // left blank, which is no answer, not a wrong one.
      if (target.studentIds && !target.studentIds.includes(r.studentId)) continue;
      const points = by === 'review' ? r.review?.[String(item.no)] : item.score;
      if (points === null || points === undefined) continue;
      input.push({ sourceType: link.sourceType, sourceId: link.sourceId, studentId: r.studentId, questionId: target.questionId, score: points, answer: item.given || null, answeredAt });
    }
  }
  return recordAnswers(db, task.tenantId, input, { by, reviewerId });
}
