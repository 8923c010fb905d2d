// 讲评 (/AICorrect/lecture?taskId=): the lesson after the test, on the classroom projector. One
// question at a time, large: how the class scored on it, the right answer and the wrong answers the
// class gave most, with how many chose each. ← and → (or the buttons) go through the questions;
// 按得分率 puts the hardest first, the order a teacher usually reviews in. Names never show: the
// class sees its own figures, not who got what. 选择样例 picks graded papers whose crop of the
// question shows under it as 样例A, B… (Samples.tsx); the arrows wait while the picker is open.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useDataProvider } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import ArrowBack from '@mui/icons-material/ArrowBack';
import NavigateBefore from '@mui/icons-material/NavigateBefore';
import NavigateNext from '@mui/icons-material/NavigateNext';
import PhotoLibraryOutlined from '@mui/icons-material/PhotoLibraryOutlined';
import type { AppDataProvider } from '../../../dataProvider';
import type { ReportQuestion } from '../../../domain/correct';
import type { LectureSample } from '../../../domain/lecture';
import { percent } from '../../../domain/format';
import type { ScreenProps } from '../../screen';
import { EmptyState } from '../../../ui/EmptyState';
import { ScreenCard } from '../../../ui/ScreenCard';
import { SamplePicker, SampleStrip } from './Samples';

type Order = 'number' | 'rate';

/** Hardest first; questions without a rate (no full marks) last, by number. */
export function lectureOrder(questions: readonly ReportQuestion[], order: Order): ReportQuestion[] {
  const byNo = [...questions].sort((a, b) => a.no - b.no);
  if (order === 'number') return byNo;
  return byNo.sort((a, b) => (a.scoreRate ?? 2) - (b.scoreRate ?? 2));
}

function Bar({ label, count, total, tone }: { label: string; count: number; total: number; tone: 'success.main' | 'error.main' }) {
  const share = total ? count / total : 0;
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '4.5em 1fr 4.5em', sm: '6em 1fr 6em' }, alignItems: 'center', gap: 2 }} data-testid="lecture-answer">
      <Typography sx={{ fontSize: { xs: 20, sm: 32 }, fontWeight: 600, overflowWrap: 'anywhere' }}>{label}</Typography>
      <Box sx={{ height: { xs: 16, sm: 28 }, bgcolor: 'grey.200', borderRadius: 1, overflow: 'hidden' }}>
        <Box sx={{ height: '100%', width: `${Math.round(share * 100)}%`, bgcolor: tone }} />
      </Box>
      <Typography sx={{ fontSize: { xs: 18, sm: 28 }, textAlign: 'right' }}>{count} 人</Typography>
    </Box>
  );
}

function Question({ q, samples }: { q: ReportQuestion; samples: LectureSample[] }) {
  // The few most common wrong answers get a bar each; the rest of the wrong ones share one.
  const others = q.wrongCount - q.wrongAnswers.reduce((n, w) => n + w.count, 0);
  return (
    <Box sx={{ display: 'grid', gap: { xs: 2, sm: 4 } }}>
      <Box sx={{ display: 'flex', alignItems: 'baseline', gap: { xs: 2, sm: 4 }, flexWrap: 'wrap' }}>
        <Typography component="h2" sx={{ fontSize: { xs: 36, sm: 64 }, fontWeight: 700 }}>
          第 {q.no} 题
        </Typography>
        <Typography sx={{ fontSize: { xs: 22, sm: 36 } }} data-testid="lecture-rate">
          得分率 <b>{percent(q.scoreRate)}</b>
        </Typography>
        {q.max !== null && q.average !== null && (
          <Typography sx={{ fontSize: { xs: 18, sm: 28 }, color: 'text.secondary' }}>
            平均 {q.average.toFixed(1)} / {q.max} 分
          </Typography>
        )}
      </Box>
      {q.objective ? (
        <Box sx={{ display: 'grid', gap: { xs: 1.5, sm: 2.5 }, maxWidth: 1100 }}>
          {q.expected && <Bar label={`${q.expected} ✓`} count={Math.max(0, q.count - q.wrongCount)} total={q.count} tone="success.main" />}
          {q.wrongAnswers.map((w) => (
            <Bar key={w.answer} label={w.answer || '未作答'} count={w.count} total={q.count} tone="error.main" />
          ))}
          {others > 0 && <Bar label="其他" count={others} total={q.count} tone="error.main" />}
          {!q.wrongAnswers.length && <Typography sx={{ fontSize: { xs: 20, sm: 30 } }}>全班没有人答错这道题。</Typography>}
        </Box>
      ) : (
        <Typography sx={{ fontSize: { xs: 20, sm: 30 }, color: 'text.secondary' }}>
          {q.expected ? `参考答案：${q.expected}` : '主观题：按得分率讲评，请结合学生作答讲解。'}
        </Typography>
      )}
      <SampleStrip samples={samples} />
      <Typography sx={{ fontSize: { xs: 16, sm: 22 }, color: 'text.secondary' }}>
        共 {q.count} 份作答{q.flaggedCount ? `，其中 ${q.flaggedCount} 份待老师复核，数字可能还会变化` : ''}。
      </Typography>
    </Box>
  );
}

export default function Lecture({ route }: ScreenProps) {
  const [params, setParams] = useSearchParams();
  const taskId = Number(params.get('taskId'));
  const valid = Number.isInteger(taskId) && taskId > 0;
  const api = useDataProvider<AppDataProvider>();
  const report = useQuery({ queryKey: ['correctReport', taskId], queryFn: () => api.correctReport(taskId), enabled: valid, retry: false });
  const samples = useQuery({ queryKey: ['lectureSamples', taskId], queryFn: () => api.lectureSamples(taskId), enabled: valid, retry: false });
  const queryClient = useQueryClient();
  const [picking, setPicking] = useState(false);
  // The order and the question are in the address, so a reload (or a projector's refresh) stays put.
  const order: Order = params.get('order') === 'number' ? 'number' : 'rate';
  const questions = useMemo(() => lectureOrder(report.data?.questions ?? [], order), [report.data, order]);
  const at = Math.min(Math.max(0, Number(params.get('q') ?? 0) || 0), Math.max(0, questions.length - 1));
  const go = useCallback(
    (next: number) => {
      if (next < 0 || next >= questions.length) return;
      setParams((p) => {
        const copy = new URLSearchParams(p);
        copy.set('q', String(next));
        return copy;
      }, { replace: true });
    },
    [questions.length, setParams],
  );
  // A key press reads the question and the picker as rendered last. A listener bound to an earlier
  // render (until its effect ran again) moved from the question before: on a busy machine a quick ←
  // after → skipped a question, and a → just after 选择样例 changed the question behind the picker.
  const current = useRef({ at, go, picking });
  current.current = { at, go, picking };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const { at, go, picking } = current.current;
      // The picker's own keys (checkboxes, buttons) are not a question change.
      if (picking) return;
      if (event.key === 'ArrowRight' || event.key === 'PageDown' || event.key === ' ') go(at + 1);
      else if (event.key === 'ArrowLeft' || event.key === 'PageUp') go(at - 1);
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const back = `/AICorrect/report?taskId=${taskId}`;
  if (!valid || report.isError || (report.data && !questions.length)) {
    return (
      <ScreenCard title={route.meta.title}>
        <EmptyState text={report.data ? '这个任务还没有可讲评的题目：批改完成后再来。' : '找不到这个批改任务'} />
      </ScreenCard>
    );
  }
  if (!report.data) return <LinearProgress />;
  const q = questions[at];
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.paper', p: { xs: 2, sm: 5 }, display: 'flex', flexDirection: 'column', gap: { xs: 2, sm: 4 } }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Button component={Link} to={back} startIcon={<ArrowBack />}>
          返回报告
        </Button>
        <Typography component="h1" sx={{ fontSize: { xs: 18, sm: 24 }, fontWeight: 600, flex: 1, minWidth: 0 }}>
          讲评：{report.data.task.title}
          {report.data.task.className ? ` · ${report.data.task.className}` : ''}
        </Typography>
        <Button size="small" variant="outlined" startIcon={<PhotoLibraryOutlined />} onClick={() => setPicking(true)}>
          选择样例
        </Button>
        <ToggleButtonGroup size="small" exclusive value={order} onChange={(_, v: Order | null) =>
            v &&
            setParams((p) => {
              const copy = new URLSearchParams(p);
              copy.set('order', v);
              copy.set('q', '0');
              return copy;
            }, { replace: true })
          } aria-label="讲评顺序">
          <ToggleButton value="rate">按得分率</ToggleButton>
          <ToggleButton value="number">按题号</ToggleButton>
        </ToggleButtonGroup>
      </Box>
      <Box sx={{ flex: 1 }}>
        <Question q={q} samples={(samples.data?.samples ?? []).filter((s) => s.no === q.no)} />
        {picking && (
          <SamplePicker
            taskId={taskId}
            no={q.no}
            chosen={(samples.data?.samples ?? []).filter((s) => s.no === q.no)}
            onClose={() => setPicking(false)}
            onSaved={(saved) => {
              // The question's samples as saved; the other questions' stay.
              queryClient.setQueryData<{ samples: LectureSample[] }>(['lectureSamples', taskId], (d) => ({ samples: [...(d?.samples ?? []).filter((s) => s.no !== q.no), ...saved] }));
              setPicking(false);
            }}
          />
        )}
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2 }}>
        <Button size="large" variant="outlined" startIcon={<NavigateBefore />} onClick={() => go(at - 1)} disabled={at === 0}>
          上一题
        </Button>
        <Typography sx={{ fontSize: { xs: 16, sm: 22 } }} data-testid="lecture-position">
          {at + 1} / {questions.length}
        </Typography>
        <Button size="large" variant="contained" endIcon={<NavigateNext />} onClick={() => go(at + 1)} disabled={at === questions.length - 1}>
          下一题
        </Button>
      </Box>
      <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'none', sm: 'block' }, textAlign: 'center' }}>
        键盘 ← → 切换题目
      </Typography>
    </Box>
  );
}
