// Fill-in answers compared as maths, and readings that OCR may have got wrong in a way that
// matters. Handwritten maths answers are short and dense in the symbols OCR confuses: a minus
// sign is a short stroke it drops (−2 read as 2), a variable x is read as ×, a degree sign as a
// 0 and a fraction bar as a 1. A reading equal to the key is scored; a reading that differs from
// the key only by one of those confusions is flagged for the teacher, never scored wrong in
// silence (a student who wrote the right answer must not lose the points to the machine).
import { normaliseAnswer } from './normalise.js';

// Minus-like characters NFKC leaves alone; all become "-".
const MINUS = /[\u2212\u2012\u2013\u2014\u2015\u2010\u2011\ufe63\uff0d]/g;

/**
 * normaliseAnswer plus the maths spellings that mean the same: minus signs, 度 for °, ＝, and the
 * typed forms of signs a key may be written with (>= for ≥, != for ≠, sqrt(2) or √(2) for √2,
 * pi for π, ** for ^). Exponents stay exponents: 10² is 10^2 (normaliseAnswer), not 102.
 */
export function normaliseMaths(s: string): string {
  return normaliseAnswer(s.replace(MINUS, '-'))
    .replace(/度$/, '°')
    // A degree sign written as a small circle high up is read as * (150* for 150°, 100*c for
    // 100°C): after a number at the end nothing else could have been meant.
    .replace(/(\d)\*(c|f)?$/, '$1°$2')
    .replace(/(\d)度/g, '$1°')
    // ℃ written as a circle and a C, where the circle is read once more as °: -5°℃ is -5℃.
    .replace(/°+(°c|°f)/g, '$1')
    // Handwritten 0 and o are the same shape: before π (0π) or between digits (1o5) an o is a zero.
    .replace(/o(?=π)|(?<=\d)o(?=\d)/g, '0')
    .replace(/>=/g, '≥')
    .replace(/<=/g, '≤')
    .replace(/!=|=\/=|<>/g, '≠')
    .replace(/\*\*/g, '^')
    .replace(/(?<![a-z])pi(?![a-z])/g, 'π')
    .replace(/sqrt/g, '√')
    .replace(/√\(([\da-zπ.]+)\)/g, '√$1')
    .replace(/\^\((-?[\da-z])\)(?![\da-z])/g, '^$1');
}

export interface Quantity {
  value: number;
  /** What follows the number: '', '°', '%', '°c', 'cm', 'cm^2', '米', … */
  unit: string;
}

// A unit after a number: a degree (°, °C), a percentage, or a short word of letters or Chinese
// characters, possibly squared or cubed, possibly per another (km/h).
const UNIT = /^(?:°[a-z]?|%|[a-z\u4e00-\u9fff]{1,4}(?:\^[23])?(?:\/[a-z\u4e00-\u9fff]{1,3})?)?$/;

/** An answer that is one number, possibly a fraction or a power, possibly with a unit. */
export function quantityOf(s: string): Quantity | null {
  const m = /^([+-]?)(\d+(?:\.\d+)?)(?:\/(\d+(?:\.\d+)?))?(?:\^(-?\d+))?(.*)$/.exec(s);
  if (!m || !UNIT.test(m[5]!)) return null;
  const denominator = m[3] === undefined ? 1 : Number(m[3]);
  if (denominator === 0) return null;
  const base = ((m[1] === '-' ? -1 : 1) * Number(m[2])) / denominator;
  return { value: m[4] === undefined ? base : base ** Number(m[4]), unit: m[5]! };
}

// What a maths answer is written with: digits, letters for unknowns, operators and relations,
// brackets, roots, π, degrees. A reading with anything else (Chinese, ?, &) is not maths.
const MATHS_TEXT = /^[\da-z+\-*/=^_().,:<>≤≥≠≈√π°%|]+$/;

/**
 * True when the reading is not the kind of answer the key is: the key is a number (with its unit
 * or degree sign) and the reading is not one with the same unit (qo° for 90°, 100c for 100°c),
 * or the key is maths and the reading has characters no maths answer has, or the reading stops on
 * an operator (m≤ for m≤9). Such a reading is an
 * OCR failure far more often than a student's answer, so the teacher looks, whatever the
 * confidence.
 */
export function kindMismatch(accepted: string[], read: string): boolean {
  const r = normaliseMaths(read);
  if (!r) return false;
  const keys = accepted.map((a) => normaliseMaths(a)).filter((k) => k !== '');
  const rq = quantityOf(assignedValue(r));
  const quantities = keys.map((k) => quantityOf(assignedValue(k))).filter((q): q is Quantity => q !== null);
  if (quantities.length && !quantities.some((q) => rq !== null && q.unit === rq.unit)) return true;
  if (keys.some((k) => MATHS_TEXT.test(k)) && !MATHS_TEXT.test(r)) return true;
  // Cut short: a relation or operator with nothing after it (m≤ for m≤9, 2√ for 2√6), where the key
  // does not end so. Something was written there that the recogniser lost.
  const open = /[=+\-*/^<>≤≥≠≈√_]$/;
  return open.test(r) && !keys.some((k) => open.test(k));
}

/**
 * The value of an answer that is a number: an integer, a decimal, a fraction a/b, a percentage,
 * or a degree measure (kept apart by its unit). Anything else (words, expressions) is null.
 */
export function numberOf(s: string): { value: number; unit: '' | '°' | '%' } | null {
  const m = /^([+-]?)(\d+(?:\.\d+)?)(?:\/(\d+(?:\.\d+)?))?(°|%)?$/.exec(s);
  if (!m) return null;
  const denominator = m[3] === undefined ? 1 : Number(m[3]);
  if (denominator === 0) return null;
  const value = ((m[1] === '-' ? -1 : 1) * Number(m[2])) / denominator;
  return { value, unit: (m[4] ?? '') as '' | '°' | '%' };
}

/** "x=3" answered for the key "3", or "3" for "x=3": the value of a single-letter unknown. */
function assignedValue(s: string): string {
  const m = /^[a-z]=(.+)$/.exec(s);
  return m ? m[1]! : s;
}

/** A number as a plain value: 50% is 0.5; a degree measure keeps its unit apart. */
function plain(n: { value: number; unit: '' | '°' | '%' }): { value: number; degrees: boolean } {
  return { value: n.unit === '%' ? n.value / 100 : n.value, degrees: n.unit === '°' };
}

function sameNumber(a: string, b: string): boolean {
  const na = numberOf(a);
  const nb = numberOf(b);
  if (!na || !nb) return false;
  const pa = plain(na);
  const pb = plain(nb);
  return pa.degrees === pb.degrees && Math.abs(pa.value - pb.value) <= 1e-12 * Math.max(1, Math.abs(pa.value));
}

/** The key and the reading in one spelling: maths signs, 度, a leading +, × read for the key's x. */
function spelled(key: string, read: string): [string, string] {
  const k = normaliseMaths(key).replace(/^\+(?=\d)/, '');
  // Handwritten a and α are the same shape, so they compare equal (a key's α reads the same way);
  // kindMismatch still sees the α, which in a reading far from the key marks the recogniser lost.
  let r = normaliseMaths(read).replace(/^\+(?=\d)/, '').replace(/α/g, 'a');
  // A key with the unknown x and no multiplication: a × in the reading is that x.
  if (/x/.test(k) && !/\*/.test(k)) r = r.replace(/\*/g, 'x');
  return [k, r];
}

/**
 * The reading is the key's answer: the same normalised text, or x=3 for 3. The same number in
 * another form (1/2 for 0.5, 2/4 for 1/2, 50% for 0.5) is not scored: the question may ask for
 * that form, so it goes to the teacher (sameValue, via nearMiss).
 */
export function mathsEqual(key: string, read: string): boolean {
  const [k, r] = spelled(key, read);
  if (k === r) return true;
  const ka = assignedValue(k);
  const ra = assignedValue(r);
  // Exactly one side names the unknown: "x=3" answers "3" (but "y=3" does not answer "x=3").
  return ka !== k !== (ra !== r) && ka === ra;
}

/** The same number as the key in another form (0.5 and 1/2, 90 and 90.0): the teacher decides. */
export function sameValue(key: string, read: string): boolean {
  const [k, r] = spelled(key, read);
  return sameNumber(k, r) || sameNumber(assignedValue(k), assignedValue(r));
}

const LOOK_ALIKE: Record<string, string[]> = {
  '6': ['b'],
  b: ['6'],
  '9': ['g', 'q'],
  g: ['9', 'q'],
  q: ['9', 'g'],
  l: ['1'],
  '1': ['l'],
  '2': ['z'],
  z: ['2'],
  '5': ['s'],
  s: ['5'],
  t: ['7', 'π'],
  α: ['a'],
  '?': ['7'],
  '/': ['1', '√'],
  // Signs the recogniser knows but reads poorly in handwriting: √ as v or J, π as n or 元,
  // ≥ as > or =, ≠ as = or +.
  v: ['√'],
  j: ['√'],
  r: ['√', 'π'],
  n: ['π'],
  兀: ['π'],
  元: ['π'],
  丌: ['π'],
  '>': ['≥'],
  '<': ['≤'],
  '=': ['≠', '≥', '≤'],
  '+': ['≠'],
  '≥': ['>'],
  '≤': ['<'],
};

/** Readings OCR could have made of `read`'s true text: one confusion undone at a time. */
function undoConfusions(read: string): string[] {
  const r = normaliseMaths(read);
  const out = new Set<string>();
  out.add(`-${r}`); // a dropped minus sign
  if (r.startsWith('-')) out.add(r.slice(1)); // a stray stroke read as minus
  if (r.endsWith('0')) out.add(`${r.slice(0, -1)}°`); // ° read as 0
  if (/\d$/.test(r)) out.add(`${r}°`); // a degree sign too small to be read
  if (/\d[.·]$/.test(r)) out.add(`${r.slice(0, -1)}°`); // a degree sign read as a dot
  for (let i = 0; i < r.length; i++) {
    const ch = r[i]!;
    if (ch === '1' || ch === 'l' || ch === '|') out.add(`${r.slice(0, i)}/${r.slice(i + 1)}`); // fraction bar read as 1
    if (ch === '7') out.add(`${r.slice(0, i)}/${r.slice(i + 1)}`);
    if (ch === '*') out.add(`${r.slice(0, i)}x${r.slice(i + 1)}`);
    if (ch === 'x') out.add(`${r.slice(0, i)}*${r.slice(i + 1)}`);
    if (ch === '0' || ch === 'o') out.add(`${r.slice(0, i)}${r.slice(i + 1)}`); // a degree or dot read as 0
    // Handwritten letters and digits that look alike: 9b read as 96, 9y as gy, 1a as la.
    for (const twin of LOOK_ALIKE[ch] ?? []) out.add(`${r.slice(0, i)}${twin}${r.slice(i + 1)}`);
  }
  // An exponent written small and read on the line: "102" for "10^2", "x2" for "x^2".
  for (let i = 1; i < r.length; i++) if (/[\da-z)]/.test(r[i - 1]!) && /\d/.test(r[i]!)) out.add(`${r.slice(0, i)}^${r.slice(i)}`);
  // A root sign or π too small or faint to be read: "2" for "√2", "3" for "3π".
  for (let i = 0; i < r.length; i++) if (/\d/.test(r[i]!)) out.add(`${r.slice(0, i)}√${r.slice(i)}`);
  // A radicand lost after its root sign: "2√" for "2√6" (any digit will do to match the key).
  if (r.endsWith('√')) for (let d = 0; d <= 9; d++) out.add(`${r}${d}`);
  if (/\d$/.test(r)) out.add(`${r}π`);
  // π read as two strokes: "tt", "1t", "it" (4π read as 41T).
  for (const twin of ['tt', '1t', 'it', 'lt']) if (r.includes(twin)) out.add(r.replace(twin, 'π'));
  // A coefficient lost before its letter: "x-7" for "7x-7".
  const lead = /^(-?)([a-z].*)$/.exec(r);
  if (lead) for (let d = 2; d <= 9; d++) out.add(`${lead[1]}${d}${lead[2]}`);
  // A decimal point or a fraction bar too faint to be seen: "05" for "0.5", "13" for "1/3".
  for (let i = 1; i < r.length; i++)
    if (/\d/.test(r[i - 1]!) && /\d/.test(r[i]!)) {
      out.add(`${r.slice(0, i)}.${r.slice(i)}`);
      out.add(`${r.slice(0, i)}/${r.slice(i)}`);
    }
  out.delete(r);
  return [...out];
}

/**
 * True when a reading that does not match the key would match it after undoing one OCR
 * confusion: the student may well have written the answer, so a teacher must look.
 */
export function nearMiss(accepted: string[], read: string): boolean {
  if (!read.trim()) return false;
  if (accepted.some((a) => sameValue(a, read))) return true;
  // The key's beginning with the rest lost from a sign OCR drops (3 for 3√7, 2 for 2π, 5 for 5²):
  // the student may have written all of it.
  const r = normaliseMaths(read);
  if (accepted.some((a) => {
    const k = normaliseMaths(a);
    return k.length > r.length && k.startsWith(r) && /^[√π^°]/.test(k.slice(r.length));
  })) return true;
  const variants = undoConfusions(read);
  return accepted.some((a) => variants.some((v) => mathsEqual(a, v) || sameValue(a, v)));
}
