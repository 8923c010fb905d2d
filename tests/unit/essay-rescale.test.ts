import { describe, expect, it } from 'vitest';
import { rescaleDimensions } from '../../src/pages/aiCorrect/composition/rescale';
import type { EssayDimension } from '../../src/dataProvider/correct';

const dims = (scores: number[], maxes = [7, 4, 6, 3]): EssayDimension[] =>
  (['content', 'structure', 'language', 'length'] as const).map((key, i) => ({ key, name: key, score: scores[i]!, max: maxes[i]!, comment: '' }));
const sum = (d: EssayDimension[]) => Math.round(d.reduce((s, x) => s + x.score, 0) * 10) / 10;

describe('printed essay dimensions follow the total', () => {
  it('add up to the teacher total of 16/20, each within its own full marks', () => {
    const out = rescaleDimensions(dims([4, 2, 3.5, 3]), 16, 20);
    expect(sum(out)).toBe(16);
    for (const d of out) expect(d.score).toBeLessThanOrEqual(d.max);
    expect(out.reduce((s, d) => s + d.max, 0)).toBe(20);
    // The weaker dimensions got the points: length was already full.
    expect(out.find((d) => d.key === 'length')!.score).toBe(3);
  });

  it('take points away in proportion when the teacher marks lower, and keep an odd total exact', () => {
    const out = rescaleDimensions(dims([6, 3, 5, 3]), 9.5, 20);
    expect(sum(out)).toBe(9.5);
    for (const d of out) expect(d.score).toBeGreaterThanOrEqual(0);
  });

  it('rescale full marks when the task has other full marks than the rubric', () => {
    const out = rescaleDimensions(dims([28, 16, 24, 12], [35, 20, 30, 15]), 40, 50);
    expect(out.map((d) => d.max)).toEqual([17.5, 10, 15, 7.5]);
    expect(sum(out)).toBe(40);
  });

  it('leaves them alone without a total', () => {
    const d = dims([4, 2, 3.5, 3]);
    expect(rescaleDimensions(d, null, 20)).toBe(d);
  });
});
