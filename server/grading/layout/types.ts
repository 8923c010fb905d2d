// The answer-sheet model. A SheetSpec is what a teacher asks for; buildLayout turns it into a
// SheetLayout with exact millimetre geometry. The SheetLayout is both what the renderers draw and
// what the recogniser reads, so a printed sheet and its recognition template can never disagree.

export type PaperSize = 'A4' | 'A3';
export type ObjectiveType = 'single' | 'multiple' | 'judge';

export interface Student {
  /** What the QR code carries to tell copies apart (the school's own key when it has one). */
  id: string;
  name: string;
  className?: string;
  /** The number printed for people to read; the id when absent. */
  studentNo?: string;
}

export type IdentitySpec =
  | { mode: 'roster'; students: Student[] }
  /** Anonymous printing: students fill their student number in bubbles. */
  | { mode: 'anonymous'; digits: number };

export interface ObjectiveItemSpec {
  no: number;
  type: ObjectiveType;
  /** 2–7 for single/multiple; judge items always have two options (√ ×). */
  options?: number;
}

export type SectionSpec =
  | { kind: 'objective'; title: string; items: ObjectiveItemSpec[] }
  | { kind: 'fill'; title: string; items: { no: number; blanks: number }[] }
  | { kind: 'short'; title: string; items: { no: number; heightMm: number }[] }
  | { kind: 'essay'; title: string; no: number; cells: number; columns?: number; prompt?: string; minChars?: number };

export interface SheetSpec {
  sheetId: string;
  title: string;
  paper: PaperSize;
  identity: IdentitySpec;
  sections: SectionSpec[];
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Bubble {
  label: string;
  cx: number;
  cy: number;
  rx: number;
  ry: number;
}

export interface ObjectiveItemLayout {
  no: number;
  type: ObjectiveType;
  bubbles: Bubble[];
}

export interface FillItemLayout {
  no: number;
  boxes: Rect[];
}

export interface EssayBlockLayout {
  no: number;
  /** Index of the first cell in this block within the whole essay (blocks split across columns/pages). */
  firstCell: number;
  columns: number;
  rows: number;
  cell: number;
  origin: { x: number; y: number };
  /** Row pitch: a cell plus the gap that carries the word-count marks. */
  rowPitch: number;
  /** Essay topic and required length, for the essay scorer. */
  prompt?: string;
  minChars?: number;
}

/** Everything the renderers draw; recognition never looks at these. */
export type Primitive =
  | { t: 'text'; x: number; y: number; size: number; text: string; anchor?: 'start' | 'middle'; grey?: number }
  | { t: 'rect'; x: number; y: number; w: number; h: number; fill?: boolean; grey?: number; stroke?: number }
  | { t: 'ellipse'; cx: number; cy: number; rx: number; ry: number; stroke: number }
  | { t: 'line'; x1: number; y1: number; x2: number; y2: number; stroke: number; grey?: number };

export interface PageLayout {
  page: number;
  /**
   * Printed only on this student's copy (a personalised sheet carries each student's own
   * questions); absent on pages every copy has. Such a page's own footer counts that student's pages.
   */
  studentId?: string;
  /** Solid squares, order: top-left, top-right, bottom-right, bottom-left. */
  fiducials: Rect[];
  qr: Rect;
  /** Where a roster copy prints the student's name line (absent for anonymous sheets). */
  nameAt?: { x: number; y: number; size: number };
  studentNumber?: { digits: Bubble[][] };
  objective: ObjectiveItemLayout[];
  fill: FillItemLayout[];
  short: { no: number; rect: Rect }[];
  essay: EssayBlockLayout[];
  primitives: Primitive[];
}

export interface SheetLayout {
  version: 1;
  sheetId: string;
  title: string;
  paper: PaperSize;
  widthMm: number;
  heightMm: number;
  identity: { mode: 'roster'; students: Student[] } | { mode: 'anonymous'; digits: number };
  pages: PageLayout[];
}

/** One printed copy: which page of which sheet, for whom. Encoded in the QR code. */
export interface SheetCopy {
  sheetId: string;
  page: number;
  studentId?: string;
}
