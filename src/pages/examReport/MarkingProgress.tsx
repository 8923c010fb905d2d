// 阅卷进度 of an exam marked online (docs/api-content.md "阅卷进度"): per AI批改 task (one class), each
// hand-marked question with papers marked of all papers, 仲裁 waiting, and each marker's own queue.
// Leaders read it from their exam report, the exam's teachers from theirs; the figures are the
// server's, the same the task owner sees on 网上阅卷.
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../dataProvider';
import type { ExamMarkingProgress } from '../../domain/leaderExams';
import { percent } from '../../domain/format';
import { NOWRAP_HEAD } from './parts';

type Question = ExamMarkingProgress['tasks'][number]['questions'][number];

function Bar({ marked, total }: { marked: number; total: number }) {
  const done = total > 0 && marked >= total;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 150 }}>
      <LinearProgress variant="determinate" value={total ? (marked / total) * 100 : 0} color={done ? 'success' : 'primary'} sx={{ flex: 1, height: 8, borderRadius: 4 }} />
      <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
        {marked}/{total}
      </Typography>
    </Box>
  );
}

function QuestionRow({ q }: { q: Question }) {
  return (
    <TableRow data-testid="marking-row">
      <TableCell sx={{ whiteSpace: 'nowrap' }}>第 {q.no} 题</TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>
        {q.kind === 'essay' ? '作文' : '解答题'}
        {q.double && <Chip size="small" label="双评" sx={{ ml: 0.5, height: 20 }} />}
      </TableCell>
      <TableCell>
        <Bar marked={q.marked} total={q.total} />
      </TableCell>
      <TableCell align="right">{q.arbitration || '—'}</TableCell>
      <TableCell>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
          {q.markers.map((m) => (
            <Chip
              key={m.teacherId}
              size="small"
              variant="outlined"
              color={m.total > 0 && m.marked >= m.total ? 'success' : 'default'}
              label={`${m.name} ${m.marked}/${m.total}`}
              title={`${m.name}：已阅 ${m.marked} 份，共 ${m.total} 份（${percent(m.total ? m.marked / m.total : 0)}）`}
            />
          ))}
        </Box>
      </TableCell>
    </TableRow>
  );
}

export function MarkingProgress({ examId, leader = false }: { examId: string | number; leader?: boolean }) {
  const api = useDataProvider<AppDataProvider>();
  const query = useQuery({
    queryKey: ['examMarking', leader, examId],
    queryFn: () => (leader ? api.leaderExamMarking(examId) : api.examMarking(examId)),
    retry: false,
  });
  if (query.isPending) return <LinearProgress />;
  if (query.isError) return <Typography color="text.secondary">阅卷进度加载失败</Typography>;
  const { tasks } = query.data;
  if (!tasks.length) {
    return (
      <Typography variant="body2" color="text.secondary" data-testid="marking-empty">
        这次考试没有网上阅卷。任课老师在 AI批改 中用这次考试的答题卡新建批改任务、上传扫描件后，各题的阅卷进度会显示在这里。
      </Typography>
    );
  }
  return (
    <Box sx={{ display: 'grid', gap: 1.5 }} data-testid="marking-progress">
      {tasks.map((t) => (
        <Card key={t.taskId} variant="outlined" sx={{ p: 1.5, borderRadius: 2, minWidth: 0 }}>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'baseline' }}>
            <Typography sx={{ fontWeight: 600 }}>{t.className}</Typography>
            <Typography variant="body2" color="text.secondary">
              {t.title} · 任课老师 {t.owner} · 答题卡 {t.papers} 份
            </Typography>
          </Box>
          {t.questions.length === 0 ? (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              答题卡上都是客观题或填空题，由机器批改，无需人工阅卷。
            </Typography>
          ) : (
            <TableContainer>
              <Table size="small" sx={NOWRAP_HEAD} aria-label={`${t.className}阅卷进度`}>
                <TableHead>
                  <TableRow>
                    <TableCell>题号</TableCell>
                    <TableCell>题型</TableCell>
                    <TableCell>已阅/总数</TableCell>
                    <TableCell align="right">待仲裁</TableCell>
                    <TableCell>阅卷老师（已阅/分到）</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {t.questions.map((q) => (
                    <QuestionRow key={q.no} q={q} />
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
        </Card>
      ))}
    </Box>
  );
}
