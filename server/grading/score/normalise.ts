// Normalisation so that answers equal in a teacher's eyes compare equal: full-width and
// half-width forms (NFKC), spaces, Chinese vs Western punctuation, letter case. What NFKC would
// fold but changes a maths answer's meaning is spelled out first: a superscript is an exponent
// (10² is 10^2, never 102), a subscript an index, ℃ a degree unit (°c, never plain c).

const PUNCT: Record<string, string> = {
  '。': '.',
  '，': ',',
  '、': ',',
  '；': ';',
  '：': ':',
  '？': '?',
  '！': '!',
  '（': '(',
  '）': ')',
  '“': '"',
  '”': '"',
  '‘': "'",
  '’': "'",
  '—': '-',
  '－': '-',
  '×': '*',
  '÷': '/',
};

const SUPERSCRIPT: Record<string, string> = {
  '⁰': '0', '¹': '1', '²': '2', '³': '3', '⁴': '4', '⁵': '5', '⁶': '6', '⁷': '7', '⁸': '8', '⁹': '9',
  '⁺': '+', '⁻': '-', '⁼': '=', '⁽': '(', '⁾': ')', 'ⁿ': 'n', 'ˣ': 'x',
};
const SUBSCRIPT: Record<string, string> = {
  '₀': '0', '₁': '1', '₂': '2', '₃': '3', '₄': '4', '₅': '5', '₆': '6', '₇': '7', '₈': '8', '₉': '9',
  '₊': '+', '₋': '-', '₌': '=', '₍': '(', '₎': ')', 'ₙ': 'n',
};
// Symbols NFKC leaves apart or folds wrongly, in the one spelling compared: ≧ is ≥, ℃ is °C.
const SYMBOLS: Record<string, string> = { '℃': '°C', '℉': '°F', '≧': '≥', '≦': '≤', '≒': '≈', 'Π': 'π', '∏': 'π' };

/** Superscript runs as ^run (^(run) when a letter or digit follows), subscripts as _run. */
function spellScripts(s: string): string {
  const run = (map: Record<string, string>) => new RegExp(`[${Object.keys(map).join('')}]+`, 'gu');
  const spell = (map: Record<string, string>, mark: string) => (m: string, at: number, all: string) => {
    const body = [...m].map((c) => map[c]!).join('');
    return /[\p{L}\p{N}]/u.test(all[at + m.length] ?? '') ? `${mark}(${body})` : `${mark}${body}`;
  };
  return s
    .replace(run(SUPERSCRIPT), spell(SUPERSCRIPT, '^'))
    .replace(run(SUBSCRIPT), spell(SUBSCRIPT, '_'))
    .replace(/[℃℉≧≦≒Π∏]/g, (c) => SYMBOLS[c]!);
}

export function normaliseAnswer(s: string): string {
  let t = spellScripts(s).normalize('NFKC').toLowerCase();
  t = [...t].map((ch) => PUNCT[ch] ?? ch).join('');
  t = t.replace(/\s+/g, '');
  // A full stop or comma at the very end is how a sentence was finished, not part of the answer.
  return t.replace(/[.,;]+$/, '');
}

const JUDGE_TRUE = new Set(['√', '✓', '✔', 't', 'true', '对', '正确', 'y', 'yes']);
const JUDGE_FALSE = new Set(['×', '✗', '✘', 'x', 'f', 'false', '错', '错误', 'n', 'no']);

/** Judge answers in a key may be written √/×, T/F, 对/错; the sheet reads √ or ×. */
export function normaliseJudge(s: string): '√' | '×' | null {
  const t = s.normalize('NFKC').trim().toLowerCase();
  if (JUDGE_TRUE.has(t)) return '√';
  if (JUDGE_FALSE.has(t) || t === '*') return '×';
  return null;
}
