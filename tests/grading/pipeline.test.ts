import { describe, expect, it } from 'vitest';
import { parseReview } from '../../server/grading/essay/llm.js';
import { groupPages, type ReadPage } from '../../server/grading/index.js';

function page(source: string, sheetId: string, pageNo: number, studentId: string | null, idSource: 'qr' | 'bubbles'): ReadPage {
  return {
    ok: true,
    source,
    sheetId,
    page: pageNo,
    student: { studentId, source: idSource, flags: [] },
    items: [],
    pageFlags: [],
    fills: [],
    shortAnswers: [],
    essays: [],
    needsReview: false,
  };
}

describe('gathering pages into one sheet per student', () => {
  it('groups roster pages by the student in their QR code, in any upload order', () => {
    const groups = groupPages([
      page('a', 'S1', 2, '01', 'qr'),
      page('b', 'S1', 1, '02', 'qr'),
      page('c', 'S1', 1, '01', 'qr'),
      page('d', 'S1', 2, '02', 'qr'),
    ]);
    expect(groups.map((g) => g.map((p) => p.source))).toEqual([['a', 'c'], ['b', 'd']]);
  });

  it('attaches later pages of anonymous sheets to the page 1 scanned before them', () => {
    const groups = groupPages([
      page('1', 'S2', 1, '20240007', 'bubbles'),
      page('2', 'S2', 2, null, 'qr'),
      page('3', 'S2', 1, '20240008', 'bubbles'),
      page('4', 'S2', 2, null, 'qr'),
      page('5', 'S2', 2, null, 'qr'),
    ]);
    // The second page 2 in a row cannot belong to the same student: it starts a group of its own.
    expect(groups.map((g) => g.map((p) => p.source))).toEqual([['1', '2'], ['3', '4'], ['5']]);
  });
});

describe('validating model output', () => {
  it('rejects text that is not JSON and accepts a fenced JSON object', () => {
    expect(parseReview('这篇作文写得很好，给45分。', 50)).toBe('模型输出不是有效的 JSON');
    expect(parseReview('{"score": 40}', 50)).toBe('模型输出缺少评语');
    expect(parseReview('```json\n{"score": 40.3, "comment": "好"}\n```', 50)).toEqual({ score: 40.5, comment: '好', suggestions: [] });
  });
});
