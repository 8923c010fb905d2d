// 角色任命 on the teacher list and the 角色任命 screen: appointing a teacher as 校长, 年级组长 (a grade),
// 学科组长 (a subject, in some or all grades), 心理教师 or 班主任 (a class), and taking it away.
// The server applies a change at the holder's next request; this only asks and shows.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, useDataProvider, useGetList, useNotify, useRefresh } from 'react-admin';
import type { RaRecord } from 'ra-core';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
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
import BadgeOutlined from '@mui/icons-material/BadgeOutlined';
import type { AppDataProvider } from '../../dataProvider';
import type { Appointment, HeldRole, SchoolTeacher } from '../../dataProvider/roles';
import { APPOINTED_ROLE_NAMES, APPOINTED_ROLES, type AppointedRole } from '../../domain/roles';
import { classLabel } from '../../filters/widgets';

/** What a role is for, said where the admin chooses it. */
const ROLE_HINTS: Record<AppointedRole, string> = {
  schoolMaster: '查看全校的学情分析与考试。',
  gradeLeader: '查看所任年级全部班级的学情分析与考试。',
  subjectleader: '查看所任学科在所选年级的学情分析与考试；不选年级即全部年级。',
  psychologyteacher: '查看并跟进本校学生心声。',
  headTeacher: '负责一个班级；每班一位，任命新班主任即替换原班主任。',
};

/** 年级组长 · 八年级, 校长: one appointment as a chip reads. */
export function appointmentLabel(role: HeldRole, scope?: { label: string }): string {
  return scope ? `${role.roleName} · ${scope.label}` : role.roleName;
}

export function AppointDialog({ teacher, role: fixedRole, onClose, onDone }: { teacher?: { teacherId: number; name: string }; role?: AppointedRole; onClose: () => void; onDone: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [chosen, setChosen] = useState<SchoolTeacher | null>(null);
  const [role, setRole] = useState<AppointedRole | ''>(fixedRole ?? '');
  const [gradeId, setGradeId] = useState('');
  const [gradeIds, setGradeIds] = useState<string[]>([]);
  const [subjectId, setSubjectId] = useState('');
  const [classId, setClassId] = useState('');
  const [busy, setBusy] = useState(false);
  const teachers = useQuery({ queryKey: ['schoolTeachers'], queryFn: () => dataProvider.schoolTeachers(), retry: false, enabled: !teacher });
  const grades = useGetList('grades', { pagination: { page: 1, perPage: 100 }, filter: { graduatedYear: null }, sort: { field: 'level', order: 'ASC' } });
  const classes = useGetList('classes', { pagination: { page: 1, perPage: 1000 }, sort: { field: 'className', order: 'ASC' } }, { enabled: role === 'headTeacher' });
  const courses = useQuery({ queryKey: ['coursesInSchool'], queryFn: () => dataProvider.coursesInSchool(), retry: false, enabled: role === 'subjectleader' });
  const subjects = [...new Map((courses.data ?? []).map((c) => [c.subjectId, c.subjectName])).entries()];
  const current = teacher ?? (chosen ? { teacherId: chosen.teacherId, name: chosen.name } : null);

  const ready =
    !!current &&
    !!role &&
    (role !== 'gradeLeader' || !!gradeId) &&
    (role !== 'subjectleader' || !!subjectId) &&
    (role !== 'headTeacher' || !!classId);

  const save = async () => {
    if (!current || !role) return;
    const appointment: Appointment = { teacherId: current.teacherId, role };
    if (role === 'gradeLeader') appointment.gradeId = Number(gradeId);
    if (role === 'subjectleader') Object.assign(appointment, { subjectId: Number(subjectId), gradeIds: gradeIds.map(Number) });
    if (role === 'headTeacher') appointment.classId = Number(classId);
    setBusy(true);
    try {
      notify(await dataProvider.appoint(appointment), { type: 'success' });
      onDone();
      onClose();
    } catch {
      // Shown by the http client.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>任命{fixedRole ? APPOINTED_ROLE_NAMES[fixedRole] : '角色'}{teacher ? ` · ${teacher.name}` : ''}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {!teacher && (
            <Autocomplete
              options={teachers.data ?? []}
              loading={teachers.isLoading}
              value={chosen}
              onChange={(_e, value) => setChosen(value)}
              getOptionLabel={(t) => `${t.name}${t.phone ? `（${t.phone}）` : ''}`}
              isOptionEqualToValue={(a, b) => a.teacherId === b.teacherId}
              noOptionsText="暂无数据"
              loadingText="加载中…"
              renderInput={(params) => <TextField {...params} size="small" label="教师" placeholder="输入姓名或手机号" />}
            />
          )}
          {!fixedRole && (
            <TextField select size="small" label="角色" value={role} onChange={(e) => setRole(e.target.value as AppointedRole)}>
              {APPOINTED_ROLES.map((r) => (
                <MenuItem key={r} value={r}>
                  {APPOINTED_ROLE_NAMES[r]}
                </MenuItem>
              ))}
            </TextField>
          )}
          {role && (
            <Typography variant="body2" color="text.secondary">
              {ROLE_HINTS[role]}
            </Typography>
          )}
          {role === 'gradeLeader' && (
            <TextField select size="small" label="年级" value={gradeId} onChange={(e) => setGradeId(e.target.value)}>
              {(grades.data ?? []).map((g) => (
                <MenuItem key={g.id} value={String(g.id)}>
                  {g.gradeName}
                </MenuItem>
              ))}
            </TextField>
          )}
          {role === 'subjectleader' && (
            <>
              <TextField select size="small" label="学科" value={subjectId} onChange={(e) => setSubjectId(e.target.value)}>
                {subjects.map(([id, name]) => (
                  <MenuItem key={id} value={String(id)}>
                    {name}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                select
                size="small"
                label="年级（可多选，不选即全部年级）"
                value={gradeIds}
                onChange={(e) => setGradeIds(e.target.value as unknown as string[])}
                slotProps={{ select: { multiple: true, renderValue: (v) => (v as string[]).map((id) => (grades.data ?? []).find((g) => String(g.id) === id)?.gradeName).join('、') } }}
              >
                {(grades.data ?? []).map((g) => (
                  <MenuItem key={g.id} value={String(g.id)}>
                    {g.gradeName}
                  </MenuItem>
                ))}
              </TextField>
            </>
          )}
          {role === 'headTeacher' && (
            <TextField select size="small" label="班级" value={classId} onChange={(e) => setClassId(e.target.value)}>
              {(classes.data ?? []).map((c) => (
                <MenuItem key={c.id} value={String(c.id)}>
                  {classLabel(c.gradeName, c.className)}
                </MenuItem>
              ))}
            </TextField>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <MuiButton onClick={onClose}>取消</MuiButton>
        <MuiButton variant="contained" onClick={save} disabled={busy || !ready}>
          任命
        </MuiButton>
      </DialogActions>
    </Dialog>
  );
}

/** The chips of a user's appointments, each removable after a confirmation. */
export function AppointmentChips({ userId, name, roles, onChange }: { userId: number; name: string; roles: HeldRole[]; onChange: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [asking, setAsking] = useState<{ role: HeldRole; scope?: HeldRole['scopes'][number] } | null>(null);
  const remove = async () => {
    if (!asking) return;
    try {
      notify(await dataProvider.dismissRole(userId, asking.role.role, asking.scope?.scopeId), { type: 'success' });
      onChange();
    } catch {
      // Shown by the http client.
    } finally {
      setAsking(null);
    }
  };
  const chips = roles.flatMap((role): { role: HeldRole; scope?: HeldRole['scopes'][number] }[] => (role.scopes.length ? role.scopes.map((scope) => ({ role, scope })) : [{ role }]));
  return (
    <>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        {chips.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            暂无任命
          </Typography>
        )}
        {chips.map(({ role, scope }) => (
          <Chip key={`${role.role}-${scope?.scopeId ?? 0}`} color="primary" variant="outlined" label={appointmentLabel(role, scope)} onDelete={() => setAsking({ role, scope })} />
        ))}
      </Box>
      <Dialog open={!!asking} onClose={() => setAsking(null)}>
        <DialogTitle>免去任命</DialogTitle>
        <DialogContent>
          <Typography>
            确定免去 {name} 的“{asking ? appointmentLabel(asking.role, asking.scope) : ''}”吗？其下一次操作起即不再具有该角色的权限。
          </Typography>
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={() => setAsking(null)}>取消</MuiButton>
          <MuiButton color="error" variant="contained" onClick={remove}>
            确认免去
          </MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}

function TeacherRolesDialog({ record, onClose }: { record: RaRecord; onClose: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const refresh = useRefresh();
  const [appointing, setAppointing] = useState(false);
  const held = useQuery({ queryKey: ['teacherRoles', record.id], queryFn: () => dataProvider.teacherRoles(record.id), retry: false });
  const changed = () => {
    void held.refetch();
    refresh();
  };
  const data = held.data;
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>角色与任教 · {record.name}</DialogTitle>
      <DialogContent>
        {!data ? (
          <LinearProgress />
        ) : (
          <>
            <Typography variant="subtitle2" sx={{ mb: 1 }}>
              任命的角色
            </Typography>
            <AppointmentChips userId={data.userId} name={data.name} roles={data.roles} onChange={changed} />
            <Typography variant="subtitle2" sx={{ mt: 3, mb: 1 }}>
              任教班级与课程
            </Typography>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
              {data.classes.length === 0 && (
                <Typography variant="body2" color="text.secondary">
                  暂无数据
                </Typography>
              )}
              {data.classes.map((c) => (
                <Chip key={`${c.classId}-${c.courseId}`} label={`${classLabel(c.gradeName, c.className)} ${c.courseName}`} />
              ))}
            </Box>
          </>
        )}
      </DialogContent>
      <DialogActions>
        <MuiButton onClick={onClose}>关闭</MuiButton>
        <MuiButton variant="contained" onClick={() => setAppointing(true)} disabled={!data || record.status !== 0}>
          任命角色
        </MuiButton>
      </DialogActions>
      {appointing && <AppointDialog teacher={{ teacherId: Number(record.id), name: String(record.name) }} onClose={() => setAppointing(false)} onDone={changed} />}
    </Dialog>
  );
}

export function TeacherRolesButton({ record }: { record: RaRecord }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button label="角色" onClick={() => setOpen(true)}>
        <BadgeOutlined />
      </Button>
      {open && <TeacherRolesDialog record={record} onClose={() => setOpen(false)} />}
    </>
  );
}
