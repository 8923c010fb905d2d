import sharp from 'sharp';
import type { GrayImage } from '../image/gray.js';
import type { SheetCopy, SheetLayout } from '../layout/types.js';
import { renderPageSvg } from '../render/svg.js';
import { essayWriting, fillBoxWriting, handwriting, pencilMark, strayStroke, truthOf, type BubbleTruth, type MarkStyle } from './marks.js';
import { degrade, type Degradation } from './degrade.js';
import { pick, rng } from './random.js';

/** What a simulated student did on one page; also the ground truth for that page. */
export interface Filling {
  copy: SheetCopy;
  objective: Record<number, { label: string; style: MarkStyle }[]>;
  /** Anonymous sheets: the number bubbled in the student-number grid. */
  studentNumber?: string;
  fill?: Record<number, string[]>;
  /** Lines handwritten into the short-answer area of each item. */
  short?: Record<number, string[]>;
  essay?: string;
  strayStrokes?: number;
  /** A light-pencil student: the student number is bubbled faintly too. */
  lightPencil?: boolean;
  /** A student scribbled over the QR code (it can no longer be decoded). */
  scribbledQr?: boolean;
}

/** Per-item probabilities of the hard cases; the rest are clean single (or multi) marks. */
export interface Mix {
  blank: number;
  double: number;
  light: number;
  half: number;
  erased: number;
  /** A tick (✓) instead of a fill. */
  tick?: number;
  /** A filled bubble and a tick on another one (a double, or two answers of a multiple item). */
  tickDouble?: number;
  /** A filled bubble and a faint second mark (a double the student half-meant). */
  lightDouble?: number;
  /** Every mark on the page is faint: a student who writes lightly (HB pencil, little pressure). */
  lightStudent?: boolean;
}

export const CLEAN_MIX: Mix = { blank: 0.03, double: 0, light: 0, half: 0, erased: 0 };
export const HARD_MIX: Mix = { blank: 0.04, double: 0.03, light: 0.04, half: 0.03, erased: 0.05 };
/** Pencil-marked sheets as independent testing found them: ticks, light doubles, erased ghosts. */
export const PENCIL_MIX: Mix = { ...HARD_MIX, erased: 0.06, tick: 0.08, tickDouble: 0.04, lightDouble: 0.04 };
/** A light-pencil student: every mark faint, with the ghosts of a few answers rubbed out. */
export const LIGHT_STUDENT_MIX: Mix = { blank: 0.03, double: 0.02, light: 0, half: 0, erased: 0.08, tick: 0.03, lightStudent: true };

export function randomFilling(layout: SheetLayout, copy: SheetCopy, r: () => number, mix: Mix): Filling {
  const page = layout.pages.find((p) => p.page === copy.page)!;
  const objective: Filling['objective'] = {};
  for (const it of page.objective) {
    const labels = it.bubbles.map((b) => b.label);
    let u = r();
    let marks: { label: string; style: MarkStyle }[];
    const one = pick(r, labels);
    const other = pick(r, labels.filter((l) => l !== one));
    if (u < mix.blank) marks = [];
    else if ((u -= mix.blank) < mix.double) marks = [{ label: one, style: 'full' }, { label: other, style: 'full' }];
    else if ((u -= mix.double) < mix.light) marks = [{ label: one, style: 'light' }];
    else if ((u -= mix.light) < mix.half) marks = [{ label: one, style: 'half' }];
    else if ((u -= mix.half) < mix.erased) marks = [{ label: one, style: 'full' }, { label: other, style: 'erased' }];
    else if ((u -= mix.erased) < (mix.tick ?? 0)) marks = [{ label: one, style: 'tick' }];
    else if ((u -= mix.tick ?? 0) < (mix.tickDouble ?? 0)) marks = [{ label: one, style: 'full' }, { label: other, style: 'tick' }];
    else if ((u -= mix.tickDouble ?? 0) < (mix.lightDouble ?? 0)) marks = [{ label: one, style: 'full' }, { label: other, style: 'faint' }];
    else if (it.type === 'multiple') {
      const chosen = labels.filter((l) => l === one || r() < 0.4);
      marks = chosen.map((label) => ({ label, style: 'full' as const }));
    } else marks = [{ label: one, style: 'full' }];
    if (mix.lightStudent) marks = marks.map((m) => (m.style === 'full' || m.style === 'light' ? { ...m, style: 'faint' as const } : m));
    objective[it.no] = marks;
  }
  const digits = page.studentNumber?.digits.length ?? 0;
  return {
    copy,
    objective,
    ...(mix.lightStudent ? { lightPencil: true } : {}),
    ...(digits ? { studentNumber: Array.from({ length: digits }, () => String(Math.floor(r() * 10))).join('') } : {}),
  };
}

/** Expected reading of every bubble, keyed "no:label" (student-number bubbles as "id<digit>:<value>"). */
export function bubbleTruth(layout: SheetLayout, f: Filling): Map<string, BubbleTruth> {
  const page = layout.pages.find((p) => p.page === f.copy.page)!;
  const truth = new Map<string, BubbleTruth>();
  for (const it of page.objective) {
    for (const b of it.bubbles) {
      const mark = f.objective[it.no]?.find((m) => m.label === b.label);
      truth.set(`${it.no}:${b.label}`, mark ? truthOf[mark.style] : 'empty');
    }
  }
  return truth;
}

/** SVG overlay with the filling drawn in pencil. */
export function fillingSvg(layout: SheetLayout, f: Filling, r: () => number): string {
  const page = layout.pages.find((p) => p.page === f.copy.page)!;
  const parts: string[] = [];
  for (const it of page.objective) {
    for (const m of f.objective[it.no] ?? []) {
      const b = it.bubbles.find((x) => x.label === m.label);
      if (b) parts.push(pencilMark(b, m.style, r));
    }
  }
  if (f.studentNumber && page.studentNumber) {
    [...f.studentNumber].forEach((d, i) => {
      const col = page.studentNumber!.digits[i];
      const b = col?.[Number(d)];
      if (b) parts.push(pencilMark(b, f.lightPencil ? 'faint' : 'full', r));
    });
  }
  for (const item of page.fill) {
    (f.fill?.[item.no] ?? []).forEach((text, i) => {
      const box = item.boxes[i];
      if (box && text) parts.push(fillBoxWriting(box, text, r));
    });
  }
  for (const item of page.short) {
    (f.short?.[item.no] ?? []).forEach((line, i) => parts.push(handwriting(line, item.rect.x + 8, item.rect.y + 14 + i * 9, 6, r)));
  }
  if (f.essay) parts.push(essayWriting(page, f.essay, r));
  if (f.scribbledQr) {
    const q = page.qr;
    const zigzag = Array.from({ length: 14 }, (_, i) => `${q.x + 2 + (i % 2) * (q.w - 4)} ${q.y + 2 + (i * (q.h - 4)) / 13}`).join(' L ');
    parts.push(`<path d="M ${zigzag}" stroke="#222" stroke-width="2.2" fill="none" stroke-linejoin="round"/>`);
  }
  for (let i = 0; i < (f.strayStrokes ?? 0); i++) parts.push(strayStroke({ w: layout.widthMm, h: layout.heightMm }, r));
  return parts.join('');
}

/** Renders a filled page straight from the layout (SVG -> raster), the way a flatbed scan looks. */
export async function renderFilled(layout: SheetLayout, f: Filling, dpi: number, r: () => number): Promise<GrayImage> {
  const svg = renderPageSvg(layout, f.copy, fillingSvg(layout, f, r), dpi);
  const { data, info } = await sharp(Buffer.from(svg), { density: 72 })
    .flatten({ background: '#ffffff' })
    .greyscale()
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

/** A filled page as a scanner or phone would deliver it: rendered, degraded, JPEG-encoded. */
export async function makeScan(layout: SheetLayout, f: Filling, d: Degradation, seed: number, dpi = 200): Promise<Buffer> {
  const r = rng(seed);
  return degrade(await renderFilled(layout, f, dpi, r), d, r);
}
