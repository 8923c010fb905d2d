// A grading task's report, computed from its results as they stand now (the teacher's review
// points where given, the machine's otherwise), so the report changes as soon as a result is
// corrected: score distribution, average/highest/lowest, score rate per question, the most common
// wrong answers per objective item, and the students still needing review.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import type { TaskRow } from './access';
import type { GradedWork } from './results';
import { taskCoverage } from './coverage';
import { linkOf } from './workLink';
import type { ReportQuestion, ReportStudent, TaskReport } from '../../../src/domain/correct';

/** Shown for an objective item left blank. */
export const BLANK_ANSWER = '未作答';
const TOP_WRONG = 3;

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

export async function taskReport(db: Db, task: TaskRow): Promise<TaskReport> {
  const [meta] = await rows<{ className: string | null }>(db, sql`SELECT name AS "className" FROM classes WHERE id = ${task.classId}`);
  const results = await rows<{
    id: number;
    studentId: number | null;
    studentName: string | null;
    studentNo: string | null;
    studentKey: string | null;
    result: GradedWork;
    review: Record<string, number> | null;
    score: number | null;
    maxScore: number | null;
    needsReview: boolean;
  }>(db, sql`
    SELECT r.id, r.student_id AS "studentId", s.name AS "studentName", s.student_no AS "studentNo", r.student_key AS "studentKey",
           r.result, r.review, r.score, r.max_score AS "maxScore", r.needs_review AS "needsReview"
      FROM grading_results r LEFT JOIN students s ON s.id = r.student_id
     WHERE r.task_id = ${task.id} ORDER BY s.student_no NULLS LAST, r.id`);

  // Objective items are those the answer key gives a letter answer for.
  const keyItems = ((task.answerKey as { items?: Record<string, { answer?: string }> } | null)?.items ?? {}) as Record<string, { answer?: string }>;
  const isObjective = (no: number) => typeof keyItems[String(no)]?.answer === 'string';
  // Homework items have no full marks of their own; a task linked to a homework has the work's.
  const link = linkOf(task.answerKey);
  const maxOf = (item: { no: number; max: number | null }) => item.max ?? link?.items[String(item.no)]?.points ?? null;

  const byNo = new Map<number, { max: number | null; expected: string | null; earned: number; possible: number; scored: number; count: number; flagged: number; wrong: Map<string, number> }>();
  const students: ReportStudent[] = results.map((r) => {
    const points: Record<string, number | null> = {};
    let flaggedCount = 0;
    let maxScore: number | null = r.maxScore ?? 0;
    for (const raw of r.result?.items ?? []) {
      const item = { ...raw, max: maxOf(raw) };
      if (r.maxScore === null) maxScore = maxScore === null || item.max === null ? null : maxScore + item.max;
      const reviewed = r.review?.[String(item.no)];
      const earned = reviewed ?? item.score;
      points[String(item.no)] = earned;
      const flagged = item.needsReview && reviewed === undefined;
      if (flagged) flaggedCount++;
      let q = byNo.get(item.no);
      if (!q) byNo.set(item.no, (q = { max: item.max, expected: item.expected ?? null, earned: 0, possible: 0, scored: 0, count: 0, flagged: 0, wrong: new Map() }));
      q.count++;
      if (flagged) q.flagged++;
      if (earned !== null && earned !== undefined) {
        q.earned += earned;
        q.scored++;
      }
      if (item.max !== null) q.possible += item.max;
      // The teacher's points decide: an answer they gave full marks is not a wrong one.
      const wrong = reviewed !== undefined ? item.max !== null && reviewed < item.max : item.given !== item.expected;
      if (isObjective(item.no) && item.expected !== undefined && wrong) {
        const answer = item.given.trim() || BLANK_ANSWER;
        q.wrong.set(answer, (q.wrong.get(answer) ?? 0) + 1);
      }
    }
    return {
      resultId: r.id,
      studentId: r.studentId,
      studentName: r.studentName,
      studentNo: r.studentNo,
      studentKey: r.studentKey,
      score: r.score,
      maxScore: r.maxScore ?? (r.result?.items?.length ? maxScore : null),
      needsReview: r.needsReview,
      flaggedCount,
      points,
    };
  });

  const questions: ReportQuestion[] = [...byNo.entries()]
    .sort(([a], [b]) => a - b)
    .map(([no, q]) => ({
      no,
      objective: isObjective(no),
      expected: q.expected,
      max: q.max,
      count: q.count,
      average: q.scored ? round(q.earned / q.scored, 2) : null,
      scoreRate: q.possible > 0 && q.scored ? round(q.earned / q.possible, 4) : null,
      flaggedCount: q.flagged,
      wrongCount: [...q.wrong.values()].reduce((n, c) => n + c, 0),
      wrongAnswers: [...q.wrong.entries()]
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, TOP_WRONG)
        .map(([answer, count]) => ({ answer, count })),
    }));

  const scores = results.map((r) => r.score).filter((s): s is number => s !== null);
  const maxes = new Set(students.map((r) => r.maxScore));
  const maxScore = maxes.size === 1 ? [...maxes][0]! : null;
  const distribution = Array.from({ length: 10 }, (_, i) => ({ label: `${i * 10}%-${i * 10 + 10}%`, from: i / 10, to: (i + 1) / 10, count: 0 }));
  for (const r of students) {
    if (r.score === null || !r.maxScore) continue;
    const band = Math.min(9, Math.max(0, Math.floor((r.score / r.maxScore) * 10)));
    distribution[band]!.count++;
  }

  return {
    task: {
      id: task.id,
      title: task.title,
      type: task.type,
      status: task.status,
      className: meta?.className ?? null,
      submittedAt: task.submittedAt ? new Date(task.submittedAt).toISOString() : null,
    },
    summary: {
      students: results.length,
      maxScore,
      average: scores.length ? round(scores.reduce((a, b) => a + b, 0) / scores.length, 2) : null,
      highest: scores.length ? Math.max(...scores) : null,
      lowest: scores.length ? Math.min(...scores) : null,
      reviewCount: results.filter((r) => r.needsReview).length,
    },
    distribution,
    questions,
    coverage: await taskCoverage(db, task),
    students: [...students].sort((a, b) => Number(b.needsReview) - Number(a.needsReview)),
  };
}

const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : n);
const percent = (rate: number | null) => (rate === null ? '' : `${(rate * 100).toFixed(1)}%`);

/** The report as workbook sheets: one row per student with each question's points, then the questions. */
export function reportSheets(report: TaskReport) {
  const nos = report.questions.map((q) => q.no);
  return [
    {
      name: '学生成绩',
      headers: [
        { header: '学号', width: 14 },
        { header: '姓名', width: 12 },
        { header: '得分', width: 8 },
        { header: '满分', width: 8 },
        { header: '待复核题数', width: 12 },
        ...nos.map((no) => ({ header: `第${no}题`, width: 8 })),
      ],
      data: report.students.map((s) => [
        s.studentNo ?? '',
        s.studentName ?? '未识别学生',
        text(s.score),
        text(s.maxScore),
        s.flaggedCount,
        ...nos.map((no) => text(s.points[String(no)])),
      ]),
    },
    {
      name: '小题分析',
      headers: [
        { header: '题号', width: 8 },
        { header: '满分', width: 8 },
        { header: '平均分', width: 10 },
        { header: '得分率', width: 10 },
        { header: '正确答案', width: 12 },
        { header: '常见错误答案', width: 30 },
        { header: '待复核人数', width: 12 },
      ],
      data: report.questions.map((q) => [
        q.no,
        text(q.max),
        text(q.average),
        percent(q.scoreRate),
        q.expected ?? '',
        q.wrongAnswers.map((w) => `${w.answer}（${w.count}人）`).join('，'),
        q.flaggedCount,
      ]),
    },
  ];
}
