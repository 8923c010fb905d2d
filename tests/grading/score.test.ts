import { describe, expect, it } from 'vitest';
import { normalise, pageLevels, stateOf } from '../../server/grading/omr/bubbles.js';
import { normaliseAnswer, normaliseJudge, scoreChoice, scoreFill, scoreSheet, type ItemReading } from '../../server/grading/index.js';

function reading(no: number, type: ItemReading['type'], answer: string, flags: ItemReading['flags'] = []): ItemReading {
  return { no, type, answer, confidence: 1, flags, bubbles: [] };
}

describe('objective scoring', () => {
  const rule = { missing: 0.5, wrong: 0 };

  it('gives full marks, half for 少选 and zero for 错选 on multiple choice', () => {
    const key = { answer: 'ACD', points: 4 };
    expect(scoreChoice(reading(1, 'multiple', 'ACD'), key, rule)).toMatchObject({ score: 4, status: 'correct' });
    expect(scoreChoice(reading(1, 'multiple', 'AC'), key, rule)).toMatchObject({ score: 2, status: 'partial', reasons: ['少选'] });
    expect(scoreChoice(reading(1, 'multiple', 'ABC'), key, rule)).toMatchObject({ score: 0, status: 'wrong', reasons: ['错选'] });
    expect(scoreChoice(reading(1, 'multiple', ''), key, rule)).toMatchObject({ score: 0, status: 'blank' });
  });

  it('follows a configured partial-credit rule', () => {
    expect(scoreChoice(reading(1, 'multiple', 'A'), { answer: 'AB', points: 6 }, { missing: 1 / 3, wrong: 0 }).score).toBe(2);
  });

  it('accepts a key written in any order or case', () => {
    expect(scoreChoice(reading(1, 'multiple', 'BD'), { answer: 'db', points: 2 }, rule).status).toBe('correct');
  });

  it('accepts 判断 keys written √/×, T/F or 对/错', () => {
    for (const k of ['√', 'T', '对', '正确']) expect(scoreChoice(reading(9, 'judge', '√'), { answer: k, points: 1 }, rule).score).toBe(1);
    for (const k of ['×', 'F', '错', 'x']) expect(scoreChoice(reading(9, 'judge', '×'), { answer: k, points: 1 }, rule).score).toBe(1);
    expect(normaliseJudge('也许')).toBeNull();
  });

  it('keeps a flagged reading marked for review even when it scores', () => {
    const s = scoreChoice(reading(3, 'single', 'B', ['uncertain']), { answer: 'B', points: 3 }, rule);
    expect(s.score).toBe(3);
    expect(s.needsReview).toBe(true);
  });
});

describe('fill-in scoring', () => {
  it('treats full/half width, spaces and 。/. as equal', () => {
    expect(normaliseAnswer('Ｘ＝２')).toBe(normaliseAnswer('x = 2'));
    expect(normaliseAnswer('举头望明月。')).toBe('举头望明月');
    expect(normaliseAnswer('3．14')).toBe('3.14');
    expect(normaliseAnswer('（1，2）')).toBe('(1,2)');
  });

  it('accepts any equivalent form in the key, scoring per blank', () => {
    const texts = [
      { no: 41, box: 0, text: '三', confidence: 0.97, blank: false },
      { no: 41, box: 1, text: 'x=5', confidence: 0.95, blank: false },
    ];
    const s = scoreFill(41, texts, { blanks: [['3', '三'], ['x=2']], points: 4 }, 0.8);
    expect(s).toMatchObject({ score: 2, status: 'partial', needsReview: false });
  });

  it('sends a low-confidence reading to the teacher', () => {
    const s = scoreFill(42, [{ no: 42, box: 0, text: '12', confidence: 0.4, blank: false }], { blanks: [['12']], points: 2 }, 0.8);
    expect(s.score).toBe(2);
    expect(s.needsReview).toBe(true);
    expect(s.reasons[0]).toContain('置信度低');
  });

  it('totals a sheet and reports whether review is needed', () => {
    const key = { sheetId: 'S', items: { '1': { answer: 'A', points: 2 }, '2': { answer: 'B', points: 2 }, '3': { blanks: [['5']], points: 3 } } };
    const s = scoreSheet(
      [reading(1, 'single', 'A'), reading(2, 'single', '', ['blank'])],
      [{ no: 3, box: 0, text: '５', confidence: 0.99, blank: false }],
      key,
    );
    expect(s).toMatchObject({ total: 5, max: 7, needsReview: true });
  });
});

describe('page-relative bubble levels', () => {
  it('finds empty and filled levels even when most bubbles on the page are filled', () => {
    const inks = [...Array(30).fill(0.72), ...Array(10).fill(0.08), 0.7, 0.1];
    const { empty, full } = pageLevels(inks);
    expect(empty).toBeCloseTo(0.08, 5);
    expect(full).toBeCloseTo(0.72, 5);
  });

  it('reads a blank page as empty and a faint mark on it as uncertain, not marked', () => {
    const levels = pageLevels([...Array(40).fill(0.06), 0.3]);
    expect(levels.empty).toBeCloseTo(0.06, 5);
    expect(stateOf(normalise({ ink: 0.06 }, levels))).toBe('empty');
    expect(stateOf(normalise({ ink: 0.3 }, levels))).toBe('uncertain');
  });
});
