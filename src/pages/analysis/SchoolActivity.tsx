// 学校概况 (the principal on /analysis): how the school uses the app in the term chosen in the
// header — homework set and handed in, AI批改 tasks, active teachers — per class, and the school's
// terms side by side. Each tile says what it counts (docs/analysis-figures.md, "学校概况").
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../dataProvider';
import { percent } from '../../domain/format';
import { EmptyState } from '../../ui/EmptyState';
import { FigureCard } from './FigureCard';
import { NO_DATA } from './format';

/** What each tile counts, as docs/analysis-figures.md defines it. */
export const ACTIVITY_DEFINITIONS = {
  homeworks: '本学期布置给各班的作业份数（同一作业布置给几个班算几份）',
  completion: '已交作业份数 ÷ 应交份数（与学情分析的作业完成率同一口径）',
  gradingTasks: '学期日期内新建的 AI批改 任务数（未指定班级的任务只计入全校）',
  activeTeachers: '本学期布置过作业或新建过 AI批改 任务的教师人数 ÷ 在职教师人数（一人只计一次）',
};

export function SchoolActivity({ term }: { term: string }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const query = useQuery({ queryKey: ['schoolActivity', term], queryFn: () => dataProvider.schoolActivity(term), retry: false });
  const a = query.data;
  const tiles = a
    ? [
        { label: '布置作业', value: String(a.total.homeworks), detail: '', testId: 'activity-homeworks', definition: ACTIVITY_DEFINITIONS.homeworks },
        { label: '作业完成率', value: percent(a.total.completionRate, NO_DATA), detail: `已交 ${a.total.submitted} / 应交 ${a.total.assigned}`, testId: 'activity-completion', definition: ACTIVITY_DEFINITIONS.completion },
        { label: 'AI批改任务', value: String(a.total.gradingTasks), detail: '', testId: 'activity-grading', definition: ACTIVITY_DEFINITIONS.gradingTasks },
        { label: '活跃教师', value: `${a.total.activeTeachers} / ${a.total.teachers}`, detail: `占在职教师 ${percent(a.total.activeRate, NO_DATA)}`, testId: 'activity-teachers', definition: ACTIVITY_DEFINITIONS.activeTeachers },
      ]
    : [];
  return (
    <FigureCard
      testId="card-activity"
      title="学校概况"
      onExport={a ? () => dataProvider.exportSchoolActivity(term) : undefined}
      definition={a ? `${a.label}（${a.startDate} 至 ${a.endDate}${a.configured ? '，学年管理中设置的学期日期' : '，按日历学期'}）` : '本学期全校的使用情况'}>
      {query.isLoading && <LinearProgress />}
      {query.isError && <EmptyState text="学校概况加载失败，请稍后重试" />}
      {a && (
        <>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' }, gap: 2 }}>
            {tiles.map((i) => (
              <Box key={i.label} sx={{ p: 1.5, borderRadius: 1, bgcolor: 'action.hover', minWidth: 0 }}>
                <Typography variant="caption" color="text.secondary">
                  {i.label}
                </Typography>
                <Typography variant="h6" data-testid={i.testId}>
                  {i.value}
                </Typography>
                {i.detail && (
                  <Typography variant="body2" data-testid={`${i.testId}-detail`}>
                    {i.detail}
                  </Typography>
                )}
                <Typography variant="caption" color="text.secondary" component="p" sx={{ lineHeight: 1.4 }}>
                  说明：{i.definition}
                </Typography>
              </Box>
            ))}
          </Box>
          {a.total.homeworks === 0 && a.total.gradingTasks === 0 ? (
            <EmptyState text="本学期还没有布置作业或新建 AI批改 任务：教师在“布置作业”或“AI批改”中开始后，这里按班级汇总" />
          ) : (
            <TableContainer sx={{ mt: 2 }}>
              <Table size="small" aria-label="各班使用情况" sx={{ '& td, & th': { whiteSpace: 'nowrap' } }}>
                <TableHead>
                  <TableRow>
                    <TableCell>班级</TableCell>
                    <TableCell align="right">布置作业</TableCell>
                    <TableCell align="right">已交 / 应交</TableCell>
                    <TableCell align="right">作业完成率</TableCell>
                    <TableCell align="right">AI批改任务</TableCell>
                    <TableCell align="right">活跃教师</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {a.classes.map((c) => (
                    <TableRow key={c.classId} data-testid="activity-class" data-class-id={c.classId}>
                      <TableCell>
                        {c.gradeName} {c.className}
                      </TableCell>
                      <TableCell align="right">{c.homeworks}</TableCell>
                      <TableCell align="right">
                        {c.submitted} / {c.assigned}
                      </TableCell>
                      <TableCell align="right">{percent(c.completionRate, NO_DATA)}</TableCell>
                      <TableCell align="right">{c.gradingTasks}</TableCell>
                      <TableCell align="right">{c.activeTeachers}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
          <Typography variant="subtitle2" component="h3" sx={{ mt: 3, mb: 0.5 }}>
            各学期对比
          </Typography>
          <TableContainer>
            <Table size="small" aria-label="各学期对比" sx={{ '& td, & th': { whiteSpace: 'nowrap' } }}>
              <TableHead>
                <TableRow>
                  <TableCell>学期</TableCell>
                  <TableCell>日期</TableCell>
                  <TableCell align="right">布置作业</TableCell>
                  <TableCell align="right">已交作业</TableCell>
                  <TableCell align="right">AI批改任务</TableCell>
                  <TableCell align="right">活跃教师</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {a.terms.map((t) => (
                  <TableRow key={t.term} data-testid="activity-term" selected={t.term === a.term}>
                    <TableCell>{t.label}</TableCell>
                    <TableCell>
                      {t.startDate} 至 {t.endDate}
                    </TableCell>
                    <TableCell align="right">{t.homeworks}</TableCell>
                    <TableCell align="right">{t.submitted}</TableCell>
                    <TableCell align="right">{t.gradingTasks}</TableCell>
                    <TableCell align="right">{t.activeTeachers}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </>
      )}
    </FigureCard>
  );
}
