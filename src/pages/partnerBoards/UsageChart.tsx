// A board's chart over the range's buckets: one line (总体), or one stacked bar per app or subject,
// with zh-CN numbers and '暂无数据' when the range has no usage.
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { PieChart } from '@mui/x-charts/PieChart';
import { bucketLabel, type BoardRange } from '../../domain/boardRange';
import type { BoardSeries } from '../../dataProvider/partnerBoards';
import { EmptyState } from '../../ui/EmptyState';

export const count = (n: number) => n.toLocaleString('zh-CN');
const valueFormatter = (v: number | null) => (v === null ? '' : count(v));

/**
 * Series colours, each a different hue or lightness, enough for every subject a school teaches
 * (the old eight repeated from the ninth on: 数学 and 道德与法治 drew in the same blue). Past the
 * list, hues step by the golden angle, so no two series ever share a colour.
 */
export const SERIES_COLORS = [
  '#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#b07aa1', '#76b7b2', '#edc948', '#9c755f',
  '#ff9da7', '#79706e', '#a0cbe8', '#8cd17d', '#d37295', '#b6992d', '#ffbe7d', '#499894',
];
export const seriesColor = (i: number) => (i < SERIES_COLORS.length ? SERIES_COLORS[i] : `hsl(${Math.round((i * 137.508) % 360)}, 55%, 50%)`);
const BUCKET_NAMES = { day: '日期', week: '周（起始日）', month: '月份' } as const;

export function UsageChart({ range, series, stacked, height = 320 }: { range: BoardRange; series: BoardSeries[]; stacked?: boolean; height?: number }) {
  if (!series.some((s) => s.total > 0)) return <EmptyState />;
  const xAxis = [{ scaleType: 'band' as const, data: range.buckets.map((b) => bucketLabel(b, range.bucket)), label: BUCKET_NAMES[range.bucket], height: 52 }];
  const yAxis = [{ width: 64, min: 0, valueFormatter: (v: number) => count(v) }];
  if (!stacked) {
    return (
      <LineChart
        height={height}
        xAxis={[{ ...xAxis[0], scaleType: 'point' as const }]}
        yAxis={yAxis}
        series={series.map((s, i) => ({ data: s.values, label: s.name, color: seriesColor(i), valueFormatter, curve: 'linear' as const, showMark: range.buckets.length <= 40 }))}
        hideLegend={series.length === 1}
      />
    );
  }
  return (
    <BarChart
      height={height}
      xAxis={xAxis}
      yAxis={yAxis}
      series={series.map((s, i) => ({ data: s.values, label: s.name, stack: 'total', color: seriesColor(i), valueFormatter }))}
    />
  );
}

/** Shares of a total (apps or subjects of the range). */
export function SharePie({ items, height = 260 }: { items: { id: number; name: string; total: number }[]; height?: number }) {
  // A slice keeps the colour of its place among all the items, the same as its bar in the chart beside it.
  const shown = items.map((item, i) => ({ ...item, color: seriesColor(i) })).filter((i) => i.total > 0);
  if (!shown.length) return <EmptyState />;
  return (
    <PieChart
      height={height}
      series={[{ data: shown.map((s) => ({ id: s.id, value: s.total, label: s.name, color: s.color })), innerRadius: 50, valueFormatter: (v) => count(v.value) }]}
    />
  );
}
