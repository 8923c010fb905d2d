// 试卷 (/paper) of the classic teacher: search the bank of the grade and course chosen in the header
// (knowledge point, type, difficulty, text), put questions in the basket (试题篮), arrange them in
// sections with points, title and duration, and save; below, the teacher's papers to edit, print
// or delete. Errors come as the server's own message from the http client.
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useNotify, usePermissions } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddShoppingCart from '@mui/icons-material/AddShoppingCartOutlined';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import ChevronRight from '@mui/icons-material/ChevronRight';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import ExpandMore from '@mui/icons-material/ExpandMore';
import RemoveShoppingCart from '@mui/icons-material/RemoveShoppingCartOutlined';
import Search from '@mui/icons-material/Search';
import type { AppDataProvider } from '../dataProvider';
import type { BankQuestion, PaperSummary, PointNode } from '../dataProvider/papers';
import type { BasketHomework } from '../dataProvider/minerva';
import type { Page } from '../domain/envelope';
import type { Permissions } from '../authProvider';
import { QUESTION_TYPES } from '../domain/content';
import { useSelection } from '../filters/SelectionProvider';
import type { ScreenProps } from './screen';
import EmptyScreen from './EmptyScreen';
import { EmptyState } from '../ui/EmptyState';
import { ScreenCard } from '../ui/ScreenCard';
import { MathText } from './MathText';
import {
  addQuestion,
  addSection,
  draftCount,
  draftIds,
  draftProblem,
  draftTotal,
  dropSection,
  emptyDraft,
  fromPaper,
  gradeLevelOf,
  LIMITS,
  moveQuestion,
  moveSection,
  moveToSection,
  removeQuestion,
  renameSection,
  sectionPoints,
  setPoints,
  stageOf,
  toInput,
  type Draft,
} from './paperDraft';
import { dateTime } from '../domain/format';

const PAGE_SIZE = 10;
const DIFFICULTY = ['', '容易', '较易', '中等', '较难', '困难'];
const typeLabel = (type: number) => QUESTION_TYPES.find((t) => t.value === type)?.label ?? '其他';
const score = (n: number) => String(Math.round(n * 10) / 10);

function Panel({ title, extra, children, label }: { title: string; extra?: ReactNode; children: ReactNode; label: string }) {
  return (
    <Paper variant="outlined" component="section" aria-label={label} sx={{ p: 1.5, minWidth: 0, borderRadius: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1, minWidth: 0 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flex: 1, minWidth: 0 }}>
          {title}
        </Typography>
        {extra}
      </Box>
      {children}
    </Paper>
  );
}

/** The knowledge-point tree: a point stands for its whole subtree in the search. */
function PointTree({ nodes, chosen, onChoose, depth = 0 }: { nodes: PointNode[]; chosen?: number; onChoose: (id?: number) => void; depth?: number }) {
  const [open, setOpen] = useState<Set<number>>(new Set());
  return (
    <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {nodes.map((n) => {
        const expanded = open.has(n.id);
        return (
          <li key={n.id}>
            <Box sx={{ display: 'flex', alignItems: 'center', pl: depth * 1.5 }}>
              {n.children.length > 0 ? (
                <IconButton
                  size="small"
                  aria-label={expanded ? `收起${n.name}` : `展开${n.name}`}
                  onClick={() => setOpen((s) => {
                    const next = new Set(s);
                    if (next.has(n.id)) next.delete(n.id);
                    else next.add(n.id);
                    return next;
                  })}
                >
                  {expanded ? <ExpandMore fontSize="small" /> : <ChevronRight fontSize="small" />}
                </IconButton>
              ) : (
                <Box sx={{ width: 30, flexShrink: 0 }} />
              )}
              <Button
                size="small"
                onClick={() => onChoose(chosen === n.id ? undefined : n.id)}
                variant={chosen === n.id ? 'contained' : 'text'}
                color={chosen === n.id ? 'primary' : 'inherit'}
                sx={{ justifyContent: 'flex-start', textAlign: 'left', minWidth: 0, flex: 1, fontWeight: depth ? 400 : 600, overflowWrap: 'anywhere' }}
                data-testid="knowledge-point"
              >
                {n.name}
              </Button>
            </Box>
            {n.children.length > 0 && (
              <Collapse in={expanded} unmountOnExit>
                <PointTree nodes={n.children} chosen={chosen} onChoose={onChoose} depth={depth + 1} />
              </Collapse>
            )}
          </li>
        );
      })}
    </Box>
  );
}

function QuestionCard({ q, inBasket, onToggle }: { q: BankQuestion; inBasket: boolean; onToggle: () => void }) {
  const [showAnswer, setShowAnswer] = useState(false);
  return (
    <Box component="li" data-testid="bank-question" data-question-id={q.id} sx={{ border: 1, borderColor: inBasket ? 'primary.main' : 'divider', borderRadius: 2, p: 1.5, minWidth: 0 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mb: 1, alignItems: 'center' }}>
        <Chip size="small" color="primary" variant="outlined" label={typeLabel(q.type)} />
        <Chip size="small" variant="outlined" label={`难度：${DIFFICULTY[q.difficulty] ?? q.difficulty}`} />
        <Chip size="small" variant="outlined" label={`${score(q.points)} 分`} />
        {q.knowledgePoints.slice(0, 3).map((k) => (
          <Chip key={k.id} size="small" label={k.name} />
        ))}
      </Box>
      <Typography component="div" variant="body2" sx={{ lineHeight: 1.8 }}>
        <MathText text={q.stem} />
      </Typography>
      {q.options && q.type !== 3 && (
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2, mt: 0.5, fontSize: 14 }}>
          {q.options.map((o) => (
            <span key={o.key}>
              {o.key}. <MathText text={o.text} />
            </span>
          ))}
        </Box>
      )}
      <Collapse in={showAnswer} unmountOnExit>
        <Box sx={{ mt: 1, p: 1, bgcolor: 'action.hover', borderRadius: 1, fontSize: 14 }}>
          <div>
            答案：<MathText text={q.answer} />
          </div>
          {q.analysis && (
            <div>
              解析：<MathText text={q.analysis} />
            </div>
          )}
        </Box>
      </Collapse>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, mt: 1 }}>
        <Button size="small" onClick={() => setShowAnswer((v) => !v)}>
          {showAnswer ? '收起解析' : '答案解析'}
        </Button>
        <Button size="small" variant={inBasket ? 'outlined' : 'contained'} startIcon={inBasket ? <RemoveShoppingCart /> : <AddShoppingCart />} onClick={onToggle}>
          {inBasket ? '移出试题篮' : '加入试题篮'}
        </Button>
      </Box>
    </Box>
  );
}

interface Search {
  knowledgePointId?: number;
  type: string;
  difficulty: string;
  keyword: string;
  current: number;
}

function Bank({ subjectId, gradeLevel, draft, toggle }: { subjectId: string; gradeLevel: number | null; draft: Draft; toggle: (q: BankQuestion) => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [search, setSearch] = useState<Search>({ type: '', difficulty: '', keyword: '', current: 1 });
  const [keyword, setKeyword] = useState('');
  const inBasket = draftIds(draft);

  const stage = stageOf(gradeLevel ?? 7);
  const tree = useQuery({ queryKey: ['knowledgePointTree', subjectId, stage], queryFn: () => dataProvider.knowledgePointTree(subjectId, stage), retry: false });
  const points: PointNode[] | undefined = tree.isError ? [] : tree.data;
  // Another subject or grade: the search starts over.
  useEffect(() => {
    setSearch({ type: '', difficulty: '', keyword: '', current: 1 });
    setKeyword('');
  }, [subjectId, gradeLevel]);

  const bank = useQuery({
    queryKey: ['bankQuestions', subjectId, gradeLevel, search],
    queryFn: () =>
      dataProvider.bankQuestions({
        subjectId,
        gradeLevel: gradeLevel ?? undefined,
        knowledgePointId: search.knowledgePointId,
        type: search.type ? Number(search.type) : undefined,
        difficulty: search.difficulty ? Number(search.difficulty) : undefined,
        keyword: search.keyword,
        current: search.current,
        size: PAGE_SIZE,
      }),
    retry: false,
  });
  const result: Page<BankQuestion> | undefined = bank.isError ? { records: [], total: 0, current: 1, size: PAGE_SIZE, pages: 0 } : bank.data;

  const refine = (patch: Partial<Search>) => setSearch((s) => ({ ...s, ...patch, current: 1 }));
  const pages = result ? Math.ceil(result.total / PAGE_SIZE) : 0;

  return (
    <>
      <Panel title="知识点" label="知识点">
        {points === undefined ? (
          <LinearProgress />
        ) : points.length === 0 ? (
          <EmptyState />
        ) : (
          <Box sx={{ maxHeight: { md: 'calc(100vh - 260px)' }, overflow: 'auto' }}>
            <Button size="small" variant={search.knowledgePointId ? 'text' : 'contained'} color={search.knowledgePointId ? 'inherit' : 'primary'} onClick={() => refine({ knowledgePointId: undefined })} sx={{ mb: 0.5 }}>
              全部知识点
            </Button>
            <PointTree nodes={points} chosen={search.knowledgePointId} onChoose={(id) => refine({ knowledgePointId: id })} />
          </Box>
        )}
      </Panel>
      <Panel title="题库" label="题库" extra={result && <Typography variant="body2" color="text.secondary" data-testid="bank-total">共 {result.total} 题</Typography>}>
        <Box
          component="form"
          onSubmit={(e) => {
            e.preventDefault();
            refine({ keyword: keyword.slice(0, 100) });
          }}
          sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 1.5 }}
        >
          <TextField select size="small" label="题型" value={search.type} onChange={(e) => refine({ type: e.target.value })} sx={{ width: 120 }}>
            <MenuItem value="">全部题型</MenuItem>
            {QUESTION_TYPES.map((t) => (
              <MenuItem key={t.value} value={String(t.value)}>
                {t.label}
              </MenuItem>
            ))}
          </TextField>
          <TextField select size="small" label="难度" value={search.difficulty} onChange={(e) => refine({ difficulty: e.target.value })} sx={{ width: 110 }}>
            <MenuItem value="">全部难度</MenuItem>
            {DIFFICULTY.slice(1).map((label, i) => (
              <MenuItem key={label} value={String(i + 1)}>
                {label}
              </MenuItem>
            ))}
          </TextField>
          <TextField size="small" label="题干关键词" value={keyword} onChange={(e) => setKeyword(e.target.value)} slotProps={{ htmlInput: { maxLength: 100 } }} sx={{ flex: 1, minWidth: 160 }} />
          <Button type="submit" variant="contained" startIcon={<Search />}>
            搜索
          </Button>
        </Box>
        {result === undefined ? (
          <LinearProgress />
        ) : result.records.length === 0 ? (
          <EmptyState />
        ) : (
          <>
            <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1, maxHeight: { lg: 'calc(100vh - 360px)' }, overflow: { lg: 'auto' }, minHeight: { lg: 240 } }} aria-label="题目列表">
              {result.records.map((q) => (
                <QuestionCard key={q.id} q={q} inBasket={inBasket.has(q.id)} onToggle={() => toggle(q)} />
              ))}
            </Box>
            {pages > 1 && (
              <Pagination sx={{ mt: 1.5, display: 'flex', justifyContent: 'center' }} count={pages} page={search.current} onChange={(_, current) => setSearch((s) => ({ ...s, current }))} siblingCount={1} />
            )}
          </>
        )}
      </Panel>
    </>
  );
}

function NumberField({ label, value, onChange, min, max, step, width = 84 }: { label: string; value: number; onChange: (n: number) => void; min: number; max: number; step: number; width?: number }) {
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  const bad = !(Number(text) >= min && Number(text) <= max);
  return (
    <TextField
      size="small"
      type="number"
      label={label}
      value={text}
      error={bad}
      onChange={(e) => {
        setText(e.target.value);
        onChange(e.target.value === '' ? NaN : Number(e.target.value));
      }}
      slotProps={{ htmlInput: { min, max, step, 'aria-label': label } }}
      sx={{ width }}
    />
  );
}

function Basket({ draft, setDraft, saving, onSave, onNew, onAssign }: { draft: Draft; setDraft: (d: Draft | string) => void; saving: boolean; onSave: () => void; onNew: () => void; onAssign: () => void }) {
  const [bulk, setBulk] = useState<Record<number, string>>({});
  const count = draftCount(draft);
  const problem = draftProblem(draft);
  let no = 0;
  return (
    <Panel
      title={draft.paperId ? '试题篮（编辑试卷）' : '试题篮'}
      label="试题篮"
      extra={
        <Typography variant="body2" color="text.secondary" data-testid="basket-summary">
          共 {count} 题，总分 {score(draftTotal(draft))} 分
        </Typography>
      }
    >
      <Box sx={{ display: 'grid', gap: 1.5 }}>
        <TextField size="small" label="试卷标题" value={draft.title} onChange={(e) => setDraft({ ...draft, title: e.target.value })} slotProps={{ htmlInput: { maxLength: LIMITS.title } }} fullWidth />
        <NumberField label="考试时长（分钟）" value={draft.durationMinutes} min={LIMITS.minMinutes} max={LIMITS.maxMinutes} step={5} width={160} onChange={(n) => setDraft({ ...draft, durationMinutes: n })} />
        {count === 0 && <EmptyState text="试题篮是空的，请从题库加入题目" />}
        <Box sx={{ display: 'grid', gap: 1.5, maxHeight: { lg: 'calc(100vh - 450px)' }, overflow: { lg: 'auto' }, minHeight: { lg: 160 } }}>
          {draft.sections.map((s, si) => (
            <Box key={s.key} data-testid="basket-section" sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 1, minWidth: 0 }}>
              <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'center', flexWrap: 'wrap' }}>
                <Typography sx={{ fontWeight: 600 }}>{['一', '二', '三', '四', '五', '六', '七', '八', '九', '十'][si]}、</Typography>
                <TextField size="small" label="大题标题" value={s.title} onChange={(e) => setDraft(renameSection(draft, s.key, e.target.value))} slotProps={{ htmlInput: { maxLength: LIMITS.sectionTitle } }} sx={{ flex: 1, minWidth: 120 }} />
                <Tooltip title="上移大题">
                  <span>
                    <IconButton size="small" aria-label="上移大题" disabled={si === 0} onClick={() => setDraft(moveSection(draft, s.key, -1))}>
                      <ArrowUpward fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
                <Tooltip title="下移大题">
                  <span>
                    <IconButton size="small" aria-label="下移大题" disabled={si === draft.sections.length - 1} onClick={() => setDraft(moveSection(draft, s.key, 1))}>
                      <ArrowDownward fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
                {s.items.length === 0 && (
                  <IconButton size="small" aria-label="删除大题" onClick={() => setDraft(dropSection(draft, s.key))}>
                    <DeleteOutline fontSize="small" />
                  </IconButton>
                )}
              </Box>
              {s.items.length > 0 && (
                <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mt: 1, flexWrap: 'wrap' }}>
                  <Typography variant="body2" color="text.secondary">
                    {s.items.length} 题，{score(s.items.reduce((t, i) => t + (Number.isFinite(i.points) ? i.points : 0), 0))} 分
                  </Typography>
                  <TextField
                    size="small"
                    type="number"
                    label="每题分值"
                    value={bulk[s.key] ?? ''}
                    onChange={(e) => setBulk((b) => ({ ...b, [s.key]: e.target.value }))}
                    slotProps={{ htmlInput: { min: LIMITS.minPoints, max: LIMITS.maxPoints, step: 0.5, 'aria-label': `${s.title}每题分值` } }}
                    sx={{ width: 100 }}
                  />
                  <Button size="small" disabled={!(Number(bulk[s.key]) >= LIMITS.minPoints && Number(bulk[s.key]) <= LIMITS.maxPoints)} onClick={() => setDraft(sectionPoints(draft, s.key, Number(bulk[s.key])))}>
                    统一设置
                  </Button>
                </Box>
              )}
              <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0, mt: 1, display: 'grid', gap: 1 }}>
                {s.items.map((item, ii) => {
                  no += 1;
                  return (
                    <Box component="li" key={item.question.id} data-testid="basket-item" sx={{ borderTop: 1, borderColor: 'divider', pt: 1, minWidth: 0 }}>
                      <Typography component="div" variant="body2" sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden', lineHeight: 1.7 }}>
                        {no}. <MathText text={item.question.stem} />
                      </Typography>
                      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mt: 0.5, flexWrap: 'wrap' }}>
                        <NumberField label={`第${no}题分值`} value={item.points} min={LIMITS.minPoints} max={LIMITS.maxPoints} step={0.5} onChange={(n) => setDraft(setPoints(draft, item.question.id, n))} />
                        {draft.sections.length > 1 && (
                          <TextField select size="small" label="所属大题" value={String(s.key)} onChange={(e) => setDraft(moveToSection(draft, item.question.id, Number(e.target.value)))} sx={{ width: 128 }}>
                            {draft.sections.map((t, ti) => (
                              <MenuItem key={t.key} value={String(t.key)}>
                                {['一', '二', '三', '四', '五', '六', '七', '八', '九', '十'][ti]}、{t.title || '未命名'}
                              </MenuItem>
                            ))}
                          </TextField>
                        )}
                        <Box sx={{ flex: 1 }} />
                        <IconButton size="small" aria-label="上移" disabled={ii === 0} onClick={() => setDraft(moveQuestion(draft, item.question.id, -1))}>
                          <ArrowUpward fontSize="small" />
                        </IconButton>
                        <IconButton size="small" aria-label="下移" disabled={ii === s.items.length - 1} onClick={() => setDraft(moveQuestion(draft, item.question.id, 1))}>
                          <ArrowDownward fontSize="small" />
                        </IconButton>
                        <IconButton size="small" aria-label="移出试题篮" onClick={() => setDraft(removeQuestion(draft, item.question.id))}>
                          <DeleteOutline fontSize="small" />
                        </IconButton>
                      </Box>
                    </Box>
                  );
                })}
              </Box>
            </Box>
          ))}
        </Box>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Button size="small" disabled={draft.sections.length >= LIMITS.sections} onClick={() => setDraft(addSection(draft, '新大题'))}>
            添加大题
          </Button>
          <Box sx={{ flex: 1 }} />
          <Button onClick={onNew} disabled={saving}>
            {draft.paperId ? '新建试卷' : '清空'}
          </Button>
          {/* The same questions as homework for a class, on 布置作业. */}
          <Button variant="outlined" onClick={onAssign} disabled={saving || count === 0}>
            布置为作业
          </Button>
          <Tooltip title={problem ?? ''}>
            <span>
              <Button variant="contained" onClick={onSave} disabled={saving || !!problem}>
                {draft.paperId ? '保存修改' : '保存试卷'}
              </Button>
            </span>
          </Tooltip>
        </Box>
        {problem && count > 0 && (
          <Typography variant="body2" color="error" role="alert">
            {problem}
          </Typography>
        )}
      </Box>
    </Panel>
  );
}

function PaperList({ papers, onEdit, onPrint, onDelete }: { papers: PaperSummary[] | undefined; onEdit: (p: PaperSummary) => void; onPrint: (p: PaperSummary) => void; onDelete: (p: PaperSummary) => void }) {
  if (papers === undefined) return <LinearProgress />;
  if (papers.length === 0) return <EmptyState />;
  return (
    <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }} aria-label="我的试卷">
      {papers.map((p) => (
        <Box
          component="li"
          key={p.id}
          data-testid="paper-row"
          data-paper-id={p.id}
          sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 1.5, display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', md: '1fr auto' }, alignItems: 'center', minWidth: 0 }}
        >
          <Box sx={{ minWidth: 0 }}>
            <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{p.title}</Typography>
            <Typography variant="body2" color="text.secondary" data-testid="paper-meta">
              {p.subjectName} · {p.questionCount} 题 · 总分 {score(p.totalPoints)} 分 · {p.durationMinutes} 分钟 · 更新于 {dateTime(p.updatedAt)}
            </Typography>
          </Box>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <Button size="small" variant="outlined" onClick={() => onEdit(p)}>
              编辑
            </Button>
            <Button size="small" variant="outlined" onClick={() => onPrint(p)}>
              打印
            </Button>
            <Button size="small" color="error" onClick={() => onDelete(p)}>
              删除
            </Button>
          </Box>
        </Box>
      ))}
    </Box>
  );
}

function Builder() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const navigate = useNavigate();
  const { selection } = useSelection();
  const { gradeId, gradeName, courseId, courseName, subjectId } = selection;
  const gradeLevel = gradeLevelOf(gradeName);
  const [draft, setDraftState] = useState<Draft>(() => emptyDraft());
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState<PaperSummary>();
  const defaultTitle = useMemo(() => `${gradeName}${courseName}测试卷`, [gradeName, courseName]);

  const setDraft = useCallback(
    (next: Draft | string) => {
      if (typeof next === 'string') notify(next, { type: 'warning' });
      else setDraftState(next);
    },
    [notify],
  );

  // Another grade or course is another bank: the basket starts over.
  useEffect(() => setDraftState(emptyDraft(defaultTitle)), [subjectId, gradeLevel, defaultTitle]);

  const myPapers = useQuery({ queryKey: ['myPapers', subjectId, gradeLevel], queryFn: () => dataProvider.myPapers({ subjectId, gradeLevel: gradeLevel ?? undefined, size: 50 }), enabled: !!subjectId, retry: false });
  const papers = !subjectId || myPapers.isError ? [] : myPapers.data?.records;
  const loadPapers = () => void myPapers.refetch();

  const toggle = (q: BankQuestion) => setDraft(draftIds(draft).has(q.id) ? removeQuestion(draft, q.id) : addQuestion(draft, q));

  const save = async () => {
    if (!gradeLevel) return;
    setSaving(true);
    try {
      const body = toInput(draft, Number(subjectId), gradeLevel);
      const saved = draft.paperId ? await dataProvider.updatePaper(draft.paperId, body) : await dataProvider.createPaper(body);
      notify(`已保存试卷「${saved.title}」，共 ${draftCount(draft)} 题，总分 ${score(saved.totalPoints)} 分`, { type: 'success' });
      setDraftState(fromPaper(saved));
      loadPapers();
    } catch {
      // The http client has already shown the server's message.
    } finally {
      setSaving(false);
    }
  };

  const assignAsHomework = () => {
    const state: BasketHomework = {
      title: draft.title.trim(),
      questions: draft.sections.flatMap((s) => s.items.map(({ question: q }) => ({ id: q.id, type: q.type, stem: q.stem, options: q.options }))),
    };
    navigate('/homeworkAssign', { state });
  };

  const edit = async (p: PaperSummary) => {
    try {
      setDraftState(fromPaper(await dataProvider.paper(p.id)));
      window.scrollTo?.({ top: 0, behavior: 'smooth' });
    } catch {
      // Shown by the http client.
    }
  };

  const remove = async () => {
    if (!deleting) return;
    const p = deleting;
    setDeleting(undefined);
    try {
      await dataProvider.deletePaper(p.id);
      notify(`已删除试卷「${p.title}」`, { type: 'success' });
      if (draft.paperId === p.id) setDraftState(emptyDraft(defaultTitle));
      loadPapers();
    } catch {
      // Shown by the http client (409 when an exam used the paper).
    }
  };

  if (!gradeId || !courseId || !subjectId) return <EmptyState text="请先在上方选择年级和学科" />;
  if (!gradeLevel) return <EmptyState text="无法识别所选年级，请选择其他年级" />;
  return (
    <>
      <Box sx={{ display: 'grid', gap: 2, mt: 2, gridTemplateColumns: { xs: '1fr', md: '220px minmax(0, 1fr)', lg: '240px minmax(0, 1fr) 380px' }, alignItems: 'start' }}>
        <Bank subjectId={subjectId} gradeLevel={gradeLevel} draft={draft} toggle={toggle} />
        {/* Bank and basket each scroll inside themselves on wide screens, so both stay in view side by side. */}
        <Box sx={{ gridColumn: { md: '1 / -1', lg: 'auto' }, minWidth: 0 }}>
          <Basket draft={draft} setDraft={setDraft} saving={saving} onSave={save} onNew={() => setDraftState(emptyDraft(defaultTitle))} onAssign={assignAsHomework} />
        </Box>
      </Box>
      <Box component="section" sx={{ mt: 3 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
          我的试卷
        </Typography>
        <PaperList papers={papers} onEdit={edit} onPrint={(p) => navigate(`/paperPrinter?paperId=${p.id}`)} onDelete={setDeleting} />
      </Box>
      <Dialog open={!!deleting} onClose={() => setDeleting(undefined)}>
        <DialogTitle>删除试卷</DialogTitle>
        <DialogContent>确定要删除“{deleting?.title}”吗？此操作不可恢复。</DialogContent>
        <DialogActions>
          <Button onClick={() => setDeleting(undefined)}>取消</Button>
          <Button color="error" variant="contained" onClick={remove}>
            删除
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

export default function PaperScreen({ route }: ScreenProps) {
  const { permissions } = usePermissions<Permissions>();
  if (!permissions) return null;
  if (permissions.activeRole !== 'teacher') return <EmptyScreen route={route} />;
  return (
    <ScreenCard title={route.meta.title} description="按知识点、题型、难度和关键词检索题库，把题目加入试题篮，分大题设置分值、标题和时长后保存；下方是我的试卷，可编辑、打印或删除。">
      <Builder />
    </ScreenCard>
  );
}
