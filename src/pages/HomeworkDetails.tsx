// 作业详情 (/homeworkDetails?id= of the classic teacher, /assignHomework/details?id= of the
// mini-program teacher): one homework's figures, the class's
// accuracy per question as a chart, every question as printed with its results, every student's
// status and score (and the pages she handed in, when graded from photos), the same as an .xlsx, and the 未提交名单 to print (/homeworkMissing). The server answers only the homework's own teacher.
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useDataProvider, useNotify } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { BarChart } from '@mui/x-charts/BarChart';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import PrintOutlined from '@mui/icons-material/PrintOutlined';
import { useState } from 'react';
import type { AppDataProvider } from '../dataProvider';
import type { HomeworkDetail, HomeworkQuestion, HomeworkStudent } from '../dataProvider/minerva';
import { QUESTION_TYPES } from '../domain/content';
import { NoteField, TimeField } from './homeworkFields';
import { classLabel } from '../filters/widgets';
import { chinaInputValue, dayTime, fromChinaInput, percent } from '../domain/format';
import type { ScreenProps } from './screen';
import { EmptyState } from '../ui/EmptyState';
import { MathText } from './MathText';
import { useCorrectFileImage } from './aiCorrect/correctFileImage';
import { ScreenCard } from '../ui/ScreenCard';
import { RegradePanel } from './family/RegradePanel';
import { bandAxis, usePhone } from '../ui/bandAxis';

/** Below this accuracy a question is worth going over again in class. */
const LOW_ACCURACY = 0.6;

const typeLabel = (type: number) => QUESTION_TYPES.find((t) => t.value === type)?.label ?? '';
/** Scores are whole or half points; show at most one decimal. */
const points = (n: number | null) => (n === null ? '—' : Number.isInteger(n) ? String(n) : n.toFixed(1));

function Tile({ label, value, testId }: { label: string; value: string | number; testId: string }) {
  return (
    <Paper variant="outlined" sx={{ px: 2, py: 1.5, borderRadius: 2, minWidth: 0 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="p" sx={{ fontSize: 26, fontWeight: 700, lineHeight: 1.3 }} data-testid={testId}>
        {value}
      </Typography>
    </Paper>
  );
}

function Section({ title, children, aside }: { title: string; children: React.ReactNode; aside?: React.ReactNode }) {
  return (
    <Box component="section" sx={{ minWidth: 0 }}>
      <Stack direction="row" sx={{ alignItems: 'baseline', justifyContent: 'space-between', mb: 1, gap: 1 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        {aside}
      </Stack>
      {children}
    </Box>
  );
}

function AccuracyChart({ questions }: { questions: HomeworkQuestion[] }) {
  const phone = usePhone();
  if (questions.every((q) => q.accuracy === null)) return <EmptyState text="暂无数据（还没有学生提交）" />;
  return (
    <Box data-testid="accuracy-chart" sx={{ minWidth: 0 }}>
      <BarChart
        height={260}
        margin={{ left: 8, right: 16, top: 24, bottom: 8 }}
        xAxis={[bandAxis(questions.map((q) => `第${q.no}题`), phone, 28)]}
        yAxis={[
          {
            min: 0,
            max: 100,
            width: 48,
            tickInterval: [0, 20, 40, 60, 80, 100],
            valueFormatter: (v: number) => `${v}%`,
            // Questions most of the class got wrong stand out.
            colorMap: { type: 'piecewise', thresholds: [LOW_ACCURACY * 100], colors: ['#e57373', '#42a5f5'] },
          },
        ]}
        series={[
          {
            data: questions.map((q) => (q.accuracy === null ? null : q.accuracy * 100)),
            label: '正确率',
            // Labels and tooltips read exactly as the figures below the chart.
            valueFormatter: (_v: number | null, { dataIndex }: { dataIndex: number }) => percent(questions[dataIndex].accuracy),
          },
        ]}
        barLabel={(item) => (item.value === null ? null : percent(questions[item.dataIndex].accuracy))}
        hideLegend
      />
    </Box>
  );
}

function QuestionItem({ q }: { q: HomeworkQuestion }) {
  const low = q.accuracy !== null && q.accuracy < LOW_ACCURACY;
  return (
    <Box
      component="li"
      data-testid="question-row"
      data-no={q.no}
      sx={{ border: 1, borderColor: low ? 'error.light' : 'divider', borderRadius: 2, p: 1.5, display: 'grid', gap: 1, minWidth: 0 }}
    >
      <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography sx={{ fontWeight: 600 }}>第 {q.no} 题</Typography>
        <Chip size="small" label={typeLabel(q.question.type)} />
        <Typography variant="body2" color="text.secondary">
          {points(q.points)} 分
        </Typography>
        {q.question.knowledgePoints.map((k) => (
          <Chip key={k.id} size="small" variant="outlined" label={k.name} />
        ))}
      </Stack>
      <Box data-testid="question-stem" sx={{ fontSize: 15, lineHeight: 1.8 }}>
        <MathText text={q.question.stem} />
        {q.question.options && (
          <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3, color: 'text.secondary' }}>
            {q.question.options.map((o) => (
              <span key={o.key}>
                {o.key}. <MathText text={o.text} />
              </span>
            ))}
          </Box>
        )}
        <Typography variant="body2" color="text.secondary" component="div">
          答案：<MathText text={q.question.answer} />
        </Typography>
      </Box>
      {q.answers.length > 0 && (
        <Stack direction="row" data-testid="question-answers" sx={{ gap: 0.75, flexWrap: 'wrap', alignItems: 'center', fontSize: 14, minWidth: 0 }}>
          <Typography variant="body2" color="text.secondary">
            学生作答：
          </Typography>
          {q.answers.map((a) => (
            <Chip
              key={a.answer}
              size="small"
              variant="outlined"
              color={a.correct ? 'success' : 'error'}
              label={
                <>
                  <MathText text={a.answer} />
                  {a.correct ? '（对）' : '（错）'} {a.count} 人
                </>
              }
              sx={{ maxWidth: '100%' }}
            />
          ))}
        </Stack>
      )}
      <Stack direction="row" sx={{ gap: 3, flexWrap: 'wrap', fontSize: 14 }}>
        <span data-testid="question-answered">作答 {q.answered} 人</span>
        <span data-testid="question-correct">答对 {q.correct} 人</span>
        <Box component="span" data-testid="question-accuracy" sx={{ color: low ? 'error.main' : undefined, fontWeight: 600 }}>
          正确率 {percent(q.accuracy)}
        </Box>
        <span data-testid="question-score-rate">得分率 {percent(q.scoreRate)}</span>
      </Stack>
    </Box>
  );
}

/** One page a student handed in, fetched with the teacher's session. */
function PageImage({ fileId, name }: { fileId: number; name: string }) {
  const image = useCorrectFileImage(fileId);
  if (image.data) return <Box component="img" src={image.data} alt={name} data-testid="student-page-image" sx={{ width: '100%', height: 'auto', display: 'block', border: 1, borderColor: 'divider' }} />;
  return (
    <Typography color="text.secondary" variant="body2">
      {image.isLoading ? '加载中…' : `${name}（PDF 请在 AI 批改的批改详情中查看）`}
    </Typography>
  );
}

/** The pages a student handed in (graded from photos), one under another. */
function StudentPages({ student, onClose }: { student: HomeworkStudent; onClose: () => void }) {
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby="student-pages-title">
      <DialogTitle id="student-pages-title">
        {student.name}的作业页（{student.pages.length} 页）
      </DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2 }}>
        {student.pages.map((page, i) => (
          <Box key={page.fileId} sx={{ minWidth: 0 }}>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
              第 {i + 1} 页
            </Typography>
            <PageImage fileId={page.fileId} name={page.name} />
          </Box>
        ))}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>关闭</Button>
      </DialogActions>
    </Dialog>
  );
}

function StudentTable({ students }: { students: HomeworkStudent[] }) {
  const [viewing, setViewing] = useState<HomeworkStudent | null>(null);
  // Only homework graded from photos has pages to show.
  const withPages = students.some((s) => s.pages.length > 0);
  if (students.length === 0) return <EmptyState />;
  return (
    <TableContainer component={Paper} variant="outlined" sx={{ borderRadius: 2 }}>
      <Table size="small" aria-label="学生情况">
        <TableHead>
          <TableRow sx={{ '& th': { fontWeight: 600, whiteSpace: 'nowrap', bgcolor: 'grey.50' } }}>
            <TableCell>学号</TableCell>
            <TableCell>姓名</TableCell>
            <TableCell>状态</TableCell>
            <TableCell align="right">得分</TableCell>
            <TableCell align="right">答对/答题</TableCell>
            <TableCell align="right">正确率</TableCell>
            {withPages && <TableCell>作业页</TableCell>}
          </TableRow>
        </TableHead>
        <TableBody>
          {students.map((s) => (
            <TableRow key={s.studentId} data-testid="student-row" data-student-no={s.studentNo} sx={{ '& td': { whiteSpace: 'nowrap' } }}>
              <TableCell>{s.studentNo}</TableCell>
              <TableCell>{s.name}</TableCell>
              <TableCell data-testid="student-status">
                <Chip size="small" label={s.submitted ? '已提交' : '未提交'} color={s.submitted ? 'success' : 'default'} variant={s.submitted ? 'outlined' : 'filled'} />
              </TableCell>
              <TableCell align="right" data-testid="student-score">
                {s.submitted ? `${points(s.score)}/${points(s.maxScore)}` : '—'}
              </TableCell>
              <TableCell align="right" data-testid="student-correct">
                {s.submitted ? `${s.correct}/${s.answered}` : '—'}
              </TableCell>
              <TableCell align="right" data-testid="student-accuracy">
                {percent(s.accuracy)}
              </TableCell>
              {withPages && (
                <TableCell data-testid="student-pages">
                  {s.pages.length > 0 ? (
                    <Button size="small" onClick={() => setViewing(s)}>
                      查看 {s.pages.length} 页
                    </Button>
                  ) : (
                    '—'
                  )}
                </TableCell>
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {viewing && <StudentPages student={viewing} onClose={() => setViewing(null)} />}
    </TableContainer>
  );
}

/** 修改 (title, deadline, note) and 撤回 (only while nobody has handed it in; the server checks too). */
function Changes({ data, back }: { data: HomeworkDetail; back: string }) {
  const api = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<'edit' | 'withdraw' | null>(null);
  const [title, setTitle] = useState(data.title);
  const [due, setDue] = useState(chinaInputValue(data.dueAt));
  const [note, setNote] = useState(data.note ?? '');
  const [start, setStart] = useState(data.startAt && !data.published ? chinaInputValue(data.startAt) : '');
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
      setOpen(null);
    } catch {
      // The http client has already shown the server's message.
    } finally {
      setBusy(false);
    }
  };
  const save = () =>
    run(async () => {
      const changed = await api.updateHomework(data.id, {
        title,
        dueAt: fromChinaInput(due),
        note,
        // The publishing time can change only while students cannot see it yet.
        ...(!data.published && start ? { startAt: fromChinaInput(start) } : {}),
      });
      queryClient.setQueryData(['homeworkDetail', String(data.id)], changed);
      notify('已修改', { type: 'success' });
    });
  const withdraw = () =>
    run(async () => {
      await api.withdrawHomework(data.id);
      notify(`已撤回「${data.title}」`, { type: 'success' });
      navigate(back);
    });
  const untouched = data.submittedCount === 0 && data.pendingReview === 0;
  return (
    <>
      <Button variant="outlined" onClick={() => setOpen('edit')}>
        修改作业
      </Button>
      {untouched && (
        <Button variant="outlined" color="error" onClick={() => setOpen('withdraw')}>
          撤回作业
        </Button>
      )}
      <Dialog open={open === 'edit'} onClose={() => setOpen(null)} aria-labelledby="edit-title" fullWidth maxWidth="xs">
        <DialogTitle id="edit-title">修改作业</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
          <TextField label="标题" size="small" value={title} onChange={(e) => setTitle(e.target.value)} slotProps={{ htmlInput: { maxLength: 100 } }} />
          {!data.published && <TimeField label="发布时间" value={start} onChange={setStart} helperText="改为现在或更早即立即发布" />}
          <TimeField label="截止时间" value={due} onChange={setDue} />
          <NoteField label="给学生的留言" value={note} onChange={setNote} hint="，清空即删除留言" />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(null)}>取消</Button>
          <Button variant="contained" onClick={save} disabled={busy || !title.trim() || !due}>
            保存
          </Button>
        </DialogActions>
      </Dialog>
      <Dialog open={open === 'withdraw'} onClose={() => setOpen(null)} aria-labelledby="withdraw-title">
        <DialogTitle id="withdraw-title">撤回作业</DialogTitle>
        <DialogContent>
          <DialogContentText>撤回后学生将看不到「{data.title}」，确定撤回吗？</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(null)}>取消</Button>
          <Button variant="contained" color="error" onClick={withdraw} disabled={busy}>
            撤回
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/** A homework given as a photo or PDF: the file, opened in a new tab (fetched with the teacher's session). */
function OriginalFile({ fileId }: { fileId: number }) {
  const api = useDataProvider<AppDataProvider>();
  const [busy, setBusy] = useState(false);
  const open = async () => {
    // Opened before the fetch, so the browser does not take it for a pop-up.
    const tab = window.open('', '_blank');
    setBusy(true);
    try {
      const url = URL.createObjectURL(await api.homeworkFile(fileId));
      if (tab) tab.location.href = url;
      else window.location.href = url;
    } catch {
      tab?.close();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="outlined" onClick={() => void open()} disabled={busy} data-testid="homework-original">
      查看作业原件
    </Button>
  );
}

function Detail({ data, back }: { data: HomeworkDetail; back: string }) {
  const api = useDataProvider<AppDataProvider>();
  const [exporting, setExporting] = useState(false);
  const exportXlsx = async () => {
    setExporting(true);
    try {
      await api.exportHomework(data.id);
    } catch {
      // The http client has already shown the server's message.
    } finally {
      setExporting(false);
    }
  };
  return (
    <Box sx={{ display: 'grid', gap: 3, mt: 2 }}>
      {/* The header's 返回 leads back to the list; export, change and withdraw are the actions here. */}
      <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
        <Button variant="contained" startIcon={<FileDownloadOutlined />} onClick={exportXlsx} disabled={exporting}>
          导出作业详情
        </Button>
        {/* The reminder list: a sheet to print, or its .xlsx (on that screen). */}
        <Button variant="outlined" component={Link} to={`/homeworkMissing?id=${data.id}`} startIcon={<PrintOutlined />}>
          未提交名单（{data.students.filter((s) => !s.submitted).length} 人）
        </Button>
        {data.fileId !== null && <OriginalFile fileId={data.fileId} />}
        <Changes data={data} back={back} />
      </Stack>
      {!data.published && data.startAt && (
        <Alert severity="warning" data-testid="homework-scheduled">
          定时发布：{dayTime(data.startAt)} 发布，学生在此之前看不到这份作业。
        </Alert>
      )}
      {data.note && (
        <Alert severity="info" icon={false} data-testid="homework-note" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          <strong>给学生的留言：</strong>
          {data.note}
        </Alert>
      )}
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(3, 1fr)', md: 'repeat(5, 1fr)' } }}>
        <Tile label="学生数" value={data.studentCount} testId="tile-students" />
        <Tile label="已提交" value={`${data.submittedCount}/${data.studentCount}`} testId="tile-submitted" />
        <Tile label="已批改" value={data.gradedCount} testId="tile-graded" />
        <Tile label="正确率" value={percent(data.accuracy)} testId="tile-accuracy" />
        <Tile label="得分率" value={percent(data.scoreRate)} testId="tile-score-rate" />
      </Box>
      <Section title="各题正确率">
        <Paper variant="outlined" sx={{ borderRadius: 2, p: 1, minWidth: 0 }}>
          <AccuracyChart questions={data.questions} />
        </Paper>
      </Section>
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 3fr) minmax(0, 2fr)' }, alignItems: 'start' }}>
        <Section
          title={`题目分析（${data.questions.length} 题）`}
          aside={
            <Typography variant="body2" color="text.secondary">
              正确率低于 {LOW_ACCURACY * 100}% 的题目标红
            </Typography>
          }
        >
          {data.questions.length === 0 ? (
            <EmptyState />
          ) : (
            <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }} aria-label="题目分析">
              {data.questions.map((q) => (
                <QuestionItem key={q.no} q={q} />
              ))}
            </Box>
          )}
        </Section>
        <Section title={`学生情况（已提交 ${data.submittedCount}/${data.studentCount}）`}>
          <StudentTable students={data.students} />
        </Section>
      </Box>
    </Box>
  );
}

export default function HomeworkDetails({ route }: ScreenProps) {
  const [params] = useSearchParams();
  const raw = params.get('id') ?? '';
  // Only a plain positive id is asked for; anything else is "nothing to show".
  const id = /^[1-9]\d{0,9}$/.test(raw) ? raw : '';
  const api = useDataProvider<AppDataProvider>();
  const detail = useQuery({ queryKey: ['homeworkDetail', id], queryFn: () => api.homeworkDetail(id), enabled: !!id, retry: false });
  const data = detail.data;
  const description = data
    ? [classLabel(data.gradeName, data.className), data.courseName, `${data.questionCount} 题`, `截止 ${dayTime(data.dueAt)}`].join(' · ')
    : undefined;
  return (
    <ScreenCard title={data ? `${route.meta.title}：${data.title}` : route.meta.title} description={description}>
      {!id || detail.isError ? (
        <>
          <EmptyState text={!id ? '请从作业列表选择一份作业' : '暂无数据'} />
          <Box sx={{ textAlign: 'center' }}>
            <Button component={Link} to={route.parent ?? '/homework'} startIcon={<ArrowBackOutlined />}>
              返回作业列表
            </Button>
          </Box>
        </>
      ) : !data ? (
        <LinearProgress sx={{ mt: 2 }} />
      ) : (
        <>
          {/* Families' questions first: they wait for an answer. */}
          <RegradePanel work={{ homeworkId: Number(id) }} />
          <Detail data={data} back={route.parent ?? '/homework'} />
        </>
      )}
    </ScreenCard>
  );
}
