import type { ItemReading } from '../omr/recognise.js';
import type { FillBoxText } from '../ocr/regions.js';
import { normaliseJudge } from './normalise.js';
import { kindMismatch, mathsEqual, nearMiss, sameValue } from './maths.js';

// Scores what was read against the teacher's key. An item whose reading was flagged still gets a
// provisional score, but is marked for review and never counted as final without a teacher.

/** Multiple choice: full marks when exact; `missing` × points when only correct options were
 *  marked but some were left out (少选); `wrong` × points when any wrong option is marked (错选). */
export interface MultipleRule {
  missing: number;
  wrong: number;
}

export const DEFAULT_MULTIPLE_RULE: MultipleRule = { missing: 0.5, wrong: 0 };

export type KeyItem =
  | { answer: string; points: number }
  /** One list of accepted forms per blank, e.g. [["3", "三"], ["x=2", "2=x"]]. */
  | { blanks: string[][]; points: number }
  /** An essay, scored by the essay scorer out of `points`. */
  /** `prompt`: the essay question as set (an exam's stem), when the sheet does not print it. */
  | { essay: true; points: number; prompt?: string };

export interface AnswerKey {
  sheetId: string;
  multipleRule?: MultipleRule;
  /** Minimum OCR confidence for a fill-in to be scored without review. */
  minOcrConfidence?: number;
  items: Record<string, KeyItem>;
}

export type ScoreStatus = 'correct' | 'partial' | 'wrong' | 'blank';

export interface ItemScore {
  no: number;
  given: string;
  expected: string;
  score: number;
  max: number;
  status: ScoreStatus;
  needsReview: boolean;
  reasons: string[];
}

/**
 * Fill-in readings less sure than this go to the teacher. Measured by bench/calibrate.ts (400
 * kai-handwriting answers: signed numbers, decimals, fractions, degrees, x=3, units, 2x+1, short
 * Chinese words; tuning and held-out halves from different seeds), with the near-miss check of
 * maths.ts in place: on the tuning half the most confident wrong reading that is not a near-miss
 * had 0.772, and 2 % of right readings fell below 0.822, so 0.83. On the held-out half it flags
 * 0.5 % of right readings and lets 1 of 200 readings through wrong (y=-1 read as "y=-(" at 0.89).
 * Checked again on the bench's own held-out handwriting (`npm run bench -- fillins`: a pen drawn
 * for the bench, maths answers with powers, roots, π, ≥ ≠, ℃, through the printed sheet): with
 * the kind check (kindMismatch) the tuning seed needs 0.79, and at 0.83 the held-out seed has no
 * reading scored wrong without review (144 answers). 0.83 stays, the higher of the two.
 */
export const DEFAULT_MIN_OCR_CONFIDENCE = 0.83;

export function scoreChoice(reading: ItemReading, key: { answer: string; points: number }, rule: MultipleRule): ItemScore {
  const expected = reading.type === 'judge' ? normaliseJudge(key.answer) ?? key.answer : [...key.answer.toUpperCase()].sort().join('');
  const given = reading.answer;
  const base = { no: reading.no, given, expected, max: key.points, needsReview: reading.flags.length > 0, reasons: [] as string[] };
  if (given === '') return { ...base, score: 0, status: 'blank' };
  if (given === expected) return { ...base, score: key.points, status: 'correct' };
  if (reading.type === 'multiple') {
    const exp = new Set(expected);
    const allRight = [...given].every((c) => exp.has(c));
    if (allRight) return { ...base, score: round(key.points * rule.missing), status: 'partial', reasons: ['少选'] };
    return { ...base, score: round(key.points * rule.wrong), status: 'wrong', reasons: ['错选'] };
  }
  return { ...base, score: 0, status: 'wrong' };
}

export function scoreFill(no: number, texts: FillBoxText[], key: { blanks: string[][]; points: number }, minConfidence: number): ItemScore {
  const per = key.points / Math.max(1, key.blanks.length);
  let score = 0;
  const reasons: string[] = [];
  let needsReview = false;
  key.blanks.forEach((accepted, i) => {
    const t = texts.find((x) => x.box === i);
    if (!t || t.blank) return;
    if (t.confidence < minConfidence) {
      needsReview = true;
      reasons.push(`第 ${i + 1} 空识别置信度低（${Math.round(t.confidence * 100)}%）`);
    }
    if (accepted.some((a) => mathsEqual(a, t.text))) score += per;
    else if (accepted.some((a) => sameValue(a, t.text))) {
      // The key's number in another form (1/2 for 0.5): the question may ask for that form.
      needsReview = true;
      reasons.push(`第 ${i + 1} 空为“${t.text}”，与答案数值相同但写法不同，请核对`);
    } else if (nearMiss(accepted, t.text)) {
      // One OCR confusion away from the key (a dropped minus, × for x, 0 for °, 1 for a fraction bar):
      // the student may have written the answer, so the teacher decides, whatever the confidence.
      needsReview = true;
      reasons.push(`第 ${i + 1} 空识别为“${t.text}”，与答案仅差一个易误读的符号，请核对`);
    } else if (kindMismatch(accepted, t.text)) {
      // Not even the kind of answer asked for (qo° for a degree measure, 100 C for 100℃): far more
      // often an OCR failure than what the student wrote, so the teacher decides.
      needsReview = true;
      reasons.push(`第 ${i + 1} 空识别为“${t.text}”，不像本题应有的答案写法（数值、单位或符号），请核对`);
    }
  });
  const given = key.blanks.map((_, i) => texts.find((x) => x.box === i)?.text ?? '').join('；');
  const status: ScoreStatus = texts.every((t) => t.blank) ? 'blank' : score >= key.points - 1e-9 ? 'correct' : score > 0 ? 'partial' : 'wrong';
  return { no, given, expected: key.blanks.map((a) => a[0] ?? '').join('；'), score: round(score), max: key.points, status, needsReview, reasons };
}

export interface SheetScore {
  items: ItemScore[];
  total: number;
  max: number;
  needsReview: boolean;
}

export function scoreSheet(readings: ItemReading[], fills: FillBoxText[], key: AnswerKey): SheetScore {
  const rule = key.multipleRule ?? DEFAULT_MULTIPLE_RULE;
  const items: ItemScore[] = [];
  for (const r of readings) {
    const k = key.items[String(r.no)];
    if (k && 'answer' in k) items.push(scoreChoice(r, k, rule));
  }
  const fillNos = [...new Set(fills.map((f) => f.no))];
  for (const no of fillNos) {
    const k = key.items[String(no)];
    if (k && 'blanks' in k) items.push(scoreFill(no, fills.filter((f) => f.no === no), k, key.minOcrConfidence ?? DEFAULT_MIN_OCR_CONFIDENCE));
  }
  items.sort((a, b) => a.no - b.no);
  return {
    items,
    total: round(items.reduce((s, i) => s + i.score, 0)),
    max: round(items.reduce((s, i) => s + i.max, 0)),
    needsReview: items.some((i) => i.needsReview),
  };
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
