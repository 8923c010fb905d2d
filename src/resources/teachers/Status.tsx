// 停用 / 离职 / 恢复在职 of a teacher. 离职 hands every class and course over (a successor each, or
// one for all), and her 班主任 classes too; her homework, grading and logs keep her name.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, useDataProvider, useNotify, useRefresh } from 'react-admin';
import type { RaRecord } from 'ra-core';
import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import MuiButton from '@mui/material/Button';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import PersonOffOutlined from '@mui/icons-material/PersonOffOutlined';
import HowToRegOutlined from '@mui/icons-material/HowToRegOutlined';
import type { AppDataProvider } from '../../dataProvider';
import type { SchoolTeacher } from '../../dataProvider/roles';
import { TeacherStatus } from '../../domain/roles';
import { classLabel } from '../../filters/widgets';

const key = (classId: number, courseId: number) => `${classId}-${courseId}`;

function SuccessorPicker({ label, value, onChange, teachers, allowNone }: { label: string; value: string; onChange: (v: string) => void; teachers: SchoolTeacher[]; allowNone?: boolean }) {
  return (
    <TextField select size="small" fullWidth label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      {allowNone && <MenuItem value="none">暂不指定</MenuItem>}
      {teachers.map((t) => (
        <MenuItem key={t.teacherId} value={String(t.teacherId)}>
          {t.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

function LeaveDialog({ record, onClose }: { record: RaRecord; onClose: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [status, setStatus] = useState<TeacherStatus>(TeacherStatus.left);
  const [picked, setPicked] = useState<Record<string, string>>({});
  const [heads, setHeads] = useState<Record<number, string>>({});
  const [busy, setBusy] = useState(false);
  const held = useQuery({ queryKey: ['teacherRoles', record.id], queryFn: () => dataProvider.teacherRoles(record.id), retry: false });
  const teachers = useQuery({ queryKey: ['schoolTeachers'], queryFn: () => dataProvider.schoolTeachers(), retry: false });
  const others = (teachers.data ?? []).filter((t) => String(t.teacherId) !== String(record.id));
  const classes = held.data?.classes ?? [];
  const headed = held.data?.roles.find((r) => r.role === 'headTeacher')?.scopes ?? [];
  const leaving = status === TeacherStatus.left;
  const complete = !leaving || classes.every((c) => picked[key(c.classId, c.courseId)]);

  const everyone = (teacherId: string) => {
    setPicked(Object.fromEntries(classes.map((c) => [key(c.classId, c.courseId), teacherId])));
    setHeads(Object.fromEntries(headed.map((h) => [h.classId!, teacherId])));
  };

  const save = async () => {
    setBusy(true);
    try {
      const handovers = classes
        .filter((c) => picked[key(c.classId, c.courseId)])
        .map((c) => ({ classId: c.classId, courseId: c.courseId, toTeacherId: Number(picked[key(c.classId, c.courseId)]) }));
      const headTeachers = leaving ? headed.map((h) => ({ classId: h.classId!, toTeacherId: heads[h.classId!] && heads[h.classId!] !== 'none' ? Number(heads[h.classId!]) : null })) : [];
      notify(await dataProvider.setTeacherStatus({ teacherId: Number(record.id), status, handovers, headTeachers }), { type: 'success' });
      refresh();
      onClose();
    } catch {
      // Shown by the http client.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>停用或离职 · {record.name}</DialogTitle>
      <DialogContent>
        <RadioGroup row value={String(status)} onChange={(e) => setStatus(Number(e.target.value) as TeacherStatus)}>
          <FormControlLabel value={String(TeacherStatus.left)} control={<Radio />} label="离职" />
          <FormControlLabel value={String(TeacherStatus.disabled)} control={<Radio />} label="停用" />
        </RadioGroup>
        <Alert severity="info" sx={{ my: 1 }}>
          {leaving
            ? '离职后账号不能登录，已登录的设备立即退出；任教班级交给接任教师，年级组长等任命一并免去。其布置的作业、批改和考试记录保留其姓名。'
            : '停用后账号不能登录，已登录的设备立即退出；任教班级和任命保持不变，可随时恢复在职。'}
        </Alert>
        {!held.data || !teachers.data ? (
          <LinearProgress />
        ) : leaving ? (
          <Stack spacing={2} sx={{ mt: 2 }}>
            {classes.length + headed.length > 1 && <SuccessorPicker label="全部交给" value="" onChange={everyone} teachers={others} />}
            {classes.length === 0 && headed.length === 0 && <Typography color="text.secondary">该教师没有任教班级，无需交接。</Typography>}
            {classes.map((c) => (
              <SuccessorPicker
                key={key(c.classId, c.courseId)}
                label={`${classLabel(c.gradeName, c.className)} ${c.courseName} 的接任教师`}
                value={picked[key(c.classId, c.courseId)] ?? ''}
                onChange={(v) => setPicked((p) => ({ ...p, [key(c.classId, c.courseId)]: v }))}
                teachers={others}
              />
            ))}
            {headed.map((h) => (
              <SuccessorPicker
                key={`head-${h.classId}`}
                label={`${h.label} 的新班主任`}
                value={heads[h.classId!] ?? ''}
                onChange={(v) => setHeads((p) => ({ ...p, [h.classId!]: v }))}
                teachers={others}
                allowNone
              />
            ))}
          </Stack>
        ) : null}
      </DialogContent>
      <DialogActions>
        <MuiButton onClick={onClose}>取消</MuiButton>
        <MuiButton color="error" variant="contained" onClick={save} disabled={busy || !held.data || !complete}>
          {leaving ? '确认离职' : '确认停用'}
        </MuiButton>
      </DialogActions>
    </Dialog>
  );
}

function RestoreDialog({ record, onClose }: { record: RaRecord; onClose: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const restore = async () => {
    try {
      notify(await dataProvider.setTeacherStatus({ teacherId: Number(record.id), status: TeacherStatus.active }), { type: 'success' });
      refresh();
      onClose();
    } catch {
      // Shown by the http client.
    }
  };
  return (
    <Dialog open onClose={onClose}>
      <DialogTitle>恢复在职 · {record.name}</DialogTitle>
      <DialogContent>
        <Typography>
          恢复后该教师可以用原密码登录。{record.status === TeacherStatus.left ? '离职时交出的班级不会自动归还，请在“任教”中重新绑定。' : ''}
        </Typography>
      </DialogContent>
      <DialogActions>
        <MuiButton onClick={onClose}>取消</MuiButton>
        <MuiButton variant="contained" onClick={restore}>
          确认恢复
        </MuiButton>
      </DialogActions>
    </Dialog>
  );
}

export function StatusButton({ record }: { record: RaRecord }) {
  const [open, setOpen] = useState(false);
  const active = record.status === TeacherStatus.active;
  return (
    <>
      <Button label={active ? '停用/离职' : '恢复在职'} onClick={() => setOpen(true)}>
        {active ? <PersonOffOutlined /> : <HowToRegOutlined />}
      </Button>
      {open && (active ? <LeaveDialog record={record} onClose={() => setOpen(false)} /> : <RestoreDialog record={record} onClose={() => setOpen(false)} />)}
    </>
  );
}
