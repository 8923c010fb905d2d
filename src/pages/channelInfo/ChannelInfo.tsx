// 渠道结算 (/channel-info, levels 1 and 2): what the direct children bought in a period and the
// margin earned on them, where that margin stands in the ledger, the monthly statements, and the
// balance with its frozen part, withdrawals and their history (BalanceCard).
import { useMemo, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDataProvider, usePermissions } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import type { AppDataProvider } from '../../dataProvider';
import type { DateRange } from '../../dataProvider/settlement';
import type { Permissions } from '../../authProvider/startup';
import { FREEZE_DAYS } from '../../domain/orders';
import { ScreenCard } from '../../ui/ScreenCard';
import { EmptyState } from '../../ui/EmptyState';
import { dateOnly, money } from '../../domain/format';
import type { ScreenProps } from '../screen';
import { Statements } from './Statements';
import { BalanceCard } from './BalanceCard';

const china = (at: Date) => new Date(at.getTime() + 8 * 3600_000);

/** 近90天, then this month and the five before it. */
function periodOptions(now = new Date()): { label: string; value: string; range: DateRange }[] {
  const options = [{ label: '近90天', value: 'recent', range: { dateFrom: dateOnly(now.getTime() - 89 * 86400_000), dateTo: dateOnly(now) } }];
  const c = china(now);
  for (let back = 0; back < 6; back++) {
    const first = new Date(Date.UTC(c.getUTCFullYear(), c.getUTCMonth() - back, 1));
    const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0));
    options.push({
      label: `${first.getUTCFullYear()}年${first.getUTCMonth() + 1}月`,
      value: first.toISOString().slice(0, 7),
      range: { dateFrom: first.toISOString().slice(0, 10), dateTo: last.toISOString().slice(0, 10) },
    });
  }
  return options;
}

function Figure({ label, fen, hint }: { label: string; fen: number | undefined; hint?: string }) {
  return (
    <Box sx={{ p: 1.5, border: 1, borderColor: 'divider', borderRadius: 1.5, minWidth: 0 }} data-testid={`figure-${label}`}>
      <Typography variant="body2" color="text.secondary" noWrap>
        {label}
      </Typography>
      {/* Long amounts wrap inside their box on a phone instead of running into the next one. */}
      <Typography variant="h6" sx={{ fontWeight: 600, overflowWrap: 'anywhere', fontSize: { xs: 16, sm: 20 } }} data-testid={`amount-${label}`}>
        {money(fen)}
      </Typography>
      {hint && (
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
          {hint}
        </Typography>
      )}
    </Box>
  );
}

/** Two boxes a row on a phone, three or four on a wide screen. */
const figureGrid = (wide: number) => ({ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: `repeat(${wide}, minmax(0, 1fr))` }, gap: 1.5 });

export default function ChannelInfo({ route }: ScreenProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const { permissions } = usePermissions<Permissions>();
  const options = useMemo(() => periodOptions(), []);
  const [period, setPeriod] = useState(options[0].value);
  const range = options.find((o) => o.value === period)!.range;
  const summary = useQuery({ queryKey: ['channelChildren', range], queryFn: () => dataProvider.channelChildren(range), retry: false, placeholderData: keepPreviousData }).data;

  const exportChildren = () => dataProvider.download('/api/wrongbook/v1.0/partner/channel/exportChildren', { name: '下级渠道', ext: 'xlsx', query: { ...range } }).catch(() => undefined);

  return (
    <ScreenCard title={route.meta.title} description={`渠道收入只来自直属下级的进货差价；付款后冻结${FREEZE_DAYS}天（退款期）方可结算，每月初生成上月结算单`}>
      <Stack spacing={2} sx={{ mt: 2 }}>
        <BalanceCard />
        <Card variant="outlined" sx={{ borderRadius: 2 }}>
          <CardContent>
            <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mb: 2 }}>
              <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
                下级渠道
              </Typography>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <TextField select size="small" label="统计期间" value={period} onChange={(e) => setPeriod(e.target.value)} sx={{ minWidth: 140 }}>
                  {options.map((o) => (
                    <MenuItem key={o.value} value={o.value}>
                      {o.label}
                    </MenuItem>
                  ))}
                </TextField>
                <Button startIcon={<FileDownloadOutlined />} onClick={exportChildren} sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
                  导出
                </Button>
              </Stack>
            </Stack>
            {/* Every figure is of the chosen period: the margin booked in it, and where that margin stands now. */}
            <Box sx={{ ...figureGrid(3), mb: 1.5 }}>
              <Figure label="下级进货额" fen={summary?.totals.boughtFen} />
              <Figure label="下级退款额" fen={summary?.totals.refundedFen} />
              <Figure label="期间渠道收入" fen={summary?.totals.marginFen} hint="等于下方四项之和" />
            </Box>
            <Box sx={{ ...figureGrid(4), mb: 2 }}>
              <Figure label="冻结中" fen={summary?.ledger.frozenFen} hint={`付款后${FREEZE_DAYS}天内`} />
              <Figure label="退款中" fen={summary?.ledger.refundingFen} hint="下级申请退款，退款完成前不出账" />
              <Figure label="待出账" fen={summary?.ledger.settleableFen} hint="下月初生成结算单" />
              <Figure label="已出账" fen={summary?.ledger.onStatementFen} hint="已在结算单中" />
            </Box>
            {!summary || !summary.children.length ? (
              <EmptyState />
            ) : (
              <TableContainer>
                <Table size="small" aria-label="下级渠道" sx={{ '& th, & td': { whiteSpace: 'nowrap' } }}>
                  <TableHead>
                    <TableRow>
                      <TableCell>渠道名称</TableCell>
                      <TableCell>级别</TableCell>
                      <TableCell align="right">进货额</TableCell>
                      <TableCell align="right">退款额</TableCell>
                      <TableCell align="right">其下级进货额</TableCell>
                      <TableCell align="right">我的渠道收入</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {summary.children.map((c) => (
                      <TableRow key={c.partnerId}>
                        <TableCell>{c.name}</TableCell>
                        <TableCell>{c.level}级</TableCell>
                        <TableCell align="right">{money(c.boughtFen)}</TableCell>
                        <TableCell align="right">{money(c.refundedFen)}</TableCell>
                        <TableCell align="right">{money(c.soldFen)}</TableCell>
                        <TableCell align="right" sx={{ fontWeight: 600 }}>
                          {money(c.marginFen)}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
            )}
          </CardContent>
        </Card>
        <Card variant="outlined" sx={{ borderRadius: 2 }}>
          <CardContent>
            <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
              结算单
            </Typography>
            <Statements canPay={permissions?.partnerLevel === 1} />
          </CardContent>
        </Card>
      </Stack>
    </ScreenCard>
  );
}
