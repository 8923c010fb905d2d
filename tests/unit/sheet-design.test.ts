// The answer-sheet designer's model: answers typed as a row, the builder's limits checked before
// sending, and the sections and key the server receives.
import { describe, expect, it } from 'vitest';
import { buildLayout } from '../../server/grading';
import {
  designError,
  keyError,
  newSection,
  parseAnswerRow,
  sectionNumber,
  SHORT_SIZES,
  toAnswerKey,
  toSheetSections,
  totalPoints,
  type DesignSection,
} from '../../src/pages/aiCorrect/sheetDesign';

const objective = (change: Partial<Extract<DesignSection, { kind: 'objective' }>> = {}) => ({ ...(newSection('objective') as Extract<DesignSection, { kind: 'objective' }>), ...change });

describe('answer rows', () => {
  it('reads one letter per question, or one part per question when separated', () => {
    expect(parseAnswerRow('abcda', 'single')).toEqual(['A', 'B', 'C', 'D', 'A']);
    expect(parseAnswerRow('AB, c，ABD', 'multiple')).toEqual(['AB', 'C', 'ABD']);
    expect(parseAnswerRow('TF√×', 'judge')).toEqual(['√', '×', '√', '×']);
    expect(parseAnswerRow('  ', 'single')).toEqual([]);
  });
});

describe('design limits', () => {
  it('says in Chinese what the layout builder would refuse', () => {
    expect(designError([])).toBe('请至少添加一个题型');
    expect(designError([objective({ count: 60 }), objective({ count: 41 })])).toBe('客观题最多 100 道');
    expect(designError([objective({ count: 3, options: 8 })])).toBe('第 1 题的选项数必须在 2 到 7 之间');
    expect(designError([objective(), { ...(newSection('fill') as Extract<DesignSection, { kind: 'fill' }>), blanks: 7 }])).toBe('二、填空题：每题空数在 1 到 6 之间');
    expect(designError([{ kind: 'essay', cells: 50, prompt: '', minChars: 0, points: 40 }])).toBe('一、作文：格数在 100 到 1500 之间');
    expect(designError([objective(), newSection('short'), newSection('essay')])).toBeNull();
  });

  it('asks for every answer and checks letters against the options', () => {
    expect(keyError([objective({ answers: ['A', 'B', 'C', 'D'] })])).toBe('第 5 题：请填写答案');
    expect(keyError([objective({ count: 2, answers: ['A', 'E'] })])).toBe('第 2 题：答案只能是 A、B、C、D');
    expect(keyError([objective({ count: 1, answers: ['AB'] })])).toBe('第 1 题：单选题只有一个答案');
    expect(keyError([objective({ count: 1, type: 'judge', answers: ['A'] })])).toBe('第 1 题：判断题答案为 √ 或 ×（可输入 T/F）');
  });
});

describe('what the server receives', () => {
  const design: DesignSection[] = [
    objective({ count: 3, type: 'multiple', answers: ['AB', 'C', 'ABD'], points: [2, 2, 4] }),
    { kind: 'fill', count: 1, blanks: 2, answers: [['3/三', 'x']], points: [] },
    { kind: 'short', count: 1, heightMm: 40 },
    { kind: 'essay', cells: 300, prompt: '我的老师', minChars: 200, points: 40 },
  ];

  it('numbers questions on across sections and lays out with the real builder', () => {
    const sections = toSheetSections(design);
    expect(sections.map((s) => s.title)).toEqual(['一、选择题', '二、填空题', '三、解答题', '四、作文']);
    expect(sections[3]).toEqual({ kind: 'essay', title: '四、作文', no: 6, cells: 300, prompt: '我的老师', minChars: 200 });
    const layout = buildLayout({ sheetId: 'S1', title: '测', paper: 'A4', identity: { mode: 'anonymous', digits: 6 }, sections });
    expect(layout.pages.flatMap((p) => p.objective.map((o) => o.no))).toEqual([1, 2, 3]);
  });

  it('keys choices, blanks with their alternatives and the essay; short answers are not scored', () => {
    expect(toAnswerKey(design, { missing: 0.5, wrong: 0 })).toEqual({
      multipleRule: { missing: 0.5, wrong: 0 },
      items: {
        '1': { answer: 'AB', points: 2 },
        '2': { answer: 'C', points: 2 },
        '3': { answer: 'ABD', points: 4 },
        '4': { blanks: [['3', '三'], ['x']], points: 2 },
        '6': { essay: true, points: 40 },
      },
    });
    expect(totalPoints(design)).toBe(50);
    expect(sectionNumber(10)).toBe('十一');
    expect(sectionNumber(19)).toBe('二十');
  });
});

describe('解答题 full marks (网上阅卷)', () => {
  it('keys each 解答题 of a new section for marking online, 10 points until the teacher types others', () => {
    const short = { ...newSection('short'), count: 2 } as Extract<DesignSection, { kind: 'short' }>;
    const design: DesignSection[] = [objective({ count: 1, answers: ['A'] }), { ...short, points: [12] }];
    expect(toAnswerKey(design, { missing: 0.5, wrong: 0 }).items).toEqual({ '1': { answer: 'A', points: 2 }, '2': { manual: true, points: 12 }, '3': { manual: true, points: 10 } });
    expect(totalPoints(design)).toBe(24);
    expect(keyError([{ ...short, points: [0, 10] }])).toBe('第 1 题：分值在 0.5 到 150 之间');
    expect(keyError([{ ...short, points: [2.3, 10] }])).toBe('第 1 题：分值只能是整数或 0.5 分');
  });
});

describe('解答 box sizes', () => {
  it('defaults each 解答 question to the small box and prints the size picked per question', () => {
    const short = newSection('short') as Extract<DesignSection, { kind: 'short' }>;
    expect(short.heightMm).toBe(SHORT_SIZES[0].heightMm);
    const design: DesignSection[] = [{ ...short, count: 3, heights: [40, 130, 80] }];
    const [section] = toSheetSections(design);
    expect(section).toEqual({ kind: 'short', title: '一、解答题', items: [{ no: 1, heightMm: 40 }, { no: 2, heightMm: 130 }, { no: 3, heightMm: 80 }] });
    expect(designError([{ ...short, count: 2, heights: [40, 300] }])).toBe('一、解答题：答题区高度在 10 到 250 毫米之间');
  });
});
