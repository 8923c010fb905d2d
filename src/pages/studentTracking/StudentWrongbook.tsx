// One student's wrong-answer book: weekly trend (wrong answers and accuracy over the term), and
// the wrong questions by knowledge point with the student's and the correct answer, how often it
// was wrong, the mastery and a cause the teacher sets (saved at once).
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useNotify } from 'react-admin';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ArrowBack from '@mui/icons-material/ArrowBack';
import Print from '@mui/icons-material/Print';
import Insights from '@mui/icons-material/Insights';
import { Link } from 'react-router-dom';
import type { AppDataProvider } from '../../dataProvider';
import type { WrongbookDetail, WrongQuestion } from '../../dataProvider/studentWrongbook';
import { ERROR_CAUSES, masteryLabel } from '../../domain/wrongbook';
import { EmptyState } from '../../ui/EmptyState';
import { FamilyLinkButton } from '../../resources/students/FamilyLinks';
import { MathText } from '../MathText';
import { Stem } from '../Stem';

const MASTERY_COLOR = ['error', 'warning', 'success'] as const;

function Tile({ label, value }: { label: string; value: number }) {
  return (
    <Card variant="outlined" sx={{ borderRadius: 2 }}>
      <CardContent sx={{ py: 1.5, '&:last-child': { pb: 1.5 } }}>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        <Typography sx={{ fontSize: 24, fontWeight: 700 }} data-testid={`tile-${label}`}>
          {value}
        </Typography>
      </CardContent>
    </Card>
  );
}

function Trend({ weeks }: { weeks: WrongbookDetail['weeks'] }) {
  if (!weeks.length) return <EmptyState />;
  const labels = weeks.map((w) => w.week.slice(5));
  // A week without answers has no rate: the line breaks there instead of showing 0.
  const rates = weeks.map((w) => (w.answered ? Math.round((w.correct / w.answered) * 1000) / 10 : null));
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 2, mt: 1, minWidth: 0 }}>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="subtitle2">每周错题数</Typography>
        <BarChart height={220} xAxis={[{ data: labels, scaleType: 'band', height: 32 }]}
          yAxis={[{ tickMinStep: 1, width: 40 }]} series={[{ data: weeks.map((w) => w.wrong), label: '错题数', color: '#e57373' }]} hideLegend />
      </Box>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="subtitle2">每周正确率（%）</Typography>
        <LineChart
          height={220}
          xAxis={[{ data: labels, scaleType: 'point', height: 32 }]}
          yAxis={[{ min: 0, max: 100, width: 40 }]}
          series={[{ data: rates, label: '正确率', curve: 'linear', connectNulls: false, color: '#4caf50', valueFormatter: (v: number | null) => (v === null ? '暂无数据' : `${v}%`) }]}
          hideLegend
        />
      </Box>
    </Box>
  );
}

function QuestionCard({ q, onCause }: { q: WrongQuestion; onCause: (cause: number | null) => Promise<void> }) {
  const [saving, setSaving] = useState(false);
  return (
    <Card variant="outlined" sx={{ borderRadius: 2 }} data-testid={`question-${q.questionId}`}>
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1, minWidth: 0 }}>
        <Typography component="div" sx={{ minWidth: 0 }}>
          <Stem text={q.stem} />
        </Typography>
        {q.options?.length ? (
          <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 0.25 }}>
            {q.options.map((o) => (
              <Typography component="li" variant="body2" key={o.key}>
                {o.key}. <MathText text={o.text} />
              </Typography>
            ))}
          </Box>
        ) : null}
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 0.5 }}>
          <Typography variant="body2" color="error.main">
            学生作答：{q.studentAnswer ? <MathText text={q.studentAnswer} /> : '未作答'}
          </Typography>
          <Typography variant="body2" color="success.main">
            正确答案：{q.correctAnswer ? <MathText text={q.correctAnswer} /> : '暂无数据'}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Chip size="small" label={`错 ${q.timesWrong} 次`} data-testid="times-wrong" />
          <Chip size="small" color={MASTERY_COLOR[q.mastery] ?? 'error'} label={masteryLabel(q.mastery)} data-testid="mastery" />
          <TextField
            select
            size="small"
            label="错因"
            value={q.cause ?? ''}
            disabled={saving}
            onChange={async (e) => {
              setSaving(true);
              await onCause(e.target.value === '' ? null : Number(e.target.value)).finally(() => setSaving(false));
            }}
            sx={{ minWidth: 130, ml: { sm: 'auto' } }}
            slotProps={{ select: { inputProps: { 'aria-label': '错因', 'data-testid': 'cause' } } }}
          >
            <MenuItem value="">未设置</MenuItem>
            {ERROR_CAUSES.map((c) => (
              <MenuItem key={c.value} value={c.value}>
                {c.label}
              </MenuItem>
            ))}
          </TextField>
        </Box>
      </CardContent>
    </Card>
  );
}

/** Downloads the printable 错题本 of the student's 未掌握 questions; nothing to print, nothing to press. */
function PrintBookButton({ studentId, courseId, unmastered }: { studentId: number; courseId: number; unmastered: number }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      size="small"
      variant="outlined"
      startIcon={<Print />}
      disabled={busy || !unmastered}
      title={unmastered ? '下载 A4 错题本：未掌握的错题与重做空白，答案与解析在最后一页' : '没有未掌握的错题'}
      onClick={async () => {
        setBusy(true);
        // The http client shows the server's message when it fails.
        await dataProvider.downloadStudentWrongbookPdf(studentId, courseId).catch(() => undefined).finally(() => setBusy(false));
      }}
    >
      {busy ? '正在生成…' : '打印错题本'}
    </Button>
  );
}

export function StudentWrongbook({ studentId, courseId, onBack }: { studentId: number; courseId: number; onBack: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const key = ['wrongbookStudent', studentId, courseId];
  const query = useQuery({ queryKey: key, queryFn: () => dataProvider.wrongbookStudent(studentId, courseId), retry: false });
  const detail = query.isError ? null : query.data;

  const back = (
    <Button startIcon={<ArrowBack />} onClick={onBack} sx={{ mt: 1, ml: -1 }}>
      返回学生列表
    </Button>
  );
  if (detail === undefined) return <LinearProgress sx={{ mt: 2 }} />;
  if (detail === null)
    return (
      <>
        {back}
        <EmptyState />
      </>
    );

  const saveCause = async (questionId: number, cause: number | null) => {
    try {
      const mark = await dataProvider.markWrongQuestion({ studentId, questionId, courseId, cause });
      queryClient.setQueryData<WrongbookDetail>(key, (d) =>
        d && {
          ...d,
          points: d.points.map((p) => ({ ...p, questions: p.questions.map((q) => (q.questionId === questionId ? { ...q, cause: mark.cause } : q)) })),
        },
      );
      notify('错因已保存', { type: 'success' });
    } catch {
      // The http client has shown the server's message.
    }
  };

  const { student, summary } = detail;
  return (
    <Box sx={{ minWidth: 0 }}>
      {back}
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, mt: 0.5 }}>
        <Typography variant="h6" component="h2">
          {student.name}
          <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 1 }}>
            {student.studentNo} · {detail.courseName}
          </Typography>
        </Typography>
        {/* The family's read-only page of this student (links for this teacher's courses). */}
        <FamilyLinkButton record={{ id: student.id, name: student.name, studentNo: student.studentNo }} />
        <PrintBookButton studentId={studentId} courseId={courseId} unmastered={summary.unmasteredCount} />
        {/* The student's term across subjects taught: trend, knowledge points, 临界, the diagnostic PDF. */}
        <Button size="small" variant="outlined" startIcon={<Insights />} component={Link} to={`/studentHistory?studentId=${studentId}`}>
          学情档案
        </Button>
      </Box>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, 1fr)', sm: 'repeat(4, minmax(0, 140px))' }, gap: 1, mt: 1.5 }}>
        <Tile label="错题" value={summary.wrongCount} />
        <Tile label="未掌握" value={summary.unmasteredCount} />
        <Tile label="巩固中" value={summary.consolidatingCount} />
        <Tile label="已掌握" value={summary.masteredCount} />
      </Box>
      <Typography variant="subtitle1" component="h3" sx={{ mt: 2, fontWeight: 600 }}>
        本学期趋势
      </Typography>
      <Trend weeks={detail.weeks} />
      <Typography variant="subtitle1" component="h3" sx={{ mt: 2, fontWeight: 600 }}>
        按知识点的错题
      </Typography>
      {!detail.points.length && <EmptyState />}
      {detail.points.map((p) => (
        <Box key={p.knowledgePointId ?? 0} sx={{ mt: 1.5 }}>
          <Typography variant="subtitle2" sx={{ mb: 1 }}>
            {p.name}（{p.questions.length} 道）
          </Typography>
          <Box sx={{ display: 'grid', gap: 1.5 }}>
            {p.questions.map((q) => (
              <QuestionCard key={q.questionId} q={q} onCause={(cause) => saveCause(q.questionId, cause)} />
            ))}
          </Box>
        </Box>
      ))}
    </Box>
  );
}
