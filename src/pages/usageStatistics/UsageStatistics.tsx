// 使用统计 (/usageStatistics) of the mini-program teacher: homework of the term in their own classes,
// per class, week by week, and per student of one class (student-number order, never ranked).
// Laid out for a phone first (375 px), widening to a grid on a desktop.
import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { LineChart } from '@mui/x-charts/LineChart';
import type { AppDataProvider } from '../../dataProvider';
import { currentSemester } from '../../domain/semester';
import { useSelection } from '../../filters/SelectionProvider';
import type { ScreenProps } from '../screen';
import { EmptyState } from '../../ui/EmptyState';
import { ScreenCard } from '../../ui/ScreenCard';
import { percent } from '../../domain/format';
import { chartPercent, NO_DATA, weekLabel } from '../analysis/format';

function Stat({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography variant="body1" sx={{ fontWeight: 600 }} data-testid={testId}>
        {value}
      </Typography>
    </Box>
  );
}

export default function UsageStatistics({ route }: ScreenProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const { selection } = useSelection();
  const [classId, setClassId] = useState<number | undefined>();
  const filter = useMemo(() => ({ term: selection.learningTerm || currentSemester(), courseId: selection.courseId, classId }), [selection.learningTerm, selection.courseId, classId]);

  // The header's class is where the student list starts.
  useEffect(() => setClassId(selection.classId ? Number(selection.classId) : undefined), [selection.classId]);
  const query = useQuery({ queryKey: ['usage', filter], queryFn: () => dataProvider.usage(filter), retry: false });
  const usage = query.isError ? null : query.data;

  const chosen = usage?.classes.find((c) => c.classId === usage.classId);

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>
      <ScreenCard title={route.meta.title} description="本学期所教班级的作业使用情况：完成率 = 已交份数 ÷ 应交份数，正确率 = 答对题次 ÷ 作答题次。">
        {usage === undefined && <LinearProgress sx={{ mt: 2 }} />}
        {usage === null && <EmptyState text="使用统计加载失败，请稍后重试" />}
        {usage && usage.classes.length === 0 && <EmptyState />}
        {usage && usage.classes.length > 0 && (
          <Box sx={{ mt: 2, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' }, gap: 1.5 }}>
            {usage.classes.map((c) => (
              <Card key={c.classId} variant="outlined" sx={{ borderColor: c.classId === usage.classId ? 'primary.main' : undefined }} data-testid="usage-class" data-class-id={c.classId}>
                <CardActionArea onClick={() => setClassId(c.classId)} sx={{ p: 1.5 }}>
                  <Typography sx={{ fontWeight: 600, mb: 1 }}>
                    {c.className}（{c.enrolled} 人）
                  </Typography>
                  <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, 1fr)', sm: 'repeat(3, 1fr)' }, gap: 1 }}>
                    <Stat label="布置作业" value={`${c.homeworks} 次`} />
                    <Stat label="已交 / 应交" value={`${c.submitted} / ${c.assigned}`} testId="usage-submitted" />
                    <Stat label="已批改" value={String(c.graded)} />
                    <Stat label="完成率" value={percent(c.completionRate, NO_DATA)} testId="usage-completion" />
                    <Stat label="正确率" value={percent(c.accuracy, NO_DATA)} testId="usage-accuracy" />
                  </Box>
                </CardActionArea>
              </Card>
            ))}
          </Box>
        )}
      </ScreenCard>

      {usage && usage.classes.length > 0 && (
        <ScreenCard title="每周变化" description="按作业布置所在周（周一起）统计">
          {usage.trend.length ? (
            <LineChart
              height={260}
              margin={{ top: 16, left: 0, right: 8 }}
              xAxis={[{ scaleType: 'point', data: usage.trend.map((w) => weekLabel(w.week)), height: 28 }]}
              yAxis={[{ min: 0, max: 100, width: 40 }]}
              series={[
                { data: usage.trend.map((w) => chartPercent(w.completionRate)), label: '完成率（%）', color: '#26a69a' },
                { data: usage.trend.map((w) => chartPercent(w.accuracy)), label: '正确率（%）', color: '#5c6bc0' },
              ]}
            />
          ) : (
            <EmptyState />
          )}
        </ScreenCard>
      )}

      {usage && chosen && (
        <ScreenCard title={`${chosen.className} 学生`} description="按学号排列；提交为已交 / 应交的本学期作业份数">
          {usage.students.length ? (
            <Table size="small" aria-label="学生使用情况" sx={{ mt: 1, '& td, & th': { px: 0.75, whiteSpace: 'nowrap' } }}>
              <TableHead>
                <TableRow>
                  <TableCell>学生</TableCell>
                  <TableCell align="right">提交</TableCell>
                  <TableCell align="right">完成率</TableCell>
                  <TableCell align="right">正确率</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {usage.students.map((s) => (
                  <TableRow key={s.studentId} data-testid="usage-student">
                    <TableCell sx={{ whiteSpace: 'normal !important' }}>
                      {s.name}
                      <Typography variant="caption" color="text.secondary" component="div">
                        {s.studentNo}
                      </Typography>
                    </TableCell>
                    <TableCell align="right">
                      {s.submitted}/{s.assigned}
                    </TableCell>
                    <TableCell align="right">{percent(s.completionRate, NO_DATA)}</TableCell>
                    <TableCell align="right">{percent(s.accuracy, NO_DATA)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          ) : (
            <EmptyState />
          )}
        </ScreenCard>
      )}
    </Box>
  );
}
