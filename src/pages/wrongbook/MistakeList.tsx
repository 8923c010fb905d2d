// A page of the class's wrongly answered questions: stem, type, sources, knowledge points and the
// error-rate bar with its counts (wrong / answered). Shared by the wrong-answer book and 学情组卷.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ClassMistake } from '../../dataProvider/wrongbook';
import { Stem } from '../Stem';
import { percent } from '../../domain/format';
import { rateColor, sourceLabel, typeLabel } from './labels';

export function MistakeList({
  records,
  offset,
  selected,
  onToggle,
  onOpen,
}: {
  records: ClassMistake[];
  offset: number;
  selected: ReadonlySet<number>;
  /** Without it the list only reads (the platform admin composes no papers). */
  onToggle?: (m: ClassMistake) => void;
  onOpen?: (m: ClassMistake) => void;
}) {
  return (
    <Stack spacing={1.5} data-testid="mistake-list">
      {records.map((m, i) => {
        const checked = selected.has(m.question.id);
        return (
          <Paper key={m.question.id} variant="outlined" sx={{ p: 1.5, borderRadius: 2, minWidth: 0, borderColor: checked ? 'primary.main' : undefined }} data-testid="mistake-item" data-question-id={m.question.id}>
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={{ xs: 1, md: 2 }} sx={{ minWidth: 0 }}>
              <Stack direction="row" spacing={1} sx={{ flex: 1, minWidth: 0, alignItems: 'flex-start' }}>
                {onToggle && (
                  <Checkbox checked={checked} onChange={() => onToggle(m)} sx={{ p: 0.5, mt: -0.5 }} slotProps={{ input: { 'aria-label': `选择第${offset + i + 1}题` } }} />
                )}
                <Box sx={{ minWidth: 0, flex: 1 }}>
                  <Stack direction="row" spacing={0.75} sx={{ mb: 0.5, flexWrap: 'wrap', rowGap: 0.5, alignItems: 'center' }}>
                    <Typography variant="body2" sx={{ fontWeight: 600 }}>
                      {offset + i + 1}.
                    </Typography>
                    <Chip size="small" color="primary" variant="outlined" label={typeLabel(m.question.type)} />
                    {m.sources.map((s) => (
                      <Chip key={s} size="small" label={sourceLabel(s)} />
                    ))}
                  </Stack>
                  <Typography
                    component="div"
                    variant="body2"
                    sx={{ lineHeight: 1.8, display: '-webkit-box', WebkitLineClamp: 4, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}
                  >
                    <Stem text={m.question.stem} />
                  </Typography>
                  {m.question.knowledgePoints.length > 0 && (
                    <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 0.5 }}>
                      知识点：{m.question.knowledgePoints.map((k) => k.name).join('、')}
                    </Typography>
                  )}
                </Box>
              </Stack>
              <Box sx={{ width: { xs: '100%', md: 220 }, flexShrink: 0, pl: { xs: 4.5, md: 0 }, boxSizing: 'border-box' }}>
                <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline' }}>
                  <Typography variant="body2" color="text.secondary">
                    错误率
                  </Typography>
                  <Typography sx={{ fontWeight: 700 }} color={`${rateColor(m.errorRate)}.main`} data-testid="error-rate">
                    {percent(m.errorRate)}
                  </Typography>
                </Stack>
                <LinearProgress variant="determinate" value={m.errorRate * 100} color={rateColor(m.errorRate)} sx={{ height: 8, borderRadius: 4, my: 0.5 }} />
                <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', columnGap: 1 }}>
                  <Typography variant="caption" color="text.secondary" data-testid="wrong-count" sx={{ whiteSpace: 'nowrap' }}>
                    错 {m.wrong} / 答 {m.answered} 人次
                  </Typography>
                  {onOpen && (
                    <Button size="small" onClick={() => onOpen(m)} sx={{ whiteSpace: 'nowrap', minWidth: 0, px: 0.5, ml: 'auto' }}>
                      做错的学生
                    </Button>
                  )}
                </Stack>
              </Box>
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}
