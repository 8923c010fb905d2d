// 终端与纸张 on the data board: the subtree's terminals online now, the open alarms, pages printed
// against paper bought, and the schools whose paper runs out first at the last 14 days' pace.
// Live: beats, transitions and alarms refresh it (at most every few seconds) without a reload.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { Link } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../dataProvider';
import { REORDER_BELOW_DAYS } from '../../domain/alarms';
import { useLiveRefresh } from '../../live/liveEvents';
import { FigureCard } from '../analysis/FigureCard';

export const daysText = (days: number | null) => (days === null ? '近期未打印' : days > 365 ? '一年以上' : `约${days}天`);

export function FleetCard() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const summary = useQuery({ queryKey: ['alarmSummary'], queryFn: () => dataProvider.alarmSummary(), retry: false }).data;
  const consumption = useQuery({ queryKey: ['paperConsumption'], queryFn: () => dataProvider.paperConsumption(), retry: false }).data;
  useLiveRefresh(
    () => {
      void queryClient.invalidateQueries({ queryKey: ['alarmSummary'] });
      void queryClient.invalidateQueries({ queryKey: ['paperConsumption'] });
      void queryClient.invalidateQueries({ queryKey: ['boardOverview'] });
    },
    () => true,
    5000,
  );
  const schools = consumption?.schools.slice(0, 5) ?? [];
  const tiles: [string, string, string][] = [
    ['在线终端', summary ? `${summary.online} / ${summary.deployed}` : '—', 'fleet-online'],
    ['未处理告警', summary ? String(summary.open) : '—', 'fleet-alarms'],
    ['累计购纸（张）', consumption ? consumption.boughtSheets.toLocaleString('zh-CN') : '—', 'fleet-bought'],
    ['累计打印（页）', consumption ? consumption.printedPages.toLocaleString('zh-CN') : '—', 'fleet-printed'],
  ];
  return (
    <FigureCard testId="card-fleet" title="终端与纸张" definition={`实时更新；可用天数按各校近${consumption?.days ?? 14}天的日均打印页数估算`}>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' }, gap: 2, mb: 2 }}>
        {tiles.map(([label, value, id]) => (
          <Box key={id}>
            <Typography variant="body2" color="text.secondary">
              {label}
            </Typography>
            <Typography variant="h6" sx={{ fontWeight: 600 }} data-testid={id}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
      {schools.length ? (
        <TableContainer>
          <Table size="small" sx={{ '& th, & td': { whiteSpace: 'nowrap' } }}>
            <TableHead>
              <TableRow>
                <TableCell>学校</TableCell>
                <TableCell align="right">终端</TableCell>
                <TableCell align="right">剩余纸张</TableCell>
                <TableCell align="right">日均打印</TableCell>
                <TableCell align="right">预计可用</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {schools.map((s) => (
                <TableRow key={s.schoolId}>
                  <TableCell>{s.schoolName}</TableCell>
                  <TableCell align="right">{s.terminals}</TableCell>
                  <TableCell align="right">{s.paperLeft}</TableCell>
                  <TableCell align="right">{s.pagesPerDay}</TableCell>
                  <TableCell align="right" sx={{ color: s.daysLeft !== null && s.daysLeft < REORDER_BELOW_DAYS ? 'error.main' : undefined }}>
                    {daysText(s.daysLeft)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : (
        <Typography variant="body2" color="text.secondary">
          还没有部署到学校的终端。在设备管理中把终端绑定到学校后，这里会显示各校纸张可用天数。
        </Typography>
      )}
      <Box sx={{ mt: 1, display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button component={Link} to="/alarms" size="small">
          查看告警
        </Button>
        <Button component={Link} to="/devices" size="small">
          设备管理
        </Button>
      </Box>
    </FigureCard>
  );
}
