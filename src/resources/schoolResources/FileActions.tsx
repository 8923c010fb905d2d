// The custom parts of the resource library: upload with progress, preview of images and PDFs
// (fetched with the session header, shown from a blob URL), download, delete when allowed.
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, DeleteButton, useDataProvider, useNotify, usePermissions, useRefresh } from 'react-admin';
import type { RaRecord } from 'ra-core';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import MuiButton from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import type { AppDataProvider } from '../../dataProvider';
import type { Permissions } from '../../authProvider';
import { NAME_MAX_LENGTH, RESOURCE_TYPES, UPLOAD_MAX_BYTES } from '../../domain/school';
import { formatBytes } from '../views/fields';

const PREVIEW = '/api/vesta/resource/preview';
const DOWNLOAD = '/api/vesta/resource/download';
const UPLOAD = '/api/vesta/resource/upload';
const ADMIN_ROLES = ['schoolAdmin', 'mpSchoolAdmin'];
const NO_CHOICES: Choice[] = [];

export function PreviewButton({ record }: { record: RaRecord }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [open, setOpen] = useState(false);
  // Read on each opening, never again while it shows; a file that cannot be read closes the dialog.
  const file = useQuery({ queryKey: ['filePreview', record.id], queryFn: () => dataProvider.fileBlob(PREVIEW, { resourceId: record.id }), enabled: open, retry: false, gcTime: 0, refetchOnWindowFocus: false });
  useEffect(() => {
    if (file.isError) setOpen(false);
  }, [file.isError]);
  const blob = open ? file.data : undefined;
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!blob) return setUrl(undefined);
    const href = URL.createObjectURL(blob);
    setUrl(href);
    return () => URL.revokeObjectURL(href);
  }, [blob]);
  if (!record.previewable) return null;
  const isPdf = String(record.mime).includes('pdf');
  return (
    <>
      <Button label="预览" onClick={() => setOpen(true)}>
        <VisibilityOutlined />
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="lg" fullWidth>
        <DialogTitle sx={{ wordBreak: 'break-all' }}>{String(record.title)}</DialogTitle>
        <DialogContent sx={{ minHeight: 300, display: 'grid', placeItems: 'center' }}>
          {!url && <LinearProgress sx={{ width: '60%' }} />}
          {url && isPdf && <Box component="iframe" title={`预览：${record.title}`} src={url} sx={{ width: '100%', height: '75vh', border: 0 }} />}
          {url && !isPdf && <Box component="img" alt={String(record.title)} src={url} sx={{ maxWidth: '100%', maxHeight: '75vh', objectFit: 'contain' }} />}
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={() => setOpen(false)}>关闭</MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}

export function DownloadButton({ record }: { record: RaRecord }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      dataProvider.saveFile(await dataProvider.fileBlob(DOWNLOAD, { resourceId: record.id }), String(record.fileName));
    } catch {
      // Shown by the http client.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button label="下载" onClick={run} disabled={busy}>
      <DownloadOutlined />
    </Button>
  );
}

export function DeleteIfAllowed({ record }: { record: RaRecord }) {
  if (!record.canDelete) return null;
  return (
    <DeleteButton
      label="删除"
      mutationMode="pessimistic"
      redirect={false}
      confirmTitle="删除资源"
      confirmContent={`确定要删除“${record.title}”吗？此操作不可恢复。`}
      mutationOptions={{ onError: () => undefined }}
    />
  );
}

interface Choice {
  value: string;
  label: string;
}

/** Grades and subjects the active role may list; part-time staff pick neither. */
function useUploadChoices(open: boolean) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const { permissions } = usePermissions<Permissions>();
  const role = permissions?.activeRole;
  const canPick = !!role && role !== 'parttime';
  const grades = useQuery({
    queryKey: ['uploadGrades', role],
    queryFn: (): Promise<Choice[]> =>
      role && ADMIN_ROLES.includes(role)
        ? dataProvider.schoolOverview().then((o) => o.grades.filter((g) => !g.graduatedYear).map((g) => ({ value: String(g.gradeId), label: g.gradeName })))
        : dataProvider.gradesInSchool({}).then((list) => list.map((g) => ({ value: String(g.id), label: g.name }))),
    enabled: open && canPick,
    retry: false,
  });
  const subjects = useQuery({
    queryKey: ['uploadSubjects'],
    queryFn: (): Promise<Choice[]> =>
      dataProvider.coursesInSchool().then((list) => [...new Map(list.map((c) => [String(c.subjectId), { value: String(c.subjectId), label: c.subjectName || c.courseName }])).values()]),
    enabled: open && canPick,
    retry: false,
  });
  return { grades: grades.data ?? NO_CHOICES, subjects: subjects.data ?? NO_CHOICES, canPick };
}

function Select({ label, value, onChange, choices, required }: { label: string; value: string; onChange: (v: string) => void; choices: Choice[]; required?: boolean }) {
  return (
    <TextField select size="small" label={label} value={value} onChange={(e) => onChange(e.target.value)} required={required} fullWidth>
      {!required && <MenuItem value="">不限</MenuItem>}
      {choices.map((c) => (
        <MenuItem key={c.value} value={c.value}>
          {c.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

export function UploadButton() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File>();
  const [title, setTitle] = useState('');
  const [type, setType] = useState<string>(RESOURCE_TYPES[0]);
  const [gradeId, setGradeId] = useState('');
  const [subjectId, setSubjectId] = useState('');
  const [percent, setPercent] = useState<number>();
  const { grades, subjects, canPick } = useUploadChoices(open);
  const tooLarge = !!file && file.size > UPLOAD_MAX_BYTES;
  const titleTooLong = title.trim().length > NAME_MAX_LENGTH;
  const close = () => {
    if (percent !== undefined) return;
    setOpen(false);
    setFile(undefined);
    setTitle('');
  };
  const upload = async () => {
    if (!file) return;
    setPercent(0);
    try {
      await dataProvider.uploadFile(UPLOAD, file, { type, title: title.trim() || undefined, gradeId: gradeId || undefined, subjectId: subjectId || undefined }, (loaded, total) =>
        setPercent(total ? Math.round((loaded / total) * 100) : 0),
      );
      notify(`已上传“${title.trim() || file.name}”`, { type: 'success' });
      setPercent(undefined);
      setOpen(false);
      setFile(undefined);
      setTitle('');
      refresh();
    } catch {
      setPercent(undefined);
    }
  };
  return (
    <>
      <Button label="上传资源" onClick={() => setOpen(true)} variant="contained">
        <CloudUploadOutlined />
      </Button>
      <Dialog open={open} onClose={close} maxWidth="sm" fullWidth>
        <DialogTitle>上传资源</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <MuiButton component="label" variant="outlined" startIcon={<CloudUploadOutlined />} disabled={percent !== undefined}>
              {file ? '重新选择文件' : '选择文件'}
              <input
                type="file"
                hidden
                aria-label="资源文件"
                onChange={(e) => {
                  const chosen = e.target.files?.[0];
                  e.target.value = '';
                  if (chosen) setFile(chosen);
                }}
              />
            </MuiButton>
            {file && (
              <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
                {file.name}（{formatBytes(file.size)}）
              </Typography>
            )}
            {tooLarge && <Alert severity="error">文件过大，单个文件不能超过50MB</Alert>}
            <TextField
              size="small"
              label="标题"
              value={title}
              onChange={(e) => setTitle(e.target.value)}
              placeholder="不填则使用文件名"
              error={titleTooLong}
              helperText={titleTooLong ? `标题长度不能超过${NAME_MAX_LENGTH}个字符` : undefined}
              fullWidth
            />
            <Select label="类型" value={type} onChange={setType} choices={RESOURCE_TYPES.map((t) => ({ value: t, label: t }))} required />
            {canPick && <Select label="年级" value={gradeId} onChange={setGradeId} choices={grades} />}
            {canPick && <Select label="学科" value={subjectId} onChange={setSubjectId} choices={subjects} />}
            {percent !== undefined && (
              <Box>
                <LinearProgress variant={percent < 100 ? 'determinate' : 'indeterminate'} value={percent} aria-label="上传进度" />
                <Typography variant="body2" sx={{ mt: 0.5 }}>
                  {percent < 100 ? `正在上传… ${percent}%` : '上传完成，正在保存…'}
                </Typography>
              </Box>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={close} disabled={percent !== undefined}>
            取消
          </MuiButton>
          <MuiButton variant="contained" onClick={upload} disabled={!file || tooLarge || titleTooLong || percent !== undefined}>
            上传
          </MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}
