import type {
  Bubble,
  EssayBlockLayout,
  ObjectiveItemSpec,
  PageLayout,
  Primitive,
  Rect,
  SectionSpec,
  SheetLayout,
  SheetSpec,
} from './types.js';

// Geometry constants in millimetres. Bubbles are 5.2 × 3.4 mm ellipses on a 7 mm pitch: large
// enough for a 2B pencil stroke, small enough for 100 items on one A4 page.
const FIDUCIAL = 7;
const FIDUCIAL_INSET = 6;
const QR_SIZE = 24;
const MARGIN = 15;
const BUBBLE_RX = 2.6;
const BUBBLE_RY = 1.7;
const BUBBLE_PITCH = 7;
const ITEM_ROW = 6.5;
const ITEMS_PER_GROUP = 5;
const NUMBER_LABEL = 8;
const SECTION_TITLE = 7;
const FILL_BOX = { w: 40, h: 11 };
const ESSAY_MAX_CELL = 9;
const ESSAY_MARK_GAP = 2.4;
const LABEL_GREY = 0.45;
/** The 考号 grid: a column per digit, a row per value. */
const ID_PITCH = 6;
const ID_ROW = 4.6;
const ID_SIDE_GAP = 5;

const PAPER = { A4: { w: 210, h: 297, columns: 1 }, A3: { w: 420, h: 297, columns: 2 } } as const;

interface Column {
  x: number;
  w: number;
  y: number;
  bottom: number;
  /** Room kept at the column's right down to `until` (the anonymous sheet's 考号 grid beside the first blocks). */
  side?: { w: number; until: number };
}

/** The width a block starting at the column's current height may use. */
const widthAt = (col: Column) => (col.side && col.y < col.side.until ? col.w - col.side.w : col.w);

/** Places blocks top to bottom, column by column, opening pages as needed. */
class Flow {
  readonly pages: PageLayout[] = [];
  private columns: Column[] = [];
  constructor(private readonly spec: SheetSpec, private readonly size: { w: number; h: number; columns: number }) {}

  get page(): PageLayout {
    return this.pages[this.pages.length - 1]!;
  }

  get column(): Column {
    if (this.columns.length === 0) this.openPage();
    return this.columns[0]!;
  }

  openPage(): void {
    const { w, h, columns } = this.size;
    const n = this.pages.length + 1;
    const page: PageLayout = {
      page: n,
      fiducials: [
        { x: FIDUCIAL_INSET, y: FIDUCIAL_INSET, w: FIDUCIAL, h: FIDUCIAL },
        { x: w - FIDUCIAL_INSET - FIDUCIAL, y: FIDUCIAL_INSET, w: FIDUCIAL, h: FIDUCIAL },
        { x: w - FIDUCIAL_INSET - FIDUCIAL, y: h - FIDUCIAL_INSET - FIDUCIAL, w: FIDUCIAL, h: FIDUCIAL },
        { x: FIDUCIAL_INSET, y: h - FIDUCIAL_INSET - FIDUCIAL, w: FIDUCIAL, h: FIDUCIAL },
      ],
      qr: { x: w - MARGIN - QR_SIZE - 2, y: 14, w: QR_SIZE, h: QR_SIZE },
      objective: [],
      fill: [],
      short: [],
      essay: [],
      primitives: [],
    };
    for (const f of page.fiducials) page.primitives.push({ t: 'rect', ...f, fill: true });
    page.primitives.push({ t: 'text', x: MARGIN, y: 18, size: 5.5, text: this.spec.title });
    // The page footer is written once the page count is known (see numberPages).
    this.pages.push(page);
    const top = page.qr.y + page.qr.h + 4;
    const colGap = 10;
    const colW = (w - 2 * MARGIN - (columns - 1) * colGap) / columns;
    this.columns = Array.from({ length: columns }, (_, i) => ({
      x: MARGIN + i * (colW + colGap),
      w: colW,
      y: top,
      bottom: h - 14,
    }));
    this.header(page, this.columns[0]!);
  }

  /** Returns a column with at least `height` mm left, moving to the next column or page if needed. */
  reserve(height: number): Column {
    let col = this.column;
    if (col.y + height > col.bottom) {
      this.columns.shift();
      if (this.columns.length === 0) this.openPage();
      col = this.column;
    }
    return col;
  }

  /**
   * Who the page belongs to, on every page: a loose page 2 still names its student. Roster copies
   * print the name line (and carry the student in the QR code); anonymous sheets have the 考号
   * bubble grid on page 1 and write-in lines on later pages, for people to match a loose page.
   */
  private header(page: PageLayout, col: Column): void {
    const ident = this.spec.identity;
    if (ident.mode === 'roster') {
      page.nameAt = { x: MARGIN, y: 28, size: 4 };
      page.primitives.push({ t: 'line', x1: MARGIN, y1: 31, x2: MARGIN + 120, y2: 31, stroke: 0.2, grey: 0.5 });
      return;
    }
    if (page.page > 1) {
      page.primitives.push({ t: 'text', x: MARGIN, y: 29, size: 3.5, text: '姓名＿＿＿＿＿＿　班级＿＿＿＿＿＿　考号＿＿＿＿＿＿＿＿', grey: 0.2 });
      return;
    }
    // Anonymous sheet: a row of write-in boxes over a 10-row bubble grid, one column per digit, at
    // the right under the QR code, with the first blocks of questions beside it; the name line and
    // the note sit under the title. So the header takes no more height than a roster copy's.
    page.primitives.push({ t: 'text', x: MARGIN, y: 28, size: 3.5, text: '姓名＿＿＿＿＿＿＿　班级＿＿＿＿＿＿＿', grey: 0.2 });
    page.primitives.push({ t: 'text', x: MARGIN, y: 34, size: 3, text: '注意：用2B铅笔将考号对应数字涂满涂黑，修改时用橡皮擦干净。', grey: 0.3 });
    const x0 = col.x + col.w - 1 - ident.digits * ID_PITCH;
    const top = col.y;
    page.primitives.push({ t: 'text', x: x0, y: top + 3, size: 3.5, text: '考号' });
    const digits: Bubble[][] = [];
    for (let d = 0; d < ident.digits; d++) {
      const cx = x0 + d * ID_PITCH + ID_PITCH / 2;
      page.primitives.push({ t: 'rect', x: cx - 3, y: top + 5, w: 6, h: 6, stroke: 0.25 });
      const column: Bubble[] = [];
      for (let v = 0; v < 10; v++) column.push({ label: String(v), cx, cy: top + 15 + v * ID_ROW, rx: 2.2, ry: 1.5 });
      digits.push(column);
    }
    page.studentNumber = { digits };
    drawBubbles(page.primitives, digits.flat());
    col.side = { w: col.x + col.w - x0 + ID_SIDE_GAP, until: top + 15 + 9 * ID_ROW + 3 };
    // Half a row of bubbles lower than a roster copy: when a QR code cannot be read, the printed
    // bubbles tell the layouts apart, and the same first section would otherwise print in the same place.
    col.y += ITEM_ROW / 2;
  }

  /** "第 n 页（共 N 页）" on every page, so a loose page tells it is one of several. */
  numberPages(): void {
    const { w, h } = this.size;
    for (const page of this.pages) {
      const text = this.pages.length > 1 ? `第 ${page.page} 页（共 ${this.pages.length} 页）` : `第 ${page.page} 页`;
      page.primitives.push({ t: 'text', x: w / 2, y: h - 9, size: 3, text, anchor: 'middle', grey: 0.3 });
    }
  }
}

function drawBubbles(out: Primitive[], bubbles: Bubble[]): void {
  for (const b of bubbles) {
    out.push({ t: 'ellipse', cx: b.cx, cy: b.cy, rx: b.rx, ry: b.ry, stroke: 0.25 });
    out.push({ t: 'text', x: b.cx, y: b.cy + 0.85, size: 2.4, text: b.label, anchor: 'middle', grey: LABEL_GREY });
  }
}

function optionLabels(item: ObjectiveItemSpec): string[] {
  if (item.type === 'judge') return ['√', '×'];
  const n = item.options ?? 4;
  if (!Number.isInteger(n) || n < 2 || n > 7) throw new Error(`第 ${item.no} 题的选项数必须在 2 到 7 之间`);
  return 'ABCDEFG'.slice(0, n).split('');
}

/** The height of a section's first block: its title is never left alone at the foot of a column. */
function firstBlockHeight(s: SectionSpec): number {
  switch (s.kind) {
    case 'objective':
      return ITEMS_PER_GROUP * ITEM_ROW + 3;
    case 'fill':
      return FILL_BOX.h + 3;
    case 'short':
      return Math.min(s.items[0]?.heightMm ?? 0, 200) + 3;
    default:
      return (s.prompt ? 6 : 0) + 2 * (ESSAY_MAX_CELL + ESSAY_MARK_GAP);
  }
}

function sectionTitle(flow: Flow, s: SectionSpec): void {
  const col = flow.reserve(SECTION_TITLE + firstBlockHeight(s));
  flow.page.primitives.push({ t: 'text', x: col.x, y: col.y + 5, size: 4, text: s.title });
  col.y += SECTION_TITLE;
}

function placeObjective(flow: Flow, items: ObjectiveItemSpec[]): void {
  const groups: ObjectiveItemSpec[][] = [];
  for (let i = 0; i < items.length; i += ITEMS_PER_GROUP) groups.push(items.slice(i, i + ITEMS_PER_GROUP));
  const groupWidth = (g: ObjectiveItemSpec[]) =>
    NUMBER_LABEL + Math.max(...g.map((it) => optionLabels(it).length)) * BUBBLE_PITCH + 4;
  let i = 0;
  while (i < groups.length) {
    const height = ITEMS_PER_GROUP * ITEM_ROW + 3;
    const col = flow.reserve(height);
    // Fill one row of groups across the column width.
    let x = col.x;
    const rowGroups: ObjectiveItemSpec[][] = [];
    const width = widthAt(col);
    while (i < groups.length && (rowGroups.length === 0 || x + groupWidth(groups[i]!) <= col.x + width)) {
      rowGroups.push(groups[i]!);
      x += groupWidth(groups[i]!);
      i++;
    }
    x = col.x;
    for (const g of rowGroups) {
      g.forEach((item, r) => {
        const cy = col.y + r * ITEM_ROW + ITEM_ROW / 2;
        flow.page.primitives.push({ t: 'text', x: x + NUMBER_LABEL - 2, y: cy + 1.2, size: 3.2, text: String(item.no), anchor: 'middle' });
        const bubbles = optionLabels(item).map((label, k) => ({
          label,
          cx: x + NUMBER_LABEL + k * BUBBLE_PITCH + BUBBLE_PITCH / 2,
          cy,
          rx: BUBBLE_RX,
          ry: BUBBLE_RY,
        }));
        drawBubbles(flow.page.primitives, bubbles);
        flow.page.objective.push({ no: item.no, type: item.type, bubbles });
      });
      x += groupWidth(g);
    }
    col.y += height;
  }
}

/** Fill-ins of up to two blanks sit two to a row; longer ones take whole rows of up to four boxes. */
const PAIRED_BLANKS = 2;
const FILL_GAP = 3;
const HALF_GAP = 6;

function placeFill(flow: Flow, items: { no: number; blanks: number }[]): void {
  let i = 0;
  while (i < items.length) {
    const item = items[i]!;
    const next = items[i + 1];
    if (item.blanks <= PAIRED_BLANKS) {
      const col = flow.reserve(FILL_BOX.h + FILL_GAP);
      const half = (widthAt(col) - HALF_GAP) / 2;
      const pair = next && next.blanks <= PAIRED_BLANKS ? [item, next] : [item];
      pair.forEach((it, k) => fillRow(flow, it.no, col.x + k * (half + HALF_GAP), col.y, half, it.blanks));
      col.y += FILL_BOX.h + FILL_GAP;
      i += pair.length;
      continue;
    }
    let remaining = item.blanks;
    let boxes: Rect[] | null = null;
    let onPage: PageLayout | null = null;
    while (remaining > 0) {
      const col = flow.reserve(FILL_BOX.h + FILL_GAP);
      const perRow = Math.max(1, Math.floor((widthAt(col) - NUMBER_LABEL) / (FILL_BOX.w + FILL_GAP)));
      const n = Math.min(perRow, remaining);
      // An item that runs onto a new page is recorded once per page, so each page stays readable alone.
      if (!boxes || onPage !== flow.page) {
        boxes = fillRow(flow, item.no, col.x, col.y, NUMBER_LABEL + n * (FILL_BOX.w + FILL_GAP), n);
        onPage = flow.page;
      } else {
        boxes.push(...fillBoxes(flow, col.x, col.y, NUMBER_LABEL + n * (FILL_BOX.w + FILL_GAP), n));
      }
      remaining -= n;
      col.y += FILL_BOX.h + FILL_GAP;
    }
    i++;
  }
}

/** One item's number and `n` boxes across `width` mm; returns the boxes recorded for the item. */
function fillRow(flow: Flow, no: number, x: number, y: number, width: number, n: number): Rect[] {
  flow.page.primitives.push({ t: 'text', x, y: y + FILL_BOX.h / 2 + 1.2, size: 3.2, text: `${no}.` });
  const boxes = fillBoxes(flow, x, y, width, n);
  flow.page.fill.push({ no, boxes });
  return boxes;
}

function fillBoxes(flow: Flow, x: number, y: number, width: number, n: number): Rect[] {
  const w = Math.min(60, (width - NUMBER_LABEL - (n - 1) * FILL_GAP) / n);
  return Array.from({ length: n }, (_, k) => {
    const r = { x: x + NUMBER_LABEL + k * (w + FILL_GAP), y, w, h: FILL_BOX.h };
    flow.page.primitives.push({ t: 'rect', ...r, stroke: 0.3 });
    return r;
  });
}

/**
 * 解答 boxes side by side by their height: up to TINY_SHORT mm (a line or two) three to a row, up
 * to SMALL_SHORT mm ("a few lines") two to a row, taller ones across the column. A box never runs
 * past the foot of its column.
 */
export const TINY_SHORT = 32;
export const SMALL_SHORT = 60;
const perRow = (heightMm: number) => (heightMm <= TINY_SHORT ? 3 : heightMm <= SMALL_SHORT ? 2 : 1);

function placeShort(flow: Flow, items: { no: number; heightMm: number }[]): void {
  let i = 0;
  while (i < items.length) {
    const n = perRow(items[i]!.heightMm);
    const row = [items[i]!];
    while (row.length < n && i + row.length < items.length && perRow(items[i + row.length]!.heightMm) === n) row.push(items[i + row.length]!);
    const height = Math.max(...row.map((it) => Math.min(it.heightMm, 200)));
    const col = flow.reserve(height + 3);
    const w = (widthAt(col) - (n - 1) * HALF_GAP) / n;
    const h = Math.min(height, col.bottom - col.y - 3);
    row.forEach((it, k) => {
      const rect = { x: col.x + k * (w + HALF_GAP), y: col.y, w, h };
      flow.page.primitives.push({ t: 'rect', ...rect, stroke: 0.3 });
      flow.page.primitives.push({ t: 'text', x: rect.x + 2, y: rect.y + 5, size: 3.2, text: `${it.no}.` });
      flow.page.short.push({ no: it.no, rect });
    });
    col.y += h + 3;
    i += row.length;
  }
}

function placeEssay(flow: Flow, s: Extract<SectionSpec, { kind: 'essay' }>): void {
  if (s.prompt) {
    const col = flow.reserve(6);
    flow.page.primitives.push({ t: 'text', x: col.x, y: col.y + 4, size: 3.2, text: s.prompt, grey: 0.2 });
    col.y += 6;
  }
  let placed = 0;
  while (placed < s.cells) {
    const col0 = flow.column;
    const columns = s.columns ?? Math.max(10, Math.floor(widthAt(col0) / ESSAY_MAX_CELL));
    const cell = Math.min(ESSAY_MAX_CELL, widthAt(col0) / columns);
    const rowPitch = cell + ESSAY_MARK_GAP;
    const col = flow.reserve(rowPitch * 2);
    const fitRows = Math.floor((col.bottom - col.y) / rowPitch);
    const rows = Math.min(fitRows, Math.ceil((s.cells - placed) / columns));
    const block: EssayBlockLayout = {
      no: s.no,
      firstCell: placed,
      columns,
      rows,
      cell,
      origin: { x: col.x, y: col.y },
      rowPitch,
      ...(s.prompt ? { prompt: s.prompt } : {}),
      ...(s.minChars ? { minChars: s.minChars } : {}),
    };
    drawEssayGrid(flow.page.primitives, block);
    flow.page.essay.push(block);
    placed += rows * columns;
    col.y += rows * rowPitch + 2;
  }
}

// The grid is printed light grey on purpose: recognition drops pixels this light, so the grid
// disappears and only the pencil remains (the "drop-out colour" used by commercial OMR forms).
export const ESSAY_GRID_GREY = 0.72;

function drawEssayGrid(out: Primitive[], b: EssayBlockLayout): void {
  for (let r = 0; r < b.rows; r++) {
    const y = b.origin.y + r * b.rowPitch;
    out.push({ t: 'rect', x: b.origin.x, y, w: b.columns * b.cell, h: b.cell, stroke: 0.2, grey: ESSAY_GRID_GREY });
    for (let c = 1; c < b.columns; c++) {
      const x = b.origin.x + c * b.cell;
      out.push({ t: 'line', x1: x, y1: y, x2: x, y2: y + b.cell, stroke: 0.2, grey: ESSAY_GRID_GREY });
    }
    const endCount = b.firstCell + (r + 1) * b.columns;
    if (endCount % 100 === 0 || Math.floor(endCount / 100) > Math.floor((endCount - b.columns) / 100)) {
      const hundred = Math.floor(endCount / 100) * 100;
      const c = hundred - (b.firstCell + r * b.columns);
      out.push({ t: 'text', x: b.origin.x + c * b.cell, y: y + b.cell + 2, size: 1.8, text: String(hundred), anchor: 'middle', grey: 0.35 });
    }
  }
}

/** Turns a teacher's sheet request into the exact layout that is printed and later recognised. */
export function buildLayout(spec: SheetSpec): SheetLayout {
  if (spec.identity.mode === 'anonymous' && (spec.identity.digits < 1 || spec.identity.digits > 12)) {
    throw new Error('考号位数必须在 1 到 12 之间');
  }
  const objectiveCount = spec.sections.reduce((n, s) => n + (s.kind === 'objective' ? s.items.length : 0), 0);
  if (objectiveCount > 100) throw new Error('客观题最多 100 道');
  const size = PAPER[spec.paper];
  const flow = new Flow(spec, size);
  flow.openPage();
  for (const s of spec.sections) {
    sectionTitle(flow, s);
    if (s.kind === 'objective') placeObjective(flow, s.items);
    else if (s.kind === 'fill') placeFill(flow, s.items);
    else if (s.kind === 'short') placeShort(flow, s.items);
    else placeEssay(flow, s);
  }
  flow.numberPages();
  return {
    version: 1,
    sheetId: spec.sheetId,
    title: spec.title,
    paper: spec.paper,
    widthMm: size.w,
    heightMm: size.h,
    identity: spec.identity.mode === 'roster' ? { mode: 'roster', students: spec.identity.students } : spec.identity,
    pages: flow.pages,
  };
}

/**
 * A personalised roster sheet: each student's pages carry only their own questions (their own
 * `sections`), laid out as a sheet of its own and numbered on within the one sheet, so one sheet
 * id and one grading task still cover the class.
 */
export function buildPersonalLayout(spec: SheetSpec, parts: { studentId: string; sections: SectionSpec[] }[]): SheetLayout {
  if (spec.identity.mode !== 'roster') throw new Error('个性化答题卡需要按名单打印');
  const pages: PageLayout[] = [];
  let base: SheetLayout | null = null;
  for (const part of parts) {
    const one = buildLayout({ ...spec, sections: part.sections });
    base ??= one;
    for (const p of one.pages) pages.push({ ...p, page: pages.length + 1, studentId: part.studentId });
  }
  if (!base) throw new Error('没有学生需要答题卡');
  return { ...base, pages };
}

/** The pages one student's copy has (every page unless the sheet is personalised). */
export function studentPages(layout: SheetLayout, studentId: string | null | undefined): PageLayout[] {
  return layout.pages.filter((p) => !p.studentId || p.studentId === studentId);
}

/** Where essay cell `index` of a block sits, in mm (its top-left corner). */
export function essayCellRect(b: EssayBlockLayout, index: number): Rect {
  const r = Math.floor(index / b.columns);
  const c = index % b.columns;
  return { x: b.origin.x + c * b.cell, y: b.origin.y + r * b.rowPitch, w: b.cell, h: b.cell };
}
