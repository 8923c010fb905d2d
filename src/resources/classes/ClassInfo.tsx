// A class at a glance: head counts and who teaches what (getClassInfo, allowed to the class's
// own teachers too, so the classic teacher's screen shows the same panel).
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../dataProvider';

function Stat({ label, value }: { label: string; value: number | string }) {
  return (
    <Box sx={{ minWidth: 96 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography sx={{ fontSize: 22, fontWeight: 600 }}>{value}</Typography>
    </Box>
  );
}

export function ClassInfoPanel({ classId }: { classId: string | number }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const query = useQuery({ queryKey: ['classInfo', String(classId)], queryFn: () => dataProvider.classInfo(classId), retry: false });
  const info = query.isError ? null : query.data;
  if (info === undefined) return <LinearProgress />;
  if (info === null) return <Typography color="text.secondary">暂无数据</Typography>;
  return (
    <Box>
      <Stack direction="row" spacing={3} sx={{ mb: 2, flexWrap: 'wrap' }}>
        <Stat label="年级" value={info.gradeName} />
        <Stat label="学生数" value={info.studentCount} />
        <Stat label="已绑定" value={info.boundCount} />
        <Stat label="未绑定" value={info.studentCount - info.boundCount} />
      </Stack>
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        任课教师
      </Typography>
      {info.teachers.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          暂无数据
        </Typography>
      ) : (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>教师</TableCell>
              <TableCell>课程</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {info.teachers.map((t) => (
              <TableRow key={`${t.teacherId}-${t.courseId}`}>
                <TableCell>{t.teacherName}</TableCell>
                <TableCell>{t.courseName}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}

export function ClassInfoDialog({ classId, onClose }: { classId: string | number | undefined; onClose: () => void }) {
  return (
    <Dialog open={classId !== undefined} onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>班级详情</DialogTitle>
      <DialogContent>{classId !== undefined && <ClassInfoPanel classId={classId} />}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>关闭</Button>
      </DialogActions>
    </Dialog>
  );
}
