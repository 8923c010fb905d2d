// 相同作答 in the by-question review: each group of students whose fill-in or short answer reads the
// same (「x=3」 ×12), marked at once — 对 (full marks), 错 (0) or typed points for every student of
// the group, each saved as a review, so the report follows at once. A student is taken out of a
// group from their own row (移出分组) and marked alone; a paper the decision changed can be put back
// (撤销) from its row. Each group shows a few students' crops of the question, to check the reading.
import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AnswerGroup } from './answerGroups';

/** How many students' crops a group shows. */
const CROPS = 3;

function GroupRow({ group, max, given, onDecide, crop }: { group: AnswerGroup; max: number | null; given: number | null; onDecide: (score: number) => Promise<void>; crop: (resultId: number) => ReactNode }) {
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const decide = async (score: number) => {
    if (max !== null && score > max) return setError(`不能超过满分 ${max} 分`);
    if (!Number.isInteger(score * 2)) return setError('分数只能是整数或 0.5 分');
    setError('');
    setBusy(true);
    try {
      await onDecide(score);
      setDraft('');
    } catch (e) {
      setError((e as Error).message || '保存失败，请重试');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box component="li" data-testid="answer-group" sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', py: 0.75, borderTop: 1, borderColor: 'divider' }}>
      <Typography variant="body2" sx={{ flex: '1 1 140px', minWidth: 0, overflowWrap: 'anywhere' }}>
        <Box component="span" sx={{ fontWeight: 600 }}>
          {group.shown ? `「${group.shown}」` : '未作答'}
        </Box>{' '}
        ×{group.resultIds.length}
        {given !== null && (
          <Typography component="span" variant="caption" color="success.main" data-testid="answer-group-given">
            {' '}
            · 已给 {given} 分
          </Typography>
        )}
      </Typography>
      <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'center', flexWrap: 'wrap' }}>
        <Button size="small" variant="outlined" color="success" disabled={busy || max === null} onClick={() => void decide(max!)}>
          对
        </Button>
        <Button size="small" variant="outlined" color="error" disabled={busy} onClick={() => void decide(0)}>
          错
        </Button>
        <TextField
          size="small"
          variant="outlined"
          placeholder="给分"
          value={draft}
          disabled={busy}
          onChange={(e) => setDraft(e.target.value.replace(/[^\d.]/g, ''))}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && draft !== '') {
              e.preventDefault();
              void decide(Number(draft));
            }
          }}
          slotProps={{ htmlInput: { inputMode: 'decimal', maxLength: 5, 'aria-label': `「${group.shown}」全组给分` } }}
          sx={{ width: 76, '& input': { py: 0.5 } }}
        />
      </Box>
      <Box sx={{ flexBasis: '100%', display: 'grid', gap: 0.75, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: `repeat(${CROPS}, minmax(0, 1fr))` } }} data-testid="answer-group-crops">
        {group.resultIds.slice(0, CROPS).map((id) => (
          <Box key={id} sx={{ minWidth: 0 }}>
            {crop(id)}
          </Box>
        ))}
      </Box>
      {error && (
        <Typography variant="caption" color="error" role="alert" sx={{ flexBasis: '100%' }}>
          {error}
        </Typography>
      )}
    </Box>
  );
}

export function AnswerGroupsPanel({ groups, max, givenOf, onDecide, crop }: {
  groups: AnswerGroup[];
  max: number | null;
  /** The points every student of the group has, when they all have the same. */
  givenOf: (group: AnswerGroup) => number | null;
  onDecide: (group: AnswerGroup, score: number) => Promise<void>;
  /** One student's crop of the question. */
  crop: (resultId: number) => ReactNode;
}) {
  if (!groups.length) return null;
  return (
    <Box component="section" aria-label="相同作答" sx={{ mt: 1.5, border: 1, borderColor: 'divider', borderRadius: 2, px: 1.5, pt: 1, pb: 0.5 }}>
      <Typography variant="subtitle2" sx={{ fontWeight: 600 }}>
        相同作答（一次给整组判分）
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, mt: 0.5, p: 0 }}>
        {groups.map((g) => (
          <GroupRow key={g.key} group={g} max={max} given={givenOf(g)} onDecide={(score) => onDecide(g, score)} crop={crop} />
        ))}
      </Box>
    </Box>
  );
}
