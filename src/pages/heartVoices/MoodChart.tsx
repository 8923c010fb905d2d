// Mood over the last weeks (1 很难过 … 5 很开心), one line per grade, or per class of the header's
// grade. Counts only: no message is read to draw it.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import Box from '@mui/material/Box';
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
    <ScreenCard title="心情变化" description="近12周每周写下心声时所选心情的平均值（1 很难过 … 5 很开心），按年级或班级分线。">
      {mood && mood.weeks.length > 0 ? (
        <Box data-testid="heart-mood" sx={{ mt: 1 }}>
          <LineChart
            xAxis={[{ scaleType: 'point', data: mood.weeks.map(weekLabel), label: '周（起始日）', height: 52, tickLabelInterval: () => true }]}
            yAxis={[{ min: 1, max: 5, label: '平均心情', width: 56 }]}
            series={mood.series.map((s) => ({ label: s.name, data: s.values, connectNulls: true, showMark: true, curve: 'linear' }))}
            height={320}
          />
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
