// 分配阅卷 for one hand-marked question (task owner): the teachers of the task's course in its class
// to split its papers among, and 双评 with the points two marks may differ by before 仲裁.
import { useState } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../../dataProvider';
import type { MarkerSetup } from '../../../domain/marking';

function MarkersForm({ taskId, no, setup, onClose }: { taskId: number; no: number; setup: MarkerSetup; onClose: () => void }) {
  const api = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const current = setup.questions.find((q) => q.no === no);
  const [chosen, setChosen] = useState<number[]>(current?.teacherIds ?? []);
  const [double, setDouble] = useState(current?.double !== null && current?.double !== undefined);
  const [threshold, setThreshold] = useState(String(current?.double ?? 2));
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      await api.saveMarkers({ taskId, no, teacherIds: chosen, double: double ? Number(threshold) : null });
      notify(chosen.length ? `第 ${no} 题已分配给 ${chosen.length} 位老师${double ? '（双评）' : ''}` : `第 ${no} 题由您自己阅`, { type: 'success' });
      void queryClient.invalidateQueries({ queryKey: ['markingQuestions', taskId] });
      void queryClient.invalidateQueries({ queryKey: ['markerSetup', taskId] });
      onClose();
    } catch {
      // The http client shows the server's reason.
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <DialogContent sx={{ display: 'grid', gap: 1.5 }}>
        <Typography variant="body2" color="text.secondary">
          试卷在所选老师之间平均分配，每位老师只看到分给自己的试卷；不选则由您自己阅。
        </Typography>
        {setup.candidates.length === 0 ? (
          <Typography variant="body2">本班没有其他任教本课程的老师。</Typography>
        ) : (
          <Box role="group" aria-label="阅卷老师" sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2 }}>
            {setup.candidates.map((c) => (
              <FormControlLabel
                key={c.teacherId}
                label={c.name}
                control={
                  <Checkbox
                    checked={chosen.includes(c.teacherId)}
                    onChange={(e) => setChosen((all) => (e.target.checked ? [...all, c.teacherId] : all.filter((id) => id !== c.teacherId)))}
                  />
                }
              />
            ))}
          </Box>
        )}
        <FormControlLabel control={<Switch checked={double} onChange={(e) => setDouble(e.target.checked)} />} label="双评（每份试卷由两位老师各自打分）" />
        {double && (
          <TextField
            size="small"
            label="双评分差（分）"
            value={threshold}
            onChange={(e) => setThreshold(e.target.value.replace(/[^\d.]/g, ''))}
            helperText="两次打分相差不超过这个分数时取平均分，否则交您仲裁"
            slotProps={{ htmlInput: { inputMode: 'decimal', maxLength: 5, 'aria-label': '双评分差' } }}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>取消</Button>
        <Button variant="contained" disabled={busy || (double && (chosen.length < 2 || threshold === ''))} onClick={() => void save()}>
          保存
        </Button>
      </DialogActions>
    </>
  );
}

export function MarkersDialog({ taskId, no, onClose }: { taskId: number; no: number | null; onClose: () => void }) {
  const api = useDataProvider<AppDataProvider>();
  const setup = useQuery({ queryKey: ['markerSetup', taskId], queryFn: () => api.markerSetup(taskId), enabled: no !== null, retry: false });
  return (
    <Dialog open={no !== null} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>分配阅卷：第 {no} 题</DialogTitle>
      {!setup.data || no === null ? (
        <DialogContent>
          <LinearProgress />
        </DialogContent>
      ) : (
        <MarkersForm key={no} taskId={taskId} no={no} setup={setup.data} onClose={onClose} />
      )}
    </Dialog>
  );
}
