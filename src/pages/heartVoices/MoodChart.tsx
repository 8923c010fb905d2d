// Mood over the last weeks (1 很难过 … 5 很开心), one line per grade, or per class of the header's
// grade. Counts only: no message is read to draw it.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { LineChart } from '@mui/x-charts/LineChart';
import type { AppDataProvider } from '../../dataProvider';
import type { HeartPlace } from '../../dataProvider/heartVoices';
import { weekLabel } from '../analysis/format';
import { EmptyState } from '../../ui/EmptyState';
import { ScreenCard } from '../../ui/ScreenCard';

export function MoodChart({ place }: { place: HeartPlace }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const { gradeId, classId } = place;
  // The last chart stays up while another grade or class loads, as before.
  const query = useQuery({ queryKey: ['heartMood', gradeId, classId], queryFn: () => dataProvider.heartMood({ gradeId, classId }), retry: false, placeholderData: keepPreviousData });
  const mood = query.isError ? null : query.data;
  return (
    <ScreenCard title="心情变化" description="近12周每周写下心声时所选心情的平均值（1 很难过 … 5 很开心），按年级或班级分线；每个点注明它平均了几条心声，没有心声的周留空。">
      {mood && mood.weeks.length > 0 ? (
        <Box data-testid="heart-mood" sx={{ mt: 1 }}>
          <LineChart
            // Twelve weeks always: on a phone the axis skips labels that would overlap (the table below names every week).
            xAxis={[{ scaleType: 'point', data: mood.weeks.map(weekLabel), label: '周（起始日）', height: 52 }]}
            yAxis={[{ min: 1, max: 5, label: '平均心情', width: 56 }]}
            series={mood.series.map((s) => ({
              label: s.name,
              data: s.values,
              // A week without a message is a gap, not a line from the week before to the week after.
              connectNulls: false,
              showMark: true,
              curve: 'linear' as const,
              valueFormatter: (v: number | null, { dataIndex }: { dataIndex: number }) => (v === null ? '本周没有心声' : `${v}（${s.counts[dataIndex]} 条心声）`),
            }))}
            height={320}
          />
          <MoodCounts weeks={mood.weeks} series={mood.series} />
        </Box>
      ) : mood === undefined ? (
        <Typography color="text.secondary" sx={{ py: 4 }}>
          加载中…
        </Typography>
      ) : (
        <EmptyState />
      )}
    </ScreenCard>
  );
}

/** How many messages each point averages: one row per line, one column per week ('—' for none). */
function MoodCounts({ weeks, series }: { weeks: string[]; series: { name: string; counts: number[] }[] }) {
  return (
    <TableContainer sx={{ overflowX: 'auto', mt: 1 }}>
      <Table size="small" aria-label="每周心声条数" sx={{ '& td, & th': { whiteSpace: 'nowrap', px: 1 } }}>
        <TableHead>
          <TableRow>
            <TableCell>心声条数</TableCell>
            {weeks.map((w) => (
              <TableCell key={w} align="center">
                {weekLabel(w)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {series.map((s) => (
            <TableRow key={s.name} data-testid="mood-counts">
              <TableCell>{s.name}</TableCell>
              {s.counts.map((n, i) => (
                <TableCell key={weeks[i]} align="center" sx={{ color: n ? undefined : 'text.disabled' }}>
                  {n || '—'}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
