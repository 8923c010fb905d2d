// How the demo content is written: each book section names its knowledge point and a maker that
// returns the i-th question of that point. Makers compute answers from seeded numbers (or pick
// from a table of facts written for the demo), so every variant is correct and the seed is the
// same on every machine.
import { QuestionType } from '../../src/domain/content';

export interface Draft {
  type: number;
  stem: string;
  options?: { key: string; text: string }[];
  answer: string;
  analysis: string;
  difficulty: number;
  points: number;
  /** Wrong answers students typically write to a fill-in or worked problem, most common first. */
  slips?: string[];
}

export type Rng = () => number;
/** The i-th question of a section; `rng` is seeded per book, section and i. */
export type Maker = (rng: Rng, i: number) => Draft;

export interface SectionSpec {
  title: string;
  /** Leaf knowledge point (curriculum topic). */
  point: string;
  make: Maker;
}
export interface ChapterSpec {
  title: string;
  /** Parent knowledge point. */
  point: string;
  sections: SectionSpec[];
}
export interface BookSpec {
  subject: string;
  gradeLevel: number;
  title: string;
  edition: string;
  /** 1: 上册 (autumn term, the one the demo's classes use), 2: 下册. */
  term?: number;
  chapters: ChapterSpec[];
}

/** mulberry32: a tiny seeded PRNG. */
export function random(seed: number): Rng {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

export const int = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
export const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)];
export const gcd = (a: number, b: number): number => (b === 0 ? Math.abs(a) : gcd(b, a % b));
/** A fraction in lowest terms as LaTeX (or an integer). */
export function frac(n: number, d: number): string {
  const g = gcd(n, d);
  const [p, q] = [n / g, d / g];
  if (q === 1) return String(p);
  return `${p < 0 ? '-' : ''}\\frac{${Math.abs(p)}}{${q}}`;
}
/** A signed term for expressions: +3 / -3 (with brackets when negative in a product). */
export const paren = (n: number) => (n < 0 ? `(${n})` : String(n));

const KEYS = ['A', 'B', 'C', 'D'];

/** A single-choice question: the correct text among distinct distractors, in a seeded order. */
export function single(rng: Rng, stem: string, correct: string, distractors: string[], analysis: string, difficulty: number, points = 3): Draft {
  const wrong = [...new Set(distractors.filter((d) => d !== correct))].slice(0, 3);
  if (wrong.length < 3) throw new Error(`not enough distractors for: ${stem}`);
  const at = Math.floor(rng() * 4);
  const texts = [...wrong];
  texts.splice(at, 0, correct);
  return { type: QuestionType.single, stem, options: texts.map((text, k) => ({ key: KEYS[k], text })), answer: KEYS[at], analysis, difficulty, points };
}

/** A multiple-choice question: every correct statement must be chosen. */
export function multiple(rng: Rng, stem: string, correct: string[], wrong: string[], analysis: string, difficulty: number, points = 4): Draft {
  const all = [...correct.map((text) => ({ text, ok: true })), ...wrong.map((text) => ({ text, ok: false }))].slice(0, 4);
  for (let k = all.length - 1; k > 0; k--) {
    const j = Math.floor(rng() * (k + 1));
    [all[k], all[j]] = [all[j], all[k]];
  }
  const options = all.map((o, k) => ({ key: KEYS[k], text: o.text }));
  const answer = all.map((o, k) => (o.ok ? KEYS[k] : '')).join('');
  return { type: QuestionType.multiple, stem, options, answer, analysis, difficulty, points };
}

export const judge = (stem: string, isTrue: boolean, analysis: string, difficulty: number, points = 2): Draft => ({
  type: QuestionType.judge,
  stem,
  options: [
    { key: 'A', text: '对' },
    { key: 'B', text: '错' },
  ],
  answer: isTrue ? 'A' : 'B',
  analysis,
  difficulty,
  points,
});

/** A fill-in; `slips`: the wrong answers students typically write, most common first. */
export const blank = (stem: string, answer: string, analysis: string, difficulty: number, points = 3, slips?: string[]): Draft => ({
  type: QuestionType.blank,
  stem,
  answer,
  analysis,
  difficulty,
  points,
  slips,
});

export const solve = (stem: string, answer: string, analysis: string, difficulty: number, points = 8, slips?: string[]): Draft => ({
  type: QuestionType.answer,
  stem,
  answer,
  analysis,
  difficulty,
  points,
  slips,
});

/** Numbers shown as the demo's stems print them (no trailing zeros). */
export const num = (n: number) => String(Math.round(n * 1000) / 1000);

/** A number with optional LaTeX dollars and a unit: "$-12$", "3.5 m", "120". */
const NUMERIC = /^(\$?)(-?\d+(?:\.\d+)?)(\$?)(\s*)(.*)$/;

/**
 * Wrong answers students write to a fill-in or worked problem: the maker's own (a near word, the
 * rule misapplied) first, then slips any answer of its shape invites: a sign lost, a unit or a
 * power of ten off, a result one off, the unit left out; for words and lines, a letter or a
 * character dropped or two swapped. Never the answer itself.
 */
export function slipsOf(draft: Draft): string[] {
  if (draft.type !== QuestionType.blank && draft.type !== QuestionType.answer) return [];
  const answer = draft.answer;
  const out = [...(draft.slips ?? [])];
  const m = NUMERIC.exec(answer);
  if (m) {
    const [, open, value, close, space, unit] = m;
    const n = Number(value);
    const as = (x: number) => `${open}${num(x)}${close}${space}${unit}`;
    if (n !== 0) out.push(as(-n));
    out.push(as(n * 10), as(n + (n % 2 === 0 ? 1 : -1)));
    if (unit) out.push(`${open}${value}${close}`);
    if (n % 10 === 0 && n !== 0) out.push(as(n / 10));
  } else if (/^\$.*\$$/.test(answer)) {
    // An expression: a sign turned, a term's number off by one.
    if (answer.includes(' - ')) out.push(answer.replace(' - ', ' + '));
    else if (answer.includes(' + ')) out.push(answer.replace(' + ', ' - '));
    const digit = /\d+/.exec(answer);
    if (digit) out.push(answer.replace(digit[0], String(Number(digit[0]) + 1)));
  } else if (/^[A-Za-z’' ]+$/.test(answer)) {
    // A word: the base left as it is, a regular ending where the word is irregular.
    if (answer.length > 3) out.push(answer.slice(0, -1));
    out.push(`${answer}s`);
  } else if (answer.length >= 3) {
    // A line or a phrase: a character dropped, two characters swapped.
    const chars = [...answer];
    const k = Math.min(chars.length - 2, 1 + (chars.length % 3));
    out.push(chars.filter((_, i) => i !== k).join(''));
    const swapped = [...chars];
    [swapped[k], swapped[k + 1]] = [swapped[k + 1], swapped[k]];
    out.push(swapped.join(''));
  }
  return [...new Set(out.map((x) => x.trim()))].filter((x) => x && x !== answer.trim()).slice(0, 5);
}

/**
 * A section of several question forms, as an exercise-book page mixes them: the i-th question
 * takes form i mod n, so the four questions of a page are four different forms.
 */
export const forms = (...makers: Maker[]): Maker => (rng, i) => makers[i % makers.length](rng, i);

/** The entry of a list of facts for the i-th question of a section of `n` forms. */
export const nth = <T>(list: readonly T[], i: number, n: number): T => list[Math.floor(i / n) % list.length];
