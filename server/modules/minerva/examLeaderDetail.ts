// The leaders' exam report beyond its figures (examLeaders.ts): 临界生, 进退步 against the previous
// exam, 学科均衡 across the grade's subjects of the term, knowledge points, one student's page with
// their scanned answer sheet (原卷), and 阅卷进度. The same rule holds as for the report: no score of
// any student leaves the server; per student only a rank or a band, as schools.score_disclosure
// allows, and a group of fewer than 5 gets no average (it would be someone's score).
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SCORE_BAND_LABELS, ScoreDisclosure, scoreBand, SourceType } from '../../../src/domain/content';
import { EnvelopeSchema } from '../../../src/domain/envelope';
import { ExamMarkingProgressSchema, LeaderExamAnalysisSchema, LeaderExamStudentSchema, type LeaderExamAnalysis, type LeaderExamStudent } from '../../../src/domain/leaderExams';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { fileReply, sendWorkbook } from '../../http/download';
import { sheetsWorkbook } from '../analysis/export';
import { schoolZone } from '../../http/schoolZone';
import { fileName, leaderExamSheets } from '../analysis/reportExports';
import { termLabel } from '../../../src/domain/semester';
import { fileStamp } from '../../../src/domain/format';
import { forbidden, notFound, ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { RecognitionStatus } from '../../grading/statuses';
import { me, teachersOnly } from './access';
import { findLeaderExam, inScopedClasses, leadersOnly, MIN_GROUP_FOR_AVERAGE } from './examLeaders';
import { findExam } from './exams';
import { examMarkingProgress } from './examMarking';
import { QUESTION_COLUMNS, type QuestionView } from './questions';
import { rank, round } from './statistics';

const EXAM = SourceType.exam;
const idArray = (ids: number[]) => `{${ids.join(',')}}`;
/** 临界生: students this share of full marks or less under the 优秀 or 及格 line. */
export const CRITICAL_SHARE = 0.05;
/** 进退步: a change of score rate this large (5 points of 100) counts as progress or decline. */
export const PROGRESS_STEP = 0.05;
/** A student's page lists at most this many exams of the course. */
const MAX_HISTORY = 20;

type LeaderExam = Awaited<ReturnType<typeof findLeaderExam>>;
interface ScoreRow {
  studentId: number;
  name: string;
  studentNo: string;
  classId: number;
  className: string;
  score: number;
}

const scoresOf = (db: Db, tenantId: number, examIds: number[], classIds: number[]) =>
  rows<ScoreRow & { examId: number }>(db, sql`
    SELECT s.source_id AS "examId", s.student_id AS "studentId", st.name, st.student_no AS "studentNo", s.class_id AS "classId", c.name AS "className", s.score::float8 AS score
      FROM work_student_stats s JOIN students st ON st.id = s.student_id AND st.tenant_id = ${tenantId} JOIN classes c ON c.id = s.class_id
     WHERE s.tenant_id = ${tenantId} AND s.source_type = ${EXAM} AND s.source_id = ANY(${idArray(examIds)}::int[]) AND s.class_id = ANY(${idArray(classIds)}::int[])`);

/** The mean score rate of a group, or null when the group is too small to show one. */
function groupRate(scores: number[], fullMarks: number): number | null {
  if (scores.length < MIN_GROUP_FOR_AVERAGE || fullMarks <= 0) return null;
  return round(scores.reduce((s, x) => s + x, 0) / scores.length / fullMarks);
}

const bandOf = (score: number, fullMarks: number) => SCORE_BAND_LABELS[scoreBand(score, fullMarks)];
const byClassAndNo = (a: ScoreRow, b: ScoreRow) => a.classId - b.classId || a.studentNo.localeCompare(b.studentNo);

export async function leaderAnalysis(db: Db, p: Principal, exam: LeaderExam, classIds: number[]): Promise<LeaderExamAnalysis> {
  const tenantId = p.tenantId!;
  const full = exam.fullMarks;
  const disclosure = exam.scoreDisclosure;
  const [[previous], balanceExams, itemSums, questionRows] = await Promise.all([
    rows<{ id: number; title: string; examDate: string; fullMarks: number }>(db, sql`
      SELECT e.id, e.title, e.exam_date::text AS "examDate", e.full_marks AS "fullMarks" FROM exams e
       WHERE ${inScopedClasses(p, classIds)} AND e.school_id = ${exam.schoolId} AND e.grade_id = ${exam.gradeId} AND e.course_id = ${exam.courseId}
         AND (e.exam_date, e.id) < (${exam.examDate}::date, ${exam.id})
       ORDER BY e.exam_date DESC, e.id DESC LIMIT 1`),
    // This exam for its course; for each other course of the grade and term, its latest exam.
    rows<{ id: number; title: string; examDate: string; courseId: number; courseName: string; fullMarks: number }>(db, sql`
      SELECT DISTINCT ON (e.course_id) e.id, e.title, e.exam_date::text AS "examDate", e.course_id AS "courseId", co.name AS "courseName", e.full_marks AS "fullMarks"
        FROM exams e JOIN courses co ON co.id = e.course_id
       WHERE ${inScopedClasses(p, exam.scopedClassIds)} AND e.school_id = ${exam.schoolId} AND e.grade_id = ${exam.gradeId} AND e.term = ${exam.term}
         AND (e.course_id <> ${exam.courseId} OR e.id = ${exam.id})
       ORDER BY e.course_id, e.exam_date DESC, e.id DESC`),
    rows<{ questionId: number; answered: number; score: number }>(db, sql`
      SELECT question_id AS "questionId", sum(answered)::int AS answered, sum(score)::float8 AS score
        FROM work_question_stats WHERE tenant_id = ${tenantId} AND source_type = ${EXAM} AND source_id = ${exam.id} AND class_id = ANY(${idArray(classIds)}::int[])
       GROUP BY question_id`),
    rows<QuestionView>(db, sql`SELECT ${QUESTION_COLUMNS} FROM questions q WHERE q.id = ANY(${idArray(exam.items.map((i) => i.questionId))}::int[])`),
  ]);
  const balanceIds = balanceExams.map((e) => e.id);
  const allScores = await scoresOf(db, tenantId, [...new Set([exam.id, ...(previous ? [previous.id] : []), ...balanceIds])], exam.scopedClassIds);
  const inClasses = (examId: number) => allScores.filter((s) => s.examId === examId && classIds.includes(s.classId));
  const current = inClasses(exam.id);
  const named = disclosure !== ScoreDisclosure.none;

  // 临界生: just under a line, where a few points move a student into the band above.
  const margin = round(full * CRITICAL_SHARE, 2);
  const lines = (['excellent', 'pass'] as const).map((band) => {
    const line = round(full * (band === 'excellent' ? 0.9 : 0.6), 2);
    const near = current.filter((s) => s.score < line && s.score >= line - margin).sort(byClassAndNo);
    return {
      band,
      label: band === 'excellent' ? '优秀线' : '及格线',
      line,
      count: near.length,
      students: named ? near.map((s) => ({ studentId: s.studentId, name: s.name, className: s.className })) : [],
    };
  });

  // 进退步: score rates, so a paper of other full marks compares; ranks or bands per student as disclosed.
  const before = previous ? inClasses(previous.id) : [];
  const beforeBy = new Map(before.map((s) => [s.studentId, s]));
  const both = current.filter((s) => beforeBy.has(s.studentId));
  const delta = (s: ScoreRow) => s.score / full - beforeBy.get(s.studentId)!.score / previous!.fullMarks;
  const nowRank = new Map(rank(current).map((r) => [r.studentId, r.rank]));
  const beforeRank = new Map(rank(before).map((r) => [r.studentId, r.rank]));
  const progressStudents =
    disclosure === ScoreDisclosure.rank
      ? both
          .map((s) => ({ studentId: s.studentId, name: s.name, className: s.className, rank: nowRank.get(s.studentId)!, previousRank: beforeRank.get(s.studentId)! }))
          .sort((a, b) => a.rank - b.rank)
      : disclosure === ScoreDisclosure.band
        ? [...both].sort(byClassAndNo).map((s) => ({
            studentId: s.studentId,
            name: s.name,
            className: s.className,
            band: bandOf(s.score, full),
            previousBand: bandOf(beforeBy.get(s.studentId)!.score, previous!.fullMarks),
          }))
        : [];
  const classRows = exam.classNames.filter((c) => classIds.includes(c.classId));
  const progressClasses = classRows.map((c) => {
    const rate = groupRate(current.filter((s) => s.classId === c.classId).map((s) => s.score), full);
    const previousRate = previous ? groupRate(before.filter((s) => s.classId === c.classId).map((s) => s.score), previous.fullMarks) : null;
    return { ...c, rate, previousRate, change: rate !== null && previousRate !== null ? round(rate - previousRate) : null };
  });

  // 学科均衡: each class's score rate per subject against the grade's (every class in scope).
  const gradeRate = new Map(
    balanceExams.map((e) => [e.id, groupRate(allScores.filter((s) => s.examId === e.id).map((s) => s.score), e.fullMarks)]),
  );
  const balanceClasses = exam.classNames
    .filter((c) => exam.scopedClassIds.includes(c.classId))
    .map((c) => {
      const subjects = balanceExams.map((e) => {
        const rate = groupRate(allScores.filter((s) => s.examId === e.id && s.classId === c.classId).map((s) => s.score), e.fullMarks);
        const g = gradeRate.get(e.id) ?? null;
        return { examId: e.id, rate, relative: rate !== null && g ? round(rate / g) : null };
      });
      const known = subjects.map((s, i) => ({ ...s, courseName: balanceExams[i]!.courseName })).filter((s) => s.relative !== null);
      const spread = known.length >= 2 ? round(Math.max(...known.map((s) => s.relative!)) - Math.min(...known.map((s) => s.relative!))) : null;
      const weakest = known.length >= 2 ? known.reduce((a, b) => (b.relative! < a.relative! ? b : a)).courseName : null;
      return { ...c, subjects, spread, weakest };
    });

  // Knowledge points: each question's points and average count for every point it tests.
  const points = new Map<number, { id: number; name: string; questions: string[]; points: number; average: number; answered: boolean }>();
  for (const item of exam.items) {
    const q = questionRows.find((r) => r.id === item.questionId);
    const sums = itemSums.find((s) => s.questionId === item.questionId);
    for (const k of q?.knowledgePoints ?? []) {
      const entry = points.get(k.id) ?? { id: k.id, name: k.name, questions: [], points: 0, average: 0, answered: false };
      entry.questions.push(item.no);
      entry.points += item.points;
      if (sums?.answered) {
        entry.average += sums.score / sums.answered;
        entry.answered = true;
      }
      points.set(k.id, entry);
    }
  }
  const knowledgePoints = [...points.values()]
    .map(({ answered, ...k }) => ({ ...k, points: round(k.points, 2), average: round(k.average, 2), scoreRate: answered && k.points > 0 ? round(k.average / k.points) : null }))
    .sort((a, b) => (a.scoreRate ?? 2) - (b.scoreRate ?? 2) || a.id - b.id);

  return {
    disclosure,
    critical: { margin, lines },
    progress: {
      previous: previous ? { id: previous.id, title: previous.title, examDate: previous.examDate } : null,
      classes: progressClasses,
      both: both.length,
      improved: previous ? both.filter((s) => delta(s) >= PROGRESS_STEP).length : 0,
      declined: previous ? both.filter((s) => delta(s) <= -PROGRESS_STEP).length : 0,
      students: progressStudents,
    },
    balance: { exams: balanceExams.map(({ fullMarks: _f, ...e }) => e), classes: balanceClasses },
    knowledgePoints,
  };
}

/** Tasks of the exam marked from scans, in the leader's classes: `answer_key.work` names the exam. */
const EXAM_TASK = (examId: number, classIds: number[]) => sql`
  t.answer_key -> 'work' ->> 'sourceType' = ${String(EXAM)} AND t.answer_key -> 'work' ->> 'sourceId' = ${String(examId)}
  AND t.class_id = ANY(${idArray(classIds)}::int[])`;

async function leaderStudent(db: Db, p: Principal, exam: LeaderExam, studentId: number): Promise<LeaderExamStudent> {
  const tenantId = p.tenantId!;
  // The class the student sat the exam in, else the class they are in now; either must be in scope.
  const [student] = await rows<{ studentId: number; name: string; studentNo: string; classId: number; className: string; sat: boolean }>(db, sql`
    SELECT st.id AS "studentId", st.name, st.student_no AS "studentNo", c.id AS "classId", c.name AS "className", (s.student_id IS NOT NULL) AS sat
      FROM students st
      LEFT JOIN work_student_stats s ON s.tenant_id = ${tenantId} AND s.source_type = ${EXAM} AND s.source_id = ${exam.id} AND s.student_id = st.id
      JOIN classes c ON c.id = coalesce(s.class_id, st.class_id)
     WHERE st.id = ${studentId} AND st.tenant_id = ${tenantId}`);
  if (!student || !exam.scopedClassIds.includes(student.classId)) throw notFound('学生不存在');
  const disclosure = exam.scoreDisclosure;

  const history = await rows<{ id: number; title: string; examDate: string; fullMarks: number }>(db, sql`
    SELECT e.id, e.title, e.exam_date::text AS "examDate", e.full_marks AS "fullMarks" FROM exams e
     WHERE ${inScopedClasses(p, exam.scopedClassIds)} AND e.grade_id = ${exam.gradeId} AND e.course_id = ${exam.courseId}
       AND EXISTS (SELECT 1 FROM work_student_stats s WHERE s.tenant_id = ${tenantId} AND s.source_type = ${EXAM} AND s.source_id = e.id AND s.student_id = ${studentId})
     ORDER BY e.exam_date DESC, e.id DESC LIMIT ${MAX_HISTORY}`);
  const scores = disclosure === ScoreDisclosure.none || !history.length ? [] : await scoresOf(db, tenantId, history.map((h) => h.id), exam.scopedClassIds);
  const disclosed = (examId: number, fullMarks: number) => {
    const taken = scores.filter((s) => s.examId === examId);
    const own = taken.find((s) => s.studentId === studentId);
    if (!own) return {};
    if (disclosure === ScoreDisclosure.rank) return { rank: rank(taken).find((r) => r.studentId === studentId)!.rank, ranked: taken.length };
    if (disclosure === ScoreDisclosure.band) return { band: bandOf(own.score, fullMarks) };
    return {};
  };

  let sheets: LeaderExamStudent['sheets'] = [];
  let sheetNote: string | null = null;
  if (disclosure === ScoreDisclosure.none) {
    sheetNote = '学校的成绩公开范围为“不显示学生个人结果”，不提供原卷查看';
  } else {
    const found = await rows<{ resultId: number; taskTitle: string; pages: { page: number; fileId: number | null }[] | null; fileId: number | null }>(db, sql`
      SELECT r.id AS "resultId", t.title AS "taskTitle", r.result -> 'detail' -> 'pages' AS pages, (r.result ->> 'fileId')::int AS "fileId"
        FROM grading_results r JOIN grading_tasks t ON t.id = r.task_id
       WHERE r.tenant_id = ${tenantId} AND t.tenant_id = ${tenantId} AND r.student_id = ${studentId} AND ${EXAM_TASK(exam.id, exam.scopedClassIds)}
       ORDER BY r.id`);
    sheets = found
      .map((r) => ({
        resultId: r.resultId,
        taskTitle: r.taskTitle,
        pages: (r.pages ?? [])
          .filter((pg): pg is { page: number; fileId: number } => typeof pg.fileId === 'number')
          .map((pg) => ({ page: pg.page, fileId: pg.fileId }))
          .concat(!r.pages?.length && r.fileId ? [{ page: 1, fileId: r.fileId }] : []),
      }))
      .filter((s) => s.pages.length);
    if (!sheets.length) sheetNote = student.sat ? '这次考试的成绩不是通过 AI批改 扫描答题卡录入的，没有原卷图片' : '该生没有参加这次考试';
  }

  return {
    student: { studentId: student.studentId, name: student.name, studentNo: student.studentNo, classId: student.classId, className: student.className },
    disclosure,
    sat: student.sat,
    ...disclosed(exam.id, exam.fullMarks),
    history: history.reverse().map((h) => ({ examId: h.id, title: h.title, examDate: h.examDate, ...disclosed(h.id, h.fullMarks) })),
    sheets,
    sheetNote,
  };
}

const Params = Type.Object({ examId: Id });

const examLeaderDetailRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;
  const leaderExam = async (p: Principal, examId: number) => {
    if (p.tenantId === null) throw forbidden();
    return findLeaderExam(db, p, examId);
  };

  app.get(
    '/api/minerva/v1.0/leader/exams/:examId/analysis',
    { preHandler: leadersOnly, schema: { params: Params, querystring: Type.Object({ classId: Type.Optional(Id) }), response: { 200: EnvelopeSchema(LeaderExamAnalysisSchema) } } },
    async (request) => {
      const exam = await leaderExam(request.principal, request.params.examId);
      const { classId } = request.query;
      if (classId !== undefined && !exam.scopedClassIds.includes(classId)) throw notFound('班级不存在');
      return ok(await leaderAnalysis(db, request.principal, exam, classId !== undefined ? [classId] : exam.scopedClassIds));
    },
  );

  // The analysis as a workbook: the same object the screen reads, so per student only what the
  // school's 成绩公开范围 lets the screen show (docs/api-content.md).
  app.get(
    '/api/minerva/v1.0/leader/exams/:examId/analysis/export',
    { preHandler: leadersOnly, schema: { params: Params, querystring: Type.Object({ classId: Type.Optional(Id) }) } },
    async (request, reply) => {
      const p = request.principal;
      const exam = await leaderExam(p, request.params.examId);
      const { classId } = request.query;
      if (classId !== undefined && !exam.scopedClassIds.includes(classId)) throw notFound('班级不存在');
      // The file reads from the replica when one is configured (DATABASE_READ_URL).
      const a = await leaderAnalysis(app.readDb, p, exam, classId !== undefined ? [classId] : exam.scopedClassIds);
      const [school] = await rows<{ name: string }>(app.readDb, sql`SELECT name FROM schools WHERE id = ${exam.schoolId}`);
      const className = classId !== undefined ? exam.classNames.find((c) => c.classId === classId)?.className : undefined;
      const scope = [school.name, exam.gradeName, ...(className ? [className] : []), exam.courseName].join(' · ');
      const now = new Date();
      const zone = await schoolZone(db, exam.schoolId);
      const bytes = await sheetsWorkbook(`考试分析 · ${exam.title}（满分 ${exam.fullMarks}，${exam.examDate}）`, leaderExamSheets(a), { scope, termLabel: termLabel(exam.term), now, zone });
      return sendWorkbook(reply, bytes, fileName(`考试分析_${exam.title}_${scope.replaceAll(' · ', '_')}_${termLabel(exam.term)}_${fileStamp(now, zone)}`));
    },
  );

  app.get(
    '/api/minerva/v1.0/leader/exams/:examId/students/:studentId',
    { preHandler: leadersOnly, schema: { params: Type.Object({ examId: Id, studentId: Id }), response: { 200: EnvelopeSchema(LeaderExamStudentSchema) } } },
    async (request) => {
      const exam = await leaderExam(request.principal, request.params.examId);
      return ok(await leaderStudent(db, request.principal, exam, request.params.studentId));
    },
  );

  // A scanned page of the exam's answer sheet: a page of a student in the leader's classes, from an
  // AI批改 task of this exam, and only when the school discloses results per student.
  app.get(
    '/api/minerva/v1.0/leader/exams/:examId/sheetFile',
    { preHandler: leadersOnly, schema: { params: Params, querystring: Type.Object({ fileId: Id }) } },
    async (request, reply) => {
      const exam = await leaderExam(request.principal, request.params.examId);
      if (exam.scoreDisclosure === ScoreDisclosure.none) throw forbidden('学校未公开学生个人结果，不能查看原卷');
      const { fileId } = request.query;
      const tenantId = request.principal.tenantId!;
      const [file] = await rows<{ fileHash: string; mime: string; fileName: string }>(db, sql`
        SELECT f.file_hash AS "fileHash", f.mime, f.file_name AS "fileName" FROM grading_files f JOIN grading_tasks t ON t.id = f.task_id
         WHERE f.id = ${fileId} AND f.tenant_id = ${tenantId} AND t.tenant_id = ${tenantId} AND f.recognition_status <> ${RecognitionStatus.deleted}
           AND ${EXAM_TASK(exam.id, exam.scopedClassIds)}
           AND EXISTS (SELECT 1 FROM grading_results r WHERE r.task_id = t.id AND r.student_id IS NOT NULL
                         AND (r.result -> 'detail' -> 'pages' @> ${JSON.stringify([{ fileId }])}::jsonb OR (r.result ->> 'fileId')::int = ${fileId}))`);
      if (!file) throw notFound('原卷不存在');
      return fileReply(reply, file.mime, 'inline', file.fileName).send(await app.files.open(file.fileHash));
    },
  );

  app.get(
    '/api/minerva/v1.0/leader/exams/:examId/marking',
    { preHandler: leadersOnly, schema: { params: Params, response: { 200: EnvelopeSchema(ExamMarkingProgressSchema) } } },
    async (request) => {
      const exam = await leaderExam(request.principal, request.params.examId);
      return ok(await examMarkingProgress(db, request.principal.tenantId!, exam.id, exam.scopedClassIds));
    },
  );

  // The same progress for the teachers of the exam: the classes they teach in its course.
  app.get(
    '/api/minerva/v1.0/exams/:examId/marking',
    { preHandler: teachersOnly, schema: { params: Params, response: { 200: EnvelopeSchema(ExamMarkingProgressSchema) } } },
    async (request) => {
      const { tenantId, teacherId } = await me(db, request.principal);
      const exam = await findExam(db, tenantId, teacherId, request.params.examId);
      return ok(await examMarkingProgress(db, tenantId, exam.id, exam.myClassIds));
    },
  );
};

export default examLeaderDetailRoutes;
