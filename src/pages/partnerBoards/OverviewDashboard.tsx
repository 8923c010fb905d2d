// 数据看板 (/overview-dashboard), the partner's home: the subtree's terminal usage in a month, a
// term or chosen days, as KPI cards and one chart (总体 / 按应用 / 按学科), for all users, students
// or teachers, by pages printed or uses, and the subtree's paper purchases and channel margin. A
// channel partner may narrow it to one partner below.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import type { AppDataProvider } from '../../dataProvider';
import type { Metric, Statistics } from '../../dataProvider/partnerBoards';
import type { RangeQuery } from '../../domain/boardRange';
import { METRICS, ROLE_FILTERS, STATISTICS_MODES } from '../../domain/partner';
import type { Option } from '../../domain/semester';
import type { ScreenProps } from '../screen';
import { EmptyState } from '../../ui/EmptyState';
import { ScreenCard } from '../../ui/ScreenCard';
import { FigureCard } from '../analysis/FigureCard';
import { BoardKpis } from './BoardKpis';
import { RangeFilter, rangeFromSearch } from './RangeFilter';
import { RevenueCard } from './RevenueCard';
import { FleetCard } from './FleetCard';
import { SharePie, UsageChart } from './UsageChart';

function Toggle<V extends string | number>({ label, options, value, onChange }: { label: string; options: Option<V>[]; value: V; onChange: (v: V) => void }) {
  return (
    <ToggleButtonGroup size="small" exclusive color="primary" value={value} onChange={(_, v: V | null) => v !== null && onChange(v)} aria-label={label}>
      {options.map((o) => (
        <ToggleButton key={o.value} value={o.value} sx={{ px: 1.5 }}>
          {o.label}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}

const DEFINITIONS: Record<Statistics, Record<Metric, string>> = {
  overall: { pages: '打印量 = 所辖终端打印的页数', uses: '使用次数 = 所辖终端的登录次数' },
  app: { pages: '各应用打印的页数', uses: '各应用的打印任务数（登录不属于任何应用）' },
  subject: { pages: '各学科打印的页数', uses: '各学科的打印任务数（登录不属于任何学科）' },
};

export default function OverviewDashboard({ route }: ScreenProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [search] = useSearchParams();
  const [range, setRange] = useState<RangeQuery>(() => rangeFromSearch(search));
  const [statistics, setStatistics] = useState<Statistics>('overall');
  const [metric, setMetric] = useState<Metric>('pages');
  const [userKind, setUserKind] = useState(0);
  /** 0: the caller's whole subtree. */
  const [partnerId, setPartnerId] = useState(0);
  const partners = useQuery({ queryKey: ['boardPartners'], queryFn: () => dataProvider.boardPartners(), retry: false }).data ?? [];
  const filter = { ...range, statistics, metric, userKind, partnerId: partnerId || undefined };
  const query = useQuery({ queryKey: ['boardOverview', filter], queryFn: () => dataProvider.boardOverview(filter), retry: false });
  // The http client has shown the server's message.
  const overview = query.isError ? null : query.data;

  const metricName = METRICS.find((m) => m.value === metric)!.label;
  const title = statistics === 'overall' ? `${metricName}趋势` : `${STATISTICS_MODES.find((s) => s.value === statistics)!.label}：${metricName}`;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>
      <ScreenCard title={route.meta.title} description="所辖终端（本级及下级合作伙伴的终端）在所选时间内的使用情况。">
        <Box sx={{ mt: 2, display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 1.5 }}>
          <RangeFilter value={range} onChange={setRange} />
          {partners.length > 1 && (
            <TextField select size="small" label="合作伙伴" value={partnerId} onChange={(e) => setPartnerId(Number(e.target.value))} sx={{ width: 260 }}>
              <MenuItem value={0}>全部（含下级）</MenuItem>
              {partners.map((p) => (
                <MenuItem key={p.id} value={p.id}>
                  {p.name}
                </MenuItem>
              ))}
            </TextField>
          )}
        </Box>
        <Box sx={{ mt: 1.5, display: 'flex', flexWrap: 'wrap', gap: 2 }}>
          <Toggle label="统计方式" options={STATISTICS_MODES} value={statistics} onChange={(v) => setStatistics(v as Statistics)} />
          <Toggle label="角色" options={ROLE_FILTERS} value={userKind} onChange={setUserKind} />
          <Toggle label="统计指标" options={METRICS} value={metric} onChange={(v) => setMetric(v as Metric)} />
        </Box>
        {overview === undefined && <LinearProgress sx={{ mt: 2 }} />}
        {overview === null && <EmptyState text="数据看板加载失败，请调整条件后重试" />}
        {overview && <BoardKpis kpis={overview.kpis} />}
      </ScreenCard>
      {overview && (
        <Box sx={{ display: 'grid', gridTemplateColumns: statistics === 'overall' ? '1fr' : { xs: '1fr', lg: '2fr 1fr' }, gap: 2 }}>
          <FigureCard testId="card-series" title={title} definition={DEFINITIONS[statistics][metric]}>
            <UsageChart range={overview.range} series={overview.series} stacked={statistics !== 'overall'} />
          </FigureCard>
          {statistics !== 'overall' && (
            <FigureCard testId="card-share" title="占比" definition={`所选时间内的${metric === 'pages' ? '页数' : '打印任务数'}合计`}>
              <SharePie items={overview.series} height={320} />
            </FigureCard>
          )}
        </Box>
      )}
      <FleetCard />
      {overview && <RevenueCard range={overview.range} revenue={overview.revenue} />}
    </Box>
  );
}
