// 作业 (/homework) of the classic teacher: the teacher's homework for the class, course and time
// range picked in the header (the shell's selection store), as the `homeworks` resource list; a
// row opens its detail (/homeworkDetails?id=); 布置作业 opens the assign screen (/homeworkAssign).
import { Link } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import PostAddOutlined from '@mui/icons-material/PostAddOutlined';
import { useSelection } from '../filters/SelectionProvider';
import { classLabel } from '../filters/widgets';
import { TIME_RANGES } from '../domain/enums';
import homeworks from '../resources/homeworks';
import { ResourceList, ScreenCard } from '../resources/views';
import type { ScreenProps } from './screen';
import { EmptyState } from '../ui/EmptyState';

export default function Homework({ route }: ScreenProps) {
  const { selection } = useSelection();
  const { classId, courseId, dateType, gradeName, className, courseName } = selection;
  const range = TIME_RANGES.find((t) => t.value === dateType)?.label;
  const scope = classId ? [classLabel(gradeName, className), courseName, range].filter(Boolean).join(' · ') : undefined;
  // The server answers only the caller's own homework; a class is needed, as on every teacher screen.
  const filter = { classId, courseId, dateType: dateType ?? undefined };
  return (
    <ScreenCard title={route.meta.title} description={scope}>
      <Box sx={{ mt: 1.5, display: 'flex', justifyContent: 'flex-end' }}>
        <Button variant="contained" component={Link} to="/homeworkAssign" startIcon={<PostAddOutlined />}>
          布置作业
        </Button>
      </Box>
      {!classId ? (
        <EmptyState text="请先在上方选择班级" />
      ) : (
        <ResourceList key={`${classId}-${courseId}-${dateType}`} config={homeworks} readOnly={false} filter={filter} hideFilters />
      )}
    </ScreenCard>
  );
}
