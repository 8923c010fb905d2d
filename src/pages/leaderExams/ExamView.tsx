// The grade and class levels of 考试分析: one exam over the leader's classes, or one class of it —
// the teacher's report parts (src/pages/examReport/parts.tsx) with the rates, then 临界生, 进退步,
// 学科均衡, per-question and knowledge-point analysis, 阅卷进度 and the students as disclosed.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import LinearProgress from '@mui/material/LinearProgress';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../dataProvider';
import { EmptyState } from '../../ui/EmptyState';
import { ClassComparison, Distribution, ItemQuality, Questions, Reliability, Section, Summary } from '../examReport/parts';
import { MarkingProgress } from '../examReport/MarkingProgress';
import { Balance, Critical, KnowledgePoints, Progress, Students } from './sections';
import { Trail, type Level } from './trail';

const GRADE = 'grade';

export function ExamView({ level, go }: { level: Level; go: (to: Partial<Level>) => void }) {
  const api = useDataProvider<AppDataProvider>();
  const { examId, classId } = level;
  const report = useQuery({ queryKey: ['leaderExamReport', examId, classId], queryFn: () => api.leaderExamReport(examId, classId || undefined), retry: false });
  const analysis = useQuery({ queryKey: ['leaderExamAnalysis', examId, classId], queryFn: () => api.leaderExamAnalysis(examId, classId || undefined), retry: false });
  const [exporting, setExporting] = useState(false);
  const exportIt = async () => {
    setExporting(true);
    // The http client shows the server's message when the export fails.
    await api.exportLeaderExam(examId, classId || undefined).catch(() => undefined);
    setExporting(false);
  };

  if (report.isPending) return <LinearProgress sx={{ mt: 2 }} />;
  // The http client has shown the server's message (考试不存在, 班级不存在).
  if (report.isError) {
    return (
      <>
        <Trail crumbs={[{ label: '全校考试', to: {} }, { label: '无法打开' }]} go={go} />
        <EmptyState text="无法打开这场考试的分析，请从全校考试列表重新选择" />
      </>
    );
  }
  const r = report.data;
  const className = classId ? r.scope.classNames.join('') : '';
  const openStudent = (id: number) => go({ examId, classId, studentId: String(id) });
  const openClass = (id: number) => go({ examId, classId: String(id) });
  const crumbs = [
    { label: '全校考试', to: {} },
    { label: `${r.exam.gradeName} · ${r.exam.title}`, to: { examId } },
    ...(classId ? [{ label: className }] : []),
  ];
  return (
    <>
      <Trail crumbs={crumbs} go={go} />
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap', mb: 1.5 }}>
        <Typography variant="body2" color="text.secondary" data-testid="leader-exam-facts">
          {r.exam.examDate} · {r.exam.gradeName} · {r.exam.courseName} · 满分 {r.exam.fullMarks} 分 · {r.questions.length} 题
        </Typography>
        <Button size="small" variant="outlined" startIcon={<FileDownloadOutlined />} onClick={exportIt} disabled={exporting || !analysis.data}>
          导出分析
        </Button>
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap', overflowX: 'auto', pb: 0.5 }}>
        <ToggleButtonGroup size="small" exclusive value={classId || GRADE} onChange={(_, v: string | null) => v && go({ examId, classId: v === GRADE ? '' : v })} aria-label="统计范围">
          <ToggleButton value={GRADE} sx={{ whiteSpace: 'nowrap' }}>
            全年级
          </ToggleButton>
          {r.classes.map((c) => (
            <ToggleButton key={c.classId} value={String(c.classId)} sx={{ whiteSpace: 'nowrap' }}>
              {c.className}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid="report-scope">
        统计范围：{classId ? className : `${r.exam.gradeName}（${r.scope.classNames.join('、')}）`}
      </Typography>
      {r.participants === 0 ? (
        <EmptyState text="这个范围还没有学生的成绩">
          <Typography variant="body2">任课老师录入成绩或完成 AI批改 后，这里会显示分析。</Typography>
        </EmptyState>
      ) : (
        <>
          <Section title="成绩概况">
            <Summary report={r} />
          </Section>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1.4fr 1fr' }, minWidth: 0 }}>
            <Section title="分数分布">
              <Distribution report={r} />
            </Section>
            <Section title="试卷质量">
              <Reliability alpha={r.reliability} />
              <ItemQuality questions={r.questions} />
            </Section>
          </Box>
          <Section title="班级对比（点击班级查看该班）">
            <ClassComparison report={r} onOpen={openClass} />
          </Section>
          {analysis.isPending && <LinearProgress sx={{ mt: 3 }} />}
          {analysis.data && (
            <>
              <Section title="临界生">
                <Critical analysis={analysis.data} fullMarks={r.exam.fullMarks} onStudent={openStudent} />
              </Section>
              <Section title="进退步">
                <Progress analysis={analysis.data} onStudent={openStudent} />
              </Section>
              <Section title="学科均衡">
                <Balance analysis={analysis.data} onClass={openClass} />
              </Section>
            </>
          )}
          <Section title="小题分析">
            <Questions report={r} />
          </Section>
          {analysis.data && (
            <Section title="知识点分析">
              <KnowledgePoints analysis={analysis.data} />
            </Section>
          )}
          <Section title="阅卷进度">
            <MarkingProgress examId={examId} leader />
          </Section>
          <Section title="学生">
            <Students report={r} onStudent={openStudent} />
          </Section>
        </>
      )}
    </>
  );
}
