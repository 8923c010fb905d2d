// 网上阅卷: the questions of an answer-sheet task a teacher marks by hand — each 解答题 region and
// each essay of the sheet — with their full marks, and the result item a 解答题 gets so its points
// count in the student's total. Full marks come from the task's answer key (`{ manual: true,
// points }`, set in the sheet designer or taken from the exam), else from the linked work's points;
// an older sheet without either gets them from the teacher on the marking screen.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import type { TaskRow } from './access';
import type { GradedWork, ReviewItem } from './results';
import { linkOf } from './workLink';

export interface ManualQuestion {
  no: number;
  kind: 'short' | 'essay';
  fullMarks: number | null;
}

type KeyItems = Record<string, { points?: number; manual?: true; essay?: true }>;
const keyItems = (task: Pick<TaskRow, 'answerKey'>): KeyItems => ((task.answerKey as { items?: KeyItems } | null)?.items ?? {}) as KeyItems;

/** The numbers of a sheet's 解答题 regions and essays. */
export interface SheetNos {
  short: number[];
  essay: number[];
}

/** Stored layouts never change (a new design is a new sheet), so their numbers are kept per process. */
const nosCache = new Map<string, SheetNos>();
const NOS_CACHE_SIZE = 500;

/**
 * Read in SQL from the stored layout, so a saved score does not load the whole layout (a roster
 * sheet carries the class and every page's drawing), and then kept: each save needs them.
 */
export async function sheetNos(db: Db, task: TaskRow): Promise<SheetNos> {
  const cacheKey = `${task.tenantId}:${task.sheetId}`;
  const cached = nosCache.get(cacheKey);
  if (cached) return cached;
  const [row] = await rows<SheetNos>(db, sql`
    SELECT jsonb_path_query_array(layout, '$.pages[*].short[*].no') AS short,
           jsonb_path_query_array(layout, '$.pages[*].essay[*].no') AS essay
      FROM answer_sheets WHERE id = ${task.sheetId ?? ''} AND tenant_id = ${task.tenantId}`);
  if (!row) return { short: [], essay: [] };
  if (nosCache.size >= NOS_CACHE_SIZE) nosCache.clear();
  nosCache.set(cacheKey, row);
  return row;
}

/** The hand-marked questions of a task on its sheet, by number. */
export function manualQuestions(task: Pick<TaskRow, 'answerKey'>, nos: SheetNos): ManualQuestion[] {
  const items = keyItems(task);
  const link = linkOf(task.answerKey);
  const out = new Map<number, ManualQuestion>();
  for (const no of nos.short) {
    const k = items[String(no)];
    const points = k?.manual ? k.points : link?.items[String(no)]?.points;
    out.set(no, { no, kind: 'short', fullMarks: typeof points === 'number' ? points : null });
  }
  for (const no of nos.essay) {
    const k = items[String(no)];
    if (!out.has(no)) out.set(no, { no, kind: 'essay', fullMarks: k?.essay && typeof k.points === 'number' ? k.points : null });
  }
  return [...out.values()].sort((a, b) => a.no - b.no);
}

/** The item a 解答题 has in a result: no machine points, waiting for the teacher. */
export function manualItem(no: number, fullMarks: number): ReviewItem {
  return { no, given: '', score: null, max: fullMarks, needsReview: true, reasons: ['解答题待老师阅卷'] };
}

/**
 * A sheet result with an item for each 解答题 of known full marks — from the key, or from the linked
 * exam or homework — so a new result's total and full marks count them from the start (and the
 * report lists them).
 */
export function withManualItems(work: GradedWork, task: Pick<TaskRow, 'answerKey'>, nos: SheetNos): GradedWork {
  if (work.kind !== 'sheet') return work;
  const extra = manualQuestions(task, { short: nos.short, essay: [] })
    .filter((q) => q.fullMarks !== null && !work.items.some((i) => i.no === q.no))
    .map((q) => manualItem(q.no, q.fullMarks!));
  if (!extra.length) return work;
  return { ...work, items: [...work.items, ...extra].sort((a, b) => a.no - b.no) };
}

/** The result's items with the question's item in place (added, or its full marks brought up to date). */
export function itemsWith(work: GradedWork, no: number, fullMarks: number): ReviewItem[] {
  const at = work.items.findIndex((i) => i.no === no);
  if (at < 0) return [...work.items, manualItem(no, fullMarks)].sort((a, b) => a.no - b.no);
  const items = [...work.items];
  items[at] = { ...items[at]!, max: fullMarks };
  return items;
}
