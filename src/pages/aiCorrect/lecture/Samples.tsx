// 讲评样例 on the projector: the papers the teacher picked for a question, each the crop of that
// question from the student's scan, labelled 样例A, 样例B… and never named; and the picker, which
// lists every graded paper's crop of the question (most points first, numbered, no names either:
// the picker opens on the projector too) and saves the choice in the order clicked.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../../dataProvider';
import { SAMPLES_PER_QUESTION, sampleLabel, type LectureSample, type SamplePaper } from '../../../domain/lecture';
import { EmptyState } from '../../../ui/EmptyState';
import { ScanOverlay } from '../ScanOverlay';

const pointsText = (p: Pick<SamplePaper, 'score' | 'max'>) => (p.score === null ? '未评分' : p.max === null ? `${p.score} 分` : `${p.score} / ${p.max} 分`);

/** One paper's crop of its question, drawn with the verdict the teacher sees. */
function Crop({ paper, height, label }: { paper: SamplePaper; height: number; label: string }) {
  const item = { no: paper.no, given: paper.given, score: paper.score, max: paper.max, needsReview: paper.needsReview, reasons: [] };
  return <ScanOverlay page={paper.page} items={[item]} review={{}} crop={[paper.no]} cropHeight={height} label={label} />;
}

/** The chosen samples of the question shown, side by side (one column on a phone). */
export function SampleStrip({ samples }: { samples: LectureSample[] }) {
  if (!samples.length) return null;
  return (
    <Box component="section" aria-label="样例" sx={{ display: 'grid', gap: { xs: 1.5, sm: 3 }, gridTemplateColumns: { xs: '1fr', md: `repeat(${Math.min(samples.length, 2)}, minmax(0, 1fr))` } }}>
      {samples.map((s) => (
        <Box key={s.resultId} data-testid="lecture-sample" sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: { xs: 1, sm: 2 }, minWidth: 0 }}>
          <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', gap: 2, mb: 1 }}>
            <Typography sx={{ fontSize: { xs: 22, sm: 32 }, fontWeight: 700 }}>{s.label}</Typography>
            <Typography sx={{ fontSize: { xs: 16, sm: 24 }, color: 'text.secondary' }}>{pointsText(s)}</Typography>
          </Box>
          <Crop paper={s} height={280} label={`${s.label} 第 ${s.no} 题作答`} />
        </Box>
      ))}
    </Box>
  );
}

/** Picks up to SAMPLES_PER_QUESTION papers for question `no`; the order clicked is A, B, … */
export function SamplePicker({ taskId, no, chosen, onClose, onSaved }: { taskId: number; no: number; chosen: LectureSample[]; onClose: () => void; onSaved: (samples: LectureSample[]) => void }) {
  const api = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const candidates = useQuery({ queryKey: ['lectureCandidates', taskId, no], queryFn: () => api.lectureCandidates(taskId, no), retry: false });
  const [picked, setPicked] = useState<number[]>(() => chosen.map((s) => s.resultId));
  const [saving, setSaving] = useState(false);
  const papers = candidates.data?.papers;
  const toggle = (id: number) =>
    setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : p.length >= SAMPLES_PER_QUESTION ? p : [...p, id]));
  const save = async () => {
    setSaving(true);
    try {
      const { samples } = await api.saveLectureSamples(taskId, no, picked);
      notify(picked.length ? '样例已保存' : '已清除本题样例', { type: 'success' });
      onSaved(samples);
    } catch {
      // The http client has shown the server's message.
    } finally {
      setSaving(false);
    }
  };
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby="sample-picker-title">
      <DialogTitle id="sample-picker-title">选择第 {no} 题的样例</DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          最多选 {SAMPLES_PER_QUESTION} 份，按点选顺序显示为样例A、样例B……；投影上不显示学生姓名。已选 {picked.length} 份。
        </Typography>
        {candidates.isError ? (
          <EmptyState text="无法读取作答原图" />
        ) : !papers ? (
          <LinearProgress />
        ) : !papers.length ? (
          <EmptyState text="这道题没有可用的作答原图（批改时未保存扫描页面）" />
        ) : (
          <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            {papers.map((p, i) => {
              const at = picked.indexOf(p.resultId);
              return (
                <Box
                  key={p.resultId}
                  data-testid="sample-candidate"
                  sx={{ border: 2, borderColor: at >= 0 ? 'primary.main' : 'divider', borderRadius: 2, p: 1, cursor: 'pointer', minWidth: 0 }}
                  onClick={() => toggle(p.resultId)}
                >
                  <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                    <Checkbox
                      size="small"
                      checked={at >= 0}
                      onClick={(e) => e.stopPropagation()}
                      onChange={() => toggle(p.resultId)}
                      disabled={at < 0 && picked.length >= SAMPLES_PER_QUESTION}
                      slotProps={{ input: { 'aria-label': `第 ${i + 1} 份作答` } }}
                    />
                    <Typography variant="body2" sx={{ flex: 1 }}>
                      第 {i + 1} 份 · {pointsText(p)}
                    </Typography>
                    {at >= 0 && (
                      <Typography variant="body2" color="primary" sx={{ fontWeight: 600 }}>
                        {sampleLabel(at)}
                      </Typography>
                    )}
                  </Box>
                  <Crop paper={p} height={140} label={`第 ${i + 1} 份作答`} />
                </Box>
              );
            })}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>取消</Button>
        <Button variant="contained" onClick={save} disabled={saving || !papers}>
          {saving ? '正在保存…' : '保存样例'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
