// 网上阅卷 split marking and 双评 (docs/api-correct.md "Markers"): the task owner gives a hand-marked
// question to teachers of the task's course in its class; the question's papers are split among
// them by result id (stable while the markers stay the same, and new uploads join a queue without
// moving anyone's papers). With 双评 each paper goes to two of them, who mark it independently; two
// marks within the threshold settle it at their mean (to half points), farther apart it waits for
// the owner's 仲裁. The points that count stay in the result's `review`, as for the owner's own marks.
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { gradingMarkers, gradingTasks } from '../../db/schema';
import type { Principal } from '../../auth/principal';
import { forbidden, notFound } from '../../http/envelope';
import { myTeacherId, type TaskRow } from './access';

/** Who is calling about a task: its owner, or a teacher it gave questions to. */
export interface MarkingAccess {
  task: TaskRow;
  teacherId: number;
  owner: boolean;
}

/** The owner's task, or one that gave the caller questions to mark; anything else is not found. */
export async function findMarkingTask(db: Db, p: Principal, taskId: number): Promise<MarkingAccess> {
  const teacherId = await myTeacherId(db, p);
  const [task] = await db.select().from(gradingTasks).where(and(eq(gradingTasks.id, taskId), eq(gradingTasks.tenantId, p.tenantId!)));
  if (!task) throw notFound('批改任务不存在');
  if (task.teacherId === teacherId) return { task, teacherId, owner: true };
  const [marker] = await db.select({ no: gradingMarkers.no }).from(gradingMarkers).where(and(eq(gradingMarkers.taskId, task.id), eq(gradingMarkers.teacherId, teacherId))).limit(1);
  if (!marker) throw notFound('批改任务不存在');
  return { task, teacherId, owner: false };
}

export interface Marker {
  no: number;
  teacherId: number;
  name: string;
}

/** The markers of a task's questions, by teacher id (the order the split uses). */
export const markersOf = (db: Db, taskId: number) =>
  rows<Marker>(db, sql`
    SELECT m.no, m.teacher_id AS "teacherId", t.name FROM grading_markers m JOIN teachers t ON t.id = m.teacher_id
     WHERE m.task_id = ${taskId} ORDER BY m.no, m.teacher_id`);

export const markerIds = (markers: Marker[], no: number) => markers.filter((m) => m.no === no).map((m) => m.teacherId);

/** 双评 threshold of a question, or null when it is marked once. */
export const doubleOf = (task: Pick<TaskRow, 'markingDouble'>, no: number): number | null => {
  const t = (task.markingDouble as Record<string, number> | null)?.[String(no)];
  return typeof t === 'number' ? t : null;
};

/** The teachers a paper goes to: one of the markers, or two with 双评. */
export function paperMarkers(resultId: number, markers: number[], double: boolean): number[] {
  if (!markers.length) return [];
  const i = resultId % markers.length;
  if (!double || markers.length < 2) return [markers[i]!];
  return [markers[i]!, markers[(i + 1) % markers.length]!];
}

/** A marker may open only the questions they were given; the owner all. */
export function checkQuestion(access: MarkingAccess, no: number, markers: number[]) {
  if (!access.owner && !markers.includes(access.teacherId)) throw forbidden(`您没有被分配阅第 ${no} 题`);
}

/** Two marks within the threshold: their mean, to half points. */
export const agreed = (a: number, b: number, threshold: number): number | null => (Math.abs(a - b) <= threshold ? Math.round(a + b) / 2 : null);

export interface MarkRow {
  resultId: number;
  no: number;
  kind: 'mark' | 'final';
  teacherId: number;
  score: number;
  name: string;
}

/** Every mark of a task's papers (one question, or all). */
export const marksOf = (db: Db, taskId: number, no?: number) =>
  rows<MarkRow>(db, sql`
    SELECT m.result_id AS "resultId", m.no, m.kind, m.teacher_id AS "teacherId", m.score, t.name
      FROM grading_marks m JOIN grading_results r ON r.id = m.result_id JOIN teachers t ON t.id = m.teacher_id
     WHERE r.task_id = ${taskId} ${no === undefined ? sql`` : sql`AND m.no = ${no}`}
     ORDER BY m.result_id, m.teacher_id`);

/** The points that count for a 双评 paper from its marks: the owner's 仲裁, else two agreeing marks. */
export function doubleFinal(marks: MarkRow[], assigned: number[], threshold: number): number | null {
  const final = marks.find((m) => m.kind === 'final');
  if (final) return final.score;
  const two = marks.filter((m) => m.kind === 'mark' && assigned.includes(m.teacherId));
  return two.length === 2 ? agreed(two[0]!.score, two[1]!.score, threshold) : null;
}

/** Both marks are in and too far apart, and the owner has not settled it. */
export function awaitsArbitration(marks: MarkRow[], assigned: number[], threshold: number): boolean {
  if (marks.some((m) => m.kind === 'final')) return false;
  const two = marks.filter((m) => m.kind === 'mark' && assigned.includes(m.teacherId));
  return two.length === 2 && agreed(two[0]!.score, two[1]!.score, threshold) === null;
}

export interface Progress {
  /** Papers whose points count / all papers. */
  marked: number;
  total: number;
  arbitration: number;
  markers: { teacherId: number; name: string; marked: number; total: number }[];
}

/**
 * One question's progress: overall, waiting for 仲裁, and each marker's own queue (with 双评 a
 * marker's paper is done when they marked it or the owner settled it).
 */
export function progressOf(results: { id: number; review: Record<string, number> | null }[], no: number, markers: Marker[], threshold: number | null, marks: MarkRow[]): Progress {
  const ids = markers.filter((m) => m.no === no).map((m) => m.teacherId);
  const per = new Map(markers.filter((m) => m.no === no).map((m) => [m.teacherId, { teacherId: m.teacherId, name: m.name, marked: 0, total: 0 }]));
  const byResult = new Map<number, MarkRow[]>();
  for (const m of marks) if (m.no === no) byResult.set(m.resultId, [...(byResult.get(m.resultId) ?? []), m]);
  let marked = 0;
  let arbitration = 0;
  for (const r of results) {
    const done = r.review?.[String(no)] !== undefined && r.review?.[String(no)] !== null;
    if (done) marked++;
    const assigned = paperMarkers(r.id, ids, threshold !== null);
    const own = byResult.get(r.id) ?? [];
    if (threshold !== null && awaitsArbitration(own, assigned, threshold)) arbitration++;
    for (const t of assigned) {
      const p = per.get(t)!;
      p.total++;
      const mine = threshold === null ? done : own.some((m) => m.kind === 'final' || (m.kind === 'mark' && m.teacherId === t));
      if (mine) p.marked++;
    }
  }
  return { marked, total: results.length, arbitration, markers: [...per.values()] };
}

/** Whether a scanned page belongs to a paper in one of the marker's shares. */
export async function markerSeesFile(db: Db, access: MarkingAccess, fileId: number): Promise<boolean> {
  const markers = await markersOf(db, access.task.id);
  const nos = [...new Set(markers.filter((m) => m.teacherId === access.teacherId).map((m) => m.no))];
  const results = await rows<{ id: number }>(db, sql`
    SELECT id FROM grading_results
     WHERE task_id = ${access.task.id} AND result -> 'detail' -> 'pages' @> ${JSON.stringify([{ fileId }])}::jsonb`);
  return results.some((r) => nos.some((no) => paperMarkers(r.id, markerIds(markers, no), doubleOf(access.task, no) !== null).includes(access.teacherId)));
}
