import { CLOSINGS } from './lexicon.js';
import type { Measures } from './measure.js';

// Checks that run before the rubric: is this an essay at all (not one sentence copied out sixty
// times, the title written out, or a text about something else), and does its account run in
// order. They look only at the text, so a teacher can follow every reason given.

export type FlagKind = 'empty' | 'repeated' | 'copiedPrompt' | 'offTopic' | 'unreadable';

/** Letters and digits only: what the student actually wrote, without punctuation or spacing. */
const letters = (text: string) => [...text].filter((c) => /[\p{L}\p{N}]/u.test(c));

/**
 * Share of the text that is new writing, as distinct 6-character runs over all runs. A real essay
 * is near 1 even when it repeats a key phrase; a passage written four times over is at most 0.25,
 * one sentence written sixty times a few hundredths. Works without punctuation (OCR lines).
 */
export function distinctShare(text: string, n = 6): number {
  const chars = letters(text);
  if (chars.length < n + 10) return 1;
  const runs = new Set<string>();
  for (let i = 0; i + n <= chars.length; i++) runs.add(chars.slice(i, i + n).join(''));
  return runs.size / (chars.length - n + 1);
}

/** Share of letters that are Chinese characters (an essay in this rubric is written in Chinese). */
export function hanShare(text: string): number {
  const chars = letters(text);
  return chars.length ? chars.filter((c) => /\p{Script=Han}/u.test(c)).length / chars.length : 1;
}

/** Thresholds: below them (above, for copying) the text is not marked as an essay. */
export const MIN_DISTINCT_SHARE = 0.25;
export const MAX_COPIED_SHARE = 0.6;
export const MIN_HAN_SHARE = 0.5;
/** Too little text to tell whether it is on topic. */
export const MIN_CHARS_FOR_TOPIC = 40;

export interface Flag {
  kind: FlagKind;
  message: string;
}

/** Below this share of own characters in sentences that read as Chinese, the text is not written sentences. */
export const MIN_FLUENCY = 0.6;
/** Misplaced function words per 100 words from which the words are heaped, not written (shuffled: 3.7–6). */
export const MAX_GRAMMAR_BREAKS = 3;
/** Below this share of own writing on the topic (or next to a sentence that is), the essay is off topic. */
export const MIN_RELEVANCE = 0.35;

/**
 * Whether the text can be marked as an essay at all, from measures over the whole text (every
 * sentence): nothing written, one passage written over and over, the prompt copied out, not
 * Chinese sentences (random characters, shuffled words), or mostly about something else.
 */
export function findFlags(text: string, title: string | undefined, m: Measures, charCount: number): Flag[] {
  if (charCount === 0) return [{ kind: 'empty', message: '未作答：没有写作文' }];
  if (charCount >= 10 && hanShare(text) < MIN_HAN_SHARE) return [{ kind: 'unreadable', message: '内容无法辨认：没有写成中文作文' }];
  const share = distinctShare(text);
  if (m.copiedShare >= MAX_COPIED_SHARE && m.ownChars < MIN_CHARS_FOR_TOPIC) {
    return [{ kind: 'copiedPrompt', message: '抄写题目：正文只是把题目或写作要求抄了一遍或几遍，没有自己写的内容' }];
  }
  const flags: Flag[] = [];
  if (share < MIN_DISTINCT_SHARE || (m.repeatedShare >= 0.5 && m.ownChars < 2 * MIN_CHARS_FOR_TOPIC)) {
    flags.push({ kind: 'repeated', message: `内容大量重复：同样的句子反复抄写，实际只写了约 ${Math.round(Math.min(share, 1 - m.repeatedShare) * 100)}% 的内容` });
    return flags;
  }
  if (m.ownChars >= MIN_CHARS_FOR_TOPIC && m.fluency < MIN_FLUENCY) {
    return [{ kind: 'unreadable', message: '内容无法辨认：大部分文字连不成词句，像是随意写的字' }];
  }
  // One or two breaks in a short text are an odd word (jieba tags 不难 an adverb), not a heap of words.
  if (m.ownChars >= MIN_CHARS_FOR_TOPIC && m.grammar.count >= 4 && m.grammar.per100 >= MAX_GRAMMAR_BREAKS) {
    const sample = m.grammar.examples[0];
    return [{ kind: 'unreadable', message: `语句不通：词语堆在一起，读不成句子${sample ? `（如「${sample}」）` : ''}` }];
  }
  if (m.ownChars >= MIN_CHARS_FOR_TOPIC && m.relevance < MIN_RELEVANCE) {
    flags.push({ kind: 'offTopic', message: `与题目无关：全文大部分内容没有写到题目“${(title ?? '').replace(/^题目[:：]/, '').replace(/（[^）]*）$/, '')}”` });
  }
  return flags;
}

// Where a sentence belongs in an account, from the connective or formula that opens it:
// 0 the beginning (记得, 有一次, 首先), 1–2 the middle (然后, 后来), 3 the end (最后, 总之, 我爱…).
const PLACES: [string, number][] = [
  ...['记得', '有一次', '首先', '那天', '那是', '从前', '小时候', '第一'].map((w) => [w, 0] as [string, number]),
  ...['其次', '然后', '接着', '第二', '于是', '这时'].map((w) => [w, 1] as [string, number]),
  ...['后来', '从此', '第三', '渐渐地', '慢慢地'].map((w) => [w, 2] as [string, number]),
  ...['最后', '总之', '终于', ...CLOSINGS].map((w) => [w, 3] as [string, number]),
];

/** The place of a sentence (see PLACES) from the first marker in it, or null when it has none. */
export function placeOf(sentence: string): number | null {
  let best: { at: number; place: number } | null = null;
  for (const [word, place] of PLACES) {
    const at = sentence.indexOf(word);
    if (at >= 0 && at <= 12 && (!best || at < best.at)) best = { at, place };
  }
  return best?.place ?? null;
}

/** Words that refer back to something already said: they cannot open an essay. */
const BACK_REFERENCES = /^(她|他|它|这|那时|但是|可是|所以|因此|于是|然后|后来|接着|最后|而且)/;

export interface OrderCheck {
  /** 1 when the account runs in order (or there is nothing to judge), lower when it jumps about. */
  score: number;
  /** Sentence pairs whose markers are in the wrong order, e.g. ["后来", "记得"]. */
  outOfOrder: number;
  openingRefersBack: boolean;
}

/**
 * How well the sentences keep the order of an account: for every two sentences with markers of
 * different places, the earlier one should have the earlier place; the first sentence should not
 * lean on one before it. A shuffled essay breaks these, its original does not.
 */
export function checkOrder(sentences: string[]): OrderCheck {
  const places = sentences.map(placeOf);
  let pairs = 0;
  let wrong = 0;
  for (let i = 0; i < places.length; i++) {
    for (let j = i + 1; j < places.length; j++) {
      const a = places[i];
      const b = places[j];
      if (a == null || b == null || a === b) continue;
      pairs++;
      if (a > b) wrong++;
    }
  }
  // The last sentence with a closing place should close the essay.
  const lastClosing = places.lastIndexOf(3);
  const closingEarly = lastClosing >= 0 && lastClosing < places.length - 2 ? 1 : 0;
  const openingRefersBack = sentences.length > 1 && BACK_REFERENCES.test(sentences[0] ?? '');
  const inOrder = pairs ? 1 - wrong / pairs : 1;
  const score = Math.max(0, inOrder - 0.25 * closingEarly - 0.25 * (openingRefersBack ? 1 : 0));
  return { score, outOfOrder: wrong + closingEarly, openingRefersBack };
}
