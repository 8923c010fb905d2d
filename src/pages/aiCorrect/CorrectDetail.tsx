// 批改详情 (/correctDetail?taskId=&resultId=, answer sheets) and 作业批改详情
// (/examProcessCorrectDetail, homework photos): the teacher reviews AI grading one student at a
// time — the scan with what was read drawn over it, the items with those grading was unsure of
// first, points saved as they are entered — or one question across all students (?mode=question
// &no=), each with the crop of that question from the student's scan. Keyboard: J/K or ←/→ for
// students (questions in the by-question view), ↑/↓ for items, digits for points.
// By question, a fill-in's students with the same reading form groups (相同作答, AnswerGroupsPanel)
// marked with one decision (one call, POST /answerGroups/decide); a student taken out of their group is
// marked alone, and each paper the decision changed can be put back (撤销整组判分, /answerGroups/restore).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useDataProvider } from 'react-admin';
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../dataProvider';
import type { CorrectResult, CorrectResultDetail, ReviewItem } from '../../dataProvider/correct';
import type { ScreenProps } from '../screen';
import type { GroupDecision } from '../../domain/answerGroups';
import { EmptyState } from '../../ui/EmptyState';
import { ScreenCard } from '../../ui/ScreenCard';
import { ScanOverlay } from './ScanOverlay';
import { PointsInput, useSavePoints } from './reviewPoints';
import { answerGroups } from './answerGroups';
import { AnswerGroupsPanel } from './AnswerGroupsPanel';
import { RegradePanel } from '../family/RegradePanel';

const studentLabel = (r: { studentName: string | null; studentNo: string | null; studentKey: string | null }) =>
  `${r.studentName ?? '未识别学生'}${r.studentNo ? `（${r.studentNo}）` : r.studentKey ? `（${r.studentKey}）` : ''}`;

/** Flagged items first (those still waiting for the teacher before those already given points), then by number. */
export function orderItems(items: ReviewItem[], review: Record<string, number>): ReviewItem[] {
  const rank = (i: ReviewItem) => (i.needsReview ? (review[String(i.no)] === undefined ? 0 : 1) : 2);
  return [...items].sort((a, b) => rank(a) - rank(b) || a.no - b.no);
}

const inField = (target: EventTarget | null) => target instanceof HTMLElement && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.isContentEditable);

/** Keyboard shortcuts of the screen, off while typing in an input (except the digit that starts it). */
function useShortcuts(handlers: { prev: () => void; next: () => void; up: () => void; down: () => void; digit: (d: number) => void }) {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || inField(e.target)) return;
      const h = ref.current;
      const key = e.key;
      if (key === 'ArrowLeft' || key === 'k' || key === 'K') h.prev();
      else if (key === 'ArrowRight' || key === 'j' || key === 'J') h.next();
      else if (key === 'ArrowUp') h.up();
      else if (key === 'ArrowDown') h.down();
      else if (/^[0-9]$/.test(key)) h.digit(Number(key));
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

function HelpLine({ text }: { text: string }) {
  return (
    <Typography variant="caption" color="text.secondary" component="p" data-testid="shortcut-help" sx={{ mt: 1, display: { xs: 'none', md: 'block' } }}>
      {text}
    </Typography>
  );
}

function ItemCard({
  item,
  resultId,
  review,
  selected,
  onSelect,
  saver,
  unclear,
}: {
  item: ReviewItem;
  unclear: boolean;
  resultId: number;
  review: Record<string, number>;
  selected: boolean;
  onSelect: () => void;
  saver: ReturnType<typeof useSavePoints>;
}) {
  const reviewed = review[String(item.no)];
  const waiting = item.needsReview && reviewed === undefined;
  // Scoring gives reasons for what it scored; a bubble it could not read is the reading's to explain.
  const reasons = item.reasons.length ? item.reasons : unclear ? ['有选项涂写不清（半涂、轻涂或擦除痕迹），请老师复核'] : [];
  const cardRef = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (selected) cardRef.current?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
  return (
    <Box
      component="li"
      ref={cardRef}
      data-testid="review-item"
      data-no={item.no}
      data-flagged={waiting ? 'true' : 'false'}
      aria-current={selected ? 'true' : undefined}
      onClick={onSelect}
      sx={{
        border: 1,
        borderColor: selected ? 'primary.main' : waiting ? 'warning.main' : 'divider',
        borderWidth: selected ? 2 : 1,
        borderRadius: 2,
        p: 1.25,
        display: 'grid',
        gap: 0.75,
        minWidth: 0,
        cursor: 'pointer',
        bgcolor: selected ? 'action.hover' : undefined,
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', minWidth: 0 }}>
        <Typography variant="subtitle2" sx={{ fontWeight: 600 }}>
          第 {item.no} 题
        </Typography>
        {waiting && <Chip size="small" color="warning" label="待复核" />}
        {reviewed !== undefined && <Chip size="small" color="success" variant="outlined" label="老师已评" />}
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere', minWidth: 0 }} data-testid="item-reading">
          作答：{item.given || '未作答'}
          {item.expected ? ` · 答案：${item.expected}` : ''}
          {item.score !== null && (
            <>
              {' · '}
              <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                机评 {item.score} 分
              </Box>
            </>
          )}
        </Typography>
      </Box>
      {reasons.length > 0 && (
        <Typography variant="caption" color="warning.dark" sx={{ overflowWrap: 'anywhere' }} data-testid="item-reasons">
          {reasons.join('；')}
        </Typography>
      )}
      <PointsInput
        item={item}
        reviewed={reviewed}
        state={saver.stateOf(resultId, item.no)}
        onSave={(score) => void saver.save(resultId, item.no, score)}
        onFocus={onSelect}
        label={`第 ${item.no} 题得分`}
      />
    </Box>
  );
}

function StudentView({
  taskId,
  results,
  resultId,
  go,
  saver,
  homework,
}: {
  results: CorrectResult[];
  resultId: number;
  go: (resultId: number) => void;
  saver: ReturnType<typeof useSavePoints>;
  homework: boolean;
  taskId: number;
}) {
  const api = useDataProvider<AppDataProvider>();
  const detail = useQuery({ queryKey: ['correctResult', resultId], queryFn: () => api.correctResult(resultId), retry: false });
  const data = detail.data;
  const review = useMemo(() => data?.review ?? {}, [data?.review]);
  // The order is fixed when the student is opened, so an item does not jump away as it is given points.
  const [order, setOrder] = useState<number[]>([]);
  const [selected, setSelected] = useState<number | null>(null);
  // The answer area fills the width by default; the whole page shows the name, QR code and margins.
  const [wholePage, setWholePage] = useState(false);
  useEffect(() => {
    if (!data) return;
    const ordered = orderItems(data.result.items, data.review ?? {}).map((i) => i.no);
    setOrder(ordered);
    setSelected(ordered[0] ?? null);
  }, [data?.id]);
  const items = order.map((no) => data?.result.items.find((i) => i.no === no)).filter((i): i is ReviewItem => !!i);
  const index = results.findIndex((r) => r.id === resultId);
  const move = (delta: number) => {
    const next = results[index + delta];
    if (next) go(next.id);
  };
  const moveItem = (delta: number) => {
    const at = order.indexOf(selected ?? -1);
    const no = order[Math.min(order.length - 1, Math.max(0, at + delta))];
    if (no !== undefined) setSelected(no);
  };
  useShortcuts({
    prev: () => move(-1),
    next: () => move(1),
    up: () => moveItem(-1),
    down: () => moveItem(1),
    digit: (d) => {
      const item = items.find((i) => i.no === selected);
      if (item) void saver.save(resultId, item.no, d);
    },
  });

  // This student's 反馈单 (one A4 page, the 解答题 as marked).
  const [printing, setPrinting] = useState(false);
  const printFeedback = async () => {
    setPrinting(true);
    try {
      await api.correctFeedbackPdf(taskId, resultId);
    } catch {
      // The reason is already on screen (the http client's toast).
    } finally {
      setPrinting(false);
    }
  };
  if (detail.isError) return <EmptyState />;
  if (!data) return <LinearProgress sx={{ mt: 2 }} />;
  return (
    <>
      <Box sx={{ mt: 2, display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }} data-testid="detail-student">
          {studentLabel(data)}
        </Typography>
        <Typography variant="body2" data-testid="detail-score">
          {data.score ?? '—'}/{data.maxScore ?? '—'} 分
        </Typography>
        {data.needsReview ? <Chip size="small" color="warning" label="待复核" /> : <Chip size="small" color="success" label="已复核" />}
        <Box sx={{ flex: 1 }} />
        <Typography variant="body2" color="text.secondary" data-testid="detail-position">
          第 {index + 1}/{results.length} 名
        </Typography>
        {!homework && (
          <Button size="small" disabled={printing} onClick={() => void printFeedback()} data-testid="student-feedback">
            {printing ? '生成中…' : '打印反馈单'}
          </Button>
        )}
        <Button size="small" variant="outlined" disabled={index <= 0} onClick={() => move(-1)}>
          上一名
        </Button>
        <Button size="small" variant="outlined" disabled={index < 0 || index >= results.length - 1} onClick={() => move(1)}>
          下一名
        </Button>
      </Box>
      <HelpLine text="快捷键：J / → 下一名，K / ← 上一名，↑ / ↓ 切换题目，数字键直接给当前题打分（立即保存），输入框中按 Enter 保存" />
      <Box sx={{ mt: 1.5, display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) 380px' }, alignItems: 'start' }}>
        <Box sx={{ display: 'grid', gap: 1, minWidth: 0 }} aria-label={homework ? '作业照片' : '答题卡扫描件'}>
          <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
            <Button size="small" onClick={() => setWholePage((w) => !w)} data-testid="whole-page">
              {wholePage ? '只看作答区域' : '查看整页'}
            </Button>
          </Box>
          {data.view.pages.length ? (
            data.view.pages.map((p) => (
              <ScanOverlay
                key={`${p.page}-${p.fileId}`}
                page={p}
                crop={wholePage || !p.regions.length ? undefined : p.regions.map((r) => r.no)}
                cropHeight={560}
                items={data.result.items}
                review={review}
                selectedNo={selected}
                onSelect={setSelected}
                label={`${studentLabel(data)} 第 ${p.page} 页`}
                zoomable
                annotations={data.annotations}
              />
            ))
          ) : (
            <EmptyState text="暂无原图" />
          )}
        </Box>
        <Box component="ol" aria-label="题目列表" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1, minWidth: 0, maxHeight: { md: '75vh' }, overflowY: { md: 'auto' } }}>
          {items.length ? (
            items.map((item) => (
              <ItemCard key={item.no} item={item} unclear={data.view.pages.some((p) => p.bubbles.some((b) => b.no === item.no && b.state === 'uncertain'))} resultId={resultId} review={review} selected={selected === item.no} onSelect={() => setSelected(item.no)} saver={saver} />
            ))
          ) : (
            <EmptyState />
          )}
        </Box>
      </Box>
    </>
  );
}

function QuestionRow({
  detail,
  no,
  selected,
  onSelect,
  saver,
  group,
  undo,
}: {
  detail: CorrectResultDetail;
  no: number;
  selected: boolean;
  onSelect: () => void;
  saver: ReturnType<typeof useSavePoints>;
  /** In a group of the same answer ('in', with the way out), taken out ('out'), or neither. */
  group?: { state: 'in' | 'out'; toggle: () => void };
  /** Puts back the points this paper had before a group decision, while that can be undone. */
  undo?: () => Promise<void>;
}) {
  const item = detail.result.items.find((i) => i.no === no)!;
  const review = detail.review ?? {};
  const reviewed = review[String(no)];
  const waiting = item.needsReview && reviewed === undefined;
  const page = detail.view.pages.find((p) => p.regions.some((r) => r.no === no)) ?? detail.view.pages[0];
  const rowRef = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (selected) rowRef.current?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
  return (
    <Box
      component="li"
      ref={rowRef}
      data-testid="question-student"
      data-result-id={detail.id}
      data-flagged={waiting ? 'true' : 'false'}
      aria-current={selected ? 'true' : undefined}
      onClick={onSelect}
      sx={{
        border: 1,
        borderWidth: selected ? 2 : 1,
        borderColor: selected ? 'primary.main' : waiting ? 'warning.main' : 'divider',
        borderRadius: 2,
        p: 1.25,
        display: 'grid',
        gap: 1,
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: '200px minmax(0, 1fr) 260px' },
        alignItems: 'center',
        minWidth: 0,
      }}
    >
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="subtitle2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {studentLabel(detail)}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ overflowWrap: 'anywhere' }}>
          作答：{item.given || '未作答'}
          {item.expected ? ` · 答案：${item.expected}` : ''}
        </Typography>
        {waiting && <Chip size="small" color="warning" label="待复核" sx={{ mt: 0.5 }} />}
        {group && (
          <Button
            size="small"
            onClick={(e) => {
              e.stopPropagation();
              group.toggle();
            }}
            data-testid="group-toggle"
            sx={{ mt: 0.5, ml: waiting ? 0.5 : 0, minWidth: 0, px: 0.5 }}
          >
            {group.state === 'in' ? '移出分组' : '放回分组'}
          </Button>
        )}
        {undo && (
          <Button
            size="small"
            color="warning"
            onClick={(e) => {
              e.stopPropagation();
              void undo();
            }}
            data-testid="group-undo"
            sx={{ mt: 0.5, ml: 0.5, minWidth: 0, px: 0.5 }}
          >
            撤销整组判分
          </Button>
        )}
        {item.reasons.length > 0 && (
          <Typography variant="caption" color="warning.dark" component="p" sx={{ overflowWrap: 'anywhere' }}>
            {item.reasons.join('；')}
          </Typography>
        )}
      </Box>
      <Box sx={{ minWidth: 0 }}>
        {page ? <ScanOverlay page={page} items={detail.result.items} review={review} crop={[no]} annotations={detail.annotations} label={`${studentLabel(detail)} 第 ${no} 题`} /> : <EmptyState text="暂无原图" />}
      </Box>
      <PointsInput item={item} reviewed={reviewed} state={saver.stateOf(detail.id, no)} onSave={(score) => void saver.save(detail.id, no, score)} onFocus={onSelect} label={`${studentLabel(detail)} 第 ${no} 题得分`} />
    </Box>
  );
}

function QuestionView({ taskId, results, no, setNo, saver }: { taskId: number; results: CorrectResult[]; no: number | null; setNo: (no: number) => void; saver: ReturnType<typeof useSavePoints> }) {
  const api = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const details = useQueries({ queries: results.map((r) => ({ queryKey: ['correctResult', r.id], queryFn: () => api.correctResult(r.id), retry: false })) });
  const loaded = details.map((d) => d.data).filter((d): d is CorrectResultDetail => !!d);
  const nos = useMemo(() => [...new Set(loaded.flatMap((d) => d.result.items.map((i) => i.no)))].sort((a, b) => a - b), [loaded]);
  const current = no ?? nos[0] ?? null;
  // Flagged first, fixed when the question is opened so a row does not jump away as it is given points.
  const [order, setOrder] = useState<number[]>([]);
  const allLoaded = loaded.length === results.length;
  useEffect(() => {
    if (!allLoaded || current === null) return;
    const waiting = (d: CorrectResultDetail) => {
      const item = d.result.items.find((i) => i.no === current);
      return item?.needsReview && (d.review ?? {})[String(current)] === undefined ? 0 : 1;
    };
    setOrder([...loaded].sort((a, b) => waiting(a) - waiting(b)).map((d) => d.id));
  }, [allLoaded, current]);
  const rows = order.map((id) => loaded.find((d) => d.id === id)).filter((d): d is CorrectResultDetail => !!d && d.result.items.some((i) => i.no === current));
  const [selected, setSelected] = useState(0);
  // Students taken out of their answer group, for this question.
  const [detached, setDetached] = useState<ReadonlySet<number>>(new Set());
  // Papers a group decision changed, with the points each had before (null: the machine's), for 撤销.
  const [undoable, setUndoable] = useState<ReadonlyMap<number, number | null>>(new Map());
  useEffect(() => {
    setSelected(0);
    setDetached(new Set());
    setUndoable(new Map());
  }, [current]);
  // A group decision or an undo changes the papers' points: the rows, the task and the report follow.
  const apply = (decision: GroupDecision) => {
    for (const p of decision.papers) {
      queryClient.setQueryData<CorrectResultDetail>(['correctResult', p.resultId], (old) => (old ? { ...old, review: p.review, score: p.total, maxScore: p.maxScore, needsReview: p.needsReview } : old));
    }
    void queryClient.invalidateQueries({ queryKey: ['correctTaskDetail', taskId] });
    void queryClient.invalidateQueries({ queryKey: ['correctReport', taskId] });
    void queryClient.invalidateQueries({ queryKey: ['correctTasks'] });
  };
  // Fill-ins and short answers only: choices have their letters, 解答题 no reading.
  const groupable = current !== null && !loaded.some((d) => d.view.pages.some((p) => p.bubbles.some((b) => b.no === current) || p.regions.some((r) => r.no === current && r.kind === 'short')));
  const readings = groupable ? rows.map((d) => ({ resultId: d.id, given: d.result.items.find((i) => i.no === current)?.given ?? '' })) : [];
  const groups = answerGroups(readings, detached);
  const groupOf = (id: number) => groups.find((g) => g.resultIds.includes(id));
  // Would be in a group if put back: the same reading as a group, or as another student taken out.
  const couldGroup = (id: number) => answerGroups(readings, new Set([...detached].filter((x) => x !== id))).some((g) => g.resultIds.includes(id));
  const itemMax = rows[0]?.result.items.find((i) => i.no === current)?.max ?? null;
  const moveQuestion = (delta: number) => {
    const at = nos.indexOf(current ?? -1);
    const target = nos[at + delta];
    if (target !== undefined) setNo(target);
  };
  useShortcuts({
    prev: () => moveQuestion(-1),
    next: () => moveQuestion(1),
    up: () => setSelected((s) => Math.max(0, s - 1)),
    down: () => setSelected((s) => Math.min(rows.length - 1, s + 1)),
    digit: (d) => {
      const row = rows[selected];
      if (row && current !== null) void saver.save(row.id, current, d);
    },
  });
  if (!allLoaded) return <LinearProgress sx={{ mt: 2 }} />;
  if (current === null) return <EmptyState />;
  return (
    <>
      <Box sx={{ mt: 2, display: 'flex', gap: 0.75, flexWrap: 'wrap' }} role="group" aria-label="选择题目">
        {nos.map((n) => {
          const flagged = loaded.filter((d) => d.result.items.some((i) => i.no === n && i.needsReview && (d.review ?? {})[String(n)] === undefined)).length;
          return (
            <Chip
              key={n}
              label={flagged ? `第 ${n} 题（${flagged}）` : `第 ${n} 题`}
              color={n === current ? 'primary' : flagged ? 'warning' : 'default'}
              variant={n === current ? 'filled' : 'outlined'}
              onClick={() => setNo(n)}
              data-testid="question-chip"
              data-no={n}
            />
          );
        })}
      </Box>
      <HelpLine text="快捷键：J / → 下一题，K / ← 上一题，↑ / ↓ 切换学生，数字键直接给当前学生打分（立即保存）" />
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mt: 1.5 }} data-testid="question-heading">
        第 {current} 题 · 共 {rows.length} 名学生
      </Typography>
      <AnswerGroupsPanel
        groups={groups}
        max={itemMax}
        givenOf={(g) => {
          const points = g.resultIds.map((id) => loaded.find((d) => d.id === id)?.review?.[String(current)]);
          return points.every((p) => p !== undefined && p === points[0]) ? (points[0] ?? null) : null;
        }}
        onDecide={async (g, score) => {
          const decision = await api.decideAnswerGroup({ taskId, no: current, resultIds: g.resultIds, score });
          apply(decision);
          // A paper decided twice keeps the points it had before the first decision.
          setUndoable((m) => new Map([...decision.papers.map((p) => [p.resultId, m.has(p.resultId) ? m.get(p.resultId)! : p.previous] as const), ...[...m].filter(([id]) => !g.resultIds.includes(id))]));
        }}
        crop={(id) => {
          const d = loaded.find((x) => x.id === id);
          const page = d && (d.view.pages.find((p) => p.regions.some((r) => r.no === current)) ?? d.view.pages[0]);
          return d && page ? <ScanOverlay page={page} items={d.result.items} review={d.review ?? {}} crop={[current]} cropHeight={120} label={`${studentLabel(d)} 第 ${current} 题`} /> : null;
        }}
      />
      <Box component="ol" aria-label={`第 ${current} 题的学生作答`} sx={{ listStyle: 'none', m: 0, mt: 1, p: 0, display: 'grid', gap: 1 }}>
        {rows.length ? rows.map((d, i) => <QuestionRow
              key={d.id}
              detail={d}
              no={current}
              selected={i === selected}
              onSelect={() => setSelected(i)}
              saver={saver}
              group={
                groupOf(d.id)
                  ? { state: 'in', toggle: () => setDetached((s) => new Set([...s, d.id])) }
                  : detached.has(d.id) && couldGroup(d.id)
                    ? { state: 'out', toggle: () => setDetached((s) => new Set([...s].filter((x) => x !== d.id))) }
                    : undefined
              }
              undo={
                undoable.has(d.id)
                  ? async () => {
                      apply(await api.restoreGroupPaper({ taskId, no: current, resultId: d.id, score: undoable.get(d.id)! }));
                      setUndoable((m) => new Map([...m].filter(([id]) => id !== d.id)));
                    }
                  : undefined
              }
            />) : <EmptyState />}
      </Box>
    </>
  );
}

export default function CorrectDetail({ route }: ScreenProps) {
  const [params, setParams] = useSearchParams();
  const taskId = Number(params.get('taskId'));
  const resultParam = Number(params.get('resultId'));
  const mode = params.get('mode') === 'question' ? 'question' : 'student';
  const noParam = Number(params.get('no'));
  const valid = Number.isInteger(taskId) && taskId > 0;
  const api = useDataProvider<AppDataProvider>();
  const task = useQuery({ queryKey: ['correctTaskDetail', taskId], queryFn: () => api.correctTaskDetail(taskId), enabled: valid, retry: false });
  const saver = useSavePoints(taskId);
  const results = useMemo(() => task.data?.results ?? [], [task.data]);
  // Without a student named, the first one grading was unsure of (the task list links here so).
  const resultId = results.some((r) => r.id === resultParam) ? resultParam : (results.find((r) => r.needsReview) ?? results[0])?.id;
  const update = useCallback(
    (changes: Record<string, string | null>) =>
      setParams(
        (old) => {
          const next = new URLSearchParams(old);
          for (const [k, v] of Object.entries(changes)) {
            if (v === null) next.delete(k);
            else next.set(k, v);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  // The student shown is in the address, so a reload or a shared link opens the same one.
  useEffect(() => {
    if (resultId !== undefined && resultId !== resultParam) update({ resultId: String(resultId) });
  }, [resultId, resultParam, update]);

  if (!valid || task.isError) {
    return (
      <ScreenCard title={route.meta.title}>
        <EmptyState />
      </ScreenCard>
    );
  }
  if (!task.data) {
    return (
      <ScreenCard title={route.meta.title}>
        <LinearProgress sx={{ mt: 2 }} />
      </ScreenCard>
    );
  }
  const homework = route.path === '/examProcessCorrectDetail';
  return (
    <ScreenCard title={`${route.meta.title}：${task.data.task.title}`} description={`共 ${results.length} 名学生 · 待复核 ${results.filter((r) => r.needsReview).length} 名`}>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={mode}
        onChange={(_, value: string | null) => value && update({ mode: value === 'question' ? 'question' : null })}
        sx={{ mt: 1.5 }}
        aria-label="复核方式"
      >
        <ToggleButton value="student">按学生</ToggleButton>
        <ToggleButton value="question">按题目</ToggleButton>
      </ToggleButtonGroup>
      {/* Families' questions on the work this task grades (none for a task tied to no work). */}
      <RegradePanel work={{ taskId }} />
      {!results.length || resultId === undefined ? (
        <EmptyState />
      ) : mode === 'question' ? (
        <QuestionView taskId={taskId} results={results} no={Number.isInteger(noParam) && noParam > 0 ? noParam : null} setNo={(n) => update({ no: String(n) })} saver={saver} />
      ) : (
        <StudentView taskId={taskId} results={results} resultId={resultId} go={(id) => update({ resultId: String(id) })} saver={saver} homework={homework} />
      )}
    </ScreenCard>
  );
}
