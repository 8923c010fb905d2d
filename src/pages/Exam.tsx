// 考试 (/exam) of the classic teacher: the exams of the classes they teach, for the grade and course
// chosen in the header filters, each opening its report (one class, or the whole grade there).
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import type { AppDataProvider } from '../dataProvider';
import type { ExamSummary } from '../domain/exams';
import { useSelection } from '../filters/SelectionProvider';
import type { ScreenProps } from './screen';
import { EmptyState } from '../ui/EmptyState';
import { ScreenCard } from '../ui/ScreenCard';

const PAGE_SIZE = 20;

export default function Exam({ route }: ScreenProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const navigate = useNavigate();
  const { selection } = useSelection();
  const { gradeId, courseId, classId } = selection;
  const [current, setCurrent] = useState(1);

  useEffect(() => setCurrent(1), [gradeId, courseId]);
  const query = useQuery({ queryKey: ['examPage', gradeId, courseId, current], queryFn: () => dataProvider.examPage({ gradeId, courseId, current, size: PAGE_SIZE }), retry: false });
  // The http client has shown the server's message.
  const page = query.isError ? null : query.data;

  /** The report opens on the class chosen in the header when it sat the exam, else the first of mine. */
  const open = (exam: ExamSummary) => {
    const mine = exam.classes.find((c) => String(c.classId) === classId) ?? exam.classes[0];
    navigate(`/examReport?id=${exam.id}${mine ? `&classId=${mine.classId}` : ''}`);
  };

  return (
    <ScreenCard title={route.meta.title} description="所教班级参加的考试；打开考试报告查看成绩分析。">
      {page === undefined && <LinearProgress sx={{ mt: 2 }} />}
      {page === null && <EmptyState text="考试列表加载失败，请稍后重试" />}
      {page && page.records.length === 0 && <EmptyState />}
      {page && page.records.length > 0 && (
        <Box sx={{ mt: 2 }}>
          <TableContainer>
            <Table size="small" aria-label="考试列表">
              <TableHead>
                <TableRow>
                  <TableCell>考试名称</TableCell>
                  <TableCell>考试日期</TableCell>
                  <TableCell>学科</TableCell>
                  <TableCell>任教班级</TableCell>
                  <TableCell align="right">参考人数</TableCell>
                  <TableCell align="right">平均分</TableCell>
                  <TableCell align="right">满分</TableCell>
                  <TableCell align="right">操作</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {page.records.map((e) => (
                  <TableRow key={e.id} hover data-testid="exam-row" data-exam-id={e.id}>
                    <TableCell sx={{ fontWeight: 600 }}>{e.title}</TableCell>
                    <TableCell>{e.examDate}</TableCell>
                    <TableCell>
                      {e.gradeName} · {e.courseName}
                    </TableCell>
                    <TableCell>{e.classes.map((c) => c.className).join('、')}</TableCell>
                    <TableCell align="right" data-testid="exam-participants">
                      {e.participants}
                    </TableCell>
                    <TableCell align="right" data-testid="exam-average">
                      {e.average ?? '—'}
                    </TableCell>
                    <TableCell align="right">{e.fullMarks}</TableCell>
                    <TableCell align="right">
                      <Button size="small" variant="outlined" onClick={() => open(e)}>
                        查看报告
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {page.total > PAGE_SIZE && (
            <TablePagination
              component="div"
              count={page.total}
              page={current - 1}
              rowsPerPage={PAGE_SIZE}
              rowsPerPageOptions={[PAGE_SIZE]}
              onPageChange={(_, p) => setCurrent(p + 1)}
              labelDisplayedRows={({ from, to, count }) => `第 ${from}–${to} 条，共 ${count} 条`}
            />
          )}
        </Box>
      )}
    </ScreenCard>
  );
}
