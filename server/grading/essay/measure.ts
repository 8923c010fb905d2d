// What an essay is made of, sentence by sentence over the whole text: which sentences were
// copied from the prompt or from earlier in the essay, which read as Chinese sentences (words
// from the segmenter's dictionary, particles where grammar puts them) and which stay on the
// topic. Scores built on these shares cannot be carried by a title line or one good sentence.
import { Jieba } from '@node-rs/jieba';
import { dict } from '@node-rs/jieba/dict.js';

/** ICU's Chinese word segmenter (Node's full ICU): dictionary words; unknown text falls apart into single characters. */
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

export const words = (s: string): string[] => [...segmenter.segment(s)].filter((w) => w.isWordLike).map((w) => w.segment);

const han = (s: string) => [...s].filter((c) => /\p{Script=Han}/u.test(c)).length;
const letters = (s: string) => [...s].filter((c) => /[\p{L}\p{N}]/u.test(c)).join('');

/** Single characters that are words on their own in ordinary writing (pronouns, particles, common verbs and measure words). */
const SINGLE_WORDS = new Set(
  [...'我你他她它的了着过是在有和与跟同把被给从向对往到为就才都也还又再很太更最不没别要会能可想说看听走跑来去做吃喝写读学问笑哭叫拿放打开关买卖用坐站住让使叫请等找送带跟教讲玩买一二三四五六七八九十两几个只位本张条件次天年月日岁点分些每这那哪谁啥么吗呢吧啊呀哦嘛得地之其以而且但因所如若或即便虽则于乃后前上下里外中内边头手眼心人家门水火山树花草鸟鱼马牛羊狗猫书字话题事时多少大小长短高低好坏新旧冷热快慢真假已将正刚曾先像比跟'],
);

/** A sentence this short is a line of a grid read without its punctuation. */
const SHORT_LINE = 14;

/** Characters too common to tell a topic by (生 of 学生, 活 of 干活, 国 of 中国 …). */
const COMMON = new Set([...'生活学国家子们时年会以发成经所面种着样能动方还进用过那于同作意开现实长己见明问力理尔点文几定本公特做外孩相西果物高月女没把将当入真加化白气正已听见回'].filter((c) => c !== '物'));

/** A clause cannot begin with these (they attach to what comes before). */
const NO_START = new Set(['的', '了', '着', '过', '吗', '呢', '吧', '啊', '得', '地', '们', '么', '之', '似的']);
/** A clause cannot end with these (they need what comes after). */
const NO_END = new Set(['在', '把', '被', '从', '向', '和', '跟', '对', '因为', '所以', '但是', '而且', '虽然', '如果', '就', '才', '很', '最', '更', '太', '非常', '每', '这', '那', '一个', '一种', '一', '不', '没', '都', '也', '又', '还', '比', '让', '使', '为了', '关于', '当']);
/** Two words that never stand side by side. */
const BAD_PAIRS = new Set(['的的', '的了', '了的', '把的', '被的', '很的', '不的', '的很', '在的', '和的', '的和', '了了', '着了', '的着', '的地', '地的', '得的', '的得', '很了', '把了', '被了', '很很', '在了', '和了', '的吗', '的呢', '一的', '把把', '被被']);

/** jieba with its dictionary (part-of-speech tags), loaded once per thread on first use (0.3–1.3 s, ~60 MB). */
let tagger: Jieba | null = null;
const tag = (s: string) => (tagger ??= Jieba.withDict(dict)).tag(s, true);

const PARTICLES = new Set(['uj', 'ul', 'uz', 'ug', 'ud', 'uv', 'y']);
/** Tags that cannot follow a tag: 的 before 了/和/在/我, 把 before 的, 很 before 的, 和 before 了 … */
const CANNOT_FOLLOW: Record<string, Set<string>> = {
  uj: new Set(['uj', 'ul', 'uz', 'ug', 'ud', 'uv', 'c', 'p', 'y', 'r']),
  ul: new Set(['uj', 'ul', 'uz', 'ug', 'uv', 'ud']),
  uz: new Set(['uj', 'ul', 'uz', 'ug', 'ud', 'uv']),
  p: new Set(['uj', 'ul', 'uz', 'ug', 'ud', 'uv', 'y', 'c']),
  d: new Set(['uj', 'uz', 'ug', 'uv', 'y']),
  c: new Set(['uj', 'ul', 'uz', 'ug', 'ud', 'uv', 'y']),
};
/** A clause does not end on a preposition, conjunction or 地, nor on an adverb that needs a verb after it. */
const CANNOT_END = new Set(['p', 'c', 'uv']);
const ADVERBS_BEFORE = new Set([...'很都也就才又还再最太更不没只'].concat(['非常', '已经', '正在', '一直', '马上', '立刻', '十分', '只是', '不是']));

/**
 * Word order, from jieba's part-of-speech tags: particles and function words where Chinese
 * grammar cannot put them (a clause opening with 的 or 了, ending with 把 or 因为, 的 before 了,
 * 很 before 的), per 100 words. Written sentences have 0–2; the same words shuffled have 4–6.
 */
export function grammarBreaks(sentences: string[]): { per100: number; count: number; words: number; examples: string[] } {
  let count = 0;
  let bad = 0;
  const examples: string[] = [];
  for (const sentence of sentences) {
    for (const clause of sentence.split(/[，,、；;：:。！？!?…“”"‘’（）()《》]/)) {
      if (!/\p{Script=Han}/u.test(clause)) continue;
      // 有的…有的… (some … others) is a pronoun, not 有 + 的.
      const tw = tag(clause.replace(/有的/g, '有些')).filter((w) => /\p{Script=Han}/u.test(w.word));
      count += tw.length;
      if (tw.length < 2) continue;
      const broken: string[] = [];
      if (PARTICLES.has(tw[0]!.tag)) broken.push(clause);
      const last = tw[tw.length - 1]!;
      if (CANNOT_END.has(last.tag) || (last.tag === 'd' && ADVERBS_BEFORE.has(last.word))) broken.push(clause);
      for (let i = 0; i + 1 < tw.length; i++) {
        const a = tw[i]!;
        const b = tw[i + 1]!;
        if (CANNOT_FOLLOW[a.tag]?.has(b.tag) || (b.tag === 'ul' && ['uj', 'p', 'c'].includes(a.tag))) broken.push(clause);
      }
      bad += broken.length;
      if (broken.length && examples.length < 3) examples.push(clause);
    }
  }
  return { per100: count ? (100 * bad) / count : 0, count: bad, words: count, examples };
}

export interface SentenceMeasure {
  text: string;
  /** Letters and digits in it. */
  chars: number;
  /** Copied from the title or prompt (or only the title written out). */
  copied: boolean;
  /** Mostly repeats what the essay already said. */
  repeated: boolean;
  /** 0–1: how much it reads as Chinese sentences (dictionary words, particles in place). */
  fluency: number;
  /** Names the topic (a word of the title or prompt, or a word the essay ties to the topic). */
  topical: boolean;
}

export interface Measures {
  sentences: SentenceMeasure[];
  /** Characters the student wrote themselves: not copied from the prompt, not repeated. */
  ownChars: number;
  /** Shares of all characters written. */
  copiedShare: number;
  repeatedShare: number;
  /** Share of the own characters in sentences that read as Chinese (fluency ≥ 0.5). */
  fluency: number;
  /** Share of the own characters in sentences on the topic or next to one that is. */
  relevance: number;
  topicWords: string[];
  /** Misplaced function words per 100 words of the own sentences (see grammarBreaks). */
  grammar: { per100: number; count: number; words: number; examples: string[] };
}

/** Instruction words of a prompt: they say how to write, not what about. */
const PROMPT_STOP = new Set(
  '写 一篇 记叙文 议论文 说明文 作文 文章 要求 题目 为题 以 请 内容 具体 感情 真挚 不少于 字数 字 观点 明确 论据 充分 论证 合理 语言 准确 说明 顺序 介绍 表现 通过 有人 也有 一两 件 这种 你的 你 写出 事情 特点 一种 一个 我们 自己 什么 可以 进行 结合 生活 经历 体会 题材 不限 文体 诗歌 除外 自拟 标题 立意 自定 谈谈 认识 看法 想法 一次 的 了 是 不少 我的 你的 他的 她的 我们的 最 一件 一位 一本 一天 一句'.split(' '),
);

/** People a title can be about; 他/她 in the essay then refer to them. */
const PERSON = /老师|妈妈|爸爸|母亲|父亲|同学|朋友|爷爷|奶奶|外婆|外公|姥姥|姥爷|哥哥|姐姐|弟弟|妹妹|邻居|校长|阿姨|叔叔|人/;

const cleanTitle = (t: string) => t.replace(/^题目[:：]/, '').replace(/[（(][^）)]*[）)]$/, '');

/** Content words of the title and prompt. */
export function topicWordsOf(title: string | undefined, prompt: string | undefined): string[] {
  const fromTitle = words(cleanTitle(title ?? '')).filter((w) => han(w) >= 2 && !PROMPT_STOP.has(w));
  const fromPrompt = words(prompt ?? '').filter((w) => han(w) >= 2 && !PROMPT_STOP.has(w));
  const out = new Set([...fromTitle, ...fromPrompt]);
  if (PERSON.test(title ?? '')) ['她', '他'].forEach((w) => out.add(w));
  return [...out];
}

/** Splits into sentences at full stops and line ends (OCR lines of a grid may have no punctuation). */
export function sentencesOf(text: string): string[] {
  return text
    .split(/\n+|(?<=[。！？!?…；;][”’"」』]?)(?![”’"」』。！？!?…；;])/)
    .map((s) => s.replace(/\s+/g, ''))
    .filter((s) => letters(s).length > 0);
}

/**
 * How much a sentence reads as Chinese: the share of its characters in dictionary words (or in
 * single characters that are words by themselves), less a share for each clause that opens or
 * closes on a particle that cannot stand there or has two particles side by side. Random
 * characters fall apart into rare single characters; shuffled words break the particle rules.
 */
export function fluencyOf(sentence: string): number {
  const clauses = sentence.split(/[，,、；;：:。！？!?…“”"‘’（）()《》]/).filter((c) => han(c) > 0);
  const total = han(sentence);
  if (!total) return 1;
  let inWords = 0;
  let broken = 0;
  let checked = 0;
  for (const clause of clauses) {
    const ws = words(clause).filter((w) => han(w) > 0);
    for (const w of ws) if (han(w) >= 2 || SINGLE_WORDS.has(w)) inWords += han(w);
    if (ws.length < 2) continue;
    checked++;
    let bad = NO_START.has(ws[0]!) || NO_END.has(ws[ws.length - 1]!);
    for (let i = 0; i + 1 < ws.length && !bad; i++) bad = BAD_PAIRS.has(ws[i]! + ws[i + 1]!);
    if (bad) broken++;
  }
  const wordShare = inWords / total;
  const brokenShare = checked ? broken / checked : 0;
  return Math.max(0, Math.min(1, wordShare - 1.2 * brokenShare));
}

/** 6-character runs of a text, for spotting what is copied or repeated. */
function runs(s: string, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i + n <= s.length; i++) out.push(s.slice(i, i + n));
  return out;
}

/** Share of a sentence covered by runs found in `source` (n characters long). */
function coveredBy(sentence: string, has: (run: string) => boolean, n: number): number {
  const s = letters(sentence);
  if (s.length < n) return has(s) ? 1 : 0;
  const covered = new Array<boolean>(s.length).fill(false);
  for (let i = 0; i + n <= s.length; i++) if (has(s.slice(i, i + n))) for (let k = i; k < i + n; k++) covered[k] = true;
  return covered.filter(Boolean).length / s.length;
}

export function measure(text: string, title?: string, prompt?: string): Measures {
  const sentenceTexts = sentencesOf(text);
  const source = letters(`${cleanTitle(title ?? '')}${prompt ?? ''}`);
  const titleLetters = letters(cleanTitle(title ?? ''));
  const seen = new Set<string>();
  const topicWords = topicWordsOf(title, prompt);
  const sentences: SentenceMeasure[] = sentenceTexts.map((t) => {
    const l = letters(t);
    // A line that is only the title (as students head their essay) is copied, not written.
    const copied = Boolean(source) && (l === titleLetters || (l.length >= 5 && coveredBy(t, (r) => source.includes(r), 5) >= 0.6) || (l.length < 5 && source.includes(l) && l.length >= 3));
    const repeated = !copied && l.length >= 6 && coveredBy(t, (r) => seen.has(r), 6) >= 0.7;
    for (const r of runs(l, 6)) seen.add(r);
    return { text: t, chars: l.length, copied, repeated, fluency: fluencyOf(t), topical: false };
  });
  const own = sentences.filter((s) => !s.copied && !s.repeated);
  // Words the essay ties to its topic: content words of its own sentences that name the topic,
  // used at least three times (a 说明文 on 我喜欢的一种植物 is about 竹子 from its first sentence on).
  const counts = new Map<string, number>();
  for (const s of own) for (const w of words(s.text)) if (han(w) >= 2) counts.set(w, (counts.get(w) ?? 0) + 1);
  const tied = new Set<string>();
  const titleWords = topicWordsOf(title, undefined).filter((w) => w !== '他' && w !== '她');
  for (const s of own) {
    // Only the title ties words to the topic: a prompt word in passing (放弃 in an essay about a
    // teacher) must not make the teacher the topic of 谈坚持.
    if (!titleWords.some((w) => s.text.includes(w))) continue;
    for (const w of words(s.text)) if (han(w) >= 2 && (counts.get(w) ?? 0) >= 3 && !PROMPT_STOP.has(w) && !/^(我们|他们|她们|自己|一个|这个|那个|没有|就是|因为|所以|但是|可是|然后|已经|时候|什么)$/.test(w)) tied.add(w);
  }
  // 他/她 stand for the person of the title only in an essay that names that person.
  const namesPerson = own.filter((s) => titleWords.some((w) => s.text.includes(w))).length >= 2;
  const topic = [...topicWords.filter((w) => namesPerson || (w !== '他' && w !== '她')), ...tied];
  // A distinctive character of the title names its topic too: 负 in 零下/负一楼/负号 for 生活中的负数.
  const marks = [...new Set(titleWords.join(''))].filter((c) => /\p{Script=Han}/u.test(c) && !SINGLE_WORDS.has(c) && !COMMON.has(c));
  for (const s of sentences) s.topical = !s.copied && (topic.some((w) => s.text.includes(w)) || marks.some((c) => s.text.includes(c)));
  // A sentence is on topic when it or a neighbour names the topic, or one that does is within
  // 20 characters (OCR lines of a grid are short sentences of their own).
  const ownChars = own.reduce((a, s) => a + s.chars, 0);
  const ends: number[] = [];
  own.reduce((at, s) => (ends.push(at + s.chars), at + s.chars), 0);
  const gap = (i: number, j: number) => (j < i ? ends[i]! - own[i]!.chars - ends[j]! : ends[j]! - own[j]!.chars - ends[i]!);
  const near = (i: number) => own.some((o, j) => o.topical && (Math.abs(i - j) <= 1 || (own[i]!.chars <= SHORT_LINE && gap(i, j) <= 20)));
  let covered = 0;
  own.forEach((s, i) => {
    if (near(i)) covered += s.chars;
  });
  const all = sentences.reduce((a, s) => a + s.chars, 0) || 1;
  return {
    sentences,
    ownChars,
    copiedShare: sentences.filter((s) => s.copied).reduce((a, s) => a + s.chars, 0) / all,
    repeatedShare: sentences.filter((s) => s.repeated).reduce((a, s) => a + s.chars, 0) / all,
    fluency: ownChars ? own.filter((s) => s.fluency >= 0.5).reduce((a, s) => a + s.chars, 0) / ownChars : 0,
    relevance: ownChars ? (topic.length ? covered / ownChars : 1) : 0,
    topicWords: topic,
    grammar: grammarBreaks(own.map((s) => s.text)),
  };
}
