// The teacher-facing comments of an essay, written from what was measured in this essay: every
// remark quotes the sentence it is about, follows the genre (no advice on describing people's
// words and actions for an argument), and says nothing the score contradicts (a dimension that
// scored well is not told it is weak, a weak one is not praised).
import type { Flag } from './checks.js';
import type { Measures } from './measure.js';
import type { Dimension, SentenceNote } from './marks.js';

export type Genre = '记叙文' | '议论文' | '说明文' | '其他';
const GENRES: Genre[] = ['记叙文', '议论文', '说明文', '其他'];

/** The genre given, or the one a title like 「我的老师（记叙文）」 carries; 其他 when neither says. */
export function genreOf(genre: string | undefined, title: string | undefined, prompt?: string): Genre {
  if (genre && (GENRES as string[]).includes(genre)) return genre as Genre;
  const fromTitle = /（(记叙文|议论文|说明文|其他)）\s*$/.exec(title ?? '')?.[1];
  // A prompt says what to write: 「写一篇议论文」.
  const fromPrompt = /(记叙文|议论文|说明文)/.exec(prompt ?? '')?.[1];
  return ((fromTitle ?? fromPrompt) as Genre | undefined) ?? '其他';
}

/** A sentence as quoted in a comment: whole when short, its opening otherwise. */
export function quote(sentence: string): string {
  // A clause cut at a comma (an OCR line) is quoted without it.
  const chars = [...sentence.replace(/[，,、；;：:]+$/, '')];
  return `「${chars.length > 28 ? `${chars.slice(0, 26).join('')}…` : chars.join('')}」`;
}

export interface CommentInput {
  genre: Genre;
  title: string | undefined;
  minChars: number;
  measures: Measures;
  dims: Dimension[];
  /** Each dimension's share of its points, 0–1. */
  values: Record<Dimension['key'], number>;
  flags: Flag[];
  notes: SentenceNote[];
  sentences: string[];
  order: { score: number; openingRefersBack: boolean };
  hasClosing: boolean;
  transitions: number;
  /** Own sentences with the substance the genre needs (speech and actions, evidence, explaining methods). */
  substance: string[];
  score: number;
  fullMarks: number;
}

const topicName = (title: string | undefined) => (title ?? '').replace(/^题目[:：]/, '').replace(/（[^）]*）$/, '');

function contentComment(c: CommentInput): string {
  const m = c.measures;
  const own = m.sentences.filter((s) => !s.copied && !s.repeated);
  const v = c.values.content;
  const parts: string[] = [];
  const offTopic = own.filter((s, i) => !s.topical && !own[i - 1]?.topical && !own[i + 1]?.topical);
  // Each remark quotes a different sentence where it can.
  const sample = c.substance.find((s) => /[说问][:：，,]?[“"]/.test(s)) ?? c.substance[0];
  const thesis = c.genre === '议论文' ? own.find((s) => /认为|我觉得|观点|应该|关键|必不可少|是一种/.test(s.text))?.text : undefined;
  const onTopic = own.find((s) => s.topical && s.text !== sample && s.text !== thesis) ?? own.find((s) => s.topical);
  if (m.relevance >= 0.8 && onTopic) parts.push(`内容切题，如${quote(onTopic.text)}。`);
  else if (offTopic[0]) parts.push(`${quote(offTopic[0].text)}等句子与题目“${topicName(c.title)}”关系不大，请围绕题目来写。`);
  if (c.genre === '记叙文') {
    if (c.substance.length >= 3 && sample) parts.push(`${quote(sample)}等处写出了人物的语言、动作和感受，细节具体。`);
    else parts.push(`${sample ? `${quote(sample)}有了细节，` : ''}还可以多写人物的语言、动作和心理，把事情写具体。`);
  } else if (c.genre === '议论文') {
    parts.push(thesis ? `论点是${quote(thesis)}。` : '开头要亮明自己的观点。');
    if (c.substance.length >= 2 && sample) parts.push(`用${quote(sample)}等事例作论据。`);
    else parts.push('论据不够充分，请举出具体的事例、数据或名言来证明观点。');
  } else if (c.genre === '说明文') {
    if (c.substance.length >= 3 && sample) parts.push(`${quote(sample)}等处用了列数字、打比方或举例子等说明方法。`);
    else parts.push('可以用列数字、打比方、作比较、举例子等说明方法，把特点说清楚。');
  } else if (sample) parts.push(`${quote(sample)}写得具体。`);
  else parts.push('可以多写具体的内容。');
  // The closing verdict follows the points given, never the other way round.
  if (v < 0.5 && !parts.some((p) => p.includes('关系不大'))) parts.push('内容还不够充实。');
  return parts.join('');
}

function structureComment(c: CommentInput): string {
  const v = c.values.structure;
  if (c.measures.ownChars < 0.5 * c.minChars) return `篇幅太短，还撑不起完整的结构（开头、主体、结尾）。`;
  const last = c.measures.sentences.filter((s) => !s.copied && !s.repeated).at(-1);
  if ((c.genre === '记叙文' || c.genre === '其他') && c.order.score < 0.75 && v < 0.8) {
    const opening = c.order.openingRefersBack ? '（开头的句子承接不上）' : '';
    return c.genre === '记叙文'
      ? `叙述顺序有些混乱${opening}，请按事情发展的先后顺序来写，开头引入、结尾总结。`
      : `句子的先后顺序有些混乱${opening}，请理顺前后的顺序，开头引入、结尾总结。`;
  }
  const ending = c.hasClosing && last ? `结尾${quote(last.text)}收束全文` : '结尾略显仓促，';
  if (c.genre === '议论文') {
    if (v >= 0.7) return `${ending}，提出观点、举例论证、总结全文，层次清楚。`;
    return `${c.hasClosing ? `${ending}，` : ending}可以按“提出观点—分层论证—总结”的顺序安排，用“首先”“其次”“由此可见”等词连接。`;
  }
  if (c.genre === '说明文') {
    if (v >= 0.7) return `${ending}，按方面分段说明，条理清楚。`;
    return `${c.hasClosing ? `${ending}，` : ending}可以按外形、习性、用途等方面分段说明，条理会更清楚。`;
  }
  if (v >= 0.7) return `${ending}，结构完整，层次清楚。`;
  return `${c.hasClosing ? `${ending}，` : ending}中间部分的层次可以再清楚一些，段与段之间要有过渡。`;
}

function languageComment(c: CommentInput): string {
  const v = c.values.language;
  const good = c.notes.filter((n) => n.good);
  const bad = c.notes.filter((n) => !n.good);
  const parts: string[] = [];
  if (good[0]) parts.push(`${quote(c.sentences[good[0].sentence]!)}${good[0].message}。`);
  if (bad[0]) parts.push(`${quote(c.sentences[bad[0].sentence]!)}：${bad[0].message}${bad.length > 1 ? `，全文共 ${bad.length} 处需要修改` : ''}。`);
  if (v >= 0.7) parts.push('语言通顺，用词比较丰富。');
  else if (v >= 0.45) parts.push(good.length ? '语言通顺，还可以更生动些。' : '语言通顺，可以尝试用比喻、排比等修辞让语言更生动。');
  else parts.push('语言比较平淡，用词和句式要多些变化。');
  return parts.join('');
}

function lengthComment(c: CommentInput): string {
  const m = c.measures;
  const left = m.copiedShare + m.repeatedShare > 0.05 ? '（不计抄写题目和重复的部分）' : '';
  return m.ownChars >= c.minChars ? `全文约 ${m.ownChars} 字${left}，达到字数要求。` : `全文约 ${m.ownChars} 字${left}，未达到 ${c.minChars} 字的要求。`;
}

export function commentsFor(c: CommentInput): { dimensions: Record<Dimension['key'], string>; overall: string } {
  if (c.flags.length) {
    // The sentence that shows it: the first one not on the topic, written again, or the first at all.
    const own = c.measures.sentences.filter((s) => !s.copied && !s.repeated);
    const kind = c.flags[0]!.kind;
    const shown =
      kind === 'offTopic' ? own.find((s) => !s.topical) : kind === 'repeated' ? c.measures.sentences.find((s) => s.repeated) : kind === 'copiedPrompt' ? c.measures.sentences.find((s) => s.copied) : own[0];
    const example = shown && !c.flags[0]!.message.includes('「') ? `，如${quote(shown.text)}` : '';
    const reason = `${c.flags.map((f) => f.message).join('；')}${example}`;
    const none = '不能按正常作文评分。';
    return {
      dimensions: { content: `${reason}。`, structure: none, language: none, length: lengthComment(c) },
      overall:
        c.flags[0]!.kind === 'empty' ? '未作答，本题计 0 分。' : `本文不能按正常作文评分：${reason}。请重新写一篇切题的作文。`,
    };
  }
  const dimensions = { content: contentComment(c), structure: structureComment(c), language: languageComment(c), length: lengthComment(c) };
  const ratio = c.score / c.fullMarks;
  const band = ratio >= 0.85 ? '这是一篇优秀的作文。' : ratio >= 0.7 ? '这是一篇良好的作文。' : ratio >= 0.6 ? '作文基本符合要求。' : '作文还需要进一步修改完善。';
  // The weakest dimension is where to start; named only when it is really behind.
  const weakest = c.dims.reduce((a, d) => (d.score / d.max < a.score / a.max ? d : a));
  const hint = weakest.score / weakest.max < 0.6 ? `最需要加强的是${weakest.name}。` : '';
  return { dimensions, overall: `${band}${hint}${dimensions.content}${dimensions.structure}${dimensions.language}${dimensions.length}` };
}
