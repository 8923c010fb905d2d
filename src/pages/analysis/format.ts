// How analysis figures read: '暂无数据' where a rate has no denominator (passed to `percent`), chart values and week labels.
export const NO_DATA = '暂无数据';

/** A chart value: a rate in percent, or null (a gap, never a bar at 0) without a denominator. */
export const chartPercent = (rate: number | null | undefined): number | null => (rate === null || rate === undefined ? null : Math.round(rate * 1000) / 10);

/** '2026-09-07' → '9/7' for a week axis. */
export const weekLabel = (week: string): string => {
  const [, m, d] = week.split('-');
  return `${Number(m)}/${Number(d)}`;
};
