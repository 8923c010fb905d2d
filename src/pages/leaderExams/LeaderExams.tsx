// 考试分析 (/leaderExams) for the principal, grade leaders and subject leaders: the exams of their
// scope, drilled school → grade → class → student in the address (?id=&classId=&studentId=), so a
// level can be linked to and the browser's back button goes up one. Figures are the server's
// (docs/api-content.md "Exams for leaders"); per student only what the school's 成绩公开范围 allows.
import { useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import type { ScreenProps } from '../screen';
import { ScreenCard } from '../../ui/ScreenCard';
import { ExamList } from './ExamList';
import { ExamView } from './ExamView';
import { StudentView } from './StudentView';
import type { Level } from './trail';

const digits = (v: string | null) => (v && /^\d{1,10}$/.test(v) ? v : '');

export default function LeaderExams({ route }: ScreenProps) {
  const [params, setParams] = useSearchParams();
  const level: Level = { examId: digits(params.get('id')), classId: digits(params.get('classId')), studentId: digits(params.get('studentId')) };
  const go = (to: Partial<Level>) => {
    const next: Record<string, string> = {};
    if (to.examId) next.id = to.examId;
    if (to.classId) next.classId = to.classId;
    if (to.studentId) next.studentId = to.studentId;
    setParams(next);
  };
  return (
    <ScreenCard title={route.meta.title} description="全校 → 年级 → 班级 → 学生逐级查看考试成绩。学生个人结果按学校设置的“成绩公开范围”显示，不显示任何学生的分数。">
      <Box sx={{ mt: 1 }}>
        {!level.examId && <ExamList go={go} />}
        {level.examId && !level.studentId && <ExamView key={`${level.examId}-${level.classId}`} level={level} go={go} />}
        {level.examId && level.studentId && <StudentView key={`${level.examId}-${level.studentId}`} level={level} go={go} />}
      </Box>
    </ScreenCard>
  );
}
