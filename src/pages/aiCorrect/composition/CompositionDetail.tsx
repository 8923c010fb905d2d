// 作文批改详情: one student's essay in an essay task. /composition-detail?taskId=&resultId= shows
// it (the view from the task); /compositionCorrectDetail?… is the same screen with the teacher's
// form open (the correcting view). The photo beside the recognised text with the engine's notes
// marked in it, the four rubric dimensions, the model's review when one was configured, the
// teacher's score and comment (POST /result/review), the previous/next student, and a printable
// feedback page for the student (&print=1). Full-screen routes, laid out for a phone first.
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useDataProvider, useNotify } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ArrowBack from '@mui/icons-material/ArrowBack';
import NavigateBefore from '@mui/icons-material/NavigateBefore';
import NavigateNext from '@mui/icons-material/NavigateNext';
import PrintOutlined from '@mui/icons-material/PrintOutlined';
import type { AppDataProvider } from '../../../dataProvider';
import type { CorrectResultDetail, CorrectTaskDetail, EssayOutput } from '../../../dataProvider/correct';
import type { ScreenProps } from '../../screen';
import { EmptyState } from '../../../ui/EmptyState';
import { EssayText, NoteList } from './EssayText';
import { PrintFeedback } from './PrintFeedback';
import { RegradePanel } from '../../family/RegradePanel';

const CORRECT_PATH = '/compositionCorrectDetail';
const MAX_COMMENT = 1000;

function Block({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  return (
    <Box component="section" data-testid={testId} sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 1.5, bgcolor: 'background.paper', minWidth: 0 }}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/** The uploaded photo, fetched with the session (an <img src> cannot send the token). */
function Photo({ fileId }: { fileId: number | undefined }) {
  const api = useDataProvider<AppDataProvider>();
  const file = useQuery({ queryKey: ['correctFile', fileId], queryFn: () => api.correctFile(fileId!), enabled: !!fileId, retry: false, staleTime: Infinity });
  const url = useMemo(() => (file.data ? URL.createObjectURL(file.data) : null), [file.data]);
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);
  if (!fileId || file.isError) return <EmptyState />;
  if (!url) return <LinearProgress />;
  return (
    <Box component="a" href={url} target="_blank" rel="noreferrer" sx={{ display: 'block' }}>
      <Box component="img" src={url} alt="作文照片" data-testid="essay-photo" sx={{ display: 'block', width: '100%', height: 'auto', maxHeight: { md: '70vh' }, objectFit: 'contain', borderRadius: 1, bgcolor: '#f5f5f5' }} />
    </Box>
  );
}

function Dimensions({ essay }: { essay: EssayOutput }) {
  return (
    <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}>
      {essay.rubric.dimensions.map((d) => (
        <Box key={d.key} data-testid="essay-dimension" data-key={d.key} sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 1.25, minWidth: 0 }}>
          <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', gap: 1 }}>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {d.name}
            </Typography>
            <Typography variant="body2" data-testid="dimension-score">
              {d.score}/{d.max} 分
            </Typography>
          </Box>
          <LinearProgress variant="determinate" value={d.max ? (d.score / d.max) * 100 : 0} sx={{ my: 0.75, height: 6, borderRadius: 3 }} aria-label={`${d.name}得分`} />
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
            {d.comment}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

function ReviewForm({ result, essay, onSaved }: { result: CorrectResultDetail; essay: EssayOutput; onSaved: () => void }) {
  const api = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const item = result.result.items[0];
  const max = item?.max ?? result.maxScore ?? essay.rubric.fullMarks;
  const [score, setScore] = useState(String(result.review?.['1'] ?? item?.score ?? ''));
  const [comment, setComment] = useState(result.result.teacherComment ?? essay.rubric.comment);
  const [saving, setSaving] = useState(false);
  const value = Number(score);
  const scoreError = score.trim() === '' ? '请填写得分' : !Number.isFinite(value) || value < 0 ? '得分不能小于 0' : value > max ? `得分不能超过满分 ${max} 分` : Math.round(value * 2) !== value * 2 ? '得分以 0.5 分为单位' : '';
  const commentError = comment.length > MAX_COMMENT ? `评语不能超过 ${MAX_COMMENT} 字` : '';

  const save = async () => {
    if (scoreError || commentError || !item) return;
    setSaving(true);
    try {
      await api.reviewEssayResult({ resultId: result.id, items: [{ no: item.no, score: value }], comment });
      notify('已保存批改', { type: 'success' });
      onSaved();
    } catch {
      // The http client already showed the server's reason.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(e) => (e.preventDefault(), void save())} sx={{ display: 'grid', gap: 1.5 }}>
      <TextField
        label={`得分（满分 ${max} 分）`}
        type="number"
        value={score}
        onChange={(e) => setScore(e.target.value)}
        error={!!scoreError}
        helperText={scoreError || `机器评分 ${item?.score ?? '—'} 分`}
        slotProps={{ htmlInput: { min: 0, max, step: 0.5, inputMode: 'decimal' } }}
        size="small"
      />
      <TextField
        label="评语"
        multiline
        minRows={3}
        value={comment}
        onChange={(e) => setComment(e.target.value)}
        error={!!commentError}
        helperText={commentError || `${comment.length}/${MAX_COMMENT}`}
      />
      <Button type="submit" variant="contained" disabled={saving || !!scoreError || !!commentError}>
        {saving ? '保存中…' : '确认批改'}
      </Button>
    </Box>
  );
}

export default function CompositionDetail({ route }: ScreenProps) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const api = useDataProvider<AppDataProvider>();
  const taskId = Number(params.get('taskId'));
  const resultId = Number(params.get('resultId'));
  const printing = params.get('print') === '1';
  const correcting = route.path === CORRECT_PATH;
  const valid = Number.isInteger(taskId) && taskId > 0 && Number.isInteger(resultId) && resultId > 0;

  const task = useQuery<CorrectTaskDetail>({ queryKey: ['correctTaskDetail', taskId], queryFn: () => api.correctTaskDetail(taskId), enabled: valid, retry: false });
  const result = useQuery<CorrectResultDetail>({ queryKey: ['correctResult', resultId], queryFn: () => api.correctResult(resultId), enabled: valid, retry: false });

  const go = (path: string, id: number, extra = '') => navigate(`${path}?taskId=${taskId}&resultId=${id}${extra}`);
  const back = () => navigate(`/AICorrect/report?taskId=${taskId}`);

  const results = task.data?.results ?? [];
  const index = results.findIndex((r) => r.id === resultId);
  const row = index >= 0 ? results[index] : undefined;
  const studentName = row ? (row.studentName ?? (row.studentKey ? `识别号 ${row.studentKey}` : '未识别学生')) : '';
  const essay = result.data?.result.detail.essay;
  const text = result.data?.result.detail.text ?? '';
  const fileId = result.data?.result.fileId ?? task.data?.files?.find((f) => f.studentId !== null && f.studentId === result.data?.studentId && f.recognitionStatus === 3)?.id;
  const comment = result.data?.result.teacherComment ?? essay?.rubric.comment ?? '';

  const onSaved = () => {
    void queryClient.invalidateQueries({ queryKey: ['correctResult', resultId] });
    void queryClient.invalidateQueries({ queryKey: ['correctTaskDetail', taskId] });
    void queryClient.invalidateQueries({ queryKey: ['correctReport', taskId] });
  };

  const broken = !valid || task.isError || result.isError || (result.data && result.data.result.kind !== 'essay') || (result.data && !essay);
  if (printing && essay && result.data && task.data) {
    return (
      <PrintFeedback
        data={{ taskId, resultId, hasStudent: result.data.studentId !== null, taskTitle: task.data.task.title, studentName, score: result.data.score, maxScore: result.data.maxScore, comment, text, essay }}
        onBack={() => go(route.path, resultId)}
      />
    );
  }

  return (
    <Box sx={{ minHeight: '100vh', bgcolor: '#f5f7fb' }}>
      <Box component="header" sx={{ position: 'sticky', top: 0, zIndex: 2, bgcolor: 'background.paper', borderBottom: 1, borderColor: 'divider', px: { xs: 1, md: 3 }, py: 1, display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <IconButton aria-label="返回批改报告" onClick={back} edge="start">
          <ArrowBack />
        </IconButton>
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography variant="h6" component="h1" sx={{ fontWeight: 600, fontSize: { xs: 17, md: 20 } }}>
            {route.meta.title}
          </Typography>
          {task.data && (
            <Typography variant="caption" color="text.secondary" sx={{ display: 'block', overflowWrap: 'anywhere' }} data-testid="essay-subtitle">
              {task.data.task.title}
              {row && ` · ${studentName} · 第 ${index + 1}/${results.length} 份`}
            </Typography>
          )}
        </Box>
        {row && (
          // On a phone the buttons take their own row under the title.
          <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'center', justifyContent: { xs: 'space-between', sm: 'flex-end' }, width: { xs: '100%', sm: 'auto' } }}>
            <Button size="small" startIcon={<NavigateBefore />} disabled={index <= 0} onClick={() => go(route.path, results[index - 1]!.id)}>
              上一份
            </Button>
            <Button size="small" endIcon={<NavigateNext />} disabled={index >= results.length - 1} onClick={() => go(route.path, results[index + 1]!.id)}>
              下一份
            </Button>
            <Button size="small" variant="outlined" startIcon={<PrintOutlined />} disabled={!essay} onClick={() => go(route.path, resultId, '&print=1')}>
              打印评语
            </Button>
          </Box>
        )}
      </Box>

      {broken ? (
        <Box sx={{ p: 2 }}>
          <EmptyState />
        </Box>
      ) : !result.data || !task.data || !essay ? (
        <LinearProgress />
      ) : (
        <Box sx={{ p: { xs: 1.5, md: 3 }, display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 5fr) minmax(0, 7fr)' }, alignItems: 'start', maxWidth: 1600, mx: 'auto' }}>
          <Box sx={{ display: 'grid', gap: 2, minWidth: 0, position: { md: 'sticky' }, top: { md: 80 } }}>
            <Block title="作文照片">
              <Photo fileId={fileId} />
            </Block>
          </Box>
          <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
            {/* The family's request on this essay, to answer after a second look at the score. */}
            <RegradePanel work={{ taskId }} studentId={result.data.studentId} />
            <Block title="评分" testId="essay-score-block">
              <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1, flexWrap: 'wrap', mb: 1 }}>
                <Typography variant="h4" component="p" sx={{ fontWeight: 700 }} data-testid="essay-score">
                  {result.data.score ?? '—'}
                </Typography>
                <Typography color="text.secondary">/ {result.data.maxScore ?? '—'} 分</Typography>
                {result.data.reviewedAt ? <Chip size="small" color="success" label="老师已确认" /> : <Chip size="small" color="warning" variant="outlined" label="待老师确认" />}
              </Box>
              {!!essay.rubric.flags?.length && (
                <Alert severity="warning" sx={{ mb: 1 }} data-testid="essay-flags">
                  {essay.rubric.flags.map((f) => f.message).join('；')}
                </Alert>
              )}
              <Dimensions essay={essay} />
            </Block>
            <Block title={`识别文字（约 ${essay.rubric.charCount} 字）`}>
              <EssayText text={text} sentences={essay.rubric.sentences} notes={essay.rubric.notes} />
              <Typography variant="subtitle2" component="h3" sx={{ mt: 1.5, mb: 0.5 }}>
                逐句批注
              </Typography>
              <NoteList notes={essay.rubric.notes} />
            </Block>
            {essay.llm?.ok && (
              <Block title="大模型点评" testId="essay-llm">
                <Typography variant="body2" sx={{ mb: 0.5 }}>
                  建议得分 {essay.llm.review.score} 分
                </Typography>
                <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                  {essay.llm.review.comment}
                </Typography>
                {!!essay.llm.review.suggestions.length && (
                  <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 3 }}>
                    {essay.llm.review.suggestions.map((s, i) => (
                      <Typography component="li" variant="body2" key={i}>
                        {s}
                      </Typography>
                    ))}
                  </Box>
                )}
              </Block>
            )}
            <Block title={correcting ? '老师批改' : '老师评语'} testId="essay-review">
              {correcting ? (
                <ReviewForm key={`${result.data.id}-${result.data.reviewedAt ?? ''}`} result={result.data} essay={essay} onSaved={onSaved} />
              ) : (
                <>
                  <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', mb: 1.5 }} data-testid="essay-comment">
                    {comment}
                  </Typography>
                  <Button variant="contained" onClick={() => go(CORRECT_PATH, resultId)}>
                    修改评分和评语
                  </Button>
                </>
              )}
            </Block>
          </Box>
        </Box>
      )}
    </Box>
  );
}
