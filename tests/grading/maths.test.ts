// Fill-in answers read and compared as maths: what counts as the key's answer, and which wrong
// readings are one OCR confusion away from it and so go to the teacher instead of losing points.
import { describe, expect, it } from 'vitest';
import { kindMismatch, mathsEqual, nearMiss, numberOf, quantityOf, sameValue } from '../../server/grading/score/maths.js';
import { scoreFill } from '../../server/grading/score/score.js';

describe('maths answers', () => {
  it('reads signs, fractions, decimals, percentages and degrees as numbers', () => {
    expect(numberOf('-2')).toEqual({ value: -2, unit: '' });
    expect(numberOf('1/3')?.value).toBeCloseTo(1 / 3);
    expect(numberOf('90°')).toEqual({ value: 90, unit: '°' });
    expect(numberOf('x+1')).toBeNull();
    expect(numberOf('1/0')).toBeNull();
  });

  it('accepts what a teacher would: the same number in another spelling, x=3 for 3, x read as ×', () => {
    expect(mathsEqual('−2', '-2')).toBe(true);
    expect(mathsEqual('-2', '－2')).toBe(true);
    expect(mathsEqual('+3', '3')).toBe(true);
    expect(mathsEqual('90°', '90度')).toBe(true);
    expect(mathsEqual('3', 'x=3')).toBe(true);
    expect(mathsEqual('x=3', '3')).toBe(true);
    expect(mathsEqual('2x+1', '2×+1')).toBe(true);
    expect(mathsEqual('三', '三')).toBe(true);
  });

  it('sends the same number in another form to the teacher instead of scoring it', () => {
    for (const [key, read] of [['0.5', '1/2'], ['1/2', '2/4'], ['50%', '0.5'], ['3.10', '3.1'], ['x=0.5', '1/2']]) {
      expect(mathsEqual(key, read), `${key} / ${read}`).toBe(false);
      expect(sameValue(key, read), `${key} / ${read}`).toBe(true);
      expect(nearMiss([key], read), `${key} / ${read}`).toBe(true);
    }
    expect(sameValue('1/3', '0.333333333')).toBe(false);
    expect(sameValue('90°', '90')).toBe(false);
    const flagged = scoreFill(8, [{ no: 8, box: 0, text: '1/2', confidence: 0.97, blank: false }], { blanks: [['0.5']], points: 2 }, 0.8);
    expect(flagged).toMatchObject({ score: 0, needsReview: true });
    expect(flagged.reasons).toEqual(['第 1 空为“1/2”，与答案数值相同但写法不同，请核对']);
  });

  it('does not accept a different answer', () => {
    expect(mathsEqual('-2', '2')).toBe(false);
    expect(mathsEqual('90°', '90')).toBe(false);
    expect(mathsEqual('1/3', '13')).toBe(false);
    expect(mathsEqual('x=3', 'y=3')).toBe(false);
    expect(mathsEqual('3*4', '3x4')).toBe(false);
    expect(mathsEqual('90°', '0.9')).toBe(false);
    expect(mathsEqual('3', '5')).toBe(false);
  });

  it('flags the readings OCR gets wrong on maths (found on handwriting the tests never used)', () => {
    expect(nearMiss(['-2'], '2')).toBe(true); // the minus dropped
    expect(nearMiss(['90°'], '900')).toBe(true); // ° read as 0
    expect(nearMiss(['90°'], '90')).toBe(true); // ° not seen
    expect(nearMiss(['1/3'], '113')).toBe(true); // the bar read as 1
    expect(nearMiss(['1/3'], '13')).toBe(true); // the bar not seen
    expect(nearMiss(['0.5'], '05')).toBe(true);
  });

  it('flags the look-alike letters and digits and the lost coefficient seen in calibration (bench/calibrate.ts)', () => {
    expect(nearMiss(['9b+6'], '96+6')).toBe(true); // b read as 6
    expect(nearMiss(['9y-8'], 'gy-8')).toBe(true); // 9 read as g
    expect(nearMiss(['7n+2'], 'Tn+2')).toBe(true); // 7 read as T
    expect(nearMiss(['3a+7'], '3a+?')).toBe(true);
    expect(nearMiss(['21米'], '2/米')).toBe(true); // 1 read as a slash
    expect(nearMiss(['120°'], '120·')).toBe(true); // ° read as a dot
    expect(nearMiss(['7x-7'], 'x-7')).toBe(true); // the coefficient lost
    expect(nearMiss(['9b+6'], '9b+5')).toBe(false);
  });

  it('leaves plainly wrong answers alone, so the review load stays small', () => {
    expect(nearMiss(['-2'], '5')).toBe(false);
    expect(nearMiss(['1/3'], '3/4')).toBe(false);
    expect(nearMiss(['90°'], '45°')).toBe(false);
    expect(nearMiss(['三'], '四')).toBe(false);
    expect(nearMiss(['-2'], '')).toBe(false);
  });

  it('scores a near miss 0 but marks it for review whatever the OCR confidence; scores a maths match in full', () => {
    const key = { blanks: [['-2'], ['90°']], points: 4 };
    const missed = scoreFill(7, [{ no: 7, box: 0, text: '2', confidence: 0.94, blank: false }, { no: 7, box: 1, text: '90度', confidence: 0.97, blank: false }], key, 0.8);
    expect(missed).toMatchObject({ score: 2, needsReview: true, status: 'partial' });
    expect(missed.reasons).toEqual(['第 1 空识别为“2”，与答案仅差一个易误读的符号，请核对']);
    const right = scoreFill(7, [{ no: 7, box: 0, text: '−2', confidence: 0.95, blank: false }, { no: 7, box: 1, text: '90°', confidence: 0.95, blank: false }], key, 0.8);
    expect(right).toMatchObject({ score: 4, needsReview: false, status: 'correct' });
  });

  it('keeps exponents, subscripts and ℃ apart instead of folding them (10² is not 102, 2³ is not 23)', () => {
    expect(mathsEqual('10²', '102')).toBe(false);
    expect(mathsEqual('2³', '23')).toBe(false);
    expect(mathsEqual('cm²', 'cm2')).toBe(false);
    expect(mathsEqual('a₁', 'a1')).toBe(false);
    expect(mathsEqual('10²', '10²')).toBe(true);
    expect(mathsEqual('10²', '10^2')).toBe(true);
    expect(mathsEqual('x²', 'x**2')).toBe(true);
    expect(mathsEqual('100℃', '100°C')).toBe(true);
    expect(mathsEqual('100℃', '100C')).toBe(false);
    expect(quantityOf('2^3')).toEqual({ value: 8, unit: '' });
    // A superscript read on the line is one OCR confusion away: the teacher decides, no points lost.
    const read = scoreFill(5, [{ no: 5, box: 0, text: '102', confidence: 0.97, blank: false }], { blanks: [['10²']], points: 2 }, 0.8);
    expect(read).toMatchObject({ score: 0, needsReview: true });
  });

  it('sends a reading that is not the kind of answer asked for to the teacher, whatever its confidence', () => {
    expect(kindMismatch(['90°'], 'qo°')).toBe(true);
    expect(kindMismatch(['100℃'], '100 C')).toBe(true);
    expect(kindMismatch(['x=3'], 'x=s')).toBe(true);
    expect(kindMismatch(['2x+1'], '2x+l中')).toBe(true);
    expect(kindMismatch(['90°'], '45°')).toBe(false);
    expect(kindMismatch(['-2'], '5')).toBe(false);
    expect(kindMismatch(['x=3'], 'x=5')).toBe(false);
    expect(kindMismatch(['三角形'], '正方形')).toBe(false);
    expect(kindMismatch(['m≤9'], 'm≤')).toBe(true); // the number after the sign lost
    expect(kindMismatch(['m≤9'], 'm≤5')).toBe(false);
    for (const [key, text, confidence] of [['90°', 'qo°', 0.84], ['100℃', '100 C', 0.91]] as const) {
      const s = scoreFill(3, [{ no: 3, box: 0, text, confidence, blank: false }], { blanks: [[key]], points: 2 }, 0.83);
      expect(s, `${key} / ${text}`).toMatchObject({ score: 0, needsReview: true });
      expect(s.reasons[0]).toContain('不像本题应有的答案写法');
    }
    const wrong = scoreFill(3, [{ no: 3, box: 0, text: '45°', confidence: 0.95, blank: false }], { blanks: [['90°']], points: 2 }, 0.83);
    expect(wrong).toMatchObject({ score: 0, needsReview: false, status: 'wrong' });
  });

  it('reads ≥, ≠, √ and π in the spellings a key is typed with, and flags their usual misreadings', () => {
    expect(mathsEqual('x≥3', 'x>=3')).toBe(true);
    expect(mathsEqual('x≥3', 'x≧3')).toBe(true);
    expect(mathsEqual('a≠0', 'a!=0')).toBe(true);
    expect(mathsEqual('√2', 'sqrt(2)')).toBe(true);
    expect(mathsEqual('√2', '√(2)')).toBe(true);
    expect(mathsEqual('2π', '2pi')).toBe(true);
    expect(mathsEqual('x≥3', 'x>3')).toBe(false);
    expect(mathsEqual('√2', '2')).toBe(false);
    expect(nearMiss(['x≥3'], 'x>3')).toBe(true);
    expect(nearMiss(['x≥3'], 'x=3')).toBe(true);
    expect(nearMiss(['a≠0'], 'a=0')).toBe(true);
    expect(nearMiss(['√2'], 'v2')).toBe(true);
    expect(nearMiss(['√2'], '2')).toBe(true);
    expect(nearMiss(['2π'], '2n')).toBe(true);
    expect(nearMiss(['2π'], '2')).toBe(true);
    expect(nearMiss(['√2'], '5')).toBe(false);
    // Seen on the bench's held-out handwriting (bench/readings/fillins.ts).
    expect(nearMiss(['π/4'], 'T/4')).toBe(true);
    expect(nearMiss(['4π'], '41T')).toBe(true);
    expect(nearMiss(['4√7'], '47')).toBe(true);
    expect(nearMiss(['2√6'], '2√')).toBe(true);
    expect(nearMiss(['8²'], '82')).toBe(true);
    expect(nearMiss(['3√7'], '3')).toBe(true); // the whole root lost
    expect(nearMiss(['3√7'], '4')).toBe(false);
    expect(mathsEqual('150°', '150*')).toBe(true);
    expect(mathsEqual('100℃', '100*C')).toBe(true);
  });
});
