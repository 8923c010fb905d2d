// Which classes a teacher teaches, and which course in each: the current bindings with remove,
// and new ones by grade, classes and course (bindClassCourse keeps what exists).
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, useDataProvider, useGetList, useNotify, useRefresh } from 'react-admin';
import type { RaRecord } from 'ra-core';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import MuiButton from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import LinkOutlined from '@mui/icons-material/LinkOutlined';
import type { AppDataProvider } from '../../dataProvider';
import type { SchoolCourse } from '../../dataProvider/school';
import { classLabel } from '../../filters/widgets';

interface Binding {
  classId: number;
  className: string;
  gradeName: string;
  courseId: number;
  courseName: string;
}

function BindDialog({ record, onClose }: { record: RaRecord; onClose: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [bindings, setBindings] = useState<Binding[]>((record.classes as Binding[]) ?? []);
  const [gradeId, setGradeId] = useState('');
  const [classIds, setClassIds] = useState<string[]>([]);
  const [courseId, setCourseId] = useState('');
  const [busy, setBusy] = useState(false);
  const grades = useGetList('grades', { pagination: { page: 1, perPage: 100 }, filter: { graduatedYear: null }, sort: { field: 'level', order: 'ASC' } });
  const classes = useGetList('classes', { pagination: { page: 1, perPage: 1000 }, filter: gradeId ? { gradeId } : {}, sort: { field: 'className', order: 'ASC' } }, { enabled: !!gradeId });
  const courses: SchoolCourse[] = useQuery({ queryKey: ['coursesInSchool'], queryFn: () => dataProvider.coursesInSchool(), retry: false }).data ?? [];

  const add = async () => {
    setBusy(true);
    try {
      const wanted = classIds.map((classId) => ({ classId: Number(classId), courseId: Number(courseId) }));
      const { added } = await dataProvider.bindClassCourse(record.id, wanted);
      const course = courses.find((c) => String(c.courseId) === courseId);
      const fresh = classIds
        .map((id) => (classes.data ?? []).find((c) => String(c.id) === id))
        .filter((c): c is RaRecord => !!c)
        .map((c) => ({ classId: Number(c.id), className: c.className, gradeName: c.gradeName, courseId: Number(courseId), courseName: course?.courseName ?? '' }));
      setBindings((list) => [...list, ...fresh.filter((f) => !list.some((b) => b.classId === f.classId && b.courseId === f.courseId))]);
      notify(added ? `已新增 ${added} 个任教关系` : '这些任教关系已存在', { type: added ? 'success' : 'info' });
      setClassIds([]);
      refresh();
    } catch {
      // Shown by the http client.
    } finally {
      setBusy(false);
    }
  };
  const remove = async (binding: Binding) => {
    try {
      await dataProvider.removeTeacherFromClass(record.id, binding.classId, binding.courseId);
      setBindings((list) => list.filter((b) => !(b.classId === binding.classId && b.courseId === binding.courseId)));
      refresh();
    } catch {
      // Shown by the http client.
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>任教班级与课程 · {record.name}</DialogTitle>
      <DialogContent>
        <Typography variant="subtitle2" sx={{ mb: 1 }}>
          当前任教
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 3 }}>
          {bindings.length === 0 && (
            <Typography variant="body2" color="text.secondary">
              暂无数据
            </Typography>
          )}
          {bindings.map((b) => (
            <Chip key={`${b.classId}-${b.courseId}`} label={`${classLabel(b.gradeName, b.className)} ${b.courseName}`} onDelete={() => remove(b)} />
          ))}
        </Box>
        <Typography variant="subtitle2" sx={{ mb: 1 }}>
          添加任教
        </Typography>
        <Stack spacing={2}>
          <TextField select size="small" label="年级" value={gradeId} onChange={(e) => { setGradeId(e.target.value); setClassIds([]); }}>
            {(grades.data ?? []).map((g) => (
              <MenuItem key={g.id} value={String(g.id)}>
                {g.gradeName}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label="班级（可多选）"
            value={classIds}
            disabled={!gradeId}
            onChange={(e) => setClassIds(e.target.value as unknown as string[])}
            slotProps={{ select: { multiple: true, renderValue: (v) => (v as string[]).map((id) => (classes.data ?? []).find((c) => String(c.id) === id)?.className).join('、') } }}
          >
            {(classes.data ?? []).map((c) => (
              <MenuItem key={c.id} value={String(c.id)}>
                {c.className}
              </MenuItem>
            ))}
          </TextField>
          <TextField select size="small" label="课程" value={courseId} onChange={(e) => setCourseId(e.target.value)}>
            {courses.length === 0 && (
              <MenuItem value="" disabled>
                暂无数据
              </MenuItem>
            )}
            {courses.map((c) => (
              <MenuItem key={c.courseId} value={String(c.courseId)}>
                {c.courseName}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      </DialogContent>
      <DialogActions>
        <MuiButton onClick={onClose}>关闭</MuiButton>
        <MuiButton variant="contained" onClick={add} disabled={busy || classIds.length === 0 || !courseId}>
          添加
        </MuiButton>
      </DialogActions>
    </Dialog>
  );
}

export function BindClassesButton({ record }: { record: RaRecord }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button label="任教" onClick={() => setOpen(true)}>
        <LinkOutlined />
      </Button>
      {open && <BindDialog record={record} onClose={() => setOpen(false)} />}
    </>
  );
}
