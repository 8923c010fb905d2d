// Normalisation so that answers equal in a teacher's eyes compare equal: full-width and
// half-width forms (NFKC), spaces, Chinese vs Western punctuation, letter case.

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

export function normaliseAnswer(s: string): string {
  let t = s.normalize('NFKC').toLowerCase();
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
