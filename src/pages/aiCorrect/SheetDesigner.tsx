// 答题卡 of 新建批改任务: the teacher designs a sheet (title, paper, a named copy per student of a
// class or anonymous copies with student-number bubbles, runs of questions by kind) and types its
// answer key beside each question — a whole row of letters at once for choice questions. Creating
// makes the sheet, then the task with the key; the page then offers the PDF and the uploads.
import { useState } from 'react';
import { useDataProvider } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import type { AppDataProvider } from '../../dataProvider';
import type { ClassItem } from '../../dataProvider/api';
import {
  KIND_LABELS,
  TYPE_LABELS,
  designError,
  firstNumbers,
  keyError,
  newSection,
  parseAnswerRow,
  pointsOf,
  questionCount,
  sectionNumber,
  SHORT_SIZES,
  shortHeight,
  toAnswerKey,
  toSheetSections,
  totalPoints,
  type DesignSection,
  type ObjectiveType,
} from './sheetDesign';

export interface CreatedSheetTask {
  taskId: number;
  pages: number;
  copies: number;
}

const num = (value: string) => (value === '' ? NaN : Number(value));
const small = { size: 'small' as const };

function NumberField(props: { label: string; value: number; onChange: (v: number) => void; min?: number; max?: number; step?: number; testId?: string; width?: number }) {
  return (
    <TextField
      {...small}
      type="number"
      label={props.label}
      value={Number.isNaN(props.value) ? '' : props.value}
      onChange={(e) => props.onChange(num(e.target.value))}
      slotProps={{ htmlInput: { min: props.min, max: props.max, step: props.step ?? 1, 'data-testid': props.testId } }}
      style={{ width: props.width ?? 110 }}
    />
  );
}

type Short = Extract<DesignSection, { kind: 'short' }>;

/** One size choice per 解答 question (小 by default), so a proof gets half a page and a short one a few lines. */
function ShortSizes({ s, first, set }: { s: Short; first: number; set: (s: DesignSection) => void }) {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
      {Array.from({ length: s.count }, (_, k) => (
        <TextField
          key={k}
          {...small}
          select
          label={`第 ${first + k} 题答题区`}
          value={shortHeight(s, k)}
          onChange={(e) => {
            const heights = Array.from({ length: s.count }, (_, i) => shortHeight(s, i));
            heights[k] = Number(e.target.value);
            set({ ...s, heights });
          }}
          style={{ width: 130 }}
          slotProps={{ htmlInput: { 'data-testid': `short-size-${first + k}` } }}
        >
          {SHORT_SIZES.map((z) => (
            <MenuItem key={z.heightMm} value={z.heightMm}>
              {z.label}
            </MenuItem>
          ))}
          {!SHORT_SIZES.some((z) => z.heightMm === shortHeight(s, k)) && <MenuItem value={shortHeight(s, k)}>{shortHeight(s, k)} 毫米</MenuItem>}
        </TextField>
      ))}
    </Box>
  );
}

/** One question's points (分值; 满分 for a 解答题), in halves, with its unit. */
function PointsField<S extends Objective | Fill | Short>({ s, k, first, set, name = '分值', min = 0, max = 100 }: {
  s: S;
  k: number;
  first: number;
  set: (s: S) => void;
  name?: string;
  min?: number;
  max?: number;
}) {
  const value = pointsOf(s, k);
  return (
    <>
      <TextField
        {...small}
        hiddenLabel
        type="number"
        value={Number.isNaN(value) ? '' : value}
        onChange={(e) => {
          const points = Array.from({ length: s.count }, (_, i) => pointsOf(s, i));
          points[k] = num(e.target.value);
          set({ ...s, points });
        }}
        slotProps={{ htmlInput: { 'aria-label': `第 ${first + k} 题${name}`, min, max, step: 0.5 } }}
        style={{ width: 64 }}
      />
      <Typography variant="caption">分</Typography>
    </>
  );
}

type Objective = Extract<DesignSection, { kind: 'objective' }>;
type Fill = Extract<DesignSection, { kind: 'fill' }>;

function ObjectiveKey({ s, first, set }: { s: Objective; first: number; set: (s: Objective) => void }) {
  const [row, setRow] = useState('');
  const letters = s.type === 'judge' ? '√ ×（可输入 T/F）' : 'ABCDEFG'.slice(0, s.options).split('').join(' ');
  return (
    <Box sx={{ display: 'grid', gap: 1, minWidth: 0 }}>
      <TextField
        {...small}
        label="快速录入答案"
        placeholder={s.type === 'multiple' ? '如 AB ACD BC，每题用空格分隔' : s.type === 'judge' ? '如 TFFT' : '如 ABCDA'}
        helperText={`依次填写第 ${first}–${first + s.count - 1} 题的答案，可选 ${letters}`}
        value={row}
        onChange={(e) => {
          setRow(e.target.value);
          const parsed = parseAnswerRow(e.target.value, s.type);
          set({ ...s, answers: Array.from({ length: s.count }, (_, k) => parsed[k] ?? s.answers[k] ?? '') });
        }}
        slotProps={{ htmlInput: { 'data-testid': 'answer-row' } }}
      />
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))', gap: 1 }}>
        {Array.from({ length: s.count }, (_, k) => (
          <Box key={k} sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }} data-testid="key-item" data-no={first + k}>
            <Typography variant="body2" sx={{ width: 28, textAlign: 'right', flexShrink: 0 }}>
              {first + k}.
            </Typography>
            <TextField
              {...small}
              hiddenLabel
              value={s.answers[k] ?? ''}
              onChange={(e) => {
                const answers = [...s.answers];
                answers[k] = parseAnswerRow(e.target.value.replace(/\s/g, ''), s.type === 'judge' ? 'judge' : 'single').join('');
                set({ ...s, answers });
              }}
              slotProps={{ htmlInput: { 'aria-label': `第 ${first + k} 题答案`, maxLength: 7 } }}
              style={{ width: 64 }}
            />
            <PointsField s={s} k={k} first={first} set={set} />
          </Box>
        ))}
      </Box>
    </Box>
  );
}

function FillKey({ s, first, set }: { s: Fill; first: number; set: (s: Fill) => void }) {
  return (
    <Box sx={{ display: 'grid', gap: 1, minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary">
        每空填写正确答案，多个可接受的答案用“/”分隔，如 3/三
      </Typography>
      {Array.from({ length: s.count }, (_, k) => (
        <Box key={k} sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }} data-testid="key-item" data-no={first + k}>
          <Typography variant="body2" sx={{ width: 28, textAlign: 'right' }}>
            {first + k}.
          </Typography>
          {Array.from({ length: s.blanks }, (_, b) => (
            <TextField
              key={b}
              {...small}
              hiddenLabel
              placeholder={`第 ${b + 1} 空`}
              value={s.answers[k]?.[b] ?? ''}
              onChange={(e) => {
                const answers = Array.from({ length: s.count }, (_, i) => [...(s.answers[i] ?? [])]);
                answers[k][b] = e.target.value;
                set({ ...s, answers });
              }}
              slotProps={{ htmlInput: { 'aria-label': `第 ${first + k} 题第 ${b + 1} 空答案`, maxLength: 100 } }}
              style={{ width: 120 }}
            />
          ))}
          <PointsField s={s} k={k} first={first} set={set} />
        </Box>
      ))}
    </Box>
  );
}

/** Full marks of each 解答题, for marking it online (网上阅卷). */
function ShortKey({ s, first, set }: { s: Short; first: number; set: (s: Short) => void }) {
  return (
    <Box sx={{ display: 'grid', gap: 1, minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary">
        解答题留出答题区供学生书写，批改后由老师在「网上阅卷」中逐题给分。每题满分：
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(120px, 1fr))', gap: 1 }}>
        {Array.from({ length: s.count }, (_, k) => (
          <Box key={k} sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }} data-testid="key-item" data-no={first + k}>
            <Typography variant="body2" sx={{ width: 28, textAlign: 'right', flexShrink: 0 }}>
              {first + k}.
            </Typography>
            <PointsField s={s} k={k} first={first} set={set} name="满分" min={0.5} max={150} />
          </Box>
        ))}
      </Box>
    </Box>
  );
}

/** One run of questions: its shape on the sheet, then its key. */
function SectionCard({ s, index, first, set, remove }: { s: DesignSection; index: number; first: number; set: (s: DesignSection) => void; remove: () => void }) {
  const last = first + questionCount(s) - 1;
  return (
    <Box component="li" data-testid="sheet-section" data-kind={s.kind} sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 1.5, display: 'grid', gap: 1.5, minWidth: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <Typography variant="subtitle2" component="h3">
          {sectionNumber(index)}、{KIND_LABELS[s.kind]}
          <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 1 }}>
            {first === last ? `第 ${first} 题` : `第 ${first}–${last} 题`}
          </Typography>
        </Typography>
        <IconButton size="small" aria-label={`删除${KIND_LABELS[s.kind]}`} onClick={remove}>
          <DeleteIcon fontSize="small" />
        </IconButton>
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        {s.kind !== 'essay' && <NumberField label="题数" value={s.count} min={1} max={100} onChange={(count) => set({ ...s, count })} testId="section-count" width={76} />}
        {s.kind === 'objective' && (
          <>
            <TextField {...small} select label="题型" value={s.type} onChange={(e) => set({ ...s, type: e.target.value as ObjectiveType, answers: [] })} style={{ width: 88 }}>
              {(Object.keys(TYPE_LABELS) as ObjectiveType[]).map((t) => (
                <MenuItem key={t} value={t}>
                  {TYPE_LABELS[t]}
                </MenuItem>
              ))}
            </TextField>
            {s.type !== 'judge' && <NumberField label="选项数" value={s.options} min={2} max={7} onChange={(options) => set({ ...s, options })} width={80} />}
          </>
        )}
        {s.kind === 'fill' && <NumberField label="每题空数" value={s.blanks} min={1} max={6} onChange={(blanks) => set({ ...s, blanks })} width={86} />}
        {s.kind === 'essay' && (
          <>
            <NumberField label="格数" value={s.cells} min={100} max={1500} step={20} onChange={(cells) => set({ ...s, cells })} width={100} />
            <NumberField label="最少字数" value={s.minChars} min={0} max={1500} step={50} onChange={(minChars) => set({ ...s, minChars })} width={100} />
            <NumberField label="分值" value={s.points} min={0} max={150} onChange={(points) => set({ ...s, points })} width={90} />
            <TextField {...small} label="作文题目或要求" value={s.prompt} onChange={(e) => set({ ...s, prompt: e.target.value })} slotProps={{ htmlInput: { maxLength: 200 } }} sx={{ flex: '1 1 220px' }} />
          </>
        )}
      </Box>
      {s.kind === 'objective' && s.count >= 1 && s.count <= 100 && <ObjectiveKey s={s} first={first} set={set} />}
      {s.kind === 'fill' && s.count >= 1 && s.count <= 40 && s.blanks >= 1 && s.blanks <= 6 && <FillKey s={s} first={first} set={set} />}
      {s.kind === 'short' && s.count >= 1 && s.count <= 20 && <ShortKey s={s} first={first} set={set} />}
      {s.kind === 'short' && s.count >= 1 && s.count <= 20 && <ShortSizes s={s} first={first} set={set} />}
      {s.kind === 'short' && (
        <Typography variant="caption" color="text.secondary">
          小答题区两题并排，答题卡更省纸。
        </Typography>
      )}
      {s.kind === 'essay' && (
        <Typography variant="caption" color="text.secondary">
          作文由系统按题目和字数要求给出建议分，老师确认后计入总分。
        </Typography>
      )}
    </Box>
  );
}

export function SheetDesigner({ classes, defaultClassId, onCreated }: { classes: ClassItem[]; defaultClassId?: string; onCreated: (created: CreatedSheetTask) => void }) {
  const api = useDataProvider<AppDataProvider>();
  const [title, setTitle] = useState('');
  const [paper, setPaper] = useState<'A4' | 'A3'>('A4');
  const [identity, setIdentity] = useState<'roster' | 'anonymous'>('roster');
  const [classId, setClassId] = useState(defaultClassId ?? (classes[0] ? String(classes[0].id) : ''));
  // NaN: as many digits as the school's 学号 (the server counts them).
  const [digits, setDigits] = useState(NaN);
  const [sections, setSections] = useState<DesignSection[]>([newSection('objective')]);
  const [missing, setMissing] = useState(0.5);
  const [wrong, setWrong] = useState(0);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState('');

  const firsts = firstNumbers(sections);
  const hasMultiple = sections.some((s) => s.kind === 'objective' && s.type === 'multiple');
  const problem =
    (!title.trim() && '请填写答题卡标题') ||
    (identity === 'roster' && !classId && '按名单打印需要选择班级') ||
    (identity === 'anonymous' && !Number.isNaN(digits) && !(digits >= 1 && digits <= 12) && '考号位数必须在 1 到 12 之间') ||
    designError(sections) ||
    keyError(sections);

  const create = async () => {
    setTried(true);
    setServerError('');
    if (problem) return;
    setBusy(true);
    try {
      const sheet = await api.createSheet({
        title: title.trim(),
        paper,
        identity,
        ...(identity === 'roster' ? { classId: Number(classId) } : Number.isNaN(digits) ? {} : { digits }),
        ...(identity === 'anonymous' && classId ? { classId: Number(classId) } : {}),
        sections: toSheetSections(sections),
      });
      const task = await api.createCorrectTask({
        type: 3,
        title: title.trim(),
        sheetId: sheet.sheetId,
        ...(classId ? { classId: Number(classId) } : {}),
        answerKey: toAnswerKey(sections, { missing, wrong }),
      });
      onCreated({ taskId: task.id, pages: sheet.pages, copies: sheet.copies });
    } catch (error) {
      // The layout builder's reason (客观题最多 100 道…) or the roster's (该班级还没有学生).
      setServerError((error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box sx={{ display: 'grid', gap: 2, mt: 2, minWidth: 0 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center' }}>
        <TextField {...small} required label="答题卡标题" value={title} onChange={(e) => setTitle(e.target.value)} slotProps={{ htmlInput: { maxLength: 50 } }} sx={{ flex: '1 1 240px' }} />
        <ToggleButtonGroup {...small} exclusive value={paper} onChange={(_, v) => v && setPaper(v)} aria-label="纸张">
          <ToggleButton value="A4">A4</ToggleButton>
          <ToggleButton value="A3">A3</ToggleButton>
        </ToggleButtonGroup>
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center' }}>
        <ToggleButtonGroup {...small} exclusive value={identity} onChange={(_, v) => v && setIdentity(v)} aria-label="打印方式">
          <ToggleButton value="roster">按班级名单</ToggleButton>
          <ToggleButton value="anonymous">匿名填涂考号</ToggleButton>
        </ToggleButtonGroup>
        <TextField {...small} select label="班级" value={classId} onChange={(e) => setClassId(e.target.value)} fullWidth={false} sx={{ minWidth: 200 }} slotProps={{ htmlInput: { 'data-testid': 'sheet-class' } }}>
          {identity === 'anonymous' && <MenuItem value="">不限班级</MenuItem>}
          {classes.map((c) => (
            <MenuItem key={c.id} value={String(c.id)}>
              {c.gradeName && !c.className.startsWith(c.gradeName) ? `${c.gradeName}${c.className}` : c.className}
            </MenuItem>
          ))}
        </TextField>
        {identity === 'anonymous' && <NumberField label="考号位数（空=按学号）" value={digits} min={1} max={12} onChange={setDigits} width={210} />}
      </Box>
      <Typography variant="caption" color="text.secondary">
        {identity === 'roster' ? '每位学生一份印有姓名的答题卡，批改时自动对应学生。' : '打印一份通用答题卡，学生填涂考号（学号），批改时按学号对应学生。'}
      </Typography>

      <Box component="ol" aria-label="题型" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5 }}>
        {sections.map((s, i) => (
          <SectionCard
            key={i}
            s={s}
            index={i}
            first={firsts[i]}
            set={(next) => setSections((all) => all.map((x, k) => (k === i ? next : x)))}
            remove={() => setSections((all) => all.filter((_, k) => k !== i))}
          />
        ))}
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        {(Object.keys(KIND_LABELS) as DesignSection['kind'][]).map((kind) => (
          <Button key={kind} size="small" variant="outlined" startIcon={<AddIcon />} onClick={() => setSections((all) => [...all, newSection(kind)])}>
            {KIND_LABELS[kind]}
          </Button>
        ))}
      </Box>
      {hasMultiple && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5 }}>
          <TextField {...small} select label="多选题少选" value={missing} onChange={(e) => setMissing(Number(e.target.value))} style={{ width: 150 }}>
            <MenuItem value={0}>不得分</MenuItem>
            <MenuItem value={0.5}>得一半分</MenuItem>
          </TextField>
          <TextField {...small} select label="多选题错选" value={wrong} onChange={(e) => setWrong(Number(e.target.value))} style={{ width: 150 }}>
            <MenuItem value={0}>不得分</MenuItem>
            <MenuItem value={0.5}>得一半分</MenuItem>
          </TextField>
        </Box>
      )}
      <Typography variant="body2" data-testid="sheet-total">
        共 {firsts.length ? firsts[firsts.length - 1] + questionCount(sections[sections.length - 1]) - 1 : 0} 题，满分 {totalPoints(sections)} 分
      </Typography>
      {tried && problem && (
        <Alert severity="warning" data-testid="sheet-problem">
          {problem}
        </Alert>
      )}
      {serverError && (
        <Alert severity="error" data-testid="sheet-error">
          {serverError}
        </Alert>
      )}
      <Box>
        <Button variant="contained" disabled={busy} onClick={() => void create()}>
          {busy ? '正在生成…' : '生成答题卡并创建任务'}
        </Button>
      </Box>
    </Box>
  );
}
