import { crop, type GrayImage } from '../image/gray.js';
import type { Rect } from '../layout/types.js';
import type { PageReading } from '../omr/recognise.js';
import { warpRect } from '../omr/warp.js';
import type { OcrEngine } from './engine.js';
import { correctReading, lostRadicand } from './glyphs.js';

// Cuts the answer areas of a registered page out of the scan and reads them. Printed box lines
// and the light-grey essay grid are removed first ("drop-out"): anything much lighter than the
// pencil is set to paper white, so the recogniser sees only handwriting.

export interface FillBoxText {
  no: number;
  box: number;
  text: string;
  confidence: number;
  blank: boolean;
}

export interface EssayText {
  no: number;
  /** Position of this page's part within the whole essay (essays run across pages). */
  firstCell: number;
  /** The writing, with a line break before every paragraph (including one starting this page). */
  text: string;
  /** Mean character confidence over all rows with writing. */
  confidence: number;
  rows: { text: string; confidence: number; paragraphStart: boolean }[];
}

const FILL_PX_PER_MM = 8;
// Essay rows are cut at 40 px per cell and padded to the recogniser's 48 px input height: the
// glyphs stay large enough for the model while the line gets 17 % narrower, and the recogniser's
// cost grows with line width. Rows are also cut after their last written cell.
const ESSAY_CELL_PX = 40;
const REC_INPUT_HEIGHT = 48;
const BOX_INSET = 1.2;

function paperLevel(img: GrayImage): number {
  const hist = new Uint32Array(256);
  for (const v of img.data) hist[v]!++;
  let acc = 0;
  for (let v = 255; v >= 0; v--) {
    acc += hist[v]!;
    if (acc >= img.data.length * 0.1) return Math.max(v, 80);
  }
  return 255;
}

/** Drops everything lighter than `keep` of paper white; returns the ink pixel count. */
function dropOut(img: GrayImage, keep: number): number {
  const paper = paperLevel(img);
  const limit = paper * keep;
  let ink = 0;
  for (let i = 0; i < img.data.length; i++) {
    const v = img.data[i]!;
    if (v > limit) img.data[i] = 255;
    else {
      ink++;
      img.data[i] = Math.min(255, (v / paper) * 255);
    }
  }
  return ink;
}

function inkBounds(img: GrayImage): { x: number; y: number; w: number; h: number } | null {
  let x0 = img.width;
  let y0 = img.height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++)
      if (img.data[y * img.width + x]! < 200) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
  return x1 < 0 ? null : { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
}

/** The handwriting inside one box, tightly cropped, or null when the box is empty. */
export function fillBoxImage(reading: PageReading, box: Rect): GrayImage | null {
  const inner = { x: box.x + BOX_INSET, y: box.y + BOX_INSET, w: box.w - 2 * BOX_INSET, h: box.h - 2 * BOX_INSET };
  const img = warpRect(reading.image, reading.h, inner, FILL_PX_PER_MM);
  // Fewer than ~1 mm² of ink is dust or a stray dot, not an answer.
  if (dropOut(img, 0.62) < FILL_PX_PER_MM * FILL_PX_PER_MM) return null;
  const b = inkBounds(img);
  if (!b) return null;
  const pad = 6;
  // Keep at least the box's height so single short characters are not blown up by the recogniser.
  const h = Math.max(b.h + 2 * pad, img.height * 0.8);
  return crop(img, b.x - pad, b.y + b.h / 2 - h / 2, b.w + 2 * pad, h);
}

export async function readFillBoxes(reading: PageReading, ocr: OcrEngine): Promise<FillBoxText[]> {
  const jobs = reading.page.fill.flatMap((item) => item.boxes.map((box, i) => ({ no: item.no, box: i, image: fillBoxImage(reading, box) })));
  const present = jobs.filter((j) => j.image);
  const texts = await ocr.recognise(present.map((j) => j.image!));
  const read = present.map((j, k) => correctReading(texts[k]!, j.image!));
  // A root whose radicand the recogniser lost: the ink under the bar is read again on its own,
  // where nothing else on the line can pull the reading astray.
  const lost = present.map((j, k) => ({ k, lost: lostRadicand(read[k]!.text, j.image!) })).filter((l) => l.lost);
  if (lost.length) {
    const radicands = await ocr.recognise(lost.map((l) => l.lost!.radicand));
    lost.forEach((l, i) => {
      const r = radicands[i]!;
      if (!/^\d+$/.test(r.text)) return;
      const first = read[l.k]!;
      // As sure as its less sure part: a lone root was read with no confidence at all.
      const confidence = l.lost!.before ? Math.min(first.confidence, r.confidence) : r.confidence;
      read[l.k] = { text: `${l.lost!.before}√${r.text}`, confidence };
    });
  }
  return jobs.map((j) => {
    const k = present.indexOf(j);
    const r = k >= 0 ? read[k]! : null;
    // Ink the recogniser could not read (a lone √, a scribble) is not a blank answer: it is read
    // as nothing with no confidence, so the teacher sees it.
    if (j.image && (!r || r.text === '')) return { no: j.no, box: j.box, text: '', confidence: 0, blank: false };
    return { no: j.no, box: j.box, text: r?.text ?? '', confidence: r ? r.confidence : 1, blank: !r };
  });
}

export async function readEssay(reading: PageReading, ocr: OcrEngine): Promise<EssayText[]> {
  const byNo = new Map<number, { image: GrayImage; paragraphStart: boolean }[]>();
  const firstCell = new Map<number, number>();
  for (const b of reading.page.essay) {
    firstCell.set(b.no, Math.min(firstCell.get(b.no) ?? Infinity, b.firstCell));
    const pxPerMm = ESSAY_CELL_PX / b.cell;
    for (let r = 0; r < b.rows; r++) {
      const row = { x: b.origin.x, y: b.origin.y + r * b.rowPitch, w: b.columns * b.cell, h: b.cell };
      const img = warpRect(reading.image, reading.h, row, pxPerMm);
      if (dropOut(img, 0.6) < 40) continue;
      const ink = inkBounds(img);
      if (!ink) continue;
      const cellPx = img.width / b.columns;
      const width = Math.min(img.width, Math.ceil((ink.x + ink.w) / cellPx + 0.5) * cellPx);
      const pad = (REC_INPUT_HEIGHT - ESSAY_CELL_PX) / 2;
      const list = byNo.get(b.no) ?? [];
      // Two empty cells at the start of a row are how a paragraph begins in a 方格 grid.
      list.push({ image: crop(img, 0, -pad, width, img.height + 2 * pad), paragraphStart: ink.x >= 1.5 * cellPx });
      byNo.set(b.no, list);
    }
  }
  const out: EssayText[] = [];
  for (const [no, rows] of byNo) {
    const texts = await ocr.recognise(rows.map((r) => r.image));
    const chars = texts.flatMap((t) => t.charConfidence);
    out.push({
      no,
      firstCell: firstCell.get(no)!,
      text: texts.map((t, i) => (rows[i]!.paragraphStart ? '\n' : '') + t.text).join(''),
      confidence: chars.length ? chars.reduce((s, p) => s + p, 0) / chars.length : 0,
      rows: texts.map((t, i) => ({ text: t.text, confidence: t.confidence, paragraphStart: rows[i]!.paragraphStart })),
    });
  }
  return out;
}

export interface ShortAnswerText {
  no: number;
  /** Lines in reading order; short answers are shown to the teacher, not scored automatically. */
  lines: { text: string; confidence: number }[];
}

/** Reads the free-form answer areas (解答题) line by line with text detection. */
export async function readShortAnswers(reading: PageReading, ocr: OcrEngine): Promise<ShortAnswerText[]> {
  const out: ShortAnswerText[] = [];
  for (const item of reading.page.short) {
    // Skip the printed frame and the item number in its top-left corner.
    const inner = { x: item.rect.x + 1.5, y: item.rect.y + 6, w: item.rect.w - 3, h: item.rect.h - 7.5 };
    const img = warpRect(reading.image, reading.h, inner, FILL_PX_PER_MM);
    if (dropOut(img, 0.62) < FILL_PX_PER_MM * FILL_PX_PER_MM) {
      out.push({ no: item.no, lines: [] });
      continue;
    }
    const lines = await ocr.read(img, { upright: true });
    out.push({ no: item.no, lines: lines.map((l) => ({ text: l.text, confidence: l.confidence })) });
  }
  return out;
}
