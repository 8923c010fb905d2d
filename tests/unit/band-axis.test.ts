// Bar charts label every category; on a phone long or many labels lean at 45° in a smaller type,
// with the axis as tall as they need, so they never overprint each other.
import { describe, expect, it } from 'vitest';
import { bandAxis } from '../../src/ui/bandAxis';

describe('band axis', () => {
  const classes = Array.from({ length: 12 }, (_, i) => `七年级(${i + 1})班`);

  it('keeps labels level on a wide screen', () => {
    const axis = bandAxis(classes, false);
    expect(axis.tickLabelStyle).toEqual({ fontSize: 12 });
    expect(axis.height).toBe(32);
    expect(axis.data).toEqual(classes);
    expect(axis.tickLabelInterval()).toBe(true);
  });

  it('leans twelve class names on a phone and makes room for them below the axis', () => {
    const axis = bandAxis(classes, true);
    expect(axis.tickLabelStyle).toMatchObject({ angle: -45, textAnchor: 'end' });
    // The longest name, 七年级(12)班, is 8 characters, at most 80 px wide in 10 px type: leaning at
    // 45° it reaches 57 px below the axis.
    expect(axis.height).toBeGreaterThanOrEqual(57);
    expect(axis.height).toBeLessThanOrEqual(90);
  });

  it('leaves a few short labels level even on a phone', () => {
    expect(bandAxis(['语文', '数学', '英语'], true).tickLabelStyle).toEqual({ fontSize: 12 });
  });
});
