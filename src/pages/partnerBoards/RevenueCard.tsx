// 数据看板's money: the partner's own paper purchases (less refunds) and its own channel margin
// (the figure 渠道结算 shows for the same days), and beside them the same for its whole subtree,
// each tile labelled which it is; bars per bucket of the subtree's, in yuan (the API keeps
// integer fen). A day of refunds is a bar below 0.
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
  '进货额 = 已支付的纸张订单金额（按支付日），扣除期间完成的退款；渠道收入 = 向直属下级供货的差价（按记账日），扣除退款冲减。“本级”只算本合作伙伴自己的，与渠道结算同期的“期间渠道收入”一致；“含下级”加上所有下级合作伙伴各自的。不受角色筛选影响。';

export function RevenueCard({ range, revenue }: { range: BoardRange; revenue: BoardRevenue }) {
  const empty = !revenue.boughtFen && !revenue.refundedFen && !revenue.marginFen;
  const own = revenue.own;
  return (
    <FigureCard testId="card-revenue" title="进货与渠道收入" definition={DEFINITION}>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(4, minmax(0, 1fr))' }, gap: 2, mb: 2 }}>
        <Tile label="本级进货额" value={yuan(own.boughtFen - own.refundedFen)} unit="元" hint={`本级已支付 ${yuan(own.boughtFen)} 元，退款 ${yuan(own.refundedFen)} 元`} />
        <Tile label="本级渠道收入" value={yuan(own.marginFen)} unit="元" hint="本级向直属下级供货的差价，即渠道结算的期间渠道收入" />
        <Tile label="含下级进货额" value={yuan(revenue.boughtFen - revenue.refundedFen)} unit="元" hint={`本级与所有下级：已支付 ${yuan(revenue.boughtFen)} 元，退款 ${yuan(revenue.refundedFen)} 元`} />
        <Tile label="含下级渠道收入" value={yuan(revenue.marginFen)} unit="元" hint="本级与所有下级各自赚取的差价之和" />
      </Box>
      {empty ? (
        <EmptyState />
      ) : (
        <BarChart
          height={260}
          xAxis={[{ scaleType: 'band', data: range.buckets.map((b) => bucketLabel(b, range.bucket)), height: 40 }]}
          yAxis={[{ width: 80, valueFormatter: (v: number) => `${v < 0 ? '-' : ''}¥${(Math.abs(v) / 100).toLocaleString('zh-CN')}` }]}
          series={[
            { data: revenue.net, label: '进货额（含下级）', color: '#5c6bc0', valueFormatter: (v) => (v === null ? '' : money(v)) },
            { data: revenue.margin, label: '渠道收入（含下级）', color: '#26a69a', valueFormatter: (v) => (v === null ? '' : money(v)) },
          ]}
        />
      )}
    </FigureCard>
  );
}
