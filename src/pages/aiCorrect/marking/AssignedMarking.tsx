// AI批改's 我的阅卷: tasks other teachers gave the caller questions of, each question with the
// caller's own progress and a 阅卷 button. Nothing else of those tasks shows here.
import { Link } from 'react-router-dom';
import { useDataProvider } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../../dataProvider';

export function AssignedMarking() {
  const api = useDataProvider<AppDataProvider>();
  const assigned = useQuery({ queryKey: ['assignedMarking'], queryFn: () => api.assignedMarking(), retry: false });
  if (!assigned.data?.length) return null;
  return (
    <Box component="section" sx={{ mt: 2, minWidth: 0 }}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        我的阅卷
      </Typography>
      <Box component="ul" aria-label="我的阅卷" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }}>
        {assigned.data.map((task) => (
          <Box component="li" key={task.taskId} data-testid="assigned-task" sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 1.5, minWidth: 0 }}>
            <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
              {task.title}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {task.owner}老师分配给您
            </Typography>
            <Box sx={{ mt: 1, display: 'flex', flexWrap: 'wrap', gap: 1 }}>
              {task.questions.map((q) => (
                <Button
                  key={q.no}
                  size="small"
                  variant={q.marked < q.total ? 'contained' : 'outlined'}
                  component={Link}
                  to={`/AICorrect/marking?taskId=${task.taskId}&no=${q.no}`}
                  data-testid="assigned-question"
                >
                  第 {q.no} 题{q.double ? '（双评）' : ''} 已阅 {q.marked}/{q.total}
                </Button>
              ))}
            </Box>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
