// 网上阅卷 (/AICorrect/marking?taskId=&no=): one hand-marked question of a task, marked for the
// class one student at a time, as online-marking graders work: the student's crop of the question
// big, a score pad beside it (click a number, or type one and press Enter; F gives full marks),
// and each score saved at once, moving on to the next paper not yet marked. ↑/↓ go back and forth.
// Marking is anonymous unless the task owner shows names (the switch, owner only).
// Rubric items (RubricPanel) are applied by a click or a letter key; Enter then moves on.
// The student's total and the report follow each saved score.
// A teacher the owner gave the question to (split marking) gets their own share of the papers, no
// totals and no names unless shown, and is sent back to AI批改. With 双评 each marker sees their own
// mark only; the owner sees both marks and settles a paper waiting for 仲裁 with the pad.
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useDataProvider } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../../dataProvider';
import type { ViewPage } from '../../../dataProvider/correct';
import type { MarkingPaper, MarkingSaved, MarkingSheet, RubricItem } from '../../../domain/marking';
import type { ScreenProps } from '../../screen';
import { EmptyState } from '../../../ui/EmptyState';
import { ScreenCard } from '../../../ui/ScreenCard';
import { ScanOverlay } from '../ScanOverlay';
import { nextUnmarked, padValues, parseScore } from './markingPad';
import { RUBRIC_KEYS, RubricPanel } from './RubricPanel';
import { PenBar, type Pen } from './PenBar';
import { markOf } from '../penMarks';
import type { Annotation } from '../../../domain/marking';

const points = (n: number | null) => (n === null ? '—' : String(n));
/** Who wrote a paper, as far as the marker may know: anonymous marking shows its place only. */
const who = (p: MarkingPaper, i: number, showNames: boolean) =>
  !showNames ? `试卷 ${i + 1}` : p.studentName ? `${p.studentNo ?? ''} ${p.studentName}`.trim() : `未识别学生${p.studentKey ? `（${p.studentKey}）` : ''}`;

/** A key's hint on a button, left out on a phone (no keyboard, little room). */
const KeyHint = ({ children }: { children: string }) => (
  <Box component="span" sx={{ display: { xs: 'none', md: 'inline' } }}>
    {children}
  </Box>
);

function cropPage(p: MarkingPaper, no: number): ViewPage | null {
  if (!p.crop) return null;
  const { page, fileId, h, size, rect } = p.crop;
  return { page, fileId, h, size, regions: [{ no, kind: 'short', rect }], bubbles: [], fills: [] };
}

/** Full marks for a 解答题 of a sheet designed before they could be set. */
function FullMarksForm({ taskId, no, onSet }: { taskId: number; no: number; onSet: () => void }) {
  const api = useDataProvider<AppDataProvider>();
  const [value, setValue] = useState('10');
  const [busy, setBusy] = useState(false);
  return (
    <Box sx={{ mt: 2, display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
      <Typography variant="body2">这道题还没有满分，请先设置：</Typography>
      <TextField size="small" value={value} onChange={(e) => setValue(e.target.value)} slotProps={{ htmlInput: { inputMode: 'decimal', 'aria-label': '本题满分' } }} sx={{ width: 90 }} />
      <Button
        variant="contained"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          try {
            await api.setMarkingFullMarks({ taskId, no, points: Number(value) });
            onSet();
          } catch {
            // The http client shows the server's reason.
          } finally {
            setBusy(false);
          }
        }}
      >
        设置满分
      </Button>
    </Box>
  );
}

export default function MarkingScreen({ route }: ScreenProps) {
  const [params] = useSearchParams();
  const taskId = Number(params.get('taskId'));
  const no = Number(params.get('no'));
  const valid = Number.isInteger(taskId) && taskId > 0 && Number.isInteger(no) && no > 0;
  const api = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const key = ['markingSheet', taskId, no];
  const sheet = useQuery({ queryKey: key, queryFn: () => api.markingSheet(taskId, no), enabled: valid, retry: false, refetchOnWindowFocus: false });
  const [index, setIndex] = useState<number | null>(null);
  const [draft, setDraft] = useState('');
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const [last, setLast] = useState<{ name: string; score: number } | null>(null);
  const [pen, setPen] = useState<Pen>(null);
  const [penText, setPenText] = useState('');
  const input = useRef<HTMLInputElement>(null);

  const data = sheet.data;
  // Start at the first paper not yet marked, or waiting for 仲裁.
  useEffect(() => {
    if (data && index === null) setIndex(Math.max(0, data.papers.findIndex((p) => p.score === null || p.pending)));
  }, [data, index]);
  useEffect(() => {
    setDraft('');
    input.current?.focus();
  }, [index]);

  if (!valid || sheet.isError) {
    return (
      <ScreenCard title={route.meta.title}>
        <EmptyState />
      </ScreenCard>
    );
  }
  if (!data || index === null) {
    return (
      <ScreenCard title={route.meta.title}>
        <LinearProgress sx={{ mt: 2 }} />
      </ScreenCard>
    );
  }
  const { question, papers } = data;
  const paper = papers[index];
  const fullMarks = question.fullMarks;
  // A marker has no report of the task: back to AI批改, where their 阅卷任务 are.
  const reportLink = data.owner ? `/AICorrect/report?taskId=${taskId}` : '/AICorrect';
  const double = question.double !== null;
  const go = (i: number) => {
    setMessage(null);
    setIndex(Math.max(0, Math.min(papers.length - 1, i)));
  };

  /** A saved score into the screen's copy of the question (no refetch: the next paper shows at once). */
  const merge = (paperId: number, saved: MarkingSaved) => {
    const nextPapers = papers.map((p) => (p.resultId === paperId ? { ...p, score: saved.score, total: saved.total, applied: saved.applied, marks: saved.marks, pending: saved.pending } : p));
    queryClient.setQueryData<MarkingSheet>(key, (old) =>
      // The owner's copy holds every paper, so the papers waiting for 仲裁 are counted from it.
      old ? { ...old, question: { ...old.question, marked: saved.marked, arbitration: nextPapers.filter((p) => p.pending).length }, papers: nextPapers } : old,
    );
    void queryClient.invalidateQueries({ queryKey: ['correctReport', taskId] });
    void queryClient.invalidateQueries({ queryKey: ['correctTaskDetail', taskId] });
    void queryClient.invalidateQueries({ queryKey: ['markingQuestions', taskId] });
    void queryClient.invalidateQueries({ queryKey: ['assignedMarking'] });
    return nextPapers;
  };

  /** On to the next paper not yet marked, or say that all are. */
  const moveOn = (nextPapers: MarkingPaper[]) => {
    const next = nextUnmarked(nextPapers, index);
    if (next !== null) setIndex(next);
    else {
      setMessage({ error: false, text: '本题已全部阅完' });
      if (index < papers.length - 1) setIndex(index + 1);
    }
  };

  const run = async (work: () => Promise<void>) => {
    if (!paper || saving) return;
    setSaving(true);
    setMessage(null);
    try {
      await work();
    } catch (error) {
      setMessage({ error: true, text: (error as Error).message || '保存失败，请重试' });
    } finally {
      setSaving(false);
    }
  };

  const save = (score: number) =>
    run(async () => {
      // On a paper waiting for 仲裁 the owner's points settle it.
      const saved = await api.saveMarkingScore({ taskId, no, resultId: paper!.resultId, score, ...(paper!.pending ? { arbitrate: true } : {}) });
      setLast({ name: who(paper!, index!, data!.showNames), score });
      // A paper now waiting for 仲裁 stays on screen: the next typing starts afresh.
      setDraft('');
      moveOn(merge(paper!.resultId, saved));
    });

  /** A rubric item on or off this paper: its points change, the paper stays for more items. */
  const toggle = (item: RubricItem) =>
    run(async () => {
      const saved = await api.applyRubricItem({ taskId, resultId: paper!.resultId, itemId: item.id, applied: !paper!.applied.includes(item.id) });
      merge(paper!.resultId, saved);
      input.current?.focus();
    });

  const commitDraft = () => {
    if (fullMarks === null) return;
    // Enter with nothing typed confirms the paper as it stands (scored with rubric items).
    if (draft.trim() === '' && paper?.score !== null) {
      moveOn(papers);
      return;
    }
    const parsed = parseScore(draft, fullMarks);
    if ('error' in parsed) setMessage({ error: true, text: parsed.error });
    else void save(parsed.score);
  };

  /** The paper's marks after a change, saved whole; the screen's copy follows the server's. */
  const saveMarks = (marks: Annotation[]) =>
    run(async () => {
      const saved = await api.saveAnnotations({ taskId, no, resultId: paper!.resultId, marks });
      queryClient.setQueryData<MarkingSheet>(key, (old) => (old ? { ...old, papers: old.papers.map((p) => (p.resultId === saved.resultId ? { ...p, annotations: saved.marks } : p)) } : old));
    });
  const draw = (from: { x: number; y: number }, to: { x: number; y: number }) => {
    if (!pen || !paper) return;
    if (pen === 'text' && !penText.trim()) {
      setMessage({ error: true, text: '请先输入批注文字' });
      return;
    }
    void saveMarks([...paper.annotations, markOf(pen, from, to, pen === 'text' ? penText.trim() : undefined)]);
  };

  const page = paper ? cropPage(paper, no) : null;
  return (
    <ScreenCard title={`${route.meta.title}：${data.taskTitle}`} description={`第 ${no} 题（${question.kind === 'essay' ? '作文' : '解答题'}）· 满分 ${points(fullMarks)} 分`}>
      <Box sx={{ mt: 1, display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid="marking-progress">
          已阅 {question.marked}/{question.total}
          {double && ` · 双评（分差 ≤ ${question.double} 分）`}
          {data.owner && question.arbitration > 0 && ` · 待仲裁 ${question.arbitration}`}
        </Typography>
        <LinearProgress variant="determinate" value={question.total ? (question.marked / question.total) * 100 : 0} sx={{ flex: '1 1 120px', height: 8, borderRadius: 4 }} aria-label="阅卷进度" />
        {data.owner && (
          <FormControlLabel
            control={
              <Switch
                size="small"
                checked={data.showNames}
                onChange={async (e) => {
                  try {
                    await api.setMarkingSettings({ taskId, showNames: e.target.checked });
                    void sheet.refetch();
                  } catch {
                    // Shown by the http client.
                  }
                }}
              />
            }
            label="显示学生姓名"
          />
        )}
        <Button component={Link} to={reportLink} size="small">
          {data.owner ? '返回批改报告' : '返回 AI 批改'}
        </Button>
      </Box>
      {fullMarks === null && !data.owner ? (
        <Typography variant="body2" sx={{ mt: 2 }}>
          这道题还没有满分，请任务老师先设置。
        </Typography>
      ) : fullMarks === null ? (
        <FullMarksForm taskId={taskId} no={no} onSet={() => void sheet.refetch()} />
      ) : !paper ? (
        <EmptyState />
      ) : (
        <Box sx={{ mt: 2, display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) 300px' }, alignItems: 'start' }}>
          <Box sx={{ minWidth: 0 }}>
            <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', gap: 1, mb: 1, flexWrap: 'wrap' }}>
              <Typography variant="subtitle1" sx={{ fontWeight: 600 }} data-testid="marking-student">
                {who(paper, index, data.showNames)}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                第 {index + 1}/{papers.length} 份{data.owner && ` · 总分 ${points(paper.total)}`}
              </Typography>
            </Box>
            {page && (
              <PenBar
                pen={pen}
                setPen={setPen}
                text={penText}
                setText={setPenText}
                count={paper.annotations.length}
                busy={saving}
                onUndo={() => void saveMarks(paper.annotations.slice(0, -1))}
                onClear={() => void saveMarks([])}
              />
            )}
            {page ? (
              <ScanOverlay
                key={paper.resultId}
                page={page}
                items={[{ no, given: '', score: paper.score, max: fullMarks, needsReview: paper.score === null, reasons: [] }]}
                review={{}}
                crop={[no]}
                cropHeight={560}
                label={`${who(paper, index, data.showNames)} 第 ${no} 题作答`}
                annotations={{ [String(no)]: paper.annotations }}
                onPen={pen ? (_no, from, to) => draw(from, to) : undefined}
              />
            ) : (
              <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 4, textAlign: 'center' }}>
                <Typography variant="body2" color="text.secondary">
                  这份答题卡没有找到本题所在的页
                </Typography>
              </Box>
            )}
          </Box>
          <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 1.5, display: 'grid', gap: 1.5, minWidth: 0 }} data-testid="score-pad">
            <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
              <Typography variant="body2">
                本题得分：
                <Typography component="span" variant="h6" sx={{ fontWeight: 700 }} data-testid="marking-score">
                  {points(paper.score)}
                </Typography>
                <Typography component="span" variant="body2" color="text.secondary">
                  {' '}/ {fullMarks} 分
                </Typography>
              </Typography>
              {paper.proposed !== null && (
                <Typography variant="caption" color="text.secondary">
                  机器建议 {paper.proposed} 分
                </Typography>
              )}
            </Box>
            {paper.marks.length > 0 && (
              <Box
                role={paper.pending ? 'alert' : undefined}
                data-testid="marking-double"
                sx={{ borderRadius: 1, px: 1, py: 0.75, bgcolor: paper.pending ? 'warning.light' : 'action.hover', color: paper.pending ? 'warning.contrastText' : 'text.primary' }}
              >
                <Typography variant="body2" sx={{ fontWeight: paper.pending ? 600 : 400 }}>
                  {paper.pending ? '待仲裁：' : '双评：'}
                  {paper.marks.map((m) => `${m.teacher} ${m.score} 分`).join(' · ')}
                </Typography>
                {paper.pending && <Typography variant="caption">两位老师分差超过 {question.double} 分，请给出最终得分</Typography>}
              </Box>
            )}
            <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(48px, 1fr))', gap: 0.75 }}>
              {padValues(fullMarks).map((v) => (
                <Button key={v} variant={paper.score === v ? 'contained' : 'outlined'} size="small" disabled={saving} onClick={() => void save(v)} sx={{ minWidth: 0 }} data-testid="pad-value">
                  {v}
                </Button>
              ))}
            </Box>
            <Box sx={{ display: 'flex', gap: 1 }}>
              <Button variant="outlined" color="error" disabled={saving} onClick={() => void save(0)} sx={{ flex: 1 }}>
                零分
              </Button>
              <Button variant="outlined" color="success" disabled={saving} onClick={() => void save(fullMarks)} sx={{ flex: 1 }}>
                满分<KeyHint>（F）</KeyHint>
              </Button>
            </Box>
            {!double && (data.owner || data.rubric.length > 0) && (
              <RubricPanel
                editable={data.owner}
                taskId={taskId}
                no={no}
                rubric={data.rubric}
                applied={paper.applied}
                disabled={saving}
                onToggle={(item) => void toggle(item)}
                onChanged={() => void sheet.refetch().then(() => {
                  void queryClient.invalidateQueries({ queryKey: ['correctReport', taskId] });
                  void queryClient.invalidateQueries({ queryKey: ['markingQuestions', taskId] });
                })}
              />
            )}
            <TextField
              size="small"
              label="输入分数，回车保存"
              value={draft}
              inputRef={input}
              autoFocus
              onChange={(e) => setDraft(e.target.value.replace(/[^\d.]/g, ''))}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  commitDraft();
                } else if (e.key === 'f' || e.key === 'F') {
                  e.preventDefault();
                  void save(fullMarks);
                } else if (!double && RUBRIC_KEYS.includes(e.key.toLowerCase()) && data.rubric[RUBRIC_KEYS.indexOf(e.key.toLowerCase())]) {
                  e.preventDefault();
                  void toggle(data.rubric[RUBRIC_KEYS.indexOf(e.key.toLowerCase())]!);
                } else if (e.key === 'ArrowUp') {
                  e.preventDefault();
                  go(index - 1);
                } else if (e.key === 'ArrowDown') {
                  e.preventDefault();
                  go(index + 1);
                }
              }}
              slotProps={{ htmlInput: { inputMode: 'decimal', 'aria-label': '本题分数', 'data-testid': 'marking-input', maxLength: 5 } }}
            />
            <Typography variant="caption" role="status" color={message?.error ? 'error' : 'success.main'} data-testid="marking-message" sx={{ minHeight: 20 }}>
              {saving ? '保存中…' : (message?.text ?? (last ? `上一份：${last.name} ${last.score} 分，已保存` : ''))}
            </Typography>
            <Box sx={{ display: 'flex', gap: 1 }}>
              <Button variant="outlined" onClick={() => go(index - 1)} disabled={index === 0} sx={{ flex: 1 }}>
                上一份<KeyHint>（↑）</KeyHint>
              </Button>
              <Button variant="outlined" onClick={() => go(index + 1)} disabled={index >= papers.length - 1} sx={{ flex: 1 }}>
                下一份<KeyHint>（↓）</KeyHint>
              </Button>
            </Box>
            <Typography variant="caption" color="text.secondary">
              点数字或输入分数后回车保存，自动跳到下一份未阅；F 满分，0 回车零分；字母键选用评分细则，选好后回车下一份。
            </Typography>
          </Box>
        </Box>
      )}
    </ScreenCard>
  );
}
