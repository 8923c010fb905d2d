import { decodeGray } from '../../server/grading/image/gray';
import { buildLayout } from '../../server/grading/layout/build';
import type { SheetLayout } from '../../server/grading/layout/types';
import { getOcr } from '../../server/grading/ocr/engine';
import { readFillBoxes, type FillBoxText } from '../../server/grading/ocr/regions';
import { recognisePage } from '../../server/grading/omr/recognise';
import { mathsEqual } from '../../server/grading/score/maths';
import { DEFAULT_MIN_OCR_CONFIDENCE, scoreFill } from '../../server/grading/score/score';
import type { BenchRow } from '../table';
import { writeMaths } from './handwriting';
import { seeded, photograph, rasterise } from './omrSheets';

// `npm run bench -- fillins`: fill-in answers handwritten (bench/readings/handwriting.ts) into the
// boxes of a printed sheet, scanned, read the real way (register, cut the box, PP-OCR), scored
// against a key. Two seeds: a tuning set picks the review threshold (the lowest under which no
// reading is scored wrong without review), the held-out set says what it does on answers nobody
// looked at. FILLIN_PAGES=n pages of 24 answers per set (6 by default).

const ITEMS = 12;

export function fillLayout(): SheetLayout {
  return buildLayout({
    sheetId: 'H2026F1',
    title: '八年级数学填空练习',
    paper: 'A4',
    identity: { mode: 'roster', students: [{ id: 'F001', name: '黄一鸣', className: '八(5)班' }] },
    sections: [{ kind: 'fill', title: '一、填空题', items: Array.from({ length: ITEMS }, (_, i) => ({ no: i + 1, blanks: 2 })) }],
  });
}

function int(r: () => number, max: number): number {
  return 1 + Math.floor(r() * max);
}
const pick = <T>(r: () => number, a: T[]): T => a[Math.floor(r() * a.length)]!;

/** A maths answer as a key holds it: signs, degrees, fractions, powers, roots, π, inequalities. */
export function mathsAnswer(r: () => number): string {
  const sign = r() < 0.35 ? '-' : '';
  switch (Math.floor(r() * 12)) {
    case 0:
      return `${sign}${int(r, 99)}`;
    case 1:
      return `${sign}${int(r, 9)}.${int(r, 9)}`;
    case 2:
      return `${sign}${int(r, 8)}/${int(r, 8) + 1}`;
    case 3:
      return `${pick(r, [30, 45, 60, 90, 120, 135, 150, 180])}°`;
    case 4:
      return `${sign}${pick(r, [5, 12, 36, 100, 37])}℃`;
    case 5:
      return `${pick(r, ['10', 'x', 'a', '2', '3', '5'])}${pick(r, ['²', '³'])}`;
    case 6:
      return `${r() < 0.5 ? int(r, 4) + 1 : ''}√${pick(r, [2, 3, 5, 7])}`;
    case 7:
      return pick(r, [`${int(r, 5) + 1}π`, 'π', `π/${int(r, 4) + 1}`]);
    case 8:
      return `${pick(r, ['x', 'a', 'm'])}${pick(r, ['≥', '≤', '<', '>', '≠'])}${sign}${int(r, 9)}`;
    case 9:
      return `${pick(r, ['x', 'y'])}=${sign}${int(r, 20)}`;
    case 10:
      return `${int(r, 8) + 1}${pick(r, ['x', 'a', 'b'])}${pick(r, ['+', '-'])}${int(r, 9)}`;
    default:
      return `${int(r, 95)}${pick(r, ['%', 'cm', 'kg', 'm'])}`;
  }
}

/** What a student who got it wrong writes instead: another number of the same kind, a sign lost. */
function wrongAnswer(key: string, r: () => number): string {
  const digits = [...key].map((c, i) => (/\d/.test(c) ? i : -1)).filter((i) => i >= 0);
  if (key.startsWith('-') && r() < 0.4) return key.slice(1);
  if (digits.length) {
    const i = pick(r, digits);
    const d = (Number(key[i]) + 1 + Math.floor(r() * 8)) % 10;
    const out = key.slice(0, i) + d + key.slice(i + 1);
    if (!/^0\d/.test(out) && out !== key) return out;
  }
  return mathsAnswer(r);
}

export interface FillSample {
  key: string;
  written: string;
  read: FillBoxText;
}

/** `pages` pages of 24 answers; 3 in 10 students wrote a wrong answer. */
export async function readFillSamples(pages: number, seed: number): Promise<FillSample[]> {
  const layout = fillLayout();
  const page = layout.pages[0]!;
  const ocr = await getOcr();
  const out: FillSample[] = [];
  for (let p = 0; p < pages; p++) {
    const r = seeded(seed + p * 104729);
    const keys: string[] = [];
    const written: string[] = [];
    const parts: string[] = [];
    for (const item of page.fill)
      for (const box of item.boxes) {
        const key = mathsAnswer(r);
        const w = r() < 0.3 ? wrongAnswer(key, r) : key;
        keys.push(key);
        written.push(w);
        const size = 4.2 + r() * 1.6;
        parts.push(writeMaths(w, box.x + 2 + r() * 4, box.y + box.h / 2 + size / 2 + (r() - 0.5), { size, tone: 30 + r() * 70, r }).svg);
      }
    const img = await rasterise(layout, 'F001', parts.join(''), 200);
    const jpg = await photograph(img, { rotateDeg: (r() - 0.5) * 4, upsideDown: false, tilt: 0, desk: 'white', hardShadow: 0, falloff: 0, fade: 0, noise: 3 + r() * 4, blur: r() < 0.5 ? 0.5 : 0, quality: 75, zoom: 1 }, r);
    const reading = recognisePage(await decodeGray(jpg), (id) => (id === layout.sheetId ? layout : undefined));
    if (!reading.ok) throw new Error(reading.error);
    const texts = await readFillBoxes(reading, ocr);
    texts.forEach((t, i) => out.push({ key: keys[i]!, written: written[i]!, read: t }));
  }
  return out;
}

export interface FillFigures {
  samples: number;
  /** Read exactly as written (in maths terms: 10² is 10^2, 100℃ is 100°C). */
  exact: number;
  /** The score disagrees with what the student wrote, and the item is not marked for review. */
  silent: number;
  /** Right readings sent to review. */
  rightFlagged: number;
  flagged: number;
  examples: string[];
}

export function figuresAt(samples: FillSample[], threshold: number): FillFigures {
  const f: FillFigures = { samples: samples.length, exact: 0, silent: 0, rightFlagged: 0, flagged: 0, examples: [] };
  for (const s of samples) {
    const right = mathsEqual(s.written, s.read.text);
    const score = scoreFill(1, [{ ...s.read, no: 1, box: 0 }], { blanks: [[s.key]], points: 1 }, threshold);
    const truthCorrect = mathsEqual(s.key, s.written);
    if (right) f.exact++;
    if (score.needsReview) f.flagged++;
    if (right && score.needsReview) f.rightFlagged++;
    if (!score.needsReview && (score.score === 1) !== truthCorrect) {
      f.silent++;
      f.examples.push(`${s.written}→${s.read.text}(${s.read.confidence.toFixed(2)}, key ${s.key})`);
    }
  }
  return f;
}

/** The lowest threshold (hundredths) with no silent error on the tuning set. */
export function chooseThreshold(tuning: FillSample[]): number {
  for (let t = 50; t <= 100; t++) if (figuresAt(tuning, t / 100).silent === 0) return t / 100;
  return 1;
}

export async function benchFillins(): Promise<BenchRow[]> {
  const pages = Number(process.env.FILLIN_PAGES ?? 6);
  const tuning = await readFillSamples(pages, 31_000);
  const heldOut = await readFillSamples(pages, 77_000);
  const t = chooseThreshold(tuning);
  const h = figuresAt(heldOut, t);
  const d = figuresAt(heldOut, DEFAULT_MIN_OCR_CONFIDENCE);
  const wrongReads = heldOut.filter((s) => !mathsEqual(s.written, s.read.text)).map((s) => `${s.written}→${s.read.text}(${s.read.confidence.toFixed(2)})`);
  console.error(`fill-in misreadings (held-out): ${wrongReads.join(' ')}`);
  if (d.examples.length) console.error(`silent at the default: ${d.examples.join(' ')}`);
  return [
    { name: 'fillin_heldout_samples', value: h.samples, unit: 'answers', target: '' },
    { name: 'fillin_heldout_exact', value: h.exact / h.samples, unit: '', target: '≥ 0.95' },
    { name: 'fillin_threshold_from_tuning', value: t, unit: '', target: `default ${DEFAULT_MIN_OCR_CONFIDENCE}` },
    { name: 'fillin_heldout_silent_wrong_at_tuned', value: h.silent, unit: 'answers', target: '= 0' },
    { name: 'fillin_heldout_silent_wrong_at_default', value: d.silent, unit: 'answers', target: '= 0' },
    { name: 'fillin_heldout_right_flagged_at_default', value: d.rightFlagged / Math.max(1, d.exact), unit: '', target: '≤ 0.05' },
    { name: 'fillin_heldout_flagged_at_default', value: d.flagged / d.samples, unit: '', target: '' },
  ];
}
