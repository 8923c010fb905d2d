import { textToSvg } from '../layout/font.js';
import { essayCellRect } from '../layout/build.js';
import type { Bubble, PageLayout, Rect } from '../layout/types.js';

// Draws what a student puts on a sheet: pencil marks of several qualities and handwriting (a
// kai-style font, jittered per character). Each mark style has a known truth for the benchmark.

// - full:   a proper 2B fill or scribble.
// - light:  a lighter fill (HB pencil, little pressure), still plainly a mark.
// - faint:  the way a light-pencil student marks every answer (opacity 0.3–0.42): a mark the
//           student meant, lighter than anything else the reader sees on most pages.
// - tick:   a check stroke (✓) drawn through the bubble instead of filling it. The student meant
//           it as their answer, so its truth is "marked": read it, or at least flag it.
// - half:   only the left half coloured in; a teacher would have to ask, so "ambiguous".
// - erased: the graphite an eraser leaves behind, a faint uniform smear; the student took the mark
//           back, so its truth is "empty" (reading it as empty or flagging it are both fine).
export type MarkStyle = 'full' | 'light' | 'faint' | 'tick' | 'half' | 'erased';

/** What a careful teacher would read from the bubble. */
export type BubbleTruth = 'marked' | 'empty' | 'ambiguous';

export const truthOf: Record<MarkStyle, BubbleTruth> = {
  full: 'marked',
  light: 'marked',
  faint: 'marked',
  tick: 'marked',
  half: 'ambiguous',
  erased: 'empty',
};

const PENCIL = '#2b2b2b';

export function pencilMark(b: Bubble, style: MarkStyle, r: () => number): string {
  const dx = (r() - 0.5) * 0.5;
  const dy = (r() - 0.5) * 0.3;
  const rx = b.rx * (1.0 + r() * 0.12);
  const ry = b.ry * (1.0 + r() * 0.15);
  const cx = b.cx + dx;
  const cy = b.cy + dy;
  switch (style) {
    case 'full':
      // Half the students colour the bubble in solidly, the rest scribble quickly across it.
      return r() < 0.5
        ? `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="${PENCIL}" fill-opacity="${0.82 + r() * 0.15}"/>`
        : scribble(cx, cy, rx, ry, 0.8 + r() * 0.15, r);
    case 'light':
      return r() < 0.5
        ? `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="${PENCIL}" fill-opacity="${0.5 + r() * 0.1}"/>`
        : scribble(cx, cy, rx, ry, 0.5 + r() * 0.1, r);
    case 'faint':
      return r() < 0.5
        ? `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="${PENCIL}" fill-opacity="${0.3 + r() * 0.12}"/>`
        : scribble(cx, cy, rx, ry, 0.3 + r() * 0.12, r);
    case 'tick':
      return tick(cx, cy, b.rx, b.ry, r);
    case 'half':
      // Only the left half coloured in: a student who stopped or hesitated.
      return `<path d="M ${cx} ${cy - ry} A ${rx} ${ry} 0 0 0 ${cx} ${cy + ry} Z" fill="${PENCIL}" fill-opacity="0.85"/>`;
    case 'erased':
      // Graphite left behind by an eraser: faint, uneven smudge.
      return `<ellipse cx="${cx}" cy="${cy}" rx="${rx * 1.1}" ry="${ry * 1.1}" fill="${PENCIL}" fill-opacity="${0.1 + r() * 0.08}"/>`;
  }
}

/**
 * A check mark: a short stroke down to the bottom of the bubble, then a long one up and out past
 * its top right edge. Size, slant, place and pressure vary from student to student.
 */
function tick(cx: number, cy: number, rx: number, ry: number, r: () => number): string {
  const s = 0.85 + r() * 0.4;
  const x0 = cx - rx * (0.55 + r() * 0.25) * s;
  const y0 = cy - ry * (0.1 + r() * 0.3);
  const x1 = cx - rx * (0.1 + r() * 0.2) + (r() - 0.5) * 0.6;
  const y1 = cy + ry * (0.55 + r() * 0.3) * s;
  const x2 = cx + rx * (0.8 + r() * 0.5) * s;
  const y2 = cy - ry * (1.0 + r() * 0.6) * s;
  const width = 0.35 + r() * 0.2;
  const opacity = 0.6 + r() * 0.3;
  return `<path d="M ${x0} ${y0} L ${x1} ${y1} Q ${(x1 + x2) / 2 + 0.2} ${(y1 + y2) / 2 + 0.3} ${x2} ${y2}" stroke="${PENCIL}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round" fill="none" stroke-opacity="${opacity}"/>`;
}

/** Back-and-forth pencil strokes across an ellipse, overshooting its edge a little. */
function scribble(cx: number, cy: number, rx: number, ry: number, opacity: number, r: () => number): string {
  const rows = 6;
  const pts: string[] = [];
  for (let k = 0; k <= rows; k++) {
    const v = -0.9 + (1.8 * k) / rows;
    const half = rx * Math.sqrt(1 - v * v) * (0.95 + r() * 0.15);
    const y = cy + v * ry + (r() - 0.5) * 0.2;
    pts.push(k % 2 ? `${cx + half} ${y}` : `${cx - half} ${y}`, k % 2 ? `${cx - half} ${y + 0.1}` : `${cx + half} ${y + 0.1}`);
  }
  return `<path d="M ${pts.join(' L ')}" stroke="${PENCIL}" stroke-width="${0.65 + r() * 0.15}" stroke-linecap="round" stroke-linejoin="round" fill="none" stroke-opacity="${opacity}"/>`;
}

/** A stray pencil stroke somewhere on the page, as students leave when they think. */
export function strayStroke(page: { w: number; h: number }, r: () => number): string {
  const x = 20 + r() * (page.w - 40);
  const y = 50 + r() * (page.h - 80);
  const len = 10 + r() * 30;
  const a = r() * Math.PI;
  return `<path d="M ${x} ${y} q ${(len / 2) * Math.cos(a) + 3} ${(len / 2) * Math.sin(a) - 3} ${len * Math.cos(a)} ${len * Math.sin(a)}" stroke="${PENCIL}" stroke-width="0.35" fill="none" stroke-opacity="0.7"/>`;
}

/** Handwriting-like text: kai glyphs with per-character size, angle and baseline jitter. */
export function handwriting(text: string, x: number, baseline: number, size: number, r: () => number, pitch?: number): string {
  const parts: string[] = [];
  let pen = x;
  for (const ch of text) {
    const s = size * (0.92 + r() * 0.14);
    const rot = (r() - 0.5) * 6;
    const y = baseline + (r() - 0.5) * size * 0.08;
    parts.push(`<g transform="rotate(${rot.toFixed(2)} ${pen + s / 2} ${y - s / 2})">${textToSvg(ch, pen, y, s, { font: 'kai', fill: PENCIL })}</g>`);
    pen += pitch ?? s * (/[\x20-\x7e]/.test(ch) ? 0.55 : 1.0);
  }
  return parts.join('');
}

export function fillBoxWriting(box: Rect, text: string, r: () => number): string {
  const size = Math.min(box.h * 0.62, (box.w - 4) / Math.max(1, [...text].length));
  return handwriting(text, box.x + 2 + r() * 2, box.y + box.h * 0.72, size, r);
}

/**
 * How a student fills a 方格 grid: each paragraph starts on a new row after two empty cells, one
 * character (or punctuation mark) per cell. Returns the content of every cell, null when empty.
 */
export function essayCells(text: string, columns: number): (string | null)[] {
  const cells: (string | null)[] = [];
  for (const para of text.split('\n').map((p) => p.trim()).filter(Boolean)) {
    while (cells.length % columns !== 0) cells.push(null);
    cells.push(null, null);
    for (const ch of para) cells.push(ch);
  }
  return cells;
}

/** Writes `text` into this page's part of the essay grid. */
export function essayWriting(page: PageLayout, text: string, r: () => number): string {
  const parts: string[] = [];
  for (const b of page.essay) {
    const cells = essayCells(text, b.columns);
    for (let i = 0; i < b.rows * b.columns; i++) {
      const ch = cells[b.firstCell + i];
      if (!ch) continue;
      const c = essayCellRect(b, i);
      parts.push(handwriting(ch, c.x + c.w * 0.12, c.y + c.h * 0.82, c.w * 0.76, r));
    }
  }
  return parts.join('');
}
