// 考试报告 (/examReport?id=&classId=) for teachers: one of their classes or the whole grade — summary,
// score bands, distribution, reliability, class comparison, per-question analysis (difficulty,
// discrimination, option rates), 阅卷进度 when it was marked online, and the ranking. Every figure is the server's (docs/api-content.md);
// the screen only formats them and says in words what they mean.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import type { AppDataProvider } from '../dataProvider';
import type { ExamReport as Report } from '../dataProvider/exams';
import { useSelection } from '../filters/SelectionProvider';
import type { ScreenProps } from './screen';
import { EmptyState } from '../ui/EmptyState';
import { ScreenCard } from '../ui/ScreenCard';
import { BANDS, ClassComparison, Distribution, ItemQuality, Questions, Reliability, Section, Summary, score } from './examReport/parts';
import { MarkingProgress } from './examReport/MarkingProgress';

const GRADE = 'grade';


function Ranking({ report }: { report: Report }) {
  const full = report.exam.fullMarks;
  const band = (s: number) => BANDS[s >= full * 0.9 ? 0 : s >= full * 0.7 ? 1 : s >= full * 0.6 ? 2 : 3];
  if (report.ranking.length === 0) return <EmptyState />;
  return (
    <>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        排名仅供任课教师参考。按《未成年人学校保护规定》，请勿公开学生的成绩和名次。
      </Typography>
      <TableContainer sx={{ maxHeight: 440 }}>
        <Table size="small" stickyHeader aria-label="成绩排名">
          <TableHead>
            <TableRow>
              <TableCell>名次</TableCell>
              <TableCell>姓名</TableCell>
              <TableCell>学号</TableCell>
              <TableCell>班级</TableCell>
              <TableCell align="right">总分</TableCell>
              <TableCell>等级</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {report.ranking.map((r) => {
              const b = band(r.score);
              return (
                <TableRow key={r.studentId} data-testid="ranking-row">
                  <TableCell>{r.rank}</TableCell>
                  <TableCell>{r.name}</TableCell>
                  <TableCell>{r.studentNo}</TableCell>
                  <TableCell>{r.className}</TableCell>
                  <TableCell align="right">{score(r.score)}</TableCell>
                  <TableCell sx={{ color: b.color }}>{b.label}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
    </>
  );
}

export default function ExamReport({ route }: ScreenProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const { selection } = useSelection();
  const [params, setParams] = useSearchParams();
  const examId = params.get('id') ?? '';
  const classId = params.get('classId') ?? '';
  const valid = /^\d+$/.test(examId);
  const query = useQuery({ queryKey: ['examReport', examId, classId], queryFn: () => dataProvider.examReport(examId, classId || undefined), enabled: valid, retry: false });
  // The http client has shown the server's message (e.g. 考试不存在).
  const report = !valid || query.isError ? null : query.data;
  const [exporting, setExporting] = useState(false);

  // The classes of the exam this teacher may open alone: theirs (the header's class list).
  const myIds = new Set(selection.classList.map((c) => String(c.id)));
  const myClasses = report ? report.classes.filter((c) => myIds.has(String(c.classId))) : [];
  const scopeValue = classId || GRADE;
  const switchScope = (value: string | null) => {
    if (!value) return;
    setParams(value === GRADE ? { id: examId } : { id: examId, classId: value }, { replace: true });
  };
  const exportReport = async () => {
    if (!report) return;
    setExporting(true);
    try {
      await dataProvider.exportExamReport(examId, classId || undefined, report.exam.title, classId ? report.scope.classNames.join('') : '全年级');
    } catch {
      // The http client has shown why.
    } finally {
      setExporting(false);
    }
  };

  const title = report ? `${route.meta.title}：${report.exam.title}` : route.meta.title;
  return (
    <ScreenCard
      title={title}
      description={report ? `${report.exam.examDate} · ${report.exam.gradeName} · ${report.exam.courseName} · 满分 ${report.exam.fullMarks} 分 · ${report.questions.length} 题` : undefined}
    >
      {report === undefined && <LinearProgress sx={{ mt: 2 }} />}
      {report === null && <EmptyState text={examId ? '无法打开该考试报告' : '请从考试列表打开报告'} />}
      {report && (
        <>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', mt: 2 }}>
            <ToggleButtonGroup size="small" exclusive value={scopeValue} onChange={(_, v) => switchScope(v)} aria-label="统计范围">
              {myClasses.map((c) => (
                <ToggleButton key={c.classId} value={String(c.classId)}>
                  {c.className}
                </ToggleButton>
              ))}
              <ToggleButton value={GRADE}>全年级</ToggleButton>
            </ToggleButtonGroup>
            <Typography variant="body2" color="text.secondary" data-testid="report-scope">
              统计范围：{report.scope.classIds.length > 1 ? `全年级（${report.scope.classNames.join('、')}）` : report.scope.classNames.join('')}
            </Typography>
            <Box sx={{ flex: 1 }} />
            <Button variant="outlined" startIcon={<FileDownloadOutlined />} onClick={exportReport} disabled={exporting}>
              {exporting ? '正在导出…' : '导出成绩分析表'}
            </Button>
          </Box>
          {report.participants === 0 ? (
            <EmptyState />
          ) : (
            <>
              <Section title="成绩概况">
                <Summary report={report} />
              </Section>
              <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1.4fr 1fr' }, minWidth: 0 }}>
                <Section title="分数分布">
                  <Distribution report={report} />
                </Section>
                <Section title="试卷质量">
                  <Reliability alpha={report.reliability} />
                  <ItemQuality questions={report.questions} />
                </Section>
              </Box>
              <Section title="班级对比（全年级）">
                <ClassComparison report={report} />
              </Section>
              <Section title="小题分析">
                <Questions report={report} />
              </Section>
              <Section title="阅卷进度">
                <MarkingProgress examId={examId} />
              </Section>
              <Section title="成绩排名">
                <Ranking report={report} />
              </Section>
            </>
          )}
        </>
      )}
    </ScreenCard>
  );
}
