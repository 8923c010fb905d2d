// The class tree: each grade with its classes and head counts; add, rename, delete a class;
// graduate a whole grade. Classes and grades come through the resources, so a save anywhere
// refreshes the tree.
import { useState } from 'react';
import {
  DeleteButton,
  RecordContextProvider,
  useDataProvider,
  useGetList,
  useNotify,
  useRefresh,
} from 'react-admin';
import type { RaRecord } from 'ra-core';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddOutlined from '@mui/icons-material/AddOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import SchoolOutlined from '@mui/icons-material/SchoolOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import type { AppDataProvider } from '../../dataProvider';
import { EmptyState } from '../../ui/EmptyState';
import type { ResourceConfig } from '../types';
import { FormDialog } from '../views/ResourceForm';
import { ClassInfoDialog } from './ClassInfo';

interface GradeRow extends RaRecord {
  gradeName: string;
  level: number;
  graduatedYear: number | null;
  classCount: number;
  studentCount: number;
}
interface ClassRow extends RaRecord {
  className: string;
  gradeId: number;
  studentCount: number;
  fullName: string;
}

function GraduateDialog({ grade, onClose }: { grade: GradeRow | undefined; onClose: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const thisYear = new Date().getFullYear();
  const [year, setYear] = useState(thisYear);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    if (!grade) return;
    setBusy(true);
    try {
      const result = await dataProvider.graduateGrade(Number(grade.id), year);
      notify(`${result.gradeName}已毕业，${result.studentCount} 名学生状态已改为已毕业`, { type: 'success' });
      refresh();
      onClose();
    } catch {
      // The http client showed the reason (e.g. already graduated).
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={!!grade} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{grade?.gradeName}毕业</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          毕业后，该年级 {grade?.studentCount ?? 0} 名学生的状态改为“已毕业”，年级不再出现在选择列表中，也不能再添加班级和学生。此操作不可撤销。
        </Alert>
        <TextField select label="毕业年份" value={year} onChange={(e) => setYear(Number(e.target.value))} fullWidth size="small">
          {[thisYear, thisYear - 1].map((y) => (
            <MenuItem key={y} value={y}>
              {y}年
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>取消</Button>
        <Button onClick={run} color="warning" variant="contained" disabled={busy}>
          确认毕业
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function ClassCard({ item, readOnly, onEdit, onShow }: { item: ClassRow; readOnly: boolean; onEdit: () => void; onShow: () => void }) {
  return (
    <Paper variant="outlined" sx={{ p: 1.5, width: 250, display: 'flex', flexDirection: 'column', gap: 0.5, '& .MuiButton-root': { whiteSpace: 'nowrap', minWidth: 0 } }}>
      <Typography sx={{ fontWeight: 600 }} noWrap title={item.className}>
        {item.className}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {item.studentCount} 名学生
      </Typography>
      <Stack direction="row" spacing={0.5} sx={{ mt: 0.5 }}>
        <Button size="small" startIcon={<VisibilityOutlined />} onClick={onShow} sx={{ minWidth: 0 }}>
          详情
        </Button>
        {!readOnly && (
          <>
            <Button size="small" startIcon={<EditOutlined />} onClick={onEdit} sx={{ minWidth: 0 }}>
              编辑
            </Button>
            <RecordContextProvider value={item}>
              <DeleteButton
                resource="classes"
                label="删除"
                mutationMode="pessimistic"
                redirect={false}
                confirmTitle="删除班级"
                confirmContent={`确定要删除“${item.fullName}”吗？班级里还有学生时不能删除。`}
                mutationOptions={{ onError: () => undefined }}
                sx={{ minWidth: 0 }}
              />
            </RecordContextProvider>
          </>
        )}
      </Stack>
    </Paper>
  );
}

export default function ClassTree({ config, readOnly }: { config: ResourceConfig; readOnly: boolean }) {
  const [showGraduated, setShowGraduated] = useState(false);
  const grades = useGetList<GradeRow>('grades', { pagination: { page: 1, perPage: 100 }, sort: { field: 'level', order: 'ASC' } });
  const classes = useGetList<ClassRow>('classes', { pagination: { page: 1, perPage: 1000 }, sort: { field: 'className', order: 'ASC' } });
  const [form, setForm] = useState<{ mode: 'create'; gradeId?: RaRecord['id'] } | { mode: 'edit'; id: RaRecord['id'] }>();
  const [shown, setShown] = useState<RaRecord['id']>();
  const [graduating, setGraduating] = useState<GradeRow>();
  if (grades.isPending || classes.isPending) return <LinearProgress sx={{ mt: 2 }} />;
  const visible = (grades.data ?? []).filter((g) => showGraduated || !g.graduatedYear);
  // Current grades first, then graduated ones, newest first.
  visible.sort((a, b) => Number(!!a.graduatedYear) - Number(!!b.graduatedYear) || (b.graduatedYear ?? 0) - (a.graduatedYear ?? 0) || a.level - b.level);
  return (
    <Box sx={{ mt: 2 }}>
      <Stack direction="row" spacing={1} alignItems="center" sx={{ mb: 2, flexWrap: 'wrap' }}>
        {!readOnly && (
          <Button variant="contained" startIcon={<AddOutlined />} onClick={() => setForm({ mode: 'create' })}>
            新增班级
          </Button>
        )}
        <FormControlLabel control={<Switch checked={showGraduated} onChange={(e) => setShowGraduated(e.target.checked)} />} label="显示已毕业年级" />
      </Stack>
      {visible.length === 0 && <EmptyState />}
      <Stack spacing={2}>
        {visible.map((grade) => {
          const own = (classes.data ?? []).filter((c) => String(c.gradeId) === String(grade.id));
          // A current grade's counts come from the class list the cards show, which a class saved
          // or deleted refreshes; the grades list is not refetched then and would stay stale.
          const counts = grade.graduatedYear ? grade : { classCount: own.length, studentCount: own.reduce((n, c) => n + c.studentCount, 0) };
          return (
            <Paper key={grade.id} variant="outlined" sx={{ p: 2 }} component="section" aria-label={grade.gradeName}>
              <Stack direction="row" alignItems="center" spacing={1.5} sx={{ mb: 1.5, flexWrap: 'wrap' }}>
                <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
                  {grade.gradeName}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {counts.classCount} 个班级 · {counts.studentCount} 名学生
                </Typography>
                {grade.graduatedYear && <Chip size="small" label={`${grade.graduatedYear}年毕业`} />}
                <Box sx={{ flex: 1 }} />
                {!readOnly && !grade.graduatedYear && (
                  <>
                    <Button size="small" startIcon={<AddOutlined />} onClick={() => setForm({ mode: 'create', gradeId: grade.id })}>
                      新增班级
                    </Button>
                    <Button size="small" color="warning" startIcon={<SchoolOutlined />} onClick={() => setGraduating(grade)}>
                      年级毕业
                    </Button>
                  </>
                )}
              </Stack>
              {own.length === 0 ? (
                <Typography variant="body2" color="text.secondary">
                  {grade.graduatedYear ? '已毕业年级的班级不再显示' : '暂无数据'}
                </Typography>
              ) : (
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5 }}>
                  {own.map((item) => (
                    <ClassCard key={item.id} item={item} readOnly={readOnly} onEdit={() => setForm({ mode: 'edit', id: item.id })} onShow={() => setShown(item.id)} />
                  ))}
                </Box>
              )}
            </Paper>
          );
        })}
      </Stack>
      <FormDialog
        config={config}
        target={form}
        onClose={() => setForm(undefined)}
        defaults={form?.mode === 'create' && form.gradeId ? { gradeId: form.gradeId } : undefined}
      />
      <ClassInfoDialog classId={shown} onClose={() => setShown(undefined)} />
      <GraduateDialog grade={graduating} onClose={() => setGraduating(undefined)} />
    </Box>
  );
}
