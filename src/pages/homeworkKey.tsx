// 布置作业 from a photo or PDF of the assignment: the file (uploaded at once, checked by the server)
// and the answer key typed in, one row per item — number, kind (选择/判断/填空/解答), the right
// answer (none for 解答: points only, the teacher marks it) and points. The key is checked here as
// the server will check it, so the button stays off until it would be accepted.
import { useRef, useState } from 'react';
import { useDataProvider } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import type { AppDataProvider } from '../dataProvider';
import type { HomeworkFile } from '../dataProvider/minerva';
import { HOMEWORK_FILE_MAX_BYTES, HOMEWORK_KEY_KINDS, HOMEWORK_KEY_LIMITS, normalizeKeyAnswer, type HomeworkKeyItem, type HomeworkKeyKind } from '../domain/content';

export interface KeyRow {
  no: string;
  kind: HomeworkKeyKind;
  answer: string;
  points: string;
}

const NO = new RegExp(HOMEWORK_KEY_LIMITS.noPattern);

/** What is wrong with a row, in the words the server would use; null when it is fine. */
export function rowProblem(row: KeyRow, rows: KeyRow[]): string | null {
  if (!NO.test(row.no.trim())) return '题号填数字，如 3 或 12(2)';
  if (rows.filter((r) => r.no.trim() === row.no.trim()).length > 1) return '题号重复了';
  const points = Number(row.points);
  if (!(points >= 0.5 && points <= HOMEWORK_KEY_LIMITS.pointsMax && Number.isInteger(points * 2))) return `分值 0.5–${HOMEWORK_KEY_LIMITS.pointsMax}`;
  if (row.kind === 'answer') return null;
  if ([...row.answer].length > HOMEWORK_KEY_LIMITS.answerMax) return `答案最多 ${HOMEWORK_KEY_LIMITS.answerMax} 字`;
  if (!normalizeKeyAnswer(row.kind, row.answer)) return row.kind === 'choice' ? '填选项字母 A–G' : row.kind === 'judge' ? '填“对”或“错”' : '请填写答案';
  return null;
}

/** The rows as the server takes them (only call when every row is fine). */
export function keyOf(rows: KeyRow[]): HomeworkKeyItem[] {
  return rows.map((r) => ({ no: r.no.trim(), kind: r.kind, ...(r.kind === 'answer' ? {} : { answer: r.answer.trim() }), points: Number(r.points) }));
}

/** The next row: the number after the last one, the same kind and points. */
export function nextRow(rows: KeyRow[]): KeyRow {
  const last = rows[rows.length - 1];
  const n = last ? Number.parseInt(last.no, 10) : 0;
  return { no: String(Number.isNaN(n) ? rows.length + 1 : n + 1), kind: last?.kind ?? 'choice', answer: '', points: last?.points ?? '2' };
}

const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/** Picks and uploads the assignment's photo or PDF; the server's refusal is shown as it says it. */
export function HomeworkFilePicker({ file, onChange }: { file: HomeworkFile | null; onChange: (file: HomeworkFile | null) => void }) {
  const api = useDataProvider<AppDataProvider>();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const pick = async (picked: File | undefined) => {
    if (!picked) return;
    setError('');
    if (picked.size > HOMEWORK_FILE_MAX_BYTES) return setError(`文件过大，作业原件不能超过${HOMEWORK_FILE_MAX_BYTES / 1024 / 1024}MB`);
    setBusy(true);
    try {
      onChange(await api.uploadHomeworkFile(picked));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <Box sx={{ display: 'grid', gap: 1, minWidth: 0 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', minWidth: 0 }}>
        <Button variant="outlined" startIcon={<UploadFileOutlined />} disabled={busy} onClick={() => input.current?.click()}>
          {busy ? '上传中…' : file ? '更换文件' : '上传照片或 PDF'}
        </Button>
        <input ref={input} type="file" hidden accept="image/jpeg,image/png,application/pdf" data-testid="homework-file-input" onChange={(e) => void pick(e.target.files?.[0])} />
        {file ? (
          <Typography variant="body2" data-testid="homework-file-name" sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {file.fileName}（{size(file.size)}）
          </Typography>
        ) : (
          <Typography variant="body2" color="text.secondary">
            作业的照片（JPG、PNG）或 PDF，不超过 {HOMEWORK_FILE_MAX_BYTES / 1024 / 1024} MB
          </Typography>
        )}
      </Box>
      {error && <Alert severity="warning">{error}</Alert>}
    </Box>
  );
}

/** The answer key, one row per item; at most HOMEWORK_KEY_LIMITS.items rows. */
export function KeyEditor({ rows, onChange }: { rows: KeyRow[]; onChange: (rows: KeyRow[]) => void }) {
  const set = (i: number, change: Partial<KeyRow>) => onChange(rows.map((r, k) => (k === i ? { ...r, ...change } : r)));
  const total = rows.reduce((sum, r) => sum + (Number(r.points) || 0), 0);
  return (
    <Box sx={{ display: 'grid', gap: 1, minWidth: 0 }}>
      <Box component="ol" aria-label="答案" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }}>
        {rows.map((row, i) => {
          const problem = rowProblem(row, rows);
          return (
            <Box
              component="li"
              key={i}
              data-testid="key-row"
              sx={{ display: 'grid', gap: 1, alignItems: 'start', gridTemplateColumns: { xs: '64px 88px minmax(0, 1fr) 40px', sm: '80px 100px minmax(0, 320px) 90px 40px' }, minWidth: 0 }}
            >
              <TextField size="small" label="题号" value={row.no} onChange={(e) => set(i, { no: e.target.value })} slotProps={{ htmlInput: { maxLength: 10, 'aria-label': `第 ${i + 1} 行题号` } }} />
              <TextField size="small" select label="题型" value={row.kind} onChange={(e) => set(i, { kind: e.target.value as HomeworkKeyKind })}>
                {HOMEWORK_KEY_KINDS.map((k) => (
                  <MenuItem key={k.value} value={k.value}>
                    {k.label}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                size="small"
                label="答案"
                value={row.kind === 'answer' ? '' : row.answer}
                disabled={row.kind === 'answer'}
                placeholder={row.kind === 'choice' ? '如 B 或 AC' : row.kind === 'judge' ? '对 / 错' : row.kind === 'blank' ? '多空用；隔开' : '老师批改'}
                onChange={(e) => set(i, { answer: e.target.value })}
                error={Boolean(problem) && row.answer !== '' && row.kind !== 'answer'}
                helperText={problem ?? ' '}
                slotProps={{ htmlInput: { maxLength: HOMEWORK_KEY_LIMITS.answerMax, 'aria-label': `第 ${i + 1} 行答案` }, formHelperText: { sx: { mx: 0 } } }}
                sx={{ gridColumn: { xs: '1 / 4', sm: 'auto' }, gridRow: { xs: 2, sm: 'auto' } }}
              />
              <TextField
                size="small"
                type="number"
                label="分值"
                value={row.points}
                onChange={(e) => set(i, { points: e.target.value })}
                slotProps={{ htmlInput: { min: 0.5, max: HOMEWORK_KEY_LIMITS.pointsMax, step: 0.5, 'aria-label': `第 ${i + 1} 行分值` } }}
                sx={{ gridColumn: { xs: 3, sm: 'auto' }, gridRow: { xs: 1, sm: 'auto' } }}
              />
              <IconButton aria-label={`删除第 ${i + 1} 行`} onClick={() => onChange(rows.filter((_, k) => k !== i))} disabled={rows.length === 1} sx={{ gridColumn: { xs: 4, sm: 'auto' }, gridRow: { xs: 1, sm: 'auto' } }}>
                <DeleteOutlined />
              </IconButton>
            </Box>
          );
        })}
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
        <Button onClick={() => onChange([...rows, nextRow(rows)])} disabled={rows.length >= HOMEWORK_KEY_LIMITS.items}>
          添加一题
        </Button>
        <Typography variant="body2" color="text.secondary" data-testid="key-total">
          共 {rows.length} 题，满分 {Math.round(total * 10) / 10} 分
        </Typography>
      </Box>
    </Box>
  );
}
