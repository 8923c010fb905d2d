// 学生错题本 (/studentTracking) of the mini-program teacher: the students of the class picked in
// the header with how many questions they got wrong this term in the picked course; a student
// opens (?studentId=) their trend, wrong questions by knowledge point, and a cause selector.
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { Link, useSearchParams } from 'react-router-dom';
import Button from '@mui/material/Button';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../dataProvider';
import type { WrongbookStudent } from '../../dataProvider/studentWrongbook';
import { useSelection } from '../../filters/SelectionProvider';
import { classLabel } from '../../filters/widgets';
import type { ScreenProps } from '../screen';
import { EmptyState } from '../../ui/EmptyState';
import { ScreenCard } from '../../ui/ScreenCard';
import { StudentWrongbook } from './StudentWrongbook';

function StudentCard({ row, onOpen }: { row: WrongbookStudent; onOpen: () => void }) {
  return (
    <Card variant="outlined" sx={{ borderRadius: 2 }}>
      <CardActionArea onClick={onOpen} aria-label={`查看${row.name}的错题`} sx={{ p: 1.5 }}>
        <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1, minWidth: 0 }}>
          <Typography sx={{ fontWeight: 600 }} noWrap>
            {row.name}
          </Typography>
          <Typography variant="caption" color="text.secondary" noWrap>
            {row.studentNo}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', gap: 0.75, mt: 1, flexWrap: 'wrap' }}>
          <Chip size="small" label={`错题 ${row.wrongCount}`} data-testid="wrong-count" />
          <Chip size="small" color={row.unmasteredCount ? 'error' : 'default'} variant="outlined" label={`未掌握 ${row.unmasteredCount}`} data-testid="unmastered-count" />
          {row.masteredCount > 0 && <Chip size="small" color="success" variant="outlined" label={`已掌握 ${row.masteredCount}`} />}
        </Box>
      </CardActionArea>
      <Box sx={{ px: 1.5, pb: 1 }}>
        <Button size="small" component={Link} to={`/studentHistory?studentId=${row.studentId}`} aria-label={`查看${row.name}的学情档案`} sx={{ ml: -0.5 }}>
          学情档案
        </Button>
      </Box>
    </Card>
  );
}

function ClassStudents({ classId, courseId, onOpen }: { classId: string; courseId: string; onOpen: (id: number) => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const query = useQuery({ queryKey: ['wrongbookStudents', classId, courseId], queryFn: () => dataProvider.wrongbookStudents(classId, courseId), retry: false });
  const students = query.isError ? null : query.data?.students;
  if (students === undefined) return <LinearProgress sx={{ mt: 2 }} />;
  if (!students?.length) return <EmptyState />;
  const total = students.reduce((s, r) => s + r.wrongCount, 0);
  const unmastered = students.reduce((s, r) => s + r.unmasteredCount, 0);
  return (
    <>
      <Typography variant="body2" sx={{ mt: 2 }} data-testid="class-totals">
        共 {students.length} 名学生，本学期错题 {total} 道，其中未掌握 {unmastered} 道
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))', gap: 1.5, mt: 1.5 }}>
        {students.map((row) => (
          <StudentCard key={row.studentId} row={row} onOpen={() => onOpen(row.studentId)} />
        ))}
      </Box>
    </>
  );
}

export default function StudentTracking({ route }: ScreenProps) {
  const { selection } = useSelection();
  const { classId, courseId, gradeName, className, courseName } = selection;
  const [params, setParams] = useSearchParams();
  const studentId = Number(params.get('studentId')) || 0;
  const scope = classId ? [classLabel(gradeName, className), courseName, '本学期'].filter(Boolean).join(' · ') : undefined;
  return (
    <ScreenCard title={route.meta.title} description={scope}>
      {!classId || !courseId ? (
        <EmptyState text="请先在上方选择班级和课程" />
      ) : studentId ? (
        <StudentWrongbook key={`${studentId}-${courseId}`} studentId={studentId} courseId={Number(courseId)} onBack={() => setParams({})} />
      ) : (
        <ClassStudents classId={classId} courseId={courseId} onOpen={(id) => setParams({ studentId: String(id) })} />
      )}
    </ScreenCard>
  );
}
