// The report's 网上阅卷 section: each hand-marked question of an answer-sheet task with its full
// marks and progress, and a 阅卷 button opening the marking screen for it.
import { Link } from 'react-router-dom';
import { useDataProvider } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../../dataProvider';

export function MarkingLinks({ taskId }: { taskId: number }) {
  const api = useDataProvider<AppDataProvider>();
  const questions = useQuery({ queryKey: ['markingQuestions', taskId], queryFn: () => api.markingQuestions(taskId), retry: false });
  if (!questions.data?.length) return null;
  return (
    <Box component="section" sx={{ mt: 3, minWidth: 0 }}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        网上阅卷
      </Typography>
      <Box component="ul" aria-label="网上阅卷" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1, gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))' }}>
        {questions.data.map((q) => (
          <Box component="li" key={q.no} data-testid="marking-question" data-no={q.no} sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 1.5, display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                第 {q.no} 题 · {q.kind === 'essay' ? '作文' : '解答题'}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                满分 {q.fullMarks ?? '未设'} · 已阅 {q.marked}/{q.total}
              </Typography>
            </Box>
            <Button variant={q.marked < q.total ? 'contained' : 'outlined'} size="small" component={Link} to={`/AICorrect/marking?taskId=${taskId}&no=${q.no}`}>
              阅卷
            </Button>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
