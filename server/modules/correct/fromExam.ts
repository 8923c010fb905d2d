// An answer sheet taken from an exam's paper rather than designed: the engine lays it out with the
// same code as paper printing (minerva/paperPdf.ts paperSheetSpec), with a named copy per student
// of the class, and the answer key comes from the questions the exam froze. Item numbers are those
// workLink gives the exam's items and points are the exam's, so a task made with the sheet, the key
// and the exam writes the exam's answer records when it is graded.
import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { QuestionType } from '../../../src/domain/content';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { answerSheets, students, type WorkItem } from '../../db/schema';
import { ApiError, badRequest, notFound } from '../../http/envelope';
import { normaliseJudge } from '../../grading/score/normalise';
import type { SheetLayout } from '../../grading';
import { findClass } from '../vesta/access';
// The paper's PDF module (pdf-lib, fontkit, the CJK font) loads when a sheet is laid out, not with the API.
import type { PrintPaper } from '../minerva/paperPdf';
import { rosterKey } from './jobs';
import { itemMap } from './workLink';

export type KeyItem = { answer: string; points: number } | { blanks: string[][]; points: number } | { essay: true; points: number; prompt?: string };

interface ExamQuestion {
  id: number;
  type: number;
  stem: string;
  options: { key: string; text: string }[] | null;
  answer: string;
}

/** Section titles when the exam's paper does not place a question (or the exam has no paper). */
const TYPE_SECTION: Record<number, string> = {
  [QuestionType.single]: '选择题',
  [QuestionType.multiple]: '选择题',
  [QuestionType.judge]: '判断题',
  [QuestionType.blank]: '填空题',
  [QuestionType.essay]: '作文',
};

/** The key of one question, or null when it is the teacher's to score (worked answers, 综合). */
export function keyOf(q: ExamQuestion, points: number): KeyItem | null {
  const answer = q.answer.trim();
  if (q.type === QuestionType.single || q.type === QuestionType.multiple) {
    const letters = answer.toUpperCase().replace(/[^A-G]/g, '');
    return letters && letters.length <= 7 ? { answer: letters, points } : null;
  }
  if (q.type === QuestionType.judge) {
    // The bank keeps a 判断 as options 对/错 with the letter as its answer; older ones hold √/×.
    const option = q.options?.find((o) => o.key === answer.toUpperCase());
    const judged = normaliseJudge(answer) ?? (option ? normaliseJudge(option.text) : null);
    return judged ? { answer: judged, points } : null;
  }
  if (q.type === QuestionType.blank) {
    const blanks = answer
      .split(/[；;]/)
      .map((a) => a.trim().slice(0, 100))
      .filter(Boolean)
      // Several accepted forms of one blank are written "a 或 b" ("/" would be a fraction).
      .map((a) => a.split(/\s*或\s*/).filter(Boolean).slice(0, 20));
    // The sheet has at most four boxes per fill-in (paperSheetSpec).
    return blanks.length && blanks.length <= 4 ? { blanks, points } : null;
  }
  // The sheet prints no prompt under the grid; the scorer still needs the whole of it (the stem),
  // to know the topic and to see it copied out.
  if (q.type === QuestionType.essay) return { essay: true, points, ...(q.stem.trim() ? { prompt: q.stem.trim().slice(0, 2000) } : {}) };
  return null;
}

export interface ExamSheet {
  sheetId: string;
  title: string;
  pages: number;
  copies: number;
  examTitle: string;
  className: string;
  answerKey: { items: Record<string, KeyItem> };
  /** Questions without a machine key (scored on review), by item number. */
  manual: number[];
  questionCount: number;
  fullMarks: number;
}

/**
 * The roster sheet of an exam for one class of it, and its answer key. Another teacher's exam and
 * a class that did not sit it (or that the teacher does not teach) are "not found". The same exam,
 * class list and questions give the same sheet id, so asking again reuses the stored sheet.
 */
export async function sheetFromExam(db: Db, p: Principal, teacherId: number, examId: number, classId: number): Promise<ExamSheet> {
  const [exam] = await rows<{ id: number; title: string; paperId: number | null; items: WorkItem[]; classIds: number[] }>(db, sql`
    SELECT e.id, e.title, e.paper_id AS "paperId", e.items,
           ARRAY(SELECT ec.class_id FROM exam_classes ec
                   JOIN teaching_assignments ta ON ta.class_id = ec.class_id AND ta.course_id = e.course_id AND ta.teacher_id = ${teacherId}
                  WHERE ec.exam_id = e.id ORDER BY 1) AS "classIds"
      FROM exams e WHERE e.id = ${examId} AND e.tenant_id = ${p.tenantId}`);
  if (!exam || !exam.classIds.length) throw notFound('考试不存在');
  if (!exam.classIds.includes(classId)) throw notFound('该班级没有参加这次考试');
  const classRow = await findClass(db, p, classId);
  const roster = await db
    .select({ id: students.id, name: students.name, studentNo: students.studentNo })
    .from(students)
    .where(and(eq(students.classId, classId), eq(students.status, 0)))
    .orderBy(students.studentNo);
  if (!roster.length) throw badRequest('该班级还没有学生');

  const map = itemMap(exam.items);
  const entries = Object.entries(map).map(([no, it]) => ({ no: Number(no), ...it }));
  if (!entries.length) throw badRequest('这次考试没有题目');
  const ids = `{${entries.map((e) => e.questionId).join(',')}}`;
  const [questions, placed] = await Promise.all([
    rows<ExamQuestion>(db, sql`SELECT id, type, stem, options, answer FROM questions WHERE id = ANY(${ids}::int[])`),
    exam.paperId
      ? rows<{ questionId: number; title: string }>(db, sql`
          SELECT pq.question_id AS "questionId", ps.title FROM paper_questions pq JOIN paper_sections ps ON ps.id = pq.section_id
           WHERE pq.paper_id = ${exam.paperId} AND pq.question_id = ANY(${ids}::int[])`)
      : Promise.resolve([]),
  ]);
  const byId = new Map(questions.map((q) => [q.id, q]));
  const sectionOf = new Map(placed.map((r) => [r.questionId, r.title]));

  // The exam's items in order, grouped into the paper's sections (consecutive items of a section).
  const paper: PrintPaper = { id: exam.paperId ?? 0, title: exam.title, durationMinutes: 0, totalPoints: 0, sections: [] };
  const items: ExamSheet['answerKey']['items'] = {};
  const manual: number[] = [];
  for (const e of entries) {
    const q = byId.get(e.questionId);
    if (!q) throw badRequest(`第 ${e.no} 题已被删除，无法生成答题卡`);
    const title = (sectionOf.get(q.id) ?? TYPE_SECTION[q.type] ?? '解答题').slice(0, 40);
    const last = paper.sections[paper.sections.length - 1];
    const question = { no: e.no, points: e.points, question: { type: q.type, stem: q.stem, options: q.options } };
    if (last?.title === title) last.questions.push(question);
    else paper.sections.push({ title, questions: [question] });
    const key = keyOf(q, e.points);
    if (key) items[String(e.no)] = key;
    else manual.push(e.no);
  }

  const version = createHash('sha256')
    .update(JSON.stringify([teacherId, exam.id, classId, entries, roster.map((s) => [s.id, s.name, s.studentNo])]))
    .digest('hex')
    .slice(0, 10)
    .toUpperCase();
  const sheetId = `E${exam.id}C${classId}${version}`;
  const { paperSheetSpec } = await import('../minerva/paperPdf');
  const spec = paperSheetSpec(paper, 'A4', sheetId);
  // A fill-in gets as many boxes as its key has blanks, so each blank is read where it is scored.
  for (const section of spec.sections) {
    if (section.kind !== 'fill') continue;
    for (const fill of section.items) {
      const key = items[String(fill.no)];
      if (key && 'blanks' in key) fill.blanks = key.blanks.length;
    }
  }
  spec.title = `${exam.title} 答题卡`.slice(0, 50);
  spec.identity = { mode: 'roster', students: roster.map((s) => ({ id: rosterKey(s.id), name: s.name, className: classRow.name, studentNo: s.studentNo })) };

  const [stored] = await rows<{ layout: SheetLayout }>(db, sql`SELECT layout FROM answer_sheets WHERE id = ${sheetId} AND tenant_id = ${p.tenantId} AND teacher_id = ${teacherId}`);
  let layout = stored?.layout;
  if (!layout) {
    const { buildLayout } = await import('../../grading/layout/build.js');
    try {
      layout = buildLayout(spec);
    } catch (error) {
      // The engine explains in Chinese what does not fit on a sheet (over 100 objective items…).
      throw new ApiError(422, `答题卡无法生成：${(error as Error).message}`);
    }
    await db.insert(answerSheets).values({ id: sheetId, tenantId: p.tenantId!, teacherId, classId, title: spec.title, layout }).onConflictDoNothing();
  }
  return {
    sheetId,
    title: spec.title,
    pages: layout.pages.length,
    copies: roster.length,
    examTitle: exam.title,
    className: classRow.name,
    answerKey: { items },
    manual,
    questionCount: entries.length,
    fullMarks: entries.reduce((s, e) => s + e.points, 0),
  };
}
