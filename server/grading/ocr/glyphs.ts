import { crop, type GrayImage } from '../image/gray.js';

// What the recogniser cannot see in a handwritten maths answer but its shape shows: an exponent is
// written small and raised (5³, x²), and a root sign's bar runs over its radicand (2√5). PP-OCR reads
// a line as a sequence and reports 5³ as "53" at full confidence, and a root as "/" or as nothing;
// the ink itself tells the two apart. This reads the pieces of ink of a fill box (connected
// components, merged where they stand over one another, as the two strokes of "=" do) and corrects
// the recogniser's text only where the geometry is unambiguous.

export interface Glyph {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

const INK = 150;

/** Connected pieces of ink (8-connected), as bounding boxes from left to right. */
function components(img: GrayImage): Glyph[] {
  const { width: w, height: h, data } = img;
  const seen = new Uint8Array(w * h);
  const out: Glyph[] = [];
  const stack: number[] = [];
  for (let start = 0; start < w * h; start++) {
    if (seen[start] || data[start]! >= INK) continue;
    const g = { x0: w, x1: -1, y0: h, y1: -1 };
    let size = 0;
    seen[start] = 1;
    stack.push(start);
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % w;
      const y = (p - x) / w;
      size++;
      if (x < g.x0) g.x0 = x;
      if (x > g.x1) g.x1 = x;
      if (y < g.y0) g.y0 = y;
      if (y > g.y1) g.y1 = y;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const q = ny * w + nx;
          if (!seen[q] && data[q]! < INK) {
            seen[q] = 1;
            stack.push(q);
          }
        }
    }
    // Specks (scanner dust, a dot of noise) are not strokes.
    if (size >= 6) out.push(g);
  }
  return out.sort((a, b) => a.x0 - b.x0);
}

const overlap = (a: Glyph, b: Glyph) => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
const width = (g: Glyph) => g.x1 - g.x0 + 1;
const height = (g: Glyph) => g.y1 - g.y0 + 1;

/** Pieces standing over one another (the strokes of =, ≥, i, a dot over a letter) as one glyph. */
export function glyphsOf(img: GrayImage): Glyph[] {
  const glyphs: Glyph[] = [];
  for (const c of components(img)) {
    const last = glyphs[glyphs.length - 1];
    const stacked = last && (c.y0 > last.y1 || c.y1 < last.y0);
    if (last && stacked && overlap(last, c) >= 0.6 * Math.min(width(last), width(c))) {
      last.x0 = Math.min(last.x0, c.x0);
      last.x1 = Math.max(last.x1, c.x1);
      last.y0 = Math.min(last.y0, c.y0);
      last.y1 = Math.max(last.y1, c.y1);
    } else glyphs.push({ ...c });
  }
  return glyphs;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

/**
 * The last glyph and the line before it: the median top and foot of the glyphs before the last,
 * without the flat ones (a minus sign, a decimal point), and the line's height.
 */
function lastAgainstLine(glyphs: Glyph[]): { last: Glyph; top: number; bottom: number; h: number } | null {
  if (glyphs.length < 2) return null;
  const before = glyphs.slice(0, -1);
  const tallest = Math.max(...before.map(height));
  const line = before.filter((g) => height(g) >= 0.5 * tallest);
  const top = median(line.map((g) => g.y0));
  const bottom = median(line.map((g) => g.y1));
  return { last: glyphs[glyphs.length - 1]!, top, bottom, h: bottom - top + 1 };
}

/**
 * True when the last glyph is an exponent: it starts near the top of the glyphs on the line before
 * it (or above them) and its foot stays at least a third of the line's height above their feet.
 * A digit written a little high or small in ordinary handwriting ends near the others' feet.
 */
export function lastIsRaised(glyphs: Glyph[]): boolean {
  const l = lastAgainstLine(glyphs);
  if (!l) return false;
  const { last, top, bottom, h } = l;
  return height(last) >= 0.25 * h && last.y0 <= top + 0.25 * h && bottom - last.y1 >= 0.35 * h;
}

/** The share of the glyph's right part that has ink in its top band: a root's bar over its radicand. */
function barShare(img: GrayImage, g: Glyph): number {
  const band = Math.max(2, Math.round(0.2 * height(g)));
  const from = g.x0 + Math.round(0.4 * width(g));
  let covered = 0;
  for (let x = from; x <= g.x1; x++) {
    for (let y = g.y0; y < g.y0 + band; y++)
      if (img.data[y * img.width + x]! < INK) {
        covered++;
        break;
      }
  }
  return covered / Math.max(1, g.x1 - from + 1);
}

/**
 * True when the last glyph is a root sign with its radicand under the bar: the bar joins the
 * digits into one piece of ink, at least as wide as tall and wider than the line's digits, inked
 * along its top over the right part. A slash between two numbers (5/3) is a narrow glyph of its
 * own, so a fraction is never taken for a root.
 */
export function lastIsRoot(img: GrayImage, glyphs: Glyph[]): boolean {
  const last = glyphs[glyphs.length - 1];
  if (!last) return false;
  // A root alone (√6): the same shape, with no line to compare it with.
  if (glyphs.length === 1) return width(last) >= height(last) && barShare(img, last) >= 0.8;
  const before = glyphs.slice(0, -1);
  const tallest = Math.max(...before.map(height));
  const digits = before.filter((g) => height(g) >= 0.5 * tallest);
  // As wide as tall at least: a digit with a top stroke (7, 5) is about half as wide as tall, and
  // a narrow 1 before it says nothing about the widths of digits.
  return width(last) >= height(last) && width(last) >= 1.6 * median(digits.map(width)) && height(last) >= 0.8 * tallest && barShare(img, last) >= 0.8;
}

/**
 * True when the last glyph is a degree sign: a small mark at the top of the line, its foot well
 * above the others' feet (150°; a decimal point or a comma sits at the foot).
 */
export function lastIsDegree(glyphs: Glyph[]): boolean {
  const l = lastAgainstLine(glyphs);
  if (!l) return false;
  const { last, top, bottom, h } = l;
  return height(last) <= 0.45 * h && width(last) <= 0.6 * h && last.y0 <= top + 0.2 * h && bottom - last.y1 >= 0.45 * h;
}

const RAISED: Record<string, string> = { '2': '²', '3': '³' };

/**
 * The recogniser's text corrected by the ink, only where the geometry is unambiguous and the text
 * has one character per glyph:
 * - a last digit 2 or 3 written as an exponent becomes ² or ³ (53 → 5³, x3 → x³);
 * - a root sign read as another character (5/3, 2v5) or lost between digits (25) becomes √.
 */
export function correctByShape(text: string, img: GrayImage): string {
  const glyphs = glyphsOf(img);
  const chars = [...text];
  const lastChar = chars[chars.length - 1];
  if (chars.length >= 2 && lastChar && RAISED[lastChar] && /[\da-zA-Z)]/.test(chars[chars.length - 2]!) && lastIsRaised(glyphs)) {
    return chars.slice(0, -1).join('') + RAISED[lastChar];
  }
  // A root at the end (2√5): the characters before it one per glyph, then the radicand's digits.
  if (!lastIsRoot(img, glyphs)) return text;
  const at = glyphs.length - 1;
  const before = chars.slice(0, at);
  if (before.length !== at || before.some((c) => !/[\d-]/.test(c))) return text;
  const rest = chars.slice(at);
  // Read as another sign (5/3, 2v5, 2↓7): that sign was the root.
  if (rest.length >= 2 && rest[0] !== '√' && !/\d/.test(rest[0]!) && /^\d+$/.test(rest.slice(1).join(''))) return [...before, '√', ...rest.slice(1)].join('');
  // Lost (25 for 2√5): the digits after the coefficient are the radicand.
  if (rest.length >= 1 && /^\d+$/.test(rest.join(''))) return [...before, '√', ...rest].join('');
  return text;
}

/**
 * A root at the end whose radicand the recogniser lost (√6 read as nothing, 3√7 as 3, 2√6 as 2√):
 * the characters read for the glyphs before the root, and the ink under the bar to be read alone.
 * Null when there is no such root or the text already has its radicand.
 */
export function lostRadicand(text: string, img: GrayImage): { before: string; radicand: GrayImage } | null {
  const glyphs = glyphsOf(img);
  if (!lastIsRoot(img, glyphs)) return null;
  const at = glyphs.length - 1;
  const chars = [...text];
  const before = chars.slice(0, at);
  if (before.length !== at || before.some((c) => !/[\d-]/.test(c))) return null;
  const rest = chars.slice(at).join('');
  if (rest !== '' && rest !== '√') return null;
  const root = glyphs[at]!;
  // Right of the hook, under the bar: the hook takes about the first third of the piece.
  const x = root.x0 + Math.round(0.38 * width(root));
  const y = root.y0 + Math.round(0.18 * height(root));
  const pad = 4;
  return { before: before.join(''), radicand: crop(img, x - pad, y - pad, root.x1 - x + 1 + 2 * pad, root.y1 - y + 1 + 2 * pad) };
}

/** What the recogniser may read a degree sign as, at the end of a number. */
const DEGREE_LIKE = new Set(['°', '*', "'", '"', '’', '”', '。']);

/**
 * A reading corrected by the ink (correctByShape), with its confidence. A number ending in a small
 * mark at the top of the line is a degree measure: the mark becomes ° and, since its shape and not
 * the recogniser decided what it is, the recogniser's doubt about it (°, * or ') no longer lowers
 * the reading's confidence.
 */
export function correctReading(result: { text: string; confidence: number; charConfidence: number[] }, img: GrayImage): { text: string; confidence: number } {
  const chars = [...result.text];
  const last = chars[chars.length - 1];
  if (chars.length >= 2 && last && DEGREE_LIKE.has(last) && /\d/.test(chars[chars.length - 2]!) && result.charConfidence.length === chars.length && lastIsDegree(glyphsOf(img))) {
    const rest = result.charConfidence.slice(0, -1);
    return { text: `${chars.slice(0, -1).join('')}°`, confidence: rest.reduce((a, b) => a + b, 0) / rest.length };
  }
  // ℃ is a circle and a C; a recogniser that reads the circle twice (-5°℃) emits a sign no one
  // writes: the extra ° goes, and with it the doubt it added.
  const twice = chars.lastIndexOf('°');
  if (chars[twice + 1] === '℃' && twice === chars.length - 2 && result.charConfidence.length === chars.length) {
    const keep = result.charConfidence.filter((_, i) => i !== twice);
    return { text: correctByShape(chars.filter((_, i) => i !== twice).join(''), img), confidence: keep.reduce((a, b) => a + b, 0) / keep.length };
  }
  return { text: correctByShape(result.text, img), confidence: result.confidence };
}
