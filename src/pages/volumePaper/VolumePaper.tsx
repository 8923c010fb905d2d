// 错题组卷 (/wrongbook/volumnPaper?classId=…&courseId=…&questionIds=1,2,3): a paper of the class's
// wrong questions. Opened from the class wrong-answer book with its chosen questions, or without
// them, when the class's most-missed questions are offered here to choose from. The teacher picks
// the mode (班级卷 / 个性化), how many similar questions (举一反三) each gets and, per question,
// whether it prints re-typeset or as the student's own scan; the server builds the PDF.
import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router-dom';
import { useDataProvider } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import ArrowBack from '@mui/icons-material/ArrowBack';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import type { AppDataProvider } from '../../dataProvider';
import type { VolumeInput, VolumeMode, VolumeSheet } from '../../dataProvider/volumePaper';
import { useSelection } from '../../filters/SelectionProvider';
import { EmptyState } from '../../ui/EmptyState';
import { MathText } from '../MathText';
import type { ScreenProps } from '../screen';

const MAX_QUESTIONS = 50;
type PrintAs = 'typeset' | 'scan';

function idsFrom(raw: string | null): number[] {
  if (!raw) return [];
  const ids = raw.split(',').map((s) => Number(s.trim())).filter((n) => Number.isInteger(n) && n > 0 && n < 2 ** 31);
  return [...new Set(ids)].slice(0, MAX_QUESTIONS);
}

const rateText = (wrong: number, answered: number) => (answered > 0 ? `错误率 ${Math.round((wrong / answered) * 100)}%（${wrong}/${answered}）` : '错误率 暂无数据');

function Section({ title, children, action }: { title: string; children: React.ReactNode; action?: React.ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, md: 2 }, borderRadius: 2, minWidth: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1.5, flexWrap: 'wrap' }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flex: 1 }}>
          {title}
        </Typography>
        {action}
      </Box>
      {children}
    </Paper>
  );
}

export default function VolumePaper(_props: ScreenProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const navigate = useNavigate();
  const location = useLocation();
  const { selection } = useSelection();
  const params = new URLSearchParams(location.search);
  const classId = Number(params.get('classId') || selection.classId) || 0;
  const courseId = Number(params.get('courseId') || selection.courseId) || 0;
  const linked = useMemo(() => idsFrom(params.get('questionIds')), [location.search]); // eslint-disable-line react-hooks/exhaustive-deps

  const [chosen, setChosen] = useState<number[]>(linked);
  const [mode, setMode] = useState<VolumeMode>('class');
  const [variants, setVariants] = useState(1);
  const [familyQr, setFamilyQr] = useState(false);
  const [printAs, setPrintAs] = useState<Record<number, PrintAs>>({});
  const [busy, setBusy] = useState(false);
  const [sheet, setSheet] = useState<VolumeSheet | null>(null);

  // Without questions from the wrong-answer book, the class's most-missed ones are offered.
  const candidateQuery = useQuery({
    queryKey: ['volumeCandidates', classId, courseId],
    queryFn: () => dataProvider.volumeCandidates(classId, courseId).then((r) => r.list),
    enabled: !linked.length && !!classId && !!courseId,
    retry: false,
  });
  const candidates = linked.length ? undefined : !classId || !courseId || candidateQuery.isError ? null : candidateQuery.data;

  const input: VolumeInput | null = useMemo(
    () =>
      classId && courseId && chosen.length
        ? { classId, courseId, questionIds: chosen, mode, variants, ...(mode === 'personal' ? { scanIds: chosen.filter((id) => printAs[id] === 'scan') } : {}) }
        : null,
    [classId, courseId, chosen, mode, variants, printAs],
  );
  const key = JSON.stringify(input);
  // The preview follows the choices a quarter second after the last change; a new choice drops the answer sheet.
  const [asked, setAsked] = useState(input);
  useEffect(() => {
    setSheet(null);
    const timer = setTimeout(() => setAsked(input), 250);
    return () => clearTimeout(timer);
  }, [key]); // eslint-disable-line react-hooks/exhaustive-deps
  const settled = JSON.stringify(asked) === key;
  // Not kept once the choice moves on: a choice made again is previewed afresh (variants are drawn anew).
  const previewQuery = useQuery({ queryKey: ['volumePreview', asked], queryFn: () => dataProvider.volumePreview(asked!), enabled: !!asked && settled, retry: false, gcTime: 0 });
  const preview = !input ? null : !settled || previewQuery.isPending ? undefined : previewQuery.isError ? null : previewQuery.data;

  const generate = async () => {
    if (!input || !preview) return;
    setBusy(true);
    try {
      // The links are issued by printing only, not by the preview or the sheet.
      await dataProvider.volumePdf(mode === 'personal' && familyQr ? { ...input, familyQr: true } : input, `${preview.className}_${mode === 'personal' ? '个性化' : '班级卷'}`);
      setSheet(await dataProvider.volumeSheet(input));
    } catch {
      // The http client has told the teacher why.
    } finally {
      setBusy(false);
    }
  };

  // Closes the loop: a grading task on this paper's answer sheet, where the scans are uploaded.
  const createTask = async () => {
    if (!sheet || !preview || !input) return;
    setBusy(true);
    try {
      // Linked to the paper's custom homework, grading writes answer records: the books' mastery moves.
      const work = await dataProvider.volumeHomework(input);
      const task = await dataProvider.createCorrectTask({ type: 3, title: preview.title.slice(0, 50), sheetId: work.sheetId, classId, homeworkId: work.homeworkId, answerKey: work.answerKey } as Parameters<AppDataProvider['createCorrectTask']>[0]);
      navigate(`/AICorrect/createCorrectTask?taskId=${task.id}`);
    } catch {
      // Told by the http client.
    } finally {
      setBusy(false);
    }
  };

  const toggle = (id: number) => setChosen((list) => (list.includes(id) ? list.filter((x) => x !== id) : list.length < MAX_QUESTIONS ? [...list, id] : list));
  const nothingPrintable = mode === 'personal' && preview && !preview.students.length;

  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'grey.100', pb: 10 }}>
      <Box component="header" sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, py: 1, bgcolor: 'background.paper', borderBottom: 1, borderColor: 'divider' }}>
        <Button startIcon={<ArrowBack />} size="small" onClick={() => navigate('/wrongbook/index')}>
          返回
        </Button>
        <Typography variant="h6" component="h1" sx={{ fontWeight: 600, flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
          错题组卷
        </Typography>
      </Box>
      {(preview === undefined && input) || busy ? <LinearProgress /> : null}
      {!classId || !courseId ? (
        <Box sx={{ p: 2 }}>
          <Alert severity="info">请先在班级错题本中选择班级和课程</Alert>
        </Box>
      ) : (
        <Box sx={{ p: { xs: 1, md: 2 }, display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0,1fr)', md: 'minmax(0,3fr) minmax(0,2fr)' }, alignItems: 'start', maxWidth: 1400, mx: 'auto' }}>
          <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
            {!linked.length && (
              <Section title="班级高频错题（前 20）" action={candidates?.length ? <Button size="small" onClick={() => setChosen(chosen.length ? [] : candidates.map((q) => q.id))}>{chosen.length ? '清空' : '全选'}</Button> : undefined}>
                {candidates === undefined ? (
                  <LinearProgress />
                ) : !candidates?.length ? (
                  <EmptyState />
                ) : (
                  <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }} data-testid="volume-candidates">
                    {candidates.map((q) => (
                      <Box component="li" key={q.id} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', py: 0.5, borderBottom: 1, borderColor: 'divider' }}>
                        <Checkbox size="small" checked={chosen.includes(q.id)} onChange={() => toggle(q.id)} inputProps={{ 'aria-label': `选择第 ${q.id} 题` }} sx={{ p: 0.5 }} />
                        <Box sx={{ minWidth: 0, flex: 1 }}>
                          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                            <MathText text={q.stem} />
                          </Typography>
                          <Typography variant="caption" color="text.secondary">
                            {q.typeName} · 难度 {q.difficulty} · {rateText(q.wrong, q.answered)}
                          </Typography>
                        </Box>
                      </Box>
                    ))}
                  </Box>
                )}
              </Section>
            )}
            <Section title={`已选题目（${chosen.length}）`}>
              {!chosen.length ? (
                <EmptyState text="暂无数据，请在上方选择错题" />
              ) : !preview ? (
                preview === null ? <EmptyState /> : <LinearProgress />
              ) : (
                <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }} data-testid="volume-questions">
                  {preview.questions.map((q) => {
                    const as = printAs[q.id] ?? 'typeset';
                    return (
                      <Box component="li" key={q.id} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5, bgcolor: 'background.paper', minWidth: 0 }}>
                        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                          <b>{q.no}.</b> <MathText text={q.stem} />
                        </Typography>
                        <Typography variant="caption" color="text.secondary" component="div">
                          {q.typeName} · 难度 {q.difficulty} · {rateText(q.wrong, q.answered)}
                          {q.students !== null && ` · ${q.students} 名学生做错`}
                        </Typography>
                        {mode === 'personal' && (
                          <Box sx={{ mt: 1, display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                            <ToggleButtonGroup size="small" exclusive value={as} onChange={(_, v: PrintAs | null) => v && setPrintAs((m) => ({ ...m, [q.id]: v }))} aria-label={`第 ${q.no} 题打印方式`}>
                              <ToggleButton value="typeset">重新排版</ToggleButton>
                              <ToggleButton value="scan">原题图片</ToggleButton>
                            </ToggleButtonGroup>
                            {as === 'scan' && (
                              <Typography variant="caption" color={q.scanStudents ? 'text.secondary' : 'warning.main'}>
                                {q.scanStudents ? `${q.scanStudents} 名学生附本人作答截图，其余只重新排版` : '该题没有批改扫描件，将重新排版'}
                              </Typography>
                            )}
                          </Box>
                        )}
                        {q.similar.length > 0 && (
                          <Box sx={{ mt: 1, pl: 1.5, borderLeft: 3, borderColor: 'primary.light' }}>
                            {q.similar.map((v) => (
                              <Typography key={v.id} variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                                <Chip label="举一反三" size="small" sx={{ mr: 0.5, height: 20 }} />
                                {v.no}. <MathText text={v.stem} />
                              </Typography>
                            ))}
                          </Box>
                        )}
                        {variants > 0 && !q.similar.length && (
                          <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 0.5 }}>
                            题库中没有同知识点、同题型的相似题
                          </Typography>
                        )}
                      </Box>
                    );
                  })}
                </Box>
              )}
            </Section>
          </Box>
          <Box sx={{ display: 'grid', gap: 2, minWidth: 0, position: { md: 'sticky' }, top: { md: 64 } }}>
            <Section title="组卷设置">
              <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
                组卷方式
              </Typography>
              <ToggleButtonGroup size="small" exclusive value={mode} onChange={(_, v: VolumeMode | null) => v && setMode(v)} aria-label="组卷方式" sx={{ mb: 1.5 }}>
                <ToggleButton value="class">班级卷</ToggleButton>
                <ToggleButton value="personal">个性化</ToggleButton>
              </ToggleButtonGroup>
              <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1.5 }}>
                {mode === 'class' ? '全班一份试卷，含所选全部题目；每名学生一份带姓名的答题卡。' : '每名学生只收到自己做错的题，每人一节：先是只含本人题目的答题卡，题目印在答题卡下方空白处，学生之间分页。'}
              </Typography>
              {mode === 'personal' && (
                <FormControlLabel
                  sx={{ mb: 1, alignItems: 'flex-start' }}
                  control={<Checkbox size="small" checked={familyQr} onChange={(e) => setFamilyQr(e.target.checked)} sx={{ pt: 0.25 }} />}
                  label={<Typography variant="body2">附家长查看二维码（为每名学生生成 30 天有效的查看链接，印在本人题目之后）</Typography>}
                />
              )}
              <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
                举一反三（每题相似题数）
              </Typography>
              <ToggleButtonGroup size="small" exclusive value={variants} onChange={(_, v: number | null) => v !== null && setVariants(v)} aria-label="举一反三题数">
                <ToggleButton value={0}>不加</ToggleButton>
                <ToggleButton value={1}>1 道</ToggleButton>
                <ToggleButton value={2}>2 道</ToggleButton>
              </ToggleButtonGroup>
            </Section>
            <Section title="包含内容">
              {!preview ? (
                <EmptyState />
              ) : (
                <Box data-testid="volume-summary">
                  <Typography variant="body2">
                    {preview.title}：共 {preview.itemCount} 题（错题 {preview.questions.length}，举一反三 {preview.itemCount - preview.questions.length}），{mode === 'personal' ? '每人附只含本人题目的答题卡' : '后附答题卡'}，可在 AI批改 中扫描批阅。
                  </Typography>
                  {mode === 'personal' && (
                    <>
                      <Typography variant="body2" sx={{ mt: 1 }}>
                        {preview.students.length} 名学生各一节
                        {preview.studentsWithout > 0 && `，${preview.studentsWithout} 名学生没有做错所选题目，不生成`}
                      </Typography>
                      {preview.students.length ? (
                        <Box sx={{ mt: 1, display: 'flex', flexWrap: 'wrap', gap: 0.5, maxHeight: 200, overflow: 'auto' }} data-testid="volume-students">
                          {preview.students.map((s) => (
                            <Chip key={s.id} size="small" variant="outlined" label={`${s.name} ${s.count}题`} />
                          ))}
                        </Box>
                      ) : (
                        <EmptyState />
                      )}
                    </>
                  )}
                </Box>
              )}
              <Button variant="contained" fullWidth startIcon={<DownloadOutlined />} sx={{ mt: 2 }} disabled={!preview || busy || !!nothingPrintable} onClick={generate}>
                {busy ? '正在生成…' : '生成PDF'}
              </Button>
              {sheet && (
                <Alert severity="success" sx={{ mt: 1.5 }} data-testid="volume-sheet">
                  已下载。答题卡编号 {sheet.sheetId}（{sheet.copies} 份，每份{mode === 'personal' ? '至多' : ''} {sheet.pages} 页）：学生完成后，点击下方按钮创建 AI批改 任务，上传答题卡扫描批阅；批改结果记入自定义作业“错题卷·日期”，学生错题本的掌握程度随之更新。
                  <Button size="small" variant="outlined" sx={{ mt: 1, display: 'block' }} disabled={busy} onClick={createTask}>
                    创建批改任务
                  </Button>
                </Alert>
              )}
            </Section>
          </Box>
        </Box>
      )}
    </Box>
  );
}
