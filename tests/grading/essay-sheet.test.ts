// An essay on an answer sheet, scored with the rest of the sheet (pipeline.scoreSubmission): left
// empty it counts as 0 of its full marks (the total's full marks include it), and the sheet's
// prompt reaches the scorer whole, so copying it out scores near 0.
import { describe, expect, it } from 'vitest';
import { buildLayout, scoreSubmission, type AnswerKey, type ItemReading, type ReadPage } from '../../server/grading/index.js';
import { essayTopic } from '../../server/grading/pipeline.js';

const PROMPT = '以“我的老师”为题，写一篇记叙文。要求：写出老师的特点，感情真挚，不少于300字。';
const layout = buildLayout({
  sheetId: 'ESSAY1',
  title: '语文练习',
  paper: 'A4',
  identity: { mode: 'roster', students: [{ id: 's1', name: '张三' }] },
  sections: [
    { kind: 'objective', title: '一、选择题', items: Array.from({ length: 19 }, (_, i) => ({ no: i + 1, type: 'single' as const, options: 4 })) },
    { kind: 'essay', title: '二、作文', no: 20, cells: 400, prompt: PROMPT, minChars: 300 },
  ],
});
const key: AnswerKey = {
  sheetId: 'ESSAY1',
  items: { ...Object.fromEntries(Array.from({ length: 19 }, (_, i) => [String(i + 1), { answer: 'A', points: 2 }])), '20': { essay: true, points: 50 } },
};

function pages(essay: string | null): ReadPage[] {
  return layout.pages.map((p) => ({
    ok: true,
    source: `p${p.page}`,
    sheetId: 'ESSAY1',
    page: p.page,
    student: { studentId: 's1', source: 'qr', flags: [] },
    items: p.objective.map((o): ItemReading => ({ no: o.no, type: 'single', answer: 'A', confidence: 1, flags: [], bubbles: [] })),
    pageFlags: [],
    fills: [],
    shortAnswers: [],
    essays: essay !== null && p.essay.length ? [{ no: 20, firstCell: p.essay[0]!.firstCell, text: essay, confidence: 0.9, rows: [] }] : [],
    needsReview: false,
  }));
}

describe('an essay on an answer sheet', () => {
  it('left empty counts as 0 of its full marks, not left out of the total', async () => {
    const s = await scoreSubmission(pages(null), { layouts: [layout], keys: [key], llm: null }, [layout]);
    expect(s.score!.max).toBe(19 * 2 + 50);
    expect(s.score!.total).toBe(38);
    const item = s.score!.items.find((i) => i.no === 20)!;
    expect(item).toMatchObject({ score: 0, max: 50, status: 'blank', needsReview: true });
    expect(item.reasons[0]).toContain('未作答');
    expect(s.essays[0]!.result.rubric.flags[0]!.kind).toBe('empty');
  });

  it('copying the printed prompt out scores near 0: the whole prompt reaches the scorer', async () => {
    const s = await scoreSubmission(pages(PROMPT), { layouts: [layout], keys: [key], llm: null }, [layout]);
    const item = s.score!.items.find((i) => i.no === 20)!;
    expect(item.score).toBeLessThanOrEqual(1);
    expect(s.essays[0]!.result.rubric.comment).toContain('抄写题目');
  });

  it('takes the title the prompt names, and passes the whole prompt', () => {
    expect(essayTopic(PROMPT)).toEqual({ title: '我的老师', prompt: PROMPT });
    expect(essayTopic('我的家乡')).toEqual({ title: '我的家乡', prompt: '我的家乡' });
    expect(essayTopic(undefined)).toEqual({});
  });
});
