// 数据看板's money: the subtree's paper purchases (less refunds) and its channel margin, as two
// tiles and bars per bucket, in yuan (the API keeps integer fen). A day of refunds is a bar below 0.
import Box from '@mui/material/Box';
import { BarChart } from '@mui/x-charts/BarChart';
import { bucketLabel, type BoardRange } from '../../domain/boardRange';
import { money } from '../../domain/format';
import { yuan } from '../../domain/partner';
import type { BoardRevenue } from '../../dataProvider/partnerBoards';
import { EmptyState } from '../../ui/EmptyState';
import { FigureCard } from '../analysis/FigureCard';
import { Tile } from '../../ui/Tile';

const DEFINITION =
  '进货额 = 所辖合作伙伴已支付的纸张订单金额（按支付日），扣除期间完成的退款；渠道收入 = 向直属下级供货的差价（按记账日），扣除退款冲减。不受角色筛选影响。';

export function RevenueCard({ range, revenue }: { range: BoardRange; revenue: BoardRevenue }) {
  const empty = !revenue.boughtFen && !revenue.refundedFen && !revenue.marginFen;
  return (
    <FigureCard testId="card-revenue" title="进货与渠道收入" definition={DEFINITION}>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: 2, mb: 2 }}>
        <Tile label="进货额" value={yuan(revenue.boughtFen - revenue.refundedFen)} unit="元" hint={`已支付 ${yuan(revenue.boughtFen)} 元，退款 ${yuan(revenue.refundedFen)} 元`} />
        <Tile label="渠道收入" value={yuan(revenue.marginFen)} unit="元" hint="向直属下级供货的差价" />
      </Box>
      {empty ? (
        <EmptyState />
      ) : (
        <BarChart
          height={260}
          xAxis={[{ scaleType: 'band', data: range.buckets.map((b) => bucketLabel(b, range.bucket)), height: 40 }]}
          yAxis={[{ width: 80, valueFormatter: (v: number) => `${v < 0 ? '-' : ''}¥${(Math.abs(v) / 100).toLocaleString('zh-CN')}` }]}
          series={[
            { data: revenue.net, label: '进货额', color: '#5c6bc0', valueFormatter: (v) => (v === null ? '' : money(v)) },
            { data: revenue.margin, label: '渠道收入', color: '#26a69a', valueFormatter: (v) => (v === null ? '' : money(v)) },
          ]}
        />
      )}
    </FigureCard>
  );
}
