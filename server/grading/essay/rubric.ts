import { checkOrder, findFlags, MIN_RELEVANCE, type Flag } from './checks.js';
import { commentsFor, genreOf, type Genre } from './comments.js';
import type { Dimension, SentenceNote } from './marks.js';
import { measure, type Measures } from './measure.js';
import { CLOSINGS, CONFUSIONS, DETAIL_MARKERS, IDIOMS, SIMILE_MARKERS, TRANSITIONS } from './lexicon.js';

// Offline essay rubric: four dimensions (内容 content, 结构 structure, 语言 language, 字数 length)
// scored from observable features, plus sentence-level notes a teacher can check. It never
// claims to understand the essay; comments say what was counted.

export interface EssayOptions {
  /** Essay title or topic, used to check the essay stays on topic. */
  title?: string;
  /** Required minimum length in characters (punctuation excluded). */
  minChars?: number;
  /** Full marks of the essay in this exam (dimensions are scaled to it). */
  fullMarks?: number;
  /** The whole writing prompt as printed: copying it out is not writing, and its key words are the topic. */
  prompt?: string;
  /** 记叙文 / 议论文 / 说明文 / 其他; read from a title ending in （记叙文） when not given. */
  genre?: string;
}

/**
 * Why an essay cannot be marked as an essay: it is one passage written over and over, it only
 * copies the title or prompt, it is about something else, or it is not Chinese writing at all.
 * A flagged essay scores at most a tenth of full marks, and the comment says why.
 */
export type EssayFlag = Flag;

export type { Dimension, NoteKind, SentenceNote } from './marks.js';

export interface RubricResult {
  score: number;
  fullMarks: number;
  charCount: number;
  dimensions: Dimension[];
  sentences: string[];
  notes: SentenceNote[];
  /** Overall comment in Chinese. */
  comment: string;
  /** Set when the essay is degenerate (see EssayFlag); empty for a real attempt. */
  flags: EssayFlag[];
  genre: Genre;
  /** What the scores were computed from, over the whole text. */
  measures: { ownChars: number; copiedShare: number; repeatedShare: number; fluency: number; relevance: number; grammarBreaks: number };
}

const WEIGHTS = { content: 35, structure: 20, language: 30, length: 15 } as const;
const RUN_ON_CHARS = 60;

export function countChars(text: string): number {
  return [...text].filter((c) => /[\p{L}\p{N}]/u.test(c)).length;
}

export function splitSentences(text: string): string[] {
  // A closing quote after the full stop belongs to the sentence it closes.
  return text
    .replace(/\s+/g, '')
    .split(/(?<=[。！？!?…；;][”’"」』]?)(?![”’"」』。！？!?…；;])/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * Words written twice in a row within one line of the text as written. A line of a photographed
 * essay that ends with the word the next line starts with ("…负数\n负数让…") is no repeat: the
 * sentences are joined without their line breaks, so a repeat is only believed when a line has it.
 */
function repeatsWithinLines(text: string): Set<string> {
  const found = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    for (const m of line.replace(/\s+/g, '').matchAll(/(\p{Script=Han}{2,4})\1/gu)) found.add(m[0]);
  }
  return found;
}

function findNotes(sentences: string[], repeats: Set<string>): SentenceNote[] {
  const notes: SentenceNote[] = [];
  sentences.forEach((s, i) => {
    for (const [wrong, right] of Object.entries(CONFUSIONS)) {
      if (s.includes(wrong)) notes.push({ kind: 'typo', sentence: i, excerpt: wrong, message: `"${wrong}"应为"${right}"`, good: false });
    }
    // The same word of two or more characters written twice in a row, e.g. "我们我们".
    const rep = [...s.matchAll(/(\p{Script=Han}{2,4})\1/gu)].find((m) => repeats.has(m[0]));
    if (rep && !IDIOMS.some((id) => id.includes(rep[0]))) {
      notes.push({ kind: 'repeat', sentence: i, excerpt: rep[0], message: `"${rep[1]}"重复出现，可能是多写了`, good: false });
    }
    const clauses = s.split(/[，,]/);
    if (countChars(s) > RUN_ON_CHARS && clauses.length >= 4) {
      notes.push({ kind: 'runon', sentence: i, excerpt: s.slice(0, 12) + '…', message: `这句话有 ${countChars(s)} 个字，一逗到底，建议适当断句`, good: false });
    }
    for (const idiom of IDIOMS) {
      if (s.includes(idiom)) notes.push({ kind: 'idiom', sentence: i, excerpt: idiom, message: `成语"${idiom}"运用恰当`, good: true });
    }
    const simile = SIMILE_MARKERS.find((m) => s.includes(m));
    if (simile && countChars(s) >= 8) notes.push({ kind: 'rhetoric', sentence: i, excerpt: simile, message: '运用了比喻，使描写更生动', good: true });
  });
  // 排比 (parallelism): three consecutive clauses opening with the same two characters.
  const clauses = sentences.flatMap((s, i) => s.split(/[，,；;。！？]/).filter(Boolean).map((c) => ({ c, i })));
  for (let k = 0; k + 2 < clauses.length; k++) {
    const head = clauses[k]!.c.slice(0, 2);
    if (head.length === 2 && clauses[k + 1]!.c.startsWith(head) && clauses[k + 2]!.c.startsWith(head)) {
      notes.push({ kind: 'rhetoric', sentence: clauses[k]!.i, excerpt: head, message: `以"${head}"开头的排比，增强了气势`, good: true });
      k += 2;
    }
  }
  return notes;
}

const clamp01 = (v: number) => Math.max(0, Math.min(1, v));

/** Markers of the kind of substance each genre needs (see comments.ts for what is quoted). */
export const SUBSTANCE: Record<Genre, RegExp> = {
  记叙文: /说[:：，,]?[“"]|问[:：]?[“"]|笑着|看见|听见|记得|有一次|那天|那一刻|心里|眼睛|摸|拉着|跑/,
  议论文: /例如|比如|譬如|正是|曾经|经历|试验|实验|[0-9一二三四五六七八九十百千万]+[次年天个]|说过|名言|古人|俗话|由此可见|可见|证明/,
  说明文: /[0-9一二三四五六七八九十两百千万]+[米厘天年个种次倍]|像|好像|比|例如|比如|有的|此外|一般|主要|通常|可以用来|用途/,
  其他: /说|例如|比如|像|记得|有一次|[0-9]/,
};

export function scoreEssayRubric(text: string, opts: EssayOptions = {}): RubricResult {
  const fullMarks = opts.fullMarks ?? 100;
  const minChars = opts.minChars ?? 400;
  const genre = genreOf(opts.genre, opts.title, opts.prompt);
  const sentences = splitSentences(text);
  const charCount = countChars(text);
  const notes = findNotes(sentences, repeatsWithinLines(text));
  const m: Measures = measure(text, opts.title, opts.prompt);
  // Everything below is measured on what the student wrote: not the title line, not the prompt
  // copied out, not a sentence written again.
  const own = m.sentences.filter((s) => !s.copied && !s.repeated);
  const ownTexts = own.map((s) => s.text);
  const body = ownTexts.join('');
  const ownChars = m.ownChars;

  // 内容: the share of the essay on the topic, substance of the genre, enough of it.
  const topic = m.sentences.some((s) => s.topical) || !m.topicWords.length ? clamp01((m.relevance - MIN_RELEVANCE) / (0.9 - MIN_RELEVANCE)) : 0;
  const substance = own.filter((s) => SUBSTANCE[genre].test(s.text)).length;
  const details = DETAIL_MARKERS.filter((d) => body.includes(d)).length;
  const content = clamp01(0.45 * topic + 0.35 * clamp01((substance + details / 2) / 5) + 0.2 * clamp01(ownChars / minChars));

  // 结构: a clear opening and ending, ordered connectives, paragraphs.
  const paragraphs = text.split(/\n+/).filter((p) => p.trim()).length;
  const transitions = TRANSITIONS.filter((t) => body.includes(t)).length;
  const last = ownTexts.slice(-2).join('');
  const hasClosing = CLOSINGS.some((c) => last.includes(c)) || /总之|由此可见|因此|所以|综上/.test(last);
  const firstOwn = own[0];
  const firstMentionsTopic = !m.topicWords.length || Boolean(firstOwn?.topical);
  const order = checkOrder(ownTexts);
  const structure =
    clamp01(0.3 * (hasClosing ? 1 : 0.3) + 0.25 * (firstMentionsTopic ? 1 : 0.4) + 0.3 * clamp01(transitions / 4) + 0.15 * (paragraphs >= 3 ? 1 : paragraphs === 1 ? 0.5 : 0.7)) *
    (0.5 + 0.5 * order.score) *
    clamp01(ownChars / (0.5 * minChars));

  // 语言: vocabulary variety, idioms and figures of speech, minus typos, repeats and run-ons.
  const chars = [...body].filter((c) => /\p{Script=Han}/u.test(c));
  const bigrams = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i++) bigrams.add(chars[i]! + chars[i + 1]!);
  const variety = chars.length > 1 ? clamp01((bigrams.size / (chars.length - 1) - 0.5) / 0.4) : 0;
  const good = notes.filter((n) => n.good).length;
  const bad = notes.filter((n) => !n.good).length;
  // A handful of words cannot show much language, however varied they are.
  const enough = clamp01(ownChars / (0.5 * minChars));
  const language = clamp01(0.55 * variety + 0.35 * clamp01(good / 4) + 0.1 - 0.08 * bad + (own.length > 3 ? 0.05 : 0)) * enough;

  const flags = findFlags(text, opts.title, m, charCount);

  // 字数: the student's own writing against the required length.
  const length = clamp01(ownChars / minChars);

  const values = { content, structure, language, length };
  const scale = fullMarks / 100;
  const dims: Dimension[] = (['content', 'structure', 'language', 'length'] as const).map((key) => ({
    key,
    name: DIMENSION_NAMES[key],
    max: WEIGHTS[key] * scale,
    // A flagged text is not marked as an essay: every dimension keeps at most a tenth of its
    // points (rounded down to half points), so the total stays under a tenth of full marks.
    score: flags.length ? Math.floor(values[key] * 0.1 * WEIGHTS[key] * scale * 2) / 2 : Math.round(values[key] * WEIGHTS[key] * scale * 2) / 2,
    comment: '',
  }));
  const score = dims.reduce((s, d) => s + d.score, 0);
  const comments = commentsFor({
    genre,
    title: opts.title,
    minChars,
    measures: m,
    dims,
    values,
    flags,
    notes,
    sentences,
    order,
    hasClosing,
    transitions,
    substance: own.filter((s) => SUBSTANCE[genre].test(s.text)).map((s) => s.text),
    score,
    fullMarks,
  });
  dims.forEach((d) => (d.comment = comments.dimensions[d.key]));
  return {
    score,
    fullMarks,
    charCount,
    dimensions: dims,
    sentences,
    notes,
    comment: comments.overall,
    flags,
    genre,
    measures: {
      ownChars,
      copiedShare: round2(m.copiedShare),
      repeatedShare: round2(m.repeatedShare),
      fluency: round2(m.fluency),
      relevance: round2(m.relevance),
      grammarBreaks: round2(m.grammar.per100),
    },
  };
}

const round2 = (v: number) => Math.round(v * 100) / 100;
const DIMENSION_NAMES = { content: '内容', structure: '结构', language: '语言', length: '字数' } as const;
