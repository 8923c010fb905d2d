// Add or edit one question of a book: stem, options, answer, 解析, points, difficulty, knowledge points,
// and for a 综合 its sub-questions (worth their sum).
import { useState } from 'react';
import { useDataProvider } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../dataProvider';
import type { BookQuestion, KnowledgePoint, QuestionInput, SubQuestionInput } from '../dataProvider/workbooks';
import { formulaProblem } from '../domain/formula';
import { MathText } from './MathText';

const TYPES = [[1, '单选'], [2, '多选'], [3, '判断'], [4, '填空'], [5, '解答'], [6, '综合'], [7, '作文']] as const;
/** A 综合's parts are any type but 综合 and 作文. */
const SUB_TYPES = TYPES.filter(([v]) => v <= 5);
const isChoice = (type: number) => type === 1 || type === 2 || type === 3;

/** A sub-question as edited: options as typed text. */
interface SubDraft {
  type: number;
  stem: string;
  options: string;
  answer: string;
  points: string;
  difficulty: number;
}

function flatten(nodes: KnowledgePoint[], out: { id: number; name: string }[] = []) {
  for (const n of nodes) {
    out.push({ id: n.id, name: n.name });
    flatten(n.children ?? [], out);
  }
  return out;
}

/** Options as typed: one per line, 'A. text'. */
function parseOptions(text: string) {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const m = /^([A-Z])[.．、]\s*(.*)$/.exec(line);
      return m ? { key: m[1], text: m[2] } : { key: '', text: line };
    });
}

export function QuestionDialog(props: {
  subjectId: number;
  question?: BookQuestion;
  saving: boolean;
  onSave: (input: QuestionInput) => Promise<void>;
  onClose: () => void;
}) {
  const { question } = props;
  const api = useDataProvider<AppDataProvider>();
  const points = useQuery({ queryKey: ['knowledgePoints', props.subjectId], queryFn: () => api.knowledgePoints(props.subjectId) });
  const [type, setType] = useState<number>(question?.type ?? 1);
  const [stem, setStem] = useState(question?.stem ?? '');
  const [options, setOptions] = useState((question?.options ?? []).map((o) => `${o.key}. ${o.text}`).join('\n'));
  const [answer, setAnswer] = useState(question?.answer ?? '');
  const [analysis, setAnalysis] = useState(question?.analysis ?? '');
  const [score, setScore] = useState(String(question?.points ?? 5));
  const [difficulty, setDifficulty] = useState(question?.difficulty ?? 3);
  const [kps, setKps] = useState<{ id: number; name: string }[]>(question?.knowledgePoints ?? []);
  const [parts, setParts] = useState<SubDraft[]>(
    (question?.children ?? []).map((c) => ({ type: c.type, stem: c.stem, options: (c.options ?? []).map((o) => `${o.key}. ${o.text}`).join('\n'), answer: c.answer, points: String(c.points), difficulty: c.difficulty })),
  );
  const choice = isChoice(type);
  const composite = type === 6;
  const partsTotal = parts.reduce((sum, p) => sum + (Number(p.points) || 0), 0);
  const setPart = (index: number, change: Partial<SubDraft>) => setParts((all) => all.map((p, i) => (i === index ? { ...p, ...change } : p)));

  const submit = () =>
    props
      .onSave({
        type,
        stem,
        options: choice ? parseOptions(options) : undefined,
        answer,
        analysis,
        difficulty,
        points: composite && parts.length ? partsTotal : Number(score),
        knowledgePointIds: kps.map((k) => k.id),
        children: composite
          ? parts.map((p): SubQuestionInput => ({
              type: p.type,
              stem: p.stem,
              options: isChoice(p.type) ? parseOptions(p.options) : undefined,
              answer: p.answer,
              difficulty: p.difficulty,
              points: Number(p.points),
            }))
          : undefined,
      })
      .catch(() => undefined);

  return (
    <Dialog open fullWidth maxWidth="md" onClose={props.onClose}>
      <DialogTitle>{question ? `编辑第 ${question.no} 题` : '添加题目'}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <Stack direction="row" spacing={2}>
            <TextField select label="题型" value={type} onChange={(e) => setType(Number(e.target.value))} sx={{ width: 140 }}>
              {TYPES.map(([v, l]) => <MenuItem key={v} value={v}>{l}</MenuItem>)}
            </TextField>
            <TextField
              label="分值"
              type="number"
              value={composite && parts.length ? String(partsTotal) : score}
              disabled={composite && parts.length > 0}
              helperText={composite && parts.length ? '各小题之和' : undefined}
              onChange={(e) => setScore(e.target.value)}
              sx={{ width: 120 }}
            />
            <TextField select label="难度" value={difficulty} onChange={(e) => setDifficulty(Number(e.target.value))} sx={{ width: 120 }}>
              {[1, 2, 3, 4, 5].map((d) => <MenuItem key={d} value={d}>{d}</MenuItem>)}
            </TextField>
          </Stack>
          <TextField
            label="题干"
            multiline
            minRows={2}
            value={stem}
            onChange={(e) => setStem(e.target.value)}
            error={!!formulaProblem(stem)}
            helperText={formulaProblem(stem) ?? '公式写在 $…$ 之间'}
          />
          <Typography component="div" variant="body2" color="text.secondary">预览：<MathText text={stem} /></Typography>
          {choice && (
            <TextField label="选项" multiline minRows={2} value={options} onChange={(e) => setOptions(e.target.value)} helperText="每行一个，如 A. 选项内容" />
          )}
          <TextField label="答案" value={answer} onChange={(e) => setAnswer(e.target.value)} helperText={composite ? '综合题可填“见各小题”' : undefined} />
          {composite && (
            <Stack spacing={1.5} data-parts>
              <Typography variant="subtitle2">小题（{parts.length}）</Typography>
              {parts.map((part, index) => (
                <Stack key={index} spacing={1} sx={{ p: 1.5, border: 1, borderColor: 'divider', borderRadius: 1 }} aria-label={`第${index + 1}小题`} role="group">
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                    <Typography sx={{ minWidth: 40 }}>（{index + 1}）</Typography>
                    <TextField select size="small" label="题型" value={part.type} onChange={(e) => setPart(index, { type: Number(e.target.value) })} sx={{ width: 110 }}>
                      {SUB_TYPES.map(([v, l]) => <MenuItem key={v} value={v}>{l}</MenuItem>)}
                    </TextField>
                    <TextField size="small" label="分值" type="number" value={part.points} onChange={(e) => setPart(index, { points: e.target.value })} sx={{ width: 90 }} />
                    <TextField select size="small" label="难度" value={part.difficulty} onChange={(e) => setPart(index, { difficulty: Number(e.target.value) })} sx={{ width: 90 }}>
                      {[1, 2, 3, 4, 5].map((d) => <MenuItem key={d} value={d}>{d}</MenuItem>)}
                    </TextField>
                    <Box sx={{ flex: 1 }} />
                    <Button size="small" color="error" onClick={() => setParts((all) => all.filter((_, i) => i !== index))}>删除小题</Button>
                  </Stack>
                  <TextField size="small" label="小题题干" multiline value={part.stem} onChange={(e) => setPart(index, { stem: e.target.value })} />
                  {isChoice(part.type) && (
                    <TextField size="small" label="小题选项" multiline value={part.options} onChange={(e) => setPart(index, { options: e.target.value })} helperText="每行一个，如 A. 选项内容" />
                  )}
                  <TextField size="small" label="小题答案" value={part.answer} onChange={(e) => setPart(index, { answer: e.target.value })} />
                </Stack>
              ))}
              <Box>
                <Button
                  size="small"
                  disabled={parts.length >= 10}
                  onClick={() => setParts((all) => [...all, { type: 1, stem: '', options: '', answer: '', points: '2', difficulty: 3 }])}
                >
                  添加小题
                </Button>
              </Box>
            </Stack>
          )}
          <TextField label="解析" multiline minRows={2} value={analysis} onChange={(e) => setAnalysis(e.target.value)} />
          <Autocomplete
            multiple
            options={points.data ? flatten(points.data) : []}
            value={kps}
            getOptionLabel={(o) => o.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            onChange={(_, v) => setKps(v)}
            noOptionsText="暂无数据"
            renderInput={(params) => <TextField {...params} label="知识点" />}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>取消</Button>
        <Button variant="contained" disabled={props.saving} onClick={submit}>保存</Button>
      </DialogActions>
    </Dialog>
  );
}
