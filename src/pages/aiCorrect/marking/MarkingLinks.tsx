// The report's 网上阅卷 section: each hand-marked question of an answer-sheet task with its full
// marks and progress — overall, 待仲裁 with 双评, and each marker's own 已阅 n/m — a 阅卷 button
// opening the marking screen for it, and 分配 giving it to teachers of the course (MarkersDialog).
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useDataProvider } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../../dataProvider';
import { MarkersDialog } from './MarkersDialog';

export function MarkingLinks({ taskId }: { taskId: number }) {
  const api = useDataProvider<AppDataProvider>();
  const questions = useQuery({ queryKey: ['markingQuestions', taskId], queryFn: () => api.markingQuestions(taskId), retry: false });
  const [assigning, setAssigning] = useState<number | null>(null);
  if (!questions.data?.length) return null;
  return (
    <Box component="section" sx={{ mt: 3, minWidth: 0 }}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        网上阅卷
      </Typography>
      <Box component="ul" aria-label="网上阅卷" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1, gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 320px), 1fr))' }}>
        {questions.data.map((q) => (
          <Box component="li" key={q.no} data-testid="marking-question" data-no={q.no} sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 1.5, display: 'grid', gap: 0.75, minWidth: 0 }}>
            <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
              <Box sx={{ minWidth: 0, flex: '1 1 150px' }}>
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  第 {q.no} 题 · {q.kind === 'essay' ? '作文' : '解答题'}
                  {q.double !== null && ' · 双评'}
                </Typography>
                <Typography variant="caption" color="text.secondary" data-testid="marking-question-progress">
                  满分 {q.fullMarks ?? '未设'} · 已阅 {q.marked}/{q.total}
                  {q.arbitration > 0 && (
                    <Box component="span" sx={{ color: 'warning.dark', fontWeight: 600 }}>
                      {' '}· 待仲裁 {q.arbitration}
                    </Box>
                  )}
                </Typography>
              </Box>
              <Box sx={{ display: 'flex', gap: 0.5, flexShrink: 0 }}>
                <Button size="small" onClick={() => setAssigning(q.no)} aria-label={`分配第 ${q.no} 题`}>
                  分配
                </Button>
                <Button variant={q.marked < q.total ? 'contained' : 'outlined'} size="small" component={Link} to={`/AICorrect/marking?taskId=${taskId}&no=${q.no}`}>
                  {q.arbitration > 0 ? '仲裁' : '阅卷'}
                </Button>
              </Box>
            </Box>
            {q.markers.length > 0 && (
              <Box component="ul" aria-label={`第 ${q.no} 题阅卷老师`} sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                {q.markers.map((m) => (
                  <Box component="li" key={m.teacherId} data-testid="marker-progress" sx={{ fontSize: 12, px: 0.75, py: 0.25, borderRadius: 1, bgcolor: 'action.hover' }}>
                    {m.name} 已阅 {m.marked}/{m.total}
                  </Box>
                ))}
              </Box>
            )}
          </Box>
        ))}
      </Box>
      <MarkersDialog taskId={taskId} no={assigning} onClose={() => setAssigning(null)} />
    </Box>
  );
}
