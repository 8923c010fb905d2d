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

const COLORS = ['#5c6bc0', '#26a69a', '#ffa726', '#ef5350', '#ab47bc', '#8d6e63', '#42a5f5', '#9ccc65'];
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
        series={series.map((s, i) => ({ data: s.values, label: s.name, color: COLORS[i % COLORS.length], valueFormatter, curve: 'linear' as const, showMark: range.buckets.length <= 40 }))}
        hideLegend={series.length === 1}
      />
    );
  }
  return (
    <BarChart
      height={height}
      xAxis={xAxis}
      yAxis={yAxis}
      series={series.map((s, i) => ({ data: s.values, label: s.name, stack: 'total', color: COLORS[i % COLORS.length], valueFormatter }))}
    />
  );
}

/** Shares of a total (apps or subjects of the range). */
export function SharePie({ items, height = 260 }: { items: { id: number; name: string; total: number }[]; height?: number }) {
  const shown = items.filter((i) => i.total > 0);
  if (!shown.length) return <EmptyState />;
  return (
    <PieChart
      height={height}
      series={[{ data: shown.map((s, i) => ({ id: s.id, value: s.total, label: s.name, color: COLORS[i % COLORS.length] })), innerRadius: 50, valueFormatter: (v) => count(v.value) }]}
    />
  );
}
