import type { GrayImage } from '../image/gray.js';
import type { Bubble, ObjectiveType, PageLayout, SheetCopy, SheetLayout } from '../layout/types.js';
import { EMPTY_FLAG_BELOW, FLAG_BELOW, measureBubble, pageContext, readBubbles, type BubbleDecision, type BubbleMeasure, type BubbleState, type PageContext } from './bubbles.js';
import type { Homography } from './homography.js';
import { register } from './register.js';

export type ReviewFlag = 'blank' | 'multiple' | 'uncertain';

export const reviewFlagLabel: Record<ReviewFlag, string> = {
  blank: '未作答',
  multiple: '单选题涂了多个选项',
  uncertain: '涂写不清（半涂、轻涂、打勾或擦除痕迹），请老师复核',
};

export interface BubbleReading {
  label: string;
  /** Fill normalised to this page: 0 = like the page's empty bubbles, 1 = like its marked ones. */
  fill: number;
  state: BubbleState;
}

export interface ItemReading {
  no: number;
  type: ObjectiveType;
  /** Labels read as marked, in print order, e.g. "AC" or "√"; empty when nothing is marked. */
  answer: string;
  /** 0–1; below 0.5 means at least one bubble could not be read with confidence. */
  confidence: number;
  flags: ReviewFlag[];
  bubbles: BubbleReading[];
}

export interface StudentReading {
  studentId: string | null;
  source: 'qr' | 'bubbles';
  /** Digits read from the bubbles, '?' where a column was blank, doubled or unclear. */
  digits?: string;
  flags: string[];
}

export interface PageReading {
  ok: true;
  copy: SheetCopy;
  layout: SheetLayout;
  page: PageLayout;
  student: StudentReading;
  items: ItemReading[];
  /** Page-level problems for the teacher, e.g. an unreadable QR code. */
  pageFlags: string[];
  needsReview: boolean;
  /** Kept so fill-in and essay regions can be cut out for OCR without registering again. */
  image: GrayImage;
  h: Homography;
}

export interface PageFailure {
  ok: false;
  error: string;
}

export type LayoutLookup = (sheetId: string) => SheetLayout | undefined;

/** One item from its bubbles' decisions: the answer and what a teacher must look at. */
export function readItem(no: number, type: ObjectiveType, bubbles: Bubble[], ds: BubbleDecision[]): ItemReading {
  const readings = bubbles.map((b, i) => ({ label: b.label, fill: ds[i]!.fill, state: ds[i]!.state }));
  const marked = readings.filter((r) => r.state === 'marked');
  const flags: ReviewFlag[] = [];
  const confidence = Math.min(...ds.map((d) => d.confidence));
  // A mark read this unsurely is never final (a fill of 0.6–0.75, ink beside a shadow edge).
  const unsureMark = ds.some((d) => d.state === 'marked' && d.confidence < FLAG_BELOW);
  // A bubble read as empty with its fill at the very edge of empty (a faint tick beside a clear
  // answer, 0.19–0.22) is as likely a light second mark as paper: a teacher looks.
  const unsureEmpty = ds.some((d) => d.state === 'empty' && d.confidence < EMPTY_FLAG_BELOW);
  if (readings.some((r) => r.state === 'uncertain') || unsureMark || unsureEmpty) flags.push('uncertain');
  if (marked.length === 0 && !flags.includes('uncertain')) flags.push('blank');
  if (marked.length > 1 && type !== 'multiple') flags.push('multiple');
  return {
    no,
    type,
    answer: marked.map((r) => r.label).join(''),
    confidence,
    flags,
    bubbles: readings,
  };
}

function readStudentNumber(columns: Bubble[][], ms: BubbleMeasure[][], ctx: PageContext): StudentReading {
  let digits = '';
  const flags: string[] = [];
  columns.forEach((col, i) => {
    const states = readBubbles(ms[i]!, ctx).map((d) => d.state);
    const marked = states.flatMap((s, v) => (s === 'marked' ? [col[v]!.label] : []));
    if (marked.length === 1 && !states.includes('uncertain')) digits += marked[0];
    else {
      digits += '?';
      flags.push(`考号第 ${i + 1} 位${marked.length > 1 ? '涂了多个数字' : states.includes('uncertain') ? '涂写不清' : '未填涂'}`);
    }
  });
  return { studentId: flags.length ? null : digits, source: 'bubbles', digits, flags };
}

/** Each objective item's bubbles as indexes into the page's list of measures. */
function itemGroups(page: PageLayout): number[][] {
  let k = 0;
  return page.objective.map((it) => {
    const g = it.bubbles.map((_, i) => k + i);
    k += it.bubbles.length;
    return g;
  });
}

/** Reads every objective item from the page's bubble measures (objective bubbles first, in print
 *  order, then the student-number grid): the decisions alone, replayed by the calibration tool. */
export function readMeasured(page: PageLayout, ms: BubbleMeasure[]): ItemReading[] {
  return readItems(page, ms).items;
}

function readItems(page: PageLayout, ms: BubbleMeasure[]): { items: ItemReading[]; ctx: PageContext } {
  const groups = itemGroups(page);
  const ctx = pageContext(ms, groups);
  const items = page.objective.map((it, i) => readItem(it.no, it.type, it.bubbles, readBubbles(groups[i]!.map((j) => ms[j]!), ctx)));
  return { items, ctx };
}

/**
 * Registers one page image, then reads its identity and every objective item. `fallback` layouts
 * are tried by their printed bubbles when the QR code cannot be read.
 */
export function recognisePage(img: GrayImage, lookup: LayoutLookup, fallback: SheetLayout[] = []): PageReading | PageFailure {
  const reg = register(img, fallback, lookup);
  if ('error' in reg) return { ok: false, error: reg.error };
  const layout = lookup(reg.copy.sheetId);
  if (!layout) return { ok: false, error: `找不到编号为 ${reg.copy.sheetId} 的答题卡模板` };
  const page = layout.pages.find((p) => p.page === reg.copy.page);
  if (!page) return { ok: false, error: `答题卡 ${layout.sheetId} 没有第 ${reg.copy.page} 页` };
  if (layout.paper !== reg.paper) return { ok: false, error: `纸张尺寸与模板不符（模板为 ${layout.paper}）` };

  const idColumns = page.studentNumber?.digits ?? [];
  const all = [...page.objective.flatMap((it) => it.bubbles), ...idColumns.flat()];
  const ms = all.map((b) => measureBubble(img, reg.h, b));
  const { items, ctx } = readItems(page, ms);
  // The student-number grid's measures follow the objective bubbles.
  let k = page.objective.reduce((n, it) => n + it.bubbles.length, 0);
  let student: StudentReading;
  const pageFlags = reg.qrRead ? [] : ['二维码无法识别，已按答题卡版面匹配，请老师核对'];
  if (reg.copy.studentId) student = { studentId: reg.copy.studentId, source: 'qr', flags: [] };
  else if (!reg.qrRead && layout.identity.mode === 'roster') {
    student = { studentId: null, source: 'qr', flags: ['二维码无法识别，无法确定学生'] };
  }
  else if (idColumns.length) {
    const colMeasures = idColumns.map((col) => {
      const m = ms.slice(k, k + col.length);
      k += col.length;
      return m;
    });
    student = readStudentNumber(idColumns, colMeasures, ctx);
  } else {
    // Later pages of an anonymous sheet carry no identity of their own; they belong to the
    // student read on page 1 of the same scan batch.
    student = { studentId: null, source: 'qr', flags: page.page === 1 ? ['答题卡上没有学生信息'] : [] };
  }

  return {
    ok: true,
    copy: reg.copy,
    layout,
    page,
    student,
    items,
    pageFlags,
    needsReview: pageFlags.length > 0 || student.flags.length > 0 || items.some((it) => it.flags.length > 0),
    image: img,
    h: reg.h,
  };
}
