// Nobody lost (批改报告): who a task has accounted for — 已批改, 待复核, 识别失败 with the reason and
// the page to look at, 未交 by name — and the ways back: upload more pages into the graded task
// (submitted again, only they are graded), replace a page that failed, and hand a page that
// named no student to one of the class's students with no page.
import { useRef, useState } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../dataProvider';
import type { TaskReport } from '../../domain/correct';
import { GradingStatus } from '../../domain/enums';
import { useCorrectFileImage } from './correctFileImage';

const ACCEPT = 'image/jpeg,image/png,application/pdf';

function Count({ label, value, color, testId }: { label: string; value: string; color?: 'warning' | 'error' | 'success'; testId: string }) {
  return <Chip label={`${label} ${value}`} color={color ?? 'default'} variant="outlined" data-testid={testId} />;
}

/** The page as uploaded, fetched with the teacher's session. */
function PageImage({ fileId, name, onClose }: { fileId: number; name: string; onClose: () => void }) {
  const image = useCorrectFileImage(fileId);
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle sx={{ overflowWrap: 'anywhere' }}>{name}</DialogTitle>
      <DialogContent>
        {image.data ? (
          <Box component="img" src={image.data} alt={name} data-testid="failed-page-image" sx={{ width: '100%', height: 'auto', display: 'block' }} />
        ) : (
          <Typography color="text.secondary">{image.isLoading ? '加载中…' : 'PDF 文件请在批改详情中查看'}</Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>关闭</Button>
      </DialogActions>
    </Dialog>
  );
}

export function TaskCoverage({ report }: { report: TaskReport }) {
  const api = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { coverage, task } = report;
  const [viewing, setViewing] = useState<{ fileId: number; name: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [choice, setChoice] = useState<Record<number, number>>({});
  const moreInput = useRef<HTMLInputElement>(null);
  const replaceInput = useRef<HTMLInputElement>(null);
  const replacing = useRef<number | null>(null);
  const grading = task.status === GradingStatus.grading;
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['correctReport', task.id] });
    void queryClient.invalidateQueries({ queryKey: ['correctTasks'] });
    void queryClient.invalidateQueries({ queryKey: ['correctTaskDetail', task.id] });
  };
  const run = async (label: string, work: () => Promise<unknown>, done?: string) => {
    setBusy(label);
    try {
      await work();
      if (done) notify(done, { type: 'success' });
    } catch {
      // The http client has shown the server's reason.
    } finally {
      setBusy(null);
      refresh();
    }
  };
  const uploadAll = (files: FileList | null, replaces?: number) =>
    files?.length &&
    run('upload', async () => {
      for (const file of Array.from(files)) await api.uploadCorrectFile(task.id, file, undefined, undefined, replaces);
    }, replaces ? '已替换，提交批改后重新批改这一页' : `已上传 ${files.length} 个文件，提交批改后只批改新上传的页面`);
  const unmatched = report.students.filter((s) => s.studentId === null);

  return (
    <Box component="section" aria-label="提交情况" sx={{ mt: 2, minWidth: 0 }} data-testid="task-coverage">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        <Count label="已批改" value={`${coverage.graded} 份`} color="success" testId="coverage-graded" />
        <Count label="待复核" value={`${coverage.review} 份`} color={coverage.review ? 'warning' : undefined} testId="coverage-review" />
        <Count label="识别失败" value={`${coverage.failed.length} 份`} color={coverage.failed.length ? 'error' : undefined} testId="coverage-failed" />
        <Count label="未交" value={`${coverage.absent.length} 人`} color={coverage.absent.length ? 'warning' : undefined} testId="coverage-absent" />
        {coverage.unmatched > 0 && <Count label="未匹配学生" value={`${coverage.unmatched} 份`} color="warning" testId="coverage-unmatched" />}
      </Box>

      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 1.5 }}>
        <Button variant="outlined" size="small" disabled={grading || busy !== null} onClick={() => moreInput.current?.click()} data-testid="upload-more">
          {busy === 'upload' ? '上传中…' : '补充上传'}
        </Button>
        {coverage.waiting > 0 && !grading && (
          <Button variant="contained" size="small" disabled={busy !== null} onClick={() => run('submit', () => api.submitCorrectTask(task.id), '已提交批改')} data-testid="submit-more">
            提交批改（新上传 {coverage.waiting} 份）
          </Button>
        )}
        <Typography variant="caption" color="text.secondary">
          {grading ? '正在批改新上传的页面，完成后报告自动更新' : '补交、重拍的页面上传后提交批改，只批改新页面，已复核的结果不变'}
        </Typography>
        <input ref={moreInput} type="file" accept={ACCEPT} multiple hidden data-testid="upload-more-input" onChange={(e) => { void uploadAll(e.target.files); e.target.value = ''; }} />
        <input
          ref={replaceInput}
          type="file"
          accept={ACCEPT}
          hidden
          data-testid="replace-input"
          onChange={(e) => {
            void uploadAll(e.target.files, replacing.current ?? undefined);
            e.target.value = '';
          }}
        />
      </Box>

      {coverage.failed.length > 0 && (
        <Box sx={{ mt: 2 }}>
          <Typography variant="subtitle2" component="h3" sx={{ fontWeight: 600 }}>
            识别失败（{coverage.failed.length}）
          </Typography>
          <Box component="ul" aria-label="识别失败的页面" sx={{ listStyle: 'none', m: 0, mt: 0.5, p: 0, display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
            {coverage.failed.map((f) => (
              <Box component="li" key={f.fileId} data-testid="failed-page" sx={{ border: 1, borderColor: 'error.light', borderRadius: 2, px: 1.5, py: 1, minWidth: 0 }}>
                <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                  {f.fileName}
                  {f.studentName && ` · ${f.studentName}`}
                </Typography>
                <Typography variant="caption" color="error" component="p" sx={{ overflowWrap: 'anywhere' }} data-testid="failed-reason">
                  {f.reason}
                </Typography>
                <Box sx={{ display: 'flex', gap: 1, mt: 0.5 }}>
                  <Button size="small" onClick={() => setViewing({ fileId: f.fileId, name: f.fileName })}>
                    查看图片
                  </Button>
                  <Button
                    size="small"
                    disabled={grading || busy !== null}
                    onClick={() => {
                      replacing.current = f.fileId;
                      replaceInput.current?.click();
                    }}
                  >
                    重新上传
                  </Button>
                </Box>
              </Box>
            ))}
          </Box>
        </Box>
      )}

      {unmatched.length > 0 && (
        <Box sx={{ mt: 2 }}>
          <Typography variant="subtitle2" component="h3" sx={{ fontWeight: 600 }}>
            未匹配学生的页面（{unmatched.length}）
          </Typography>
          <Box component="ul" aria-label="未匹配学生的页面" sx={{ listStyle: 'none', m: 0, mt: 0.5, p: 0, display: 'grid', gap: 1 }}>
            {unmatched.map((s) => (
              <Box component="li" key={s.resultId} data-testid="unmatched-result" sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, border: 1, borderColor: 'divider', borderRadius: 2, px: 1.5, py: 1 }}>
                <Typography variant="body2" sx={{ flex: '1 1 160px', minWidth: 0, overflowWrap: 'anywhere' }}>
                  {s.studentKey ? `识别号 ${s.studentKey}` : '未识别学生'} · {s.score ?? '—'}/{s.maxScore ?? '—'} 分
                </Typography>
                <TextField
                  select
                  size="small"
                  label="指定学生"
                  value={choice[s.resultId] ?? ''}
                  onChange={(e) => setChoice((c) => ({ ...c, [s.resultId]: Number(e.target.value) }))}
                  sx={{ minWidth: 140 }}
                  disabled={!coverage.absent.length}
                  helperText={coverage.absent.length ? undefined : '没有未交的学生可选'}
                >
                  {coverage.absent.map((a) => (
                    <MenuItem key={a.studentId} value={a.studentId}>
                      {a.name}
                      {a.studentNo ? `（${a.studentNo}）` : ''}
                    </MenuItem>
                  ))}
                </TextField>
                <Button
                  size="small"
                  variant="outlined"
                  disabled={!choice[s.resultId] || busy !== null}
                  onClick={() => run('assign', () => api.assignCorrectResult(s.resultId, choice[s.resultId]!), '已指定学生')}
                >
                  确定
                </Button>
              </Box>
            ))}
          </Box>
        </Box>
      )}

      {coverage.absent.length > 0 && (
        <Box sx={{ mt: 2 }}>
          <Typography variant="subtitle2" component="h3" sx={{ fontWeight: 600 }}>
            未交（{coverage.absent.length} 人）
          </Typography>
          <Box component="ul" aria-label="未交的学生" sx={{ listStyle: 'none', m: 0, mt: 0.5, p: 0, display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
            {coverage.absent.map((a) => (
              <Box component="li" key={a.studentId}>
                <Chip size="small" label={a.name} data-testid="absent-student" />
              </Box>
            ))}
          </Box>
        </Box>
      )}
      {viewing && <PageImage fileId={viewing.fileId} name={viewing.name} onClose={() => setViewing(null)} />}
    </Box>
  );
}
