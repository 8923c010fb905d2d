// The boards read whole months from the monthly rollups and the days around them from the daily
// ones: for any range, the parts cover every day of it exactly once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitRange } from '../../server/modules/partner/boardQuery';
import { addDays, daysBetween } from '../../src/domain/boardRange';

/** Every day the parts stand for, a month row standing for each of its days. */
function coveredDays(range: { from: string; to: string }): string[] {
  const split = splitRange(range);
  const out: string[] = [];
  for (const d of split.days) for (let day = d.from; day <= d.to; day = addDays(day, 1)) out.push(day);
  if (split.months) {
    for (let day = split.months.from; day.slice(0, 7) <= split.months.to.slice(0, 7); day = addDays(day, 1)) out.push(day);
  }
  return out.sort();
}

describe('splitRange', () => {
  it('a whole year from the first of a month is twelve months and no days', () => {
    expect(splitRange({ from: '2025-03-01', to: '2026-02-28' })).toEqual({ months: { from: '2025-03-01', to: '2026-02-01' }, days: [] });
  });

  it('mid-month to mid-month: the days before, the whole months, the days after', () => {
    expect(splitRange({ from: '2025-11-26', to: '2026-11-25' })).toEqual({
      months: { from: '2025-12-01', to: '2026-10-01' },
      days: [
        { from: '2025-11-26', to: '2025-11-30' },
        { from: '2026-11-01', to: '2026-11-25' },
      ],
    });
  });

  it('a range inside one month, or across two without a whole one, is days only', () => {
    expect(splitRange({ from: '2026-02-03', to: '2026-02-27' })).toEqual({ months: null, days: [{ from: '2026-02-03', to: '2026-02-27' }] });
    expect(splitRange({ from: '2026-01-20', to: '2026-02-10' })).toEqual({ months: null, days: [{ from: '2026-01-20', to: '2026-02-10' }] });
    expect(splitRange({ from: '2024-02-01', to: '2024-02-29' })).toEqual({ months: { from: '2024-02-01', to: '2024-02-01' }, days: [] });
  });

  it('covers every day of any range exactly once', () => {
    const day = fc.integer({ min: 0, max: 3 * 366 }).map((n) => addDays('2024-01-01', n));
    fc.assert(
      fc.property(day, fc.integer({ min: 0, max: 400 }), (from, length) => {
        const range = { from, to: addDays(from, length) };
        const days = coveredDays(range);
        expect(days).toHaveLength(daysBetween(range.from, range.to));
        expect(days[0]).toBe(range.from);
        expect(days[days.length - 1]).toBe(range.to);
        expect(new Set(days).size).toBe(days.length);
      }),
    );
  });
});
