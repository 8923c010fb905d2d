import { checkOrder, findFlags, type Flag } from './checks.js';
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
  /** The writing prompt when longer than the title, used to spot an essay that only copies it. */
  prompt?: string;
}

/**
 * Why an essay cannot be marked as an essay: it is one passage written over and over, it only
 * copies the title or prompt, it is about something else, or it is not Chinese writing at all.
 * A flagged essay scores at most a tenth of full marks, and the comment says why.
 */
export type EssayFlag = Flag;

export type NoteKind = 'typo' | 'repeat' | 'runon' | 'idiom' | 'rhetoric';

export interface SentenceNote {
  kind: NoteKind;
  /** Index of the sentence in `sentences`. */
  sentence: number;
  /** The words concerned. */
  excerpt: string;
  message: string;
  /** Whether this is praise (good idiom / figure of speech) rather than a problem. */
  good: boolean;
}

export interface Dimension {
  key: 'content' | 'structure' | 'language' | 'length';
  name: string;
  score: number;
  max: number;
  comment: string;
}

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

function titleWords(title: string): string[] {
  const core = title.replace(/^题目[:：]/, '').replace(/[《》“”"、，。！？\s]/g, '');
  const words: string[] = [];
  for (let i = 0; i + 2 <= core.length; i++) words.push(core.slice(i, i + 2));
  // Bigrams with a function character ("我的", "的老") say nothing about the topic.
  return [...new Set(words)].filter((w) => !/[的了是在和与我你他她它]/.test(w));
}

export function scoreEssayRubric(text: string, opts: EssayOptions = {}): RubricResult {
  const fullMarks = opts.fullMarks ?? 100;
  const minChars = opts.minChars ?? 400;
  const sentences = splitSentences(text);
  const charCount = countChars(text);
  const notes = findNotes(sentences, repeatsWithinLines(text));
  const body = text.replace(/\s+/g, '');

  // 内容: on topic, concrete details (speech, actions, an episode), enough substance.
  const words = opts.title ? titleWords(opts.title) : [];
  const topicHits = words.filter((w) => body.includes(w)).length;
  const topic = words.length ? clamp01(topicHits / Math.min(words.length, 3)) : 0.7;
  const details = DETAIL_MARKERS.filter((m) => body.includes(m)).length;
  const content = clamp01(0.45 * topic + 0.35 * clamp01(details / 4) + 0.2 * clamp01(charCount / minChars));

  // 结构: a clear opening and ending, ordered connectives, reasonable paragraphing.
  const paragraphs = text.split(/\n+/).filter((p) => p.trim()).length;
  const transitions = TRANSITIONS.filter((t) => body.includes(t)).length;
  const last = sentences.slice(-2).join('');
  const hasClosing = CLOSINGS.some((c) => last.includes(c));
  const firstMentionsTopic = words.length === 0 || words.some((w) => (sentences[0] ?? '').includes(w));
  // Order matters: the same sentences shuffled lose up to half of this dimension.
  const order = checkOrder(sentences);
  const structure = clamp01(0.3 * (hasClosing ? 1 : 0.3) + 0.25 * (firstMentionsTopic ? 1 : 0.4) + 0.3 * clamp01(transitions / 4) + 0.15 * (paragraphs >= 3 ? 1 : paragraphs === 1 ? 0.5 : 0.7)) * (0.5 + 0.5 * order.score);

  // 语言: vocabulary variety, idioms and figures of speech, minus typos, repeats and run-ons.
  const chars = [...body].filter((c) => /\p{Script=Han}/u.test(c));
  const bigrams = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i++) bigrams.add(chars[i]! + chars[i + 1]!);
  const variety = chars.length > 1 ? clamp01((bigrams.size / (chars.length - 1) - 0.5) / 0.4) : 0;
  const good = notes.filter((n) => n.good).length;
  const bad = notes.filter((n) => !n.good).length;
  // A handful of words cannot show much language, however varied they are.
  const enough = clamp01(charCount / (0.3 * minChars));
  const language = clamp01(0.55 * variety + 0.35 * clamp01(good / 4) + 0.1 - 0.08 * bad + (sentences.length > 3 ? 0.05 : 0)) * enough;

  const flags = findFlags(text, opts.title, opts.prompt, words, charCount);

  // 字数: full credit at the required length, proportionally less below it.
  const length = clamp01(charCount / minChars);

  const dims: Dimension[] = [
    {
      key: 'content',
      name: '内容',
      max: WEIGHTS.content,
      score: 0,
      comment: words.length && topic < 0.5 ? '内容与题目联系不够紧密，请紧扣题目来写。' : details >= 3 ? '内容切题，有具体的事例和细节描写。' : '内容基本切题，可以多写具体事例，加入人物的语言、动作描写。',
    },
    {
      key: 'structure',
      name: '结构',
      max: WEIGHTS.structure,
      score: 0,
      comment:
        order.score < 0.75
          ? `叙述顺序有些混乱${order.openingRefersBack ? '（开头的句子承接不上）' : ''}，请按事情发展的先后顺序来写，开头引入、结尾总结。`
          : hasClosing && transitions >= 3
            ? '结构完整，层次清楚，首尾呼应。'
            : hasClosing
              ? '结尾有总结，中间部分的层次可以再清楚一些。'
              : '结尾略显仓促，建议加一段总结或抒发感受的结尾。',
    },
    {
      key: 'language',
      name: '语言',
      max: WEIGHTS.language,
      score: 0,
      comment:
        (good >= 3 ? '用到了成语和修辞，' : '可以多积累好词好句，尝试使用比喻、排比等修辞，') +
        (variety < 0.5 ? '但用词和句式重复较多，要注意变换表达。' : '用词比较丰富。') +
        (bad ? `有 ${bad} 处需要修改（错别字、重复或长句）。` : ''),
    },
    {
      key: 'length',
      name: '字数',
      max: WEIGHTS.length,
      score: 0,
      comment: charCount >= minChars ? `全文约 ${charCount} 字，达到字数要求。` : `全文约 ${charCount} 字，未达到 ${minChars} 字的要求。`,
    },
  ];
  const values = { content, structure, language, length };
  const scale = fullMarks / 100;
  // A flagged text is not marked as an essay: every dimension keeps at most a tenth of its
  // points (rounded down to half points), so the total stays under a tenth of full marks.
  const cap = flags.length ? 0.1 : 1;
  for (const d of dims) d.score = Math.floor(values[d.key] * cap * d.max * scale * 2) / 2;
  if (!flags.length) for (const d of dims) d.score = Math.round(values[d.key] * d.max * scale * 2) / 2;
  for (const d of dims) d.max = d.max * scale;
  if (flags.length) {
    const reason = flags.map((f) => f.message).join('；');
    dims[0]!.comment = `${reason}。`;
  }
  const score = dims.reduce((s, d) => s + d.score, 0);
  const ratio = score / fullMarks;
  const overall = flags.length
    ? `本文不能按正常作文评分：${flags.map((f) => f.message).join('；')}。请重新写一篇切题的作文。`
    : ratio >= 0.85 ? '这是一篇优秀的作文。' : ratio >= 0.7 ? '这是一篇良好的作文。' : ratio >= 0.6 ? '作文基本符合要求。' : '作文还需要进一步修改完善。';
  return {
    score,
    fullMarks,
    charCount,
    dimensions: dims,
    sentences,
    notes,
    comment: flags.length ? overall : `${overall}${dims.map((d) => d.comment).join('')}`,
    flags,
  };
}
