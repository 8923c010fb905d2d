// The student wrong-answer book's vocabularies, shared by the server (validation) and the screen.

/** Mastery of a wrong question: a correct answer later moves it one step up, a new wrong answer back to 0. */
export const MASTERY = [
  { value: 0, label: '未掌握' },
  { value: 1, label: '巩固中' },
  { value: 2, label: '已掌握' },
] as const;

/** Why the student got it wrong, as the teacher judges it. */
export const ERROR_CAUSES = [
  { value: 1, label: '概念不清' },
  { value: 2, label: '计算失误' },
  { value: 3, label: '审题错误' },
  { value: 4, label: '粗心' },
  { value: 5, label: '其他' },
] as const;

export const masteryLabel = (value: number): string => MASTERY.find((m) => m.value === value)?.label ?? '未掌握';
export const causeLabel = (value: number | null): string => ERROR_CAUSES.find((c) => c.value === value)?.label ?? '';
