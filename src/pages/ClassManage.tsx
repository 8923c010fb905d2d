// 班级 (/classManage) of the classic teacher: the class picked in the header, its head counts and
// teachers, and its students, read-only (the server answers only for the teacher's own classes)
// but for two actions: 学情档案 (the student's term, /studentHistory) and 家长查看, the links to a
// student's page for the family.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useSelection } from '../filters/SelectionProvider';
import { classLabel } from '../filters/widgets';
import { ClassInfoPanel } from '../resources/classes/ClassInfo';
import students from '../resources/students';
import type { ResourceConfig } from '../resources/types';
import { FamilyLinkButton } from '../resources/students/FamilyLinks';
import { HistoryLinkButton } from './studentHistory/HistoryLinkButton';
import { ResourceList, ScreenCard } from '../resources/views';
import type { ScreenProps } from './screen';
import { EmptyState } from '../ui/EmptyState';

/** The student list as a teacher has it: nothing to add, edit, delete or import; 学情档案 and 家长查看 per row. */
const teacherStudents: ResourceConfig = {
  ...students,
  operations: { create: false, edit: false, delete: false, bulkDelete: false },
  transfer: undefined,
  bulkActions: undefined,
  rowActions: [HistoryLinkButton, FamilyLinkButton],
};

export default function ClassManage({ route }: ScreenProps) {
  const { selection } = useSelection();
  const classId = selection.classId;
  return (
    <ScreenCard title={route.meta.title} description={classId ? classLabel(selection.gradeName, selection.className) : undefined}>
      {!classId ? (
        <EmptyState />
      ) : (
        <Box key={classId} sx={{ mt: 2 }}>
          <ClassInfoPanel classId={classId} />
          <Typography variant="subtitle2" sx={{ mt: 3 }}>
            学生名单
          </Typography>
          <ResourceList config={teacherStudents} readOnly={false} filter={{ classId }} hideFilters />
        </Box>
      )}
    </ScreenCard>
  );
}
