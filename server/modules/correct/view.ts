// What the review screens draw over a student's scan or photo (GET /result/detail `view`): per
// page, the uploaded file it was read from, the transform from layout millimetres to the image's
// pixels, each question's region, and each bubble and fill-in box with what grading read there.
// Built from the stored sheet layout and the reading kept with the result, so the screen needs no
// geometry of its own.
import type { PageLayout, Rect, SheetLayout } from '../../grading';
import type { PageTrace } from './results';

export type RegionKind = 'objective' | 'fill' | 'short' | 'essay' | 'answer';

export interface ViewPage {
  page: number;
  fileId: number | null;
  /** Layout mm -> image px (3x3 row-major); null for photos, whose regions are in pixels already. */
  h: number[] | null;
  /** Page size in layout units (mm); null for photos. */
  size: { w: number; h: number } | null;
  regions: { no: number; kind: RegionKind; rect: Rect }[];
  bubbles: { no: number; label: string; cx: number; cy: number; rx: number; ry: number; fill: number; state: string }[];
  fills: { no: number; box: number; rect: Rect; text: string; confidence: number; blank: boolean }[];
}

export interface ResultView {
  pages: ViewPage[];
}

function union(rects: Rect[]): Rect {
  const x = Math.min(...rects.map((r) => r.x));
  const y = Math.min(...rects.map((r) => r.y));
  const right = Math.max(...rects.map((r) => r.x + r.w));
  const bottom = Math.max(...rects.map((r) => r.y + r.h));
  return { x, y, w: right - x, h: bottom - y };
}

/** Each question's region on a printed page: its bubbles (with room for the printed number), boxes, answer area or essay grid. */
function regionsOf(page: PageLayout): ViewPage['regions'] {
  const out: ViewPage['regions'] = [];
  for (const it of page.objective) {
    const r = union(it.bubbles.map((b) => ({ x: b.cx - b.rx, y: b.cy - b.ry, w: 2 * b.rx, h: 2 * b.ry })));
    out.push({ no: it.no, kind: 'objective', rect: { x: r.x - 9, y: r.y - 1.5, w: r.w + 10.5, h: r.h + 3 } });
  }
  for (const it of page.fill) if (it.boxes.length) out.push({ no: it.no, kind: 'fill', rect: union(it.boxes) });
  for (const it of page.short) out.push({ no: it.no, kind: 'short', rect: it.rect });
  for (const b of page.essay) out.push({ no: b.no, kind: 'essay', rect: { x: b.origin.x, y: b.origin.y, w: b.columns * b.cell, h: b.rows * b.rowPitch } });
  return out;
}

export function sheetView(layout: SheetLayout, traces: PageTrace[]): ResultView {
  const pages: ViewPage[] = [];
  for (const t of traces) {
    const page = layout.pages.find((p) => p.page === t.page);
    if (!page) continue;
    const fillOf = (no: number, label: string) => t.bubbles.find((b) => b.no === no && b.label === label);
    pages.push({
      page: t.page,
      fileId: t.fileId,
      h: t.h,
      size: { w: layout.widthMm, h: layout.heightMm },
      regions: regionsOf(page),
      bubbles: page.objective.flatMap((it) =>
        it.bubbles.map((b) => {
          const read = fillOf(it.no, b.label);
          return { no: it.no, label: b.label, cx: b.cx, cy: b.cy, rx: b.rx, ry: b.ry, fill: read?.fill ?? 0, state: read?.state ?? 'empty' };
        }),
      ),
      fills: page.fill.flatMap((it) =>
        it.boxes.map((rect, box) => {
          const read = t.fills.find((f) => f.no === it.no && f.box === box);
          return { no: it.no, box, rect, text: read?.text ?? '', confidence: read?.confidence ?? 0, blank: read?.blank ?? true };
        }),
      ),
    });
  }
  return { pages: pages.sort((a, b) => a.page - b.page) };
}

/** A homework or essay photo: one page, the file itself, answer lines outlined in pixels. */
export function photoView(fileId: number | null, regions: { no: number; x: number; y: number; w: number; h: number }[]): ResultView {
  return {
    pages: [{ page: 1, fileId, h: null, size: null, regions: regions.map((r) => ({ no: r.no, kind: 'answer' as const, rect: { x: r.x, y: r.y, w: r.w, h: r.h } })), bubbles: [], fills: [] }],
  };
}
