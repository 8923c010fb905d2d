// The upload box of a grading task, shared by answer sheets, homework and essays: many files at
// once by drag and drop, file picker or the phone's camera; one request per file, one at a time,
// each with its own progress bar and an overall one. HEIC/HEIF photos (iPhone default) are refused
// before sending, since the server reads only JPG, PNG and PDF; a file the server refuses keeps its
// reason and can be sent again. An answer-sheet photo is checked by the server as it arrives
// (corner marks, QR code, blur): one that will probably not be read says so before submitting. Files already on the server are listed from the task's detail, so
// nothing is lost on reload, and can be removed until the task is submitted.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useDataProvider } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import type { AppDataProvider } from '../../dataProvider';
import type { CorrectFile } from '../../dataProvider/correct';

export const HEIC_REASON = '不支持 HEIC/HEIF 格式的照片，请在相机设置中选择「兼容性最佳」或转为 JPG 后再上传';

/** HEIC/HEIF by type or name: browsers often leave an iPhone photo's type empty. */
export function isHeic(file: File): boolean {
  return /^image\/hei[cf](-sequence)?$/i.test(file.type) || /\.(heic|heif)$/i.test(file.name);
}

const RECOGNITION: Record<number, string> = { 0: '已上传', 2: '识别中', 3: '已识别', 4: '识别失败' };

export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

interface Pending {
  key: number;
  file: File;
  studentId: number | undefined;
  loaded: number;
  state: 'queued' | 'uploading' | 'failed';
  error?: string;
}

const rowSx = { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) auto', gap: 0.5, alignItems: 'center', border: 1, borderColor: 'divider', borderRadius: 1.5, p: 1, minWidth: 0 } as const;

export function Uploader(props: {
  taskId: number;
  files: CorrectFile[];
  /** The student the next files belong to (homework and essays); undefined for answer sheets. */
  studentId?: number;
  /** Homework and essays: files wait until a student is chosen. */
  needsStudent?: boolean;
  studentName?: (id: number) => string | undefined;
  /** Essays: the class, so each uploaded photo can be given its student before submission. */
  roster?: { id: number; name: string; studentNo: string }[];
  /** Submitted: files can be neither added nor removed. */
  locked: boolean;
  onChanged: () => void;
  /** Reports whether uploads are still under way, so the task is not submitted half sent. */
  onBusy?: (busy: boolean) => void;
}) {
  const { taskId, files, studentId, needsStudent, studentName, roster, locked, onChanged, onBusy } = props;
  const api = useDataProvider<AppDataProvider>();
  const [pending, setPending] = useState<Pending[]>([]);
  const [over, setOver] = useState(false);
  const [removing, setRemoving] = useState<number | null>(null);
  const nextKey = useRef(1);
  // Bytes of the current batch: finished files stay counted so the overall bar only moves forward.
  const [batch, setBatch] = useState({ total: 0, done: 0 });

  const blocked = locked || (needsStudent && !studentId);
  const add = useCallback(
    (list: FileList | File[]) => {
      const chosen = [...list];
      if (!chosen.length) return;
      const items: Pending[] = chosen.map((file) => ({
        key: nextKey.current++,
        file,
        studentId,
        loaded: 0,
        ...(isHeic(file) ? { state: 'failed' as const, error: HEIC_REASON } : { state: 'queued' as const }),
      }));
      setPending((p) => [...p, ...items]);
      const sent = items.filter((i) => i.state === 'queued').reduce((s, i) => s + i.file.size, 0);
      setBatch((b) => ({ ...b, total: b.total + sent }));
    },
    [studentId],
  );

  // One file at a time: a phone's uplink is the bottleneck, and the order stays the teacher's.
  const uploading = pending.find((p) => p.state === 'uploading');
  const next = pending.find((p) => p.state === 'queued');
  useEffect(() => {
    onBusy?.(Boolean(uploading || next));
  }, [uploading, next, onBusy]);
  useEffect(() => {
    if (uploading || !next) return;
    const key = next.key;
    const update = (change: Partial<Pending>) => setPending((p) => p.map((i) => (i.key === key ? { ...i, ...change } : i)));
    update({ state: 'uploading', loaded: 0, error: undefined });
    api.uploadCorrectFile(taskId, next.file, next.studentId, (loaded) => update({ loaded })).then(
      () => {
        setPending((p) => p.filter((i) => i.key !== key));
        setBatch((b) => ({ ...b, done: b.done + next.file.size }));
        onChanged();
      },
      (error: Error) => update({ state: 'failed', loaded: 0, error: error.message || '上传失败' }),
    );
  }, [api, taskId, uploading, next, onChanged]);
  // A finished batch starts the overall bar afresh.
  useEffect(() => {
    if (!uploading && !next && batch.total) setBatch({ total: 0, done: 0 });
  }, [uploading, next, batch.total]);

  const retry = (key: number) => {
    const item = pending.find((p) => p.key === key);
    if (!item) return;
    setPending((p) => p.map((i) => (i.key === key ? { ...i, state: 'queued', error: undefined } : i)));
    setBatch((b) => ({ ...b, total: b.total + item.file.size }));
  };
  const discard = (key: number) => setPending((p) => p.filter((i) => i.key !== key));
  const remove = async (fileId: number) => {
    setRemoving(fileId);
    try {
      await api.removeCorrectFile(fileId);
      onChanged();
    } catch {
      // The http client has shown why.
    } finally {
      setRemoving(null);
    }
  };

  const assign = async (fileId: number, value: string) => {
    try {
      await api.setCorrectFileStudent(fileId, value ? Number(value) : null);
      onChanged();
    } catch {
      // The http client has shown why.
    }
  };

  const sentNow = uploading?.loaded ?? 0;
  const overall = batch.total ? Math.min(100, ((batch.done + sentNow) / batch.total) * 100) : 0;
  const active = pending.filter((p) => p.state !== 'failed').length;

  return (
    <Box sx={{ display: 'grid', gap: 1.5, minWidth: 0 }}>
      {!locked && (
        <Box
          data-testid="upload-drop"
          onDragOver={(e) => {
            e.preventDefault();
            if (!blocked) setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={(e) => {
            e.preventDefault();
            setOver(false);
            if (!blocked) add(e.dataTransfer.files);
          }}
          sx={{
            border: 2,
            borderStyle: 'dashed',
            borderColor: over ? 'primary.main' : 'divider',
            bgcolor: over ? 'action.hover' : 'transparent',
            borderRadius: 2,
            p: 2,
            textAlign: 'center',
            display: 'grid',
            gap: 1,
            justifyItems: 'center',
          }}
        >
          <Typography variant="body2" color="text.secondary">
            {blocked ? '请先选择学生，再上传该学生的作答照片' : '把图片或 PDF 拖到这里，或点击下方按钮选择（可一次选择多个）'}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'center' }}>
            <Button variant="contained" component="label" startIcon={<CloudUploadIcon />} disabled={blocked}>
              选择文件
              <input
                hidden
                type="file"
                multiple
                accept="image/*,application/pdf"
                data-testid="upload-input"
                onChange={(e) => {
                  if (e.target.files) add(e.target.files);
                  e.target.value = '';
                }}
              />
            </Button>
            <Button variant="outlined" component="label" startIcon={<PhotoCameraIcon />} disabled={blocked}>
              拍照上传
              <input
                hidden
                type="file"
                multiple
                accept="image/*"
                capture="environment"
                onChange={(e) => {
                  if (e.target.files) add(e.target.files);
                  e.target.value = '';
                }}
              />
            </Button>
          </Box>
          <Typography variant="caption" color="text.secondary">
            支持 JPG、PNG 图片或 PDF 扫描件，单个文件不超过 50 MB
          </Typography>
        </Box>
      )}

      {active > 0 && (
        <Box data-testid="upload-overall" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <LinearProgress variant="determinate" value={overall} sx={{ flex: 1, height: 8, borderRadius: 4 }} aria-label="总上传进度" />
          <Typography variant="caption" sx={{ flexShrink: 0 }}>
            正在上传，剩余 {active} 个
          </Typography>
        </Box>
      )}

      {pending.length > 0 && (
        <Box component="ul" aria-label="上传中的文件" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }}>
          {pending.map((p) => (
            <Box component="li" key={p.key} sx={rowSx} data-testid="pending-file" data-state={p.state}>
              <Box sx={{ minWidth: 0 }}>
                <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                  {p.file.name}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {fileSize(p.file.size)}
                  {p.studentId && studentName?.(p.studentId) ? ` · ${studentName(p.studentId)}` : ''}
                  {p.state === 'uploading' ? ' · 上传中' : p.state === 'queued' ? ' · 等待上传' : ''}
                </Typography>
              </Box>
              <Box sx={{ display: 'flex', gap: 0.5 }}>
                {p.state === 'failed' && !isHeic(p.file) && (
                  <Button size="small" onClick={() => retry(p.key)}>
                    重试
                  </Button>
                )}
                {p.state !== 'uploading' && (
                  <Button size="small" color="inherit" onClick={() => discard(p.key)}>
                    移除
                  </Button>
                )}
              </Box>
              {p.state === 'failed' ? (
                <Typography variant="caption" color="error" sx={{ gridColumn: '1 / -1', overflowWrap: 'anywhere' }} data-testid="upload-error">
                  {p.error}
                </Typography>
              ) : (
                <LinearProgress
                  variant={p.state === 'queued' ? 'indeterminate' : 'determinate'}
                  value={p.file.size ? Math.min(100, (p.loaded / p.file.size) * 100) : 0}
                  sx={{ gridColumn: '1 / -1', height: 4, borderRadius: 2, opacity: p.state === 'queued' ? 0.4 : 1 }}
                  aria-label={`${p.file.name} 上传进度`}
                />
              )}
            </Box>
          ))}
        </Box>
      )}

      <Typography variant="subtitle2" component="h3">
        已上传 {files.length} 个文件
      </Typography>
      {files.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          暂无数据
        </Typography>
      ) : (
        <Box component="ul" aria-label="已上传的文件" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }}>
          {files.map((f) => (
            <Box component="li" key={f.id} sx={rowSx} data-testid="uploaded-file" data-file-id={f.id}>
              <Box sx={{ minWidth: 0 }}>
                <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }} data-testid="uploaded-name">
                  {f.fileName}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {fileSize(f.size)}
                  {f.studentId && studentName?.(f.studentId) ? ` · ${studentName(f.studentId)}` : ''} · {RECOGNITION[f.recognitionStatus] ?? '已上传'}
                </Typography>
                {f.error && (
                  // Before grading, the check made at upload: this page will probably not be read.
                  <Typography variant="caption" color="error" component="p" sx={{ overflowWrap: 'anywhere' }} data-testid="uploaded-error">
                    {f.recognitionStatus === 0 ? `这一页可能无法识别：${f.error}` : f.error}
                  </Typography>
                )}
              </Box>
              {!locked && (
                <Button size="small" color="error" disabled={removing === f.id} onClick={() => void remove(f.id)}>
                  删除
                </Button>
              )}
              {!locked && roster && (
                <TextField
                  select
                  size="small"
                  label="学生"
                  value={f.studentId ? String(f.studentId) : ''}
                  onChange={(e) => void assign(f.id, e.target.value)}
                  sx={{ gridColumn: '1 / -1', maxWidth: 320 }}
                  slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'file-student' } }}
                >
                  <MenuItem value="">未指定（按作文上的姓名对应）</MenuItem>
                  {roster.map((s) => (
                    <MenuItem key={s.id} value={String(s.id)}>
                      {s.name}（{s.studentNo}）
                    </MenuItem>
                  ))}
                </TextField>
              )}
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}
