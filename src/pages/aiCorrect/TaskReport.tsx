// 批改报告 (/AICorrect/report?taskId=): a grading task's report as the server computes it from the
// results (the teacher's corrected points included): score distribution, average/highest/lowest,
// score rate per question with the most common wrong answers of objective items, the students
// still needing review, and the whole report as an Excel workbook; for answer sheets, the class's
// 反馈单 (a PDF, one page per student with the 解答题 as marked). Above them, who the task has
// accounted for (TaskCoverage.tsx): failed pages, students with no page, and the ways back. Laid out for a phone first.
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useDataProvider } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { BarChart } from '@mui/x-charts/BarChart';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import MuiLink from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import CastForEducationOutlined from '@mui/icons-material/CastForEducationOutlined';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import PrintOutlined from '@mui/icons-material/PrintOutlined';
import type { AppDataProvider } from '../../dataProvider';
import type { ReportQuestion, TaskReport as Report } from '../../domain/correct';
import { GRADING_TASK_TYPES } from '../../domain/enums';
import type { ScreenProps } from '../screen';
import { EmptyState } from '../../ui/EmptyState';
import { ScreenCard } from '../../ui/ScreenCard';
import { RegradePanel } from '../family/RegradePanel';
import { percent } from '../../domain/format';
import { MarkingLinks } from './marking/MarkingLinks';
import { GradingStatus } from '../../domain/enums';
import { TaskCoverage } from './TaskCoverage';
import { bandAxis, usePhone } from '../../ui/bandAxis';

/** The review screen of one student's result: answer sheets and homework photos have their own. */
const detailPath = (task: Report['task'], resultId: number) =>
  `${task.type === 1 ? '/examProcessCorrectDetail' : '/correctDetail'}?taskId=${task.id}&resultId=${resultId}`;

const points = (n: number | null) => (n === null ? '—' : String(n));

function Section({ title, action, children }: { title: string; action?: React.ReactNode; children: React.ReactNode }) {
  return (
    <Box component="section" sx={{ mt: 3, minWidth: 0 }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        {action}
      </Box>
      {children}
    </Box>
  );
}

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 1.5, minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6" component="p" sx={{ fontWeight: 600 }} data-testid={testId}>
        {value}
      </Typography>
    </Box>
  );
}

function Distribution({ report }: { report: Report }) {
  const phone = usePhone();
  return (
    <Box sx={{ minWidth: 0, width: '100%' }} role="img" aria-label="分数分布图">
      <BarChart
        height={phone ? 240 : 280}
        margin={{ left: 0, right: 8 }}
        xAxis={[
          // Bounds of each band in percent of full marks; the section title says so.
          bandAxis(
            report.distribution.map((d) => `${Math.round(d.from * 100)}-${Math.round(d.to * 100)}`),
            phone,
            28,
          ),
        ]}
        yAxis={[{ tickMinStep: 1, width: 32 }]}
        series={[{ data: report.distribution.map((d) => d.count), label: '人数', color: '#1a4fb4' }]}
        hideLegend
      />
    </Box>
  );
}

function QuestionRow({ q }: { q: ReportQuestion }) {
  return (
    <Box
      component="li"
      data-testid="report-question"
      data-no={q.no}
      sx={{ borderBottom: 1, borderColor: 'divider', py: 1, display: 'grid', gap: 0.5, gridTemplateColumns: { xs: '1fr auto', md: '120px 1fr 90px 2fr' }, alignItems: 'center', minWidth: 0 }}
    >
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        第 {q.no} 题
        <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 1 }}>
          满分 {points(q.max)}
        </Typography>
      </Typography>
      <Box sx={{ gridColumn: { xs: '1 / -1', md: 'auto' }, gridRow: { xs: 2, md: 'auto' }, minWidth: 0 }}>
        <LinearProgress variant="determinate" value={q.scoreRate === null ? 0 : q.scoreRate * 100} color={q.scoreRate !== null && q.scoreRate < 0.6 ? 'warning' : 'primary'} sx={{ height: 8, borderRadius: 4 }} aria-label={`第 ${q.no} 题得分率`} />
      </Box>
      <Typography variant="body2" sx={{ textAlign: 'right' }} data-testid="question-rate">
        {percent(q.scoreRate)}
      </Typography>
      <Typography variant="caption" color="text.secondary" sx={{ gridColumn: { xs: '1 / -1', md: 'auto' }, overflowWrap: 'anywhere' }} data-testid="question-wrong">
        平均 {points(q.average)} 分
        {q.objective && ` · 正确答案 ${q.expected ?? '—'}`}
        {q.objective && ` · 常见错误：${q.wrongAnswers.length ? q.wrongAnswers.map((w) => `${w.answer}（${w.count}人）`).join('、') : '无'}`}
        {q.flaggedCount > 0 && ` · ${q.flaggedCount} 人待复核`}
      </Typography>
    </Box>
  );
}

/** Essay tasks: each student row opens the essay's correcting screen. */
const essayLink = (report: Report, resultId: number) => `/compositionCorrectDetail?taskId=${report.task.id}&resultId=${resultId}`;

function ReviewList({ report }: { report: Report }) {
  const pending = report.students.filter((s) => s.needsReview);
  if (!pending.length) return <EmptyState />;
  return (
    <Box component="ul" aria-label="需要复核的学生" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
      {pending.map((s) => (
        <Box
          component="li"
          key={s.resultId}
          data-testid="review-student"
          data-result-id={s.resultId}
          // On a phone the score and flag count wrap below the name rather than squeezing the number.
          sx={{ border: 1, borderColor: 'divider', borderRadius: 2, px: 1.5, py: 1, display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', alignItems: 'center', gap: 1, minWidth: 0 }}
        >
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
              <MuiLink component={Link} to={detailPath(report.task, s.resultId)} data-testid="student-detail-link">
                {s.studentName ?? '未识别学生'}
              </MuiLink>
            </Typography>
            <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
              {s.studentNo ? `学号 ${s.studentNo}` : s.studentKey ? `识别号 ${s.studentKey}` : '未识别学号'}
            </Typography>
          </Box>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexShrink: 0 }}>
            <Typography variant="body2" data-testid="review-score">
              {points(s.score)}/{points(s.maxScore)} 分
            </Typography>
            <Chip size="small" color="warning" variant="outlined" label={`待复核 ${s.flaggedCount} 题`} data-testid="review-flagged" />
            {report.task.type === 2 && (
              <Button size="small" variant="outlined" component={Link} to={essayLink(report, s.resultId)}>
                批改
              </Button>
            )}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

/** Every student's score, each opening the student's review screen. */
function StudentList({ report }: { report: Report }) {
  return (
    <Box component="ul" aria-label="全部学生" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 0.5, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr 1fr' } }}>
      {report.students.map((s) => (
        <Box component="li" key={s.resultId} data-testid="report-student" data-student-result={s.resultId} sx={{ minWidth: 0 }}>
          <MuiLink
            component={Link}
            to={detailPath(report.task, s.resultId)}
            underline="none"
            sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, border: 1, borderColor: 'divider', borderRadius: 2, px: 1.5, py: 1, color: 'text.primary', '&:hover': { borderColor: 'primary.main' } }}
          >
            <Typography variant="body2" component="span" sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
              {s.studentName ?? '未识别学生'}
              {s.needsReview && (
                <Typography component="span" variant="caption" color="warning.main" sx={{ ml: 1 }}>
                  待复核
                </Typography>
              )}
            </Typography>
            <Typography variant="body2" component="span" color="primary" sx={{ whiteSpace: 'nowrap' }}>
              {points(s.score)}/{points(s.maxScore)} 分 · 批改详情
            </Typography>
          </MuiLink>
        </Box>
      ))}
    </Box>
  );
}

export default function TaskReport({ route }: ScreenProps) {
  const [params] = useSearchParams();
  const taskId = Number(params.get('taskId'));
  const valid = Number.isInteger(taskId) && taskId > 0;
  const api = useDataProvider<AppDataProvider>();
  // While pages added to the task are graded, the report follows them.
  const report = useQuery({
    queryKey: ['correctReport', taskId],
    queryFn: () => api.correctReport(taskId),
    enabled: valid,
    retry: false,
    refetchInterval: (query) => (query.state.data?.task.status === GradingStatus.grading ? 3000 : false),
  });
  const [exporting, setExporting] = useState(false);
  const [printing, setPrinting] = useState(false);
  const [familyQr, setFamilyQr] = useState(false);

  const data = report.data;
  const exportReport = async () => {
    if (!data) return;
    setExporting(true);
    try {
      await api.exportCorrectReport(taskId, data.task.title);
    } catch {
      // The reason is already on screen (the http client's toast).
    } finally {
      setExporting(false);
    }
  };

  // 反馈单: the class's PDF, one A4 page per student with the 解答题 as marked.
  const printFeedback = async () => {
    setPrinting(true);
    try {
      await api.correctFeedbackPdf(taskId, undefined, familyQr);
    } catch {
      // The reason is already on screen (the http client's toast).
    } finally {
      setPrinting(false);
    }
  };

  if (!valid || report.isError) {
    return (
      <ScreenCard title={route.meta.title}>
        <EmptyState />
      </ScreenCard>
    );
  }
  if (!data) {
    return (
      <ScreenCard title={route.meta.title}>
        <LinearProgress sx={{ mt: 2 }} />
      </ScreenCard>
    );
  }
  const typeName = GRADING_TASK_TYPES.find((t) => t.value === data.task.type)?.label ?? '';
  const { summary } = data;
  return (
    <ScreenCard
      title={`${route.meta.title}：${data.task.title}`}
      description={`${typeName} · ${data.task.className ?? '未选班级'} · 共 ${summary.students} 份结果`}
    >
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, mt: 1, flexWrap: 'wrap' }}>
        {summary.students > 0 && data.questions.length > 0 && (
          <Button variant="outlined" startIcon={<CastForEducationOutlined />} component={Link} to={`/AICorrect/lecture?taskId=${taskId}`}>
            讲评模式
          </Button>
        )}
        {data.task.type === 3 && (
          <>
            <FormControlLabel
              control={<Checkbox size="small" checked={familyQr} onChange={(e) => setFamilyQr(e.target.checked)} />}
              label="附家长查看二维码"
              title="每名学生的反馈单印上家长查看页的二维码（本次打印新生成，30 天内有效）"
              sx={{ mr: 0 }}
            />
            <Button variant="outlined" startIcon={<PrintOutlined />} onClick={printFeedback} disabled={printing || !summary.students} data-testid="print-feedback">
              {printing ? '生成中…' : '打印反馈单'}
            </Button>
          </>
        )}
        <Button variant="outlined" startIcon={<FileDownloadOutlined />} onClick={exportReport} disabled={exporting || !summary.students}>
          {exporting ? '导出中…' : '导出报告'}
        </Button>
      </Box>
      <TaskCoverage report={data} />
      {/* Families' questions on the task's work, or on an essay task's essays. */}
      <RegradePanel work={{ taskId }} />
      {!summary.students ? (
        <EmptyState />
      ) : (
        <>
          <Box sx={{ mt: 2, display: 'grid', gap: 1, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, minmax(0, 1fr))', lg: 'repeat(6, minmax(0, 1fr))' } }}>
            <Stat label="平均分" value={points(summary.average)} testId="report-average" />
            <Stat label="最高分" value={points(summary.highest)} testId="report-highest" />
            <Stat label="最低分" value={points(summary.lowest)} testId="report-lowest" />
            <Stat label="满分" value={points(summary.maxScore)} testId="report-max" />
            <Stat label="人数" value={String(summary.students)} testId="report-students" />
            <Stat label="待复核" value={`${summary.reviewCount} 人`} testId="report-review" />
          </Box>
          <MarkingLinks taskId={taskId} />
          <Section title="分数分布（横轴：得分率 %，纵轴：人数）">
            <Distribution report={data} />
          </Section>
          <Section title="小题得分率">
            {data.questions.length ? (
              <Box component="ol" aria-label="小题得分率" sx={{ listStyle: 'none', m: 0, p: 0 }}>
                {data.questions.map((q) => (
                  <QuestionRow key={q.no} q={q} />
                ))}
              </Box>
            ) : (
              <EmptyState />
            )}
          </Section>
          <Section title={`需要复核的学生（${summary.reviewCount}）`}>
            <ReviewList report={data} />
          </Section>
          <Section title={`全部学生（${data.students.length}）`}>
            <StudentList report={data} />
          </Section>
        </>
      )}
    </ScreenCard>
  );
}
