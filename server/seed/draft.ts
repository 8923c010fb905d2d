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

export const blank = (stem: string, answer: string, analysis: string, difficulty: number, points = 3): Draft => ({
  type: QuestionType.blank,
  stem,
  answer,
  analysis,
  difficulty,
  points,
});

export const solve = (stem: string, answer: string, analysis: string, difficulty: number, points = 8): Draft => ({
  type: QuestionType.answer,
  stem,
  answer,
  analysis,
  difficulty,
  points,
});

/** Numbers shown as the demo's stems print them (no trailing zeros). */
export const num = (n: number) => String(Math.round(n * 1000) / 1000);
