// The student level of 考试分析: what the school discloses of one student (a rank or a band, never a
// score) in this exam and the course's exams before it, and the scanned answer sheet (原卷) when
// the exam was graded from scans in AI批改.
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import Alert from '@mui/material/Alert';
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
import { ScoreDisclosure } from '../../domain/content';
import type { LeaderExamStudent } from '../../domain/leaderExams';
import { EmptyState } from '../../ui/EmptyState';
import { NOWRAP_HEAD, Section } from '../examReport/parts';
import { Trail, type Level } from './trail';

function result(s: { rank?: number; ranked?: number; band?: string }, disclosure: number): string {
  if (disclosure === ScoreDisclosure.rank && s.rank !== undefined) return `第 ${s.rank} 名${s.ranked ? ` / ${s.ranked} 人` : ''}`;
  if (disclosure === ScoreDisclosure.band && s.band) return s.band;
  return disclosure === ScoreDisclosure.none ? '不公开' : '—';
}

/** One scanned page, fetched with the session (an <img> cannot send it). */
function SheetPage({ examId, fileId, label }: { examId: string; fileId: number; label: string }) {
  const api = useDataProvider<AppDataProvider>();
  const image = useQuery({
    queryKey: ['leaderSheet', examId, fileId],
    queryFn: async () => {
      const blob = await api.leaderExamSheetFile(examId, fileId);
      return blob.type.startsWith('image/') ? URL.createObjectURL(blob) : null;
    },
    staleTime: Infinity,
    retry: false,
  });
  if (image.isPending) return <LinearProgress />;
  if (!image.data) return <Typography color="text.secondary">原卷图片加载失败</Typography>;
  return (
    <Box component="figure" sx={{ m: 0, minWidth: 0 }}>
      <Box component="img" src={image.data} alt={label} data-testid="sheet-image" sx={{ display: 'block', width: '100%', maxWidth: 820, height: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }} />
      <Typography component="figcaption" variant="caption" color="text.secondary">
        {label}
      </Typography>
    </Box>
  );
}

function Sheets({ examId, data }: { examId: string; data: LeaderExamStudent }) {
  if (!data.sheets.length) return <Typography color="text.secondary">{data.sheetNote}</Typography>;
  return (
    <>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
        原卷为学生作答的扫描件，不含批改分数。请勿外传或公开。
      </Typography>
      <Box sx={{ display: 'grid', gap: 2 }}>
        {data.sheets.flatMap((s) =>
          s.pages.map((p) => <SheetPage key={`${s.resultId}-${p.fileId}`} examId={examId} fileId={p.fileId} label={`${s.taskTitle} · 第 ${p.page} 页`} />),
        )}
      </Box>
    </>
  );
}

export function StudentView({ level, go }: { level: Level; go: (to: Partial<Level>) => void }) {
  const api = useDataProvider<AppDataProvider>();
  const { examId, classId, studentId } = level;
  const query = useQuery({ queryKey: ['leaderExamStudent', examId, studentId], queryFn: () => api.leaderExamStudent(examId, studentId), retry: false });
  // The exam's title for the trail: the list the leader came from has it.
  const report = useQuery({ queryKey: ['leaderExamReport', examId, classId], queryFn: () => api.leaderExamReport(examId, classId || undefined), retry: false });
  if (query.isPending) return <LinearProgress sx={{ mt: 2 }} />;
  if (query.isError) {
    return (
      <>
        <Trail crumbs={[{ label: '全校考试', to: {} }, { label: '考试', to: { examId } }, { label: '无法打开' }]} go={go} />
        <EmptyState text="无法打开这名学生的考试情况，请返回考试重新选择" />
      </>
    );
  }
  const d = query.data;
  const exam = report.data?.exam;
  const current = d.history.find((h) => h.examId === Number(examId));
  return (
    <>
      <Trail
        crumbs={[
          { label: '全校考试', to: {} },
          { label: exam ? `${exam.gradeName} · ${exam.title}` : '考试', to: { examId } },
          { label: d.student.className, to: { examId, classId: String(d.student.classId) } },
          { label: d.student.name },
        ]}
        go={go}
      />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 3, alignItems: 'baseline' }} data-testid="leader-student">
        <Typography variant="h6" component="h2" sx={{ fontWeight: 600 }}>
          {d.student.name}
        </Typography>
        <Typography color="text.secondary">
          {d.student.className} · 学号 {d.student.studentNo}
        </Typography>
        <Typography>
          本次考试：
          <Box component="strong" data-testid="student-result">
            {d.sat ? result(d, d.disclosure) : '未参加'}
          </Box>
        </Typography>
      </Box>
      {d.disclosure === ScoreDisclosure.none && (
        <Alert severity="info" sx={{ mt: 1.5 }}>
          学校的成绩公开范围为“不显示学生个人结果”：这里只列出该生参加过的考试，不显示名次、等级和原卷。
        </Alert>
      )}
      <Section title="历次考试">
        <TableContainer>
          <Table size="small" sx={NOWRAP_HEAD} aria-label="历次考试">
            <TableHead>
              <TableRow>
                <TableCell>考试</TableCell>
                <TableCell>日期</TableCell>
                <TableCell>{d.disclosure === ScoreDisclosure.rank ? '名次' : '等级'}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {d.history.map((h) => (
                <TableRow key={h.examId} selected={h === current} data-testid="history-row">
                  <TableCell>{h.title}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{h.examDate}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{result(h, d.disclosure)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </Section>
      <Section title="原卷">
        <Sheets examId={examId} data={d} />
      </Section>
    </>
  );
}
