// The teacher's points for one item, saved the moment they are entered (on blur when changed,
// always on Enter), with 保存中…/已保存 or the server's Chinese reason beside the input. Shared by the
// by-student and by-question views of the review screen.
import { forwardRef, useCallback, useEffect, useState } from 'react';
import { useDataProvider } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../dataProvider';
import type { CorrectResultDetail, ReviewItem } from '../../dataProvider/correct';

export type SaveState = { state: 'saving' } | { state: 'saved' } | { state: 'error'; message: string };

/** Saves points and keeps each item's save state; the result, task and report refresh after. */
export function useSavePoints(taskId: number) {
  const api = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const [states, setStates] = useState<Record<string, SaveState>>({});
  const save = useCallback(
    async (resultId: number, no: number, score: number) => {
      const key = `${resultId}:${no}`;
      setStates((s) => ({ ...s, [key]: { state: 'saving' } }));
      try {
        const saved = await api.reviewCorrectResult(resultId, [{ no, score }]);
        queryClient.setQueryData<CorrectResultDetail>(['correctResult', resultId], (old) =>
          old ? { ...old, review: saved.review, score: saved.score, maxScore: saved.maxScore, needsReview: saved.needsReview } : old,
        );
        setStates((s) => ({ ...s, [key]: { state: 'saved' } }));
        void queryClient.invalidateQueries({ queryKey: ['correctTaskDetail', taskId] });
        void queryClient.invalidateQueries({ queryKey: ['correctReport', taskId] });
        void queryClient.invalidateQueries({ queryKey: ['correctTasks'] });
      } catch (error) {
        setStates((s) => ({ ...s, [key]: { state: 'error', message: (error as Error).message || '保存失败，请重试' } }));
      }
    },
    [api, queryClient, taskId],
  );
  return { save, stateOf: (resultId: number, no: number) => states[`${resultId}:${no}`] };
}

const shown = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

export interface PointsInputProps {
  item: ReviewItem;
  /** The teacher's points when given. */
  reviewed: number | undefined;
  state: SaveState | undefined;
  onSave: (score: number) => void;
  onFocus?: () => void;
  label: string;
}

export const PointsInput = forwardRef<HTMLInputElement, PointsInputProps>(function PointsInput({ item, reviewed, state, onSave, onFocus, label }, ref) {
  const current = shown(reviewed ?? item.score);
  const [draft, setDraft] = useState(current);
  useEffect(() => setDraft(current), [current]);
  const [invalid, setInvalid] = useState<string | null>(null);
  // Blur saves a change only; Enter always confirms, so typing the machine's own points and
  // pressing Enter clears a flagged item (待复核) instead of sending nothing.
  const commit = (confirm = false) => {
    const text = draft.trim();
    if (text === '' || (text === current && !confirm)) {
      setInvalid(null);
      return;
    }
    const score = Number(text);
    if (!Number.isFinite(score) || score < 0) {
      setInvalid('请输入不小于 0 的分数');
      return;
    }
    setInvalid(null);
    onSave(score);
  };
  const message = invalid ?? (state?.state === 'error' ? state.message : null);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', minWidth: 0 }}>
      <TextField
        size="small"
        variant="outlined"
        margin="none"
        fullWidth={false}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => commit()}
        onFocus={onFocus}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            commit(true);
          }
          // Arrow keys and J/K stay the screen's shortcuts: leave the input so they work at once.
          if (e.key === 'Escape') (e.target as HTMLInputElement).blur();
        }}
        inputRef={ref}
        error={message !== null}
        slotProps={{ htmlInput: { inputMode: 'decimal', 'aria-label': label, 'data-testid': 'points-input', 'data-no': item.no } }}
        sx={{ width: 84, flex: '0 0 84px' }}
      />
      <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
        / {item.max ?? '—'} 分
      </Typography>
      <Typography
        variant="caption"
        role="status"
        data-testid="save-state"
        color={message ? 'error' : state?.state === 'saved' ? 'success.main' : 'text.secondary'}
        sx={{ overflowWrap: 'anywhere', minWidth: 0 }}
      >
        {message ?? (state?.state === 'saving' ? '保存中…' : state?.state === 'saved' ? '已保存' : '')}
      </Typography>
    </Box>
  );
});
