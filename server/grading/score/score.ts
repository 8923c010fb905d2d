import type { ItemReading } from '../omr/recognise.js';
import type { FillBoxText } from '../ocr/regions.js';
import { normaliseAnswer, normaliseJudge } from './normalise.js';

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
  | { essay: true; points: number };

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
    if (accepted.some((a) => normaliseAnswer(a) === normaliseAnswer(t.text))) score += per;
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
    if (k && 'blanks' in k) items.push(scoreFill(no, fills.filter((f) => f.no === no), k, key.minOcrConfidence ?? 0.8));
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
