// What a family page shows, read for one link: the student's own works of the running term in the
// link's course (or all the child's courses), each result only as far as the school's 成绩公开范围
// allows, the wrong questions with the right answer and 解析, the 错题 still to redo, the teacher's
// notes on essays, upcoming homework and the family's regrade requests. Nothing here takes a
// student, class or course from the request: all of it follows from the link.
import { sql, type SQL } from 'drizzle-orm';
import { SCORE_BAND_LABELS, SCORE_DISCLOSURES, ScoreDisclosure, scoreBand, SourceType } from '../../../src/domain/content';
import { FAMILY_LIMITS, REGRADE_ESSAY, REGRADE_STATUS_LABELS, type DisclosedResult } from '../../../src/domain/family';
import { DEFAULT_ZONE, isTimeZone } from '../../../src/domain/format';
import { currentSemester } from '../../../src/domain/semester';
import type { Db } from '../../db';
import { isoTime, rows } from '../../db/query';
import type { WorkItem } from '../../db/schema';
import { PUBLISHED } from '../minerva/homeworkQueries';
import { wrongStates } from '../wrongbook/students';
import { tokenHash, TOKEN_PATTERN } from './access';

export interface FamilyLink {
  id: number;
  tenantId: number;
  schoolId: number;
  studentId: number;
  courseId: number | null;
  subjectId: number | null;
  scopeName: string;
  expiresAt: string;
  studentName: string;
  classId: number | null;
  className: string;
  gradeName: string;
  schoolName: string;
  scoreDisclosure: number;
  /** The school's time zone: the page's times are on the school's clock. */
  timeZone: string;
}

export type LinkState = { state: 'live'; link: FamilyLink } | { state: 'invalid' | 'expired' | 'revoked' };

/** The link of a token, and whether it still opens the page. */
export async function resolveLink(db: Db, token: string): Promise<LinkState> {
  if (!TOKEN_PATTERN.test(token)) return { state: 'invalid' };
  const [row] = await rows<FamilyLink & { revoked: boolean; expired: boolean; graduated: boolean }>(db, sql`
    SELECT l.id, l.tenant_id AS "tenantId", l.school_id AS "schoolId", l.student_id AS "studentId", l.course_id AS "courseId",
           co.subject_id AS "subjectId", coalesce(co.name, '全部课程') AS "scopeName", ${isoTime(sql`l.expires_at`)} AS "expiresAt",
           st.name AS "studentName", st.class_id AS "classId", coalesce(c.name, '') AS "className", coalesce(g.name, '') AS "gradeName",
           sc.name AS "schoolName", sc.score_disclosure AS "scoreDisclosure", sc.time_zone AS "timeZone",
           l.revoked_at IS NOT NULL AS revoked, l.expires_at <= now() AS expired, st.status <> 0 AS graduated
      FROM family_links l
      JOIN students st ON st.id = l.student_id AND st.tenant_id = l.tenant_id AND st.school_id = l.school_id
      JOIN schools sc ON sc.id = l.school_id
      LEFT JOIN courses co ON co.id = l.course_id
      LEFT JOIN classes c ON c.id = st.class_id LEFT JOIN grades g ON g.id = c.grade_id
     WHERE l.token_hash = ${tokenHash(token)}`);
  if (!row) return { state: 'invalid' };
  if (row.revoked || row.graduated) return { state: 'revoked' };
  if (row.expired) return { state: 'expired' };
  const { revoked: _r, expired: _e, graduated: _g, ...link } = row;
  return { state: 'live', link };
}

/** A score as the school lets the family see it; the rank is read only when it may be shown. */
export function disclose(disclosure: number, score: number | null, maxScore: number | null, rank: number | null, ranked: number | null): DisclosedResult {
  if (score === null) return {};
  if (disclosure === ScoreDisclosure.band && maxScore) return { band: SCORE_BAND_LABELS[scoreBand(score, maxScore)] };
  if (disclosure === ScoreDisclosure.rank && rank !== null && ranked !== null) return { rank, ranked };
  return {};
}

/** The link's school's zone; China time for a name this runtime does not know. */
const zoneOf = (link: FamilyLink) => (isTimeZone(link.timeZone) ? link.timeZone : DEFAULT_ZONE);

/**
 * The works of the link's class, course and term (homework and exams), as `works` CTE columns;
 * homework scheduled for later is not the family's to see until it is published.
 */
function scopeWorks(link: FamilyLink, term: string): SQL {
  const course = (column: string) => (link.courseId === null ? sql`` : sql`AND ${sql.raw(column)} = ${link.courseId}`);
  return sql`
    SELECT h.source_type::int AS "sourceType", h.id AS "sourceId", h.title, co.name AS "courseName", h.assigned_at AS at, h.items
      FROM homeworks h JOIN courses co ON co.id = h.course_id
     WHERE h.tenant_id = ${link.tenantId} AND h.class_id = ${link.classId} AND h.term = ${term} AND ${PUBLISHED} ${course('h.course_id')}
    UNION ALL
    SELECT ${SourceType.exam}, e.id, e.title, co.name, (e.exam_date::timestamp AT TIME ZONE ${zoneOf(link)}::text), e.items
      FROM exam_classes ec JOIN exams e ON e.id = ec.exam_id JOIN courses co ON co.id = e.course_id
     WHERE ec.tenant_id = ${link.tenantId} AND ec.class_id = ${link.classId} AND e.term = ${term} ${course('e.course_id')}`;
}

/** Whether a work is in the link's scope and the student has an answer record for the question. */
/**
 * The essays the page shows: reviewed results of the student in AI批改 作文 tasks of the link's
 * class (of its course's teachers when it covers one course), the last 180 days. Alias `t` the
 * task, `r` the result.
 */
function essayScope(link: FamilyLink): SQL {
  return sql`t.tenant_id = ${link.tenantId} AND t.class_id = ${link.classId} AND t.type = 2 AND r.student_id = ${link.studentId} AND r.reviewed_at IS NOT NULL
    AND t.created_at >= now() - interval '180 days'
    ${link.courseId === null ? sql`` : sql`AND EXISTS (SELECT 1 FROM teaching_assignments ta WHERE ta.teacher_id = t.teacher_id AND ta.class_id = t.class_id AND ta.course_id = ${link.courseId})`}`;
}

export async function answeredInScope(db: Db, link: FamilyLink, sourceType: number, sourceId: number, questionId: number): Promise<boolean> {
  if (link.classId === null) return false;
  if (sourceType === REGRADE_ESSAY.sourceType) {
    if (questionId !== REGRADE_ESSAY.questionId) return false;
    const essay = await rows(db, sql`SELECT 1 FROM grading_tasks t JOIN grading_results r ON r.task_id = t.id WHERE t.id = ${sourceId} AND ${essayScope(link)}`);
    return essay.length > 0;
  }
  const found = await rows(db, sql`
    WITH works AS (${scopeWorks(link, currentSemester())})
    SELECT 1 FROM works w JOIN answer_records r ON r.tenant_id = ${link.tenantId} AND r.source_type = w."sourceType" AND r.source_id = w."sourceId"
     WHERE w."sourceType" = ${sourceType} AND w."sourceId" = ${sourceId} AND r.student_id = ${link.studentId} AND r.question_id = ${questionId}`);
  return found.length > 0;
}

interface WorkRow {
  sourceType: number;
  sourceId: number;
  title: string;
  courseName: string;
  at: string;
  items: WorkItem[];
  score: number | null;
  maxScore: number | null;
  rank: number | null;
  ranked: number | null;
}

interface QuestionText {
  stem: string;
  type: number;
  options: { key: string; text: string }[] | null;
  correctAnswer: string;
  analysis: string;
}

const QUESTION_COLUMNS = sql`q.stem, q.type, q.options, q.answer AS "correctAnswer", q.analysis`;

export interface RegradeView {
  id: number;
  sourceType: number;
  sourceId: number;
  questionId: number;
  workTitle: string;
  questionNo: string;
  reason: string;
  status: number;
  statusLabel: string;
  answer: string | null;
  createdAt: string;
  answeredAt: string | null;
}

const MASTERY_LABELS = ['未掌握', '巩固中', '已掌握'];

export async function familyPage(db: Db, link: FamilyLink) {
  const term = currentSemester();
  const disclosure = link.scoreDisclosure;
  const header = {
    student: { name: link.studentName, className: link.className, gradeName: link.gradeName, schoolName: link.schoolName },
    scopeName: link.scopeName,
    term,
    expiresAt: link.expiresAt,
    zone: zoneOf(link),
    disclosureLabel: SCORE_DISCLOSURES.find((o) => o.value === disclosure)?.label ?? '',
  };
  if (link.classId === null) return { ...header, upcoming: [], works: [], redo: [], essays: [], regrades: [] };
  const t = link.tenantId;
  const withRank = disclosure === ScoreDisclosure.rank;
  const [works, upcoming, redo, essays] = await Promise.all([
    rows<WorkRow>(db, sql`
      WITH works AS (${scopeWorks(link, term)} ORDER BY at DESC, "sourceId" DESC LIMIT ${FAMILY_LIMITS.works})
      SELECT w."sourceType", w."sourceId", w.title, w."courseName", ${isoTime(sql`w.at`)} AS at, w.items, s.score, s.max_score AS "maxScore",
             ${withRank ? sql`(SELECT count(*)::int + 1 FROM work_student_stats o WHERE o.tenant_id = ${t} AND o.source_type = w."sourceType" AND o.source_id = w."sourceId" AND o.class_id = s.class_id AND o.score > s.score)` : sql`NULL::int`} AS rank,
             ${withRank ? sql`(SELECT count(*)::int FROM work_student_stats o WHERE o.tenant_id = ${t} AND o.source_type = w."sourceType" AND o.source_id = w."sourceId" AND o.class_id = s.class_id)` : sql`NULL::int`} AS ranked
        FROM works w LEFT JOIN work_student_stats s ON s.tenant_id = ${t} AND s.source_type = w."sourceType" AND s.source_id = w."sourceId" AND s.student_id = ${link.studentId}
       ORDER BY w.at DESC, w."sourceId" DESC`),
    rows<{ title: string; courseName: string; dueAt: string; submitted: boolean }>(db, sql`
      SELECT h.title, co.name AS "courseName", ${isoTime(sql`h.due_at`)} AS "dueAt",
             EXISTS (SELECT 1 FROM work_student_stats s WHERE s.tenant_id = ${t} AND s.source_type = h.source_type AND s.source_id = h.id AND s.student_id = ${link.studentId}) AS submitted
        FROM homeworks h JOIN courses co ON co.id = h.course_id
       WHERE h.tenant_id = ${t} AND h.class_id = ${link.classId} AND h.due_at > now() AND ${PUBLISHED} ${link.courseId === null ? sql`` : sql`AND h.course_id = ${link.courseId}`}
       ORDER BY h.due_at, h.id LIMIT 10`),
    rows<QuestionText & { questionId: number; timesWrong: number; mastery: number; lastWrongAt: string }>(db, sql`
      WITH ${wrongStates({ tenantId: t, classId: link.classId, term, subjectId: link.courseId === null ? null : link.subjectId }, link.studentId)}
      SELECT st.question_id AS "questionId", st.times AS "timesWrong", st.mastery, ${isoTime(sql`st.last_wrong`)} AS "lastWrongAt", ${QUESTION_COLUMNS}
        FROM states st JOIN questions q ON q.id = st.question_id
       WHERE st.mastery < 2 ORDER BY st.last_wrong DESC, st.question_id LIMIT ${FAMILY_LIMITS.redo}`),
    rows<{ taskId: number; title: string; at: string; score: number | null; maxScore: number | null; comment: string | null; rank: number | null; ranked: number | null }>(db, sql`
      SELECT t.id AS "taskId", t.title, ${isoTime(sql`coalesce(r.reviewed_at, r.created_at)`)} AS at, r.score, r.max_score AS "maxScore", r.result->>'teacherComment' AS comment,
             ${withRank ? sql`(SELECT count(*)::int + 1 FROM grading_results o WHERE o.task_id = r.task_id AND o.score > r.score)` : sql`NULL::int`} AS rank,
             ${withRank ? sql`(SELECT count(*)::int FROM grading_results o WHERE o.task_id = r.task_id AND o.score IS NOT NULL)` : sql`NULL::int`} AS ranked
        FROM grading_tasks t JOIN grading_results r ON r.task_id = t.id
       WHERE ${essayScope(link)}
       ORDER BY coalesce(r.reviewed_at, r.created_at) DESC LIMIT 10`),
  ]);

  const workKeys = works.map((w) => sql`(${w.sourceType}, ${w.sourceId})`);
  // Requests on essays ride along with those on homework and exams.
  const keys = [...workKeys, ...essays.map((e) => sql`(${REGRADE_ESSAY.sourceType}, ${e.taskId})`)];
  const [wrong, requests] = keys.length
    ? await Promise.all([
        !workKeys.length ? [] : rows<QuestionText & { sourceType: number; sourceId: number; questionId: number; studentAnswer: string | null }>(db, sql`
          SELECT r.source_type::int AS "sourceType", r.source_id AS "sourceId", r.question_id AS "questionId", r.answer AS "studentAnswer", ${QUESTION_COLUMNS}
            FROM answer_records r JOIN questions q ON q.id = r.question_id
           WHERE r.tenant_id = ${t} AND (r.source_type, r.source_id) IN (${sql.join(workKeys, sql`, `)}) AND r.student_id = ${link.studentId} AND NOT r.is_correct`),
        rows<Omit<RegradeView, 'workTitle' | 'questionNo' | 'statusLabel'>>(db, sql`
          SELECT id, source_type::int AS "sourceType", source_id AS "sourceId", question_id AS "questionId", reason, status, answer,
                 ${isoTime(sql`created_at`)} AS "createdAt", ${isoTime(sql`answered_at`)} AS "answeredAt"
            FROM regrade_requests
           WHERE tenant_id = ${t} AND student_id = ${link.studentId} AND (source_type, source_id) IN (${sql.join(keys, sql`, `)})
           ORDER BY created_at DESC, id DESC`),
      ])
    : [[], []];

  const workKey = (sourceType: number, sourceId: number) => `${sourceType}:${sourceId}`;
  const byWork = new Map(works.map((w) => [workKey(w.sourceType, w.sourceId), w]));
  const numberOf = (w: WorkRow | undefined, questionId: number) => w?.items.find((i) => i.questionId === questionId)?.no ?? '';
  const regrades: RegradeView[] = requests.map((r) => {
    if (r.sourceType === REGRADE_ESSAY.sourceType) {
      const e = essays.find((x) => x.taskId === r.sourceId);
      return { ...r, workTitle: e?.title ?? '', questionNo: '', statusLabel: REGRADE_STATUS_LABELS[r.status] ?? '' };
    }
    const w = byWork.get(workKey(r.sourceType, r.sourceId));
    return { ...r, workTitle: w?.title ?? '', questionNo: numberOf(w, r.questionId), statusLabel: REGRADE_STATUS_LABELS[r.status] ?? '' };
  });
  return {
    ...header,
    upcoming,
    works: works.map((w) => ({
      sourceType: w.sourceType,
      sourceId: w.sourceId,
      kind: w.sourceType === SourceType.exam ? '考试' : '作业',
      title: w.title,
      courseName: w.courseName,
      date: w.at,
      submitted: w.score !== null,
      result: disclose(disclosure, w.score, w.maxScore, w.rank, w.ranked),
      wrong: wrong
        .filter((q) => q.sourceType === w.sourceType && q.sourceId === w.sourceId)
        .map(({ sourceType: _t, sourceId: _s, ...q }) => ({
          ...q,
          no: numberOf(w, q.questionId),
          // The latest request on the question (the list is newest first).
          regrade: regrades.find((r) => r.sourceType === w.sourceType && r.sourceId === w.sourceId && r.questionId === q.questionId) ?? null,
        }))
        .sort((a, b) => orderOf(w, a.questionId) - orderOf(w, b.questionId)),
    })),
    redo: redo.map((q) => ({ ...q, masteryLabel: MASTERY_LABELS[q.mastery] ?? '' })),
    essays: essays.map((e) => ({
      sourceType: REGRADE_ESSAY.sourceType,
      sourceId: e.taskId,
      questionId: REGRADE_ESSAY.questionId,
      title: e.title,
      date: e.at,
      comment: e.comment,
      result: disclose(disclosure, e.score, e.maxScore, e.rank, e.ranked),
      regrade: regrades.find((r) => r.sourceType === REGRADE_ESSAY.sourceType && r.sourceId === e.taskId) ?? null,
    })),
    regrades,
  };
}

const orderOf = (w: WorkRow, questionId: number) => w.items.findIndex((i) => i.questionId === questionId);

export type FamilyPage = Awaited<ReturnType<typeof familyPage>>;
