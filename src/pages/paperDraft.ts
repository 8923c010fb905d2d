// The paper being built on /paper, as plain data and pure steps (no React): sections of questions
// with points, the title and duration, and the body the server takes. Kept apart so the rules
// (where a new question goes, the limits, the total) read in one place.
import { QuestionType } from '../domain/content';
import type { BankQuestion, PaperDetail, PaperInput } from '../dataProvider/papers';

export interface DraftItem {
  question: BankQuestion;
  points: number;
}
export interface DraftSection {
  key: number;
  title: string;
  items: DraftItem[];
}
export interface Draft {
  paperId?: number;
  title: string;
  durationMinutes: number;
  sections: DraftSection[];
}

/** The server's limits (docs/api-content.md): 1–10 sections of 1–100 questions, points 0.5–100, 10–300 minutes. */
export const LIMITS = { sections: 10, perSection: 100, minPoints: 0.5, maxPoints: 100, minMinutes: 10, maxMinutes: 300, title: 100, sectionTitle: 50 };

/** The section a question of a type joins by default, in the order papers usually run. */
const DEFAULT_SECTIONS: { title: string; types: number[] }[] = [
  { title: '选择题', types: [QuestionType.single, QuestionType.multiple] },
  { title: '判断题', types: [QuestionType.judge] },
  { title: '填空题', types: [QuestionType.blank] },
  { title: '解答题', types: [QuestionType.answer, QuestionType.composite] },
  { title: '作文', types: [QuestionType.essay] },
];

let nextKey = 1;
const key = () => nextKey++;

export const emptyDraft = (title = ''): Draft => ({ title, durationMinutes: 90, sections: [] });

export const draftIds = (draft: Draft) => new Set(draft.sections.flatMap((s) => s.items.map((i) => i.question.id)));
export const draftCount = (draft: Draft) => draft.sections.reduce((n, s) => n + s.items.length, 0);
export const draftTotal = (draft: Draft) => draft.sections.reduce((n, s) => n + s.items.reduce((t, i) => t + (Number.isFinite(i.points) ? i.points : 0), 0), 0);

/** Adds a question to its type's section (made where that type's section belongs when missing). */
export function addQuestion(draft: Draft, question: BankQuestion): Draft | string {
  if (draftIds(draft).has(question.id)) return draft;
  const title = DEFAULT_SECTIONS.find((s) => s.types.includes(question.type))?.title ?? '其他题';
  const item = { question, points: question.points };
  const at = draft.sections.findIndex((s) => s.title === title);
  if (at >= 0) {
    if (draft.sections[at].items.length >= LIMITS.perSection) return `每个大题最多 ${LIMITS.perSection} 道题`;
    return { ...draft, sections: draft.sections.map((s, i) => (i === at ? { ...s, items: [...s.items, item] } : s)) };
  }
  if (draft.sections.length >= LIMITS.sections) return `一份试卷最多 ${LIMITS.sections} 个大题`;
  const rank = (t: string) => {
    const r = DEFAULT_SECTIONS.findIndex((s) => s.title === t);
    return r < 0 ? DEFAULT_SECTIONS.length : r;
  };
  const sections = [...draft.sections];
  const insertAt = sections.findIndex((s) => rank(s.title) > rank(title));
  sections.splice(insertAt < 0 ? sections.length : insertAt, 0, { key: key(), title, items: [item] });
  return { ...draft, sections };
}

export function removeQuestion(draft: Draft, questionId: number): Draft {
  const sections = draft.sections.map((s) => ({ ...s, items: s.items.filter((i) => i.question.id !== questionId) }));
  // A section emptied by removing its last question goes too (the server refuses empty sections).
  return { ...draft, sections: sections.filter((s) => s.items.length > 0 || !draft.sections.find((d) => d.key === s.key)?.items.length) };
}

export function setPoints(draft: Draft, questionId: number, points: number): Draft {
  return { ...draft, sections: draft.sections.map((s) => ({ ...s, items: s.items.map((i) => (i.question.id === questionId ? { ...i, points } : i)) })) };
}

/** Moves a question up or down within its section. */
export function moveQuestion(draft: Draft, questionId: number, step: -1 | 1): Draft {
  return {
    ...draft,
    sections: draft.sections.map((s) => {
      const i = s.items.findIndex((x) => x.question.id === questionId);
      const j = i + step;
      if (i < 0 || j < 0 || j >= s.items.length) return s;
      const items = [...s.items];
      [items[i], items[j]] = [items[j], items[i]];
      return { ...s, items };
    }),
  };
}

export function moveSection(draft: Draft, sectionKey: number, step: -1 | 1): Draft {
  const i = draft.sections.findIndex((s) => s.key === sectionKey);
  const j = i + step;
  if (i < 0 || j < 0 || j >= draft.sections.length) return draft;
  const sections = [...draft.sections];
  [sections[i], sections[j]] = [sections[j], sections[i]];
  return { ...draft, sections };
}

export function renameSection(draft: Draft, sectionKey: number, title: string): Draft {
  return { ...draft, sections: draft.sections.map((s) => (s.key === sectionKey ? { ...s, title } : s)) };
}

/** Sets every question of a section to the same points (the usual "每题 3 分"). */
export function sectionPoints(draft: Draft, sectionKey: number, points: number): Draft {
  return { ...draft, sections: draft.sections.map((s) => (s.key === sectionKey ? { ...s, items: s.items.map((i) => ({ ...i, points })) } : s)) };
}

export function fromPaper(paper: PaperDetail): Draft {
  return {
    paperId: paper.id,
    title: paper.title,
    durationMinutes: paper.durationMinutes,
    sections: paper.sections.map((s) => ({ key: key(), title: s.title, items: s.questions.map((q) => ({ question: q.question, points: q.points })) })),
  };
}

/** What is wrong with the draft before it is sent, in the words the teacher sees; null when it may be saved. */
export function draftProblem(draft: Draft): string | null {
  if (!draft.title.trim()) return '请填写试卷标题';
  if (draft.title.trim().length > LIMITS.title) return `试卷标题不能超过 ${LIMITS.title} 个字`;
  if (!Number.isInteger(draft.durationMinutes) || draft.durationMinutes < LIMITS.minMinutes || draft.durationMinutes > LIMITS.maxMinutes)
    return `考试时长须在 ${LIMITS.minMinutes} 到 ${LIMITS.maxMinutes} 分钟之间`;
  if (!draftCount(draft)) return '试题篮是空的，请先从题库加入题目';
  for (const s of draft.sections) {
    if (!s.title.trim()) return '请填写每个大题的标题';
    if (s.title.trim().length > LIMITS.sectionTitle) return `大题标题不能超过 ${LIMITS.sectionTitle} 个字`;
    for (const i of s.items) {
      if (!Number.isFinite(i.points) || i.points < LIMITS.minPoints || i.points > LIMITS.maxPoints) return `每题分值须在 ${LIMITS.minPoints} 到 ${LIMITS.maxPoints} 分之间`;
    }
  }
  return null;
}

export function toInput(draft: Draft, subjectId: number, gradeLevel: number): PaperInput {
  return {
    title: draft.title.trim(),
    subjectId,
    gradeLevel,
    durationMinutes: draft.durationMinutes,
    sections: draft.sections.filter((s) => s.items.length).map((s) => ({ title: s.title.trim(), questions: s.items.map((i) => ({ questionId: i.question.id, points: i.points })) })),
  };
}

const NUMERALS: Record<string, number> = { 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** The year of schooling (1–12) a grade's name stands for: 七年级 7, 初二 8, 高一 10; null when unknown. */
export function gradeLevelOf(name: string): number | null {
  const n = name.trim();
  let m = /^([一二三四五六七八九])年级/.exec(n);
  if (m) return NUMERALS[m[1]];
  m = /^(\d{1,2})年级/.exec(n);
  if (m && Number(m[1]) >= 1 && Number(m[1]) <= 12) return Number(m[1]);
  m = /^初([一二三])/.exec(n);
  if (m) return 6 + NUMERALS[m[1]];
  m = /^高([一二三])/.exec(n);
  if (m) return 9 + NUMERALS[m[1]];
  return null;
}

/** Stage of the knowledge-point tree for a year of schooling: 小学 1, 初中 2, 高中 3. */
export const stageOf = (level: number) => (level <= 6 ? 1 : level <= 9 ? 2 : 3);

export function addSection(draft: Draft, title: string): Draft | string {
  if (draft.sections.length >= LIMITS.sections) return `一份试卷最多 ${LIMITS.sections} 个大题`;
  return { ...draft, sections: [...draft.sections, { key: key(), title, items: [] }] };
}

/** Moves a question to the end of another section. */
export function moveToSection(draft: Draft, questionId: number, sectionKey: number): Draft | string {
  const item = draft.sections.flatMap((s) => s.items).find((i) => i.question.id === questionId);
  const target = draft.sections.find((s) => s.key === sectionKey);
  if (!item || !target || target.items.includes(item)) return draft;
  if (target.items.length >= LIMITS.perSection) return `每个大题最多 ${LIMITS.perSection} 道题`;
  const removed = removeQuestion(draft, questionId);
  return { ...removed, sections: removed.sections.map((s) => (s.key === sectionKey ? { ...s, items: [...s.items, item] } : s)) };
}

/** Drops an empty section. */
export function dropSection(draft: Draft, sectionKey: number): Draft {
  return { ...draft, sections: draft.sections.filter((s) => s.key !== sectionKey || s.items.length > 0) };
}
