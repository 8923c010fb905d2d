// The school level of 考试分析: every exam of the caller's scope, by grade, with who sat it and the
// average; a grade and a subject narrow it. Opening an exam goes to its grade level.
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../dataProvider';
import type { LeaderExamSummary } from '../../domain/leaderExams';
import { EmptyState } from '../../ui/EmptyState';
import { NOWRAP_HEAD, score } from '../examReport/parts';
import { Trail, type Level } from './trail';

/** Far more exams than a school sits in a year; the list is the scope's whole record. */
const LIST_SIZE = 500;
const ALL = '';
/** A filter as wide as its words, showing 全部… while nothing is chosen. */
const FILTER = {
  variant: 'outlined',
  fullWidth: false,
  sx: { width: { xs: 'calc(50% - 6px)', sm: 160 } },
  slotProps: { select: { displayEmpty: true }, inputLabel: { shrink: true } },
} as const;

export function ExamList({ go }: { go: (to: Partial<Level>) => void }) {
  const api = useDataProvider<AppDataProvider>();
  const query = useQuery({ queryKey: ['leaderExams'], queryFn: () => api.leaderExamPage({ size: LIST_SIZE }), retry: false });
  const [grade, setGrade] = useState(ALL);
  const [course, setCourse] = useState(ALL);
  const exams = query.data?.records ?? [];
  const grades = useMemo(() => [...new Map(exams.map((e) => [String(e.gradeId), e.gradeName])).entries()].sort((a, b) => Number(a[0]) - Number(b[0])), [exams]);
  const courses = useMemo(() => [...new Map(exams.map((e) => [String(e.courseId), e.courseName])).entries()], [exams]);
  const shown = exams.filter((e) => (!grade || String(e.gradeId) === grade) && (!course || String(e.courseId) === course));
  const byGrade = grades.map(([id, name]) => ({ id, name, exams: shown.filter((e) => String(e.gradeId) === id) })).filter((g) => g.exams.length);

  if (query.isPending) return <LinearProgress sx={{ mt: 2 }} />;
  if (query.isError) return <EmptyState text="考试列表加载失败，请刷新重试" />;
  if (!exams.length) {
    return (
      <EmptyState text="您负责的年级和学科还没有考试">
        <Typography variant="body2">任课老师在“考试”中录入考试、或在 AI批改 中用考试答题卡批改后，考试会出现在这里。</Typography>
      </EmptyState>
    );
  }
  return (
    <>
      <Trail crumbs={[{ label: '全校考试' }]} go={go} />
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', mb: 2 }}>
        <TextField select size="small" label="年级" value={grade} onChange={(e) => setGrade(e.target.value)} {...FILTER}>
          <MenuItem value={ALL}>全部年级</MenuItem>
          {grades.map(([id, name]) => (
            <MenuItem key={id} value={id}>
              {name}
            </MenuItem>
          ))}
        </TextField>
        <TextField select size="small" label="学科" value={course} onChange={(e) => setCourse(e.target.value)} {...FILTER}>
          <MenuItem value={ALL}>全部学科</MenuItem>
          {courses.map(([id, name]) => (
            <MenuItem key={id} value={id}>
              {name}
            </MenuItem>
          ))}
        </TextField>
        <Typography variant="body2" color="text.secondary" sx={{ alignSelf: 'center' }}>
          共 {shown.length} 场考试
        </Typography>
      </Box>
      {byGrade.length === 0 && <EmptyState text="没有符合条件的考试，请换一个年级或学科" />}
      {byGrade.map((g) => (
        <Box key={g.id} component="section" aria-label={g.name} sx={{ mb: 2.5 }} data-testid="grade-group">
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 0.5 }}>
            {g.name}
          </Typography>
          <TableContainer>
            <Table size="small" sx={NOWRAP_HEAD} aria-label={`${g.name}考试`}>
              <TableHead>
                <TableRow>
                  <TableCell>考试</TableCell>
                  <TableCell>日期</TableCell>
                  <TableCell>学科</TableCell>
                  <TableCell align="right">满分</TableCell>
                  <TableCell align="right">参考人数</TableCell>
                  <TableCell align="right">平均分</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {g.exams.map((e: LeaderExamSummary) => (
                  <TableRow key={e.id} hover data-testid="leader-exam-row">
                    <TableCell sx={{ minWidth: 160 }}>
                      {/* The title opens the exam too: on a phone 查看分析 is past the table's right edge. */}
                      <Link component="button" underline="hover" onClick={() => go({ examId: String(e.id) })} sx={{ fontWeight: 600, textAlign: 'left', fontSize: 14 }}>
                        {e.title}
                      </Link>
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{e.examDate}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{e.courseName}</TableCell>
                    <TableCell align="right">{score(e.fullMarks)}</TableCell>
                    <TableCell align="right">{e.participants}</TableCell>
                    <TableCell align="right">{score(e.average)}</TableCell>
                    <TableCell align="right">
                      <Button size="small" variant="outlined" onClick={() => go({ examId: String(e.id) })} sx={{ whiteSpace: 'nowrap' }}>
                        查看分析
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </Box>
      ))}
    </>
  );
}
