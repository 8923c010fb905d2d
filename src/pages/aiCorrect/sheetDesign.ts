// The answer-sheet designer's model, kept free of React: the sections a teacher adds (each a run of
// alike questions), numbered one after another across sections, turned into the server's sheet
// sections and the task's answer key. The limits are those of the layout builder and the request
// schema (server/grading/layout/build.ts, server/modules/correct/schemas.ts), checked here first so
// the teacher reads the reason next to the form rather than after a round trip.
import type { AnswerKey, AnswerKeyItem, SheetSection } from '../../dataProvider/correct';

export type ObjectiveType = 'single' | 'multiple' | 'judge';

export type DesignSection =
  | { kind: 'objective'; count: number; type: ObjectiveType; options: number; answers: string[]; points: number[] }
  | { kind: 'fill'; count: number; blanks: number; answers: string[][]; points: number[] }
  /**
   * `points` per question (网上阅卷 full marks; a section without it, designed before, is not keyed);
   * `heights[i]` is question i's box (a size the teacher picks), `heightMm` the default.
   */
  | { kind: 'short'; count: number; heightMm: number; points?: number[]; heights?: number[] }
  | { kind: 'essay'; cells: number; prompt: string; minChars: number; points: number };

/**
 * 解答 box sizes: a few lines (laid two to a row by the builder, which pairs boxes up to 60 mm),
 * a third of a page, half a page.
 */
export const SHORT_SIZES = [
  { label: '小（几行）', heightMm: 40 },
  { label: '中', heightMm: 80 },
  { label: '大（半页）', heightMm: 130 },
] as const;

/** Question `i`'s box height in a 解答 section. */
export const shortHeight = (s: Extract<DesignSection, { kind: 'short' }>, i: number) => s.heights?.[i] ?? s.heightMm;

export const KIND_LABELS: Record<DesignSection['kind'], string> = { objective: '选择题', fill: '填空题', short: '解答题', essay: '作文' };
export const TYPE_LABELS: Record<ObjectiveType, string> = { single: '单选', multiple: '多选', judge: '判断' };

export const LIMITS = {
  sections: 20,
  objectiveTotal: 100,
  options: [2, 7],
  fillItems: 40,
  blanks: [1, 6],
  shortItems: 20,
  heightMm: [10, 250],
  cells: [100, 1500],
  lastNo: 200,
  digits: [1, 12],
} as const;

const CHINESE_NUMBERS = '一二三四五六七八九十';
/** 一、二、… up to 二十 (the schema allows 20 sections). */
export function sectionNumber(index: number): string {
  if (index < 10) return CHINESE_NUMBERS[index];
  return `十${index === 19 ? '' : CHINESE_NUMBERS[index - 10]}`.replace(/^十$/, '二十');
}

export function newSection(kind: DesignSection['kind']): DesignSection {
  if (kind === 'objective') return { kind, count: 5, type: 'single', options: 4, answers: [], points: [] };
  if (kind === 'fill') return { kind, count: 2, blanks: 1, answers: [], points: [] };
  if (kind === 'short') return { kind, count: 1, heightMm: SHORT_SIZES[0].heightMm, points: [] };
  return { kind, cells: 600, prompt: '', minChars: 500, points: 50 };
}

/** How many numbered questions a section takes. */
export const questionCount = (s: DesignSection) => (s.kind === 'essay' ? 1 : s.count);

/** The first question number of each section (questions are numbered on across sections). */
export function firstNumbers(sections: DesignSection[]): number[] {
  let next = 1;
  return sections.map((s) => {
    const first = next;
    next += questionCount(s);
    return first;
  });
}

const DEFAULT_POINTS = { objective: 2, fill: 2, short: 10 };
/** An item's points, the section default until the teacher types one. */
export const pointsOf = (s: Extract<DesignSection, { kind: 'objective' | 'fill' | 'short' }>, i: number) => s.points?.[i] ?? DEFAULT_POINTS[s.kind];
/** 解答题 sections keyed for marking online: those designed with points. */
const markedShort = (s: DesignSection): s is Extract<DesignSection, { kind: 'short' }> & { points: number[] } => s.kind === 'short' && Array.isArray(s.points);

/** Judge answers as the sheet prints them (√ ×), from what a keyboard types. */
function judge(c: string): string {
  if (/^[t√对y]$/i.test(c)) return '√';
  if (/^[f×x错n]$/i.test(c)) return '×';
  return c;
}

/**
 * A row of answers typed at once: "ABCDA" is one letter per question; with spaces or commas
 * ("AB C ABD") each part is one question's answer, as multiple choice needs.
 */
export function parseAnswerRow(row: string, type: ObjectiveType): string[] {
  const text = row.trim();
  if (!text) return [];
  const parts = /[\s,，、;；]/.test(text) || type === 'multiple' ? text.split(/[\s,，、;；]+/).filter(Boolean) : [...text];
  return parts.map((p) => (type === 'judge' ? judge(p) : p.toUpperCase()));
}

/** Why an objective answer cannot be right for its item, or null. */
export function objectiveAnswerError(answer: string, s: Extract<DesignSection, { kind: 'objective' }>): string | null {
  if (!answer) return '请填写答案';
  if (s.type === 'judge') return answer === '√' || answer === '×' ? null : '判断题答案为 √ 或 ×（可输入 T/F）';
  const letters = 'ABCDEFG'.slice(0, s.options);
  if (![...answer].every((c) => letters.includes(c))) return `答案只能是 ${letters.split('').join('、')}`;
  if (new Set(answer).size !== answer.length) return '答案字母重复';
  if (s.type === 'single' && answer.length !== 1) return '单选题只有一个答案';
  return null;
}

/** The first reason the design cannot be printed, in the builder's words where it has them. */
export function designError(sections: DesignSection[]): string | null {
  if (!sections.length) return '请至少添加一个题型';
  if (sections.length > LIMITS.sections) return `题型最多 ${LIMITS.sections} 个`;
  const objective = sections.reduce((n, s) => n + (s.kind === 'objective' ? s.count : 0), 0);
  if (objective > LIMITS.objectiveTotal) return '客观题最多 100 道';
  const last = sections.reduce((n, s) => n + questionCount(s), 0);
  if (last > LIMITS.lastNo) return `题号最多到 ${LIMITS.lastNo}`;
  const firsts = firstNumbers(sections);
  for (const [i, s] of sections.entries()) {
    const where = `${sectionNumber(i)}、${KIND_LABELS[s.kind]}`;
    if (s.kind !== 'essay' && (!Number.isInteger(s.count) || s.count < 1)) return `${where}：题数至少 1 道`;
    if (s.kind === 'objective' && s.type !== 'judge' && !(s.options >= LIMITS.options[0] && s.options <= LIMITS.options[1])) {
      return `第 ${firsts[i]} 题的选项数必须在 2 到 7 之间`;
    }
    if (s.kind === 'fill') {
      if (s.count > LIMITS.fillItems) return `${where}：最多 ${LIMITS.fillItems} 道`;
      if (!(s.blanks >= LIMITS.blanks[0] && s.blanks <= LIMITS.blanks[1])) return `${where}：每题空数在 1 到 6 之间`;
    }
    if (s.kind === 'short') {
      if (s.count > LIMITS.shortItems) return `${where}：最多 ${LIMITS.shortItems} 道`;
      for (let k = 0; k < s.count; k++) {
        const h = shortHeight(s, k);
        if (!(h >= LIMITS.heightMm[0] && h <= LIMITS.heightMm[1])) return `${where}：答题区高度在 10 到 250 毫米之间`;
      }
    }
    if (s.kind === 'essay') {
      if (!(s.cells >= LIMITS.cells[0] && s.cells <= LIMITS.cells[1])) return `${where}：格数在 100 到 1500 之间`;
      if (!(s.minChars >= 0 && s.minChars <= s.cells)) return `${where}：最少字数在 0 到格数之间`;
    }
  }
  return null;
}

/** The first reason the answer key is incomplete, or null. */
export function keyError(sections: DesignSection[]): string | null {
  const firsts = firstNumbers(sections);
  for (const [i, s] of sections.entries()) {
    if (s.kind === 'objective') {
      for (let k = 0; k < s.count; k++) {
        const error = objectiveAnswerError(s.answers[k] ?? '', s);
        if (error) return `第 ${firsts[i] + k} 题：${error}`;
      }
    }
    if (s.kind === 'fill') {
      for (let k = 0; k < s.count; k++) {
        for (let b = 0; b < s.blanks; b++) {
          if (!(s.answers[k]?.[b] ?? '').trim()) return `第 ${firsts[i] + k} 题第 ${b + 1} 空：请填写答案`;
        }
      }
    }
    if (s.kind === 'short' && !markedShort(s)) continue;
    const points = s.kind === 'essay' ? [s.points] : Array.from({ length: s.count }, (_, k) => pointsOf(s, k));
    const max = s.kind === 'objective' || s.kind === 'fill' ? 100 : 150;
    const min = s.kind === 'short' ? 0.5 : 0;
    for (const [k, p] of points.entries()) {
      if (!(p >= min && p <= max)) return `第 ${firsts[i] + k} 题：分值在 ${min} 到 ${max} 之间`;
      if (s.kind === 'short' && !Number.isInteger(p * 2)) return `第 ${firsts[i] + k} 题：分值只能是整数或 0.5 分`;
    }
  }
  return null;
}

/** The sheet's sections, numbered on from 1, titled 一、选择题 … */
export function toSheetSections(sections: DesignSection[]): SheetSection[] {
  const firsts = firstNumbers(sections);
  return sections.map((s, i): SheetSection => {
    const title = `${sectionNumber(i)}、${KIND_LABELS[s.kind]}`;
    const nos = Array.from({ length: questionCount(s) }, (_, k) => firsts[i] + k);
    if (s.kind === 'objective') {
      return { kind: 'objective', title, items: nos.map((no) => (s.type === 'judge' ? { no, type: 'judge' } : { no, type: s.type, options: s.options })) };
    }
    if (s.kind === 'fill') return { kind: 'fill', title, items: nos.map((no) => ({ no, blanks: s.blanks })) };
    if (s.kind === 'short') return { kind: 'short', title, items: nos.map((no, k) => ({ no, heightMm: shortHeight(s, k) })) };
    return { kind: 'essay', title, no: firsts[i], cells: s.cells, ...(s.prompt.trim() ? { prompt: s.prompt.trim() } : {}), minChars: s.minChars };
  });
}

/** Accepted answers of one blank: alternatives separated by “/”. */
const alternatives = (text: string) => text.split(/[/／]/).map((a) => a.trim()).filter(Boolean);

export function toAnswerKey(sections: DesignSection[], multipleRule: { missing: number; wrong: number }): AnswerKey {
  const firsts = firstNumbers(sections);
  const items: Record<string, AnswerKeyItem> = {};
  for (const [i, s] of sections.entries()) {
    if (s.kind === 'essay') {
      items[String(firsts[i])] = { essay: true, points: s.points };
      continue;
    }
    // Short answers are printed for the student to write in and marked by the teacher online
    // (网上阅卷) out of their points; the engine does not score them.
    if (s.kind === 'short') {
      if (markedShort(s)) for (let k = 0; k < s.count; k++) items[String(firsts[i] + k)] = { manual: true, points: pointsOf(s, k) };
      continue;
    }
    for (let k = 0; k < s.count; k++) {
      const no = String(firsts[i] + k);
      const points = pointsOf(s, k);
      if (s.kind === 'objective') items[no] = { answer: s.answers[k] ?? '', points };
      else items[no] = { blanks: Array.from({ length: s.blanks }, (_, b) => alternatives(s.answers[k]?.[b] ?? '')), points };
    }
  }
  const hasMultiple = sections.some((s) => s.kind === 'objective' && s.type === 'multiple');
  return { ...(hasMultiple ? { multipleRule } : {}), items };
}

/** Full marks of the design: the sum of every item's points. */
export function totalPoints(sections: DesignSection[]): number {
  return sections.reduce((sum, s) => {
    if (s.kind === 'essay') return sum + (s.points || 0);
    if (s.kind === 'short' && !markedShort(s)) return sum;
    let t = 0;
    for (let k = 0; k < s.count; k++) t += pointsOf(s, k) || 0;
    return sum + t;
  }, 0);
}
