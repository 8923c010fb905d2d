// 复核申请 on a piece of work: what families asked about (one question each, with a reason) and the
// teacher's answer, which the family page then shows. Hidden when there are none: most works never
// get a request, and the screen stays as it was.
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useNotify } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../dataProvider';
import type { RegradeWork } from '../../dataProvider/family';
import { FAMILY_LIMITS, REGRADE_ESSAY, RegradeStatus, type RegradeRow } from '../../domain/family';
import { dateTime } from '../../domain/format';

function Answer({ row, onSaved }: { row: RegradeRow; onSaved: () => void }) {
  const api = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      await api.answerRegrade(row.id, text.trim());
      notify('已答复，家长页面会显示您的答复', { type: 'success' });
      onSaved();
    } catch {
      // Shown by the http client.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 1 }} alignItems={{ sm: 'flex-start' }}>
      <TextField
        size="small"
        fullWidth
        multiline
        minRows={1}
        label="答复家长"
        placeholder="如：已重新查看，第 2 步列式有误，维持原判"
        value={text}
        onChange={(e) => setText(e.target.value.slice(0, FAMILY_LIMITS.answerMax))}
        inputProps={{ 'aria-label': `答复${row.studentName}` }}
      />
      <Button variant="contained" onClick={save} disabled={busy || !text.trim()} sx={{ flexShrink: 0 }}>
        答复
      </Button>
    </Stack>
  );
}

/** `studentId`: only that student's requests (one essay's screen). */
export function RegradePanel({ work, studentId }: { work: RegradeWork; studentId?: number | null }) {
  const api = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const key = ['regrades', work];
  const list = useQuery({ queryKey: key, queryFn: () => api.regrades(work), retry: false });
  const records = (list.data?.records ?? []).filter((r) => studentId === undefined || studentId === null || r.studentId === studentId);
  const open = records.filter((r) => r.status === RegradeStatus.open).length;
  if (!records.length) return null;
  return (
    <Box component="section" aria-label="复核申请" sx={{ mt: 2, p: 1.5, border: 1, borderColor: 'divider', borderRadius: 1 }}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        复核申请（待答复 {open}）
      </Typography>
      {open ? (
        <Alert severity="info" sx={{ my: 1 }}>
          家长在查看页面对以下题目或作文申请复核。需要改分时，请先在批改中修改，再写答复；答复会显示在家长的查看页面。
        </Alert>
      ) : null}
      <Stack spacing={1.5} sx={{ mt: 1 }}>
        {records.map((r) => (
          <Box key={r.id} data-testid={`regrade-${r.id}`} sx={{ borderTop: 1, borderColor: 'divider', pt: 1 }}>
            <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
              <Chip size="small" color={r.status === RegradeStatus.open ? 'warning' : 'success'} label={r.statusLabel} />
              <Typography variant="body2" sx={{ fontWeight: 500 }}>
                {r.studentName}（{r.studentNo}） · {r.sourceType === REGRADE_ESSAY.sourceType ? '作文' : `第 ${r.questionNo || '?'} 题`}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {dateTime(r.createdAt)}
              </Typography>
            </Stack>
            <Typography variant="body2" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
              原因：{r.reason}
            </Typography>
            {r.status === RegradeStatus.open ? (
              <Answer row={r} onSaved={() => queryClient.invalidateQueries({ queryKey: key })} />
            ) : (
              <Typography variant="body2" color="success.main" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
                {r.answeredByName} 答复：{r.answer}（{dateTime(r.answeredAt)}）
              </Typography>
            )}
          </Box>
        ))}
      </Stack>
    </Box>
  );
}
