// 学情分析 (/analysis): the caller's scope (own classes, a subject, a grade, the school, a region's
// schools) for the term and course chosen in the header. Classes or schools are compared in name
// order, never ranked. Definitions of every figure: docs/analysis-figures.md.
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, usePermissions } from 'react-admin';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import type { AppDataProvider } from '../../dataProvider';
import type { AnalysisFilter } from '../../dataProvider/analysis';
import { BAND_MIN_ITEMS, GROUP_UNITS, type Analysis as Report, type AnalysisFigure } from '../../domain/analysis';
import type { Permissions } from '../../authProvider';
import { LEADER_TYPES } from '../../domain/roles';
import { useSelection } from '../../filters/SelectionProvider';
import type { ScreenProps } from '../screen';
import { EmptyState } from '../../ui/EmptyState';
import { ScreenCard } from '../../ui/ScreenCard';
import { PrincipalNotices } from '../heartVoices/PrincipalNotices';
import { OpenHighRisk } from '../heartVoices/OpenHighRisk';
import { Stem } from '../Stem';
import { FigureCard } from './FigureCard';
import { percent } from '../../domain/format';
import { chartPercent, NO_DATA, weekLabel } from './format';
import { SchoolActivity } from './SchoolActivity';
import { JointExams } from './JointExams';
import { RegionDrill, type Drill } from './RegionDrill';
import { bandAxis, usePhone } from '../../ui/bandAxis';

const BANDS = [
  { key: 'excellent', label: '优秀（≥90%）', color: '#2e7d32' },
  { key: 'good', label: '良好（70%–90%）', color: '#1976d2' },
  { key: 'pass', label: '及格（60%–70%）', color: '#ed6c02' },
  { key: 'fail', label: '不及格（<60%）', color: '#d32f2f' },
] as const;

/** Heat map cell colour: red (0) through amber to green (100 %). */
function heat(rate: number | null): string {
  if (rate === null) return 'transparent';
  const hue = Math.round(rate * 120);
  return `hsl(${hue}, 70%, 85%)`;
}

/** What each figure counts, as docs/analysis-figures.md defines it. */
const DEFINITIONS = {
  scoreRate: '得分之和 ÷ 满分之和（作业与考试的全部提交）',
  participation: '有提交的在读学生 ÷ 本学期布置过作业或考试的班级的在读学生',
  completion: '已交作业份数 ÷ 应交份数（未到截止时间的作业只计已交）',
  works: '作业与考试的提交份数',
  bands: `每份提交按得分占满分的比例分段；占比 = 该段人次 ÷ 计入分段的提交人次。只统计考试和题目不少于 ${BAND_MIN_ITEMS} 道的作业：题目太少的作业，错一题就跨一段`,
};

function Summary({ report }: { report: Report }) {
  // Each tile says what it counts (docs/analysis-figures.md), so no figure is read as another.
  const items = [
    { label: '得分率', value: percent(report.total.scoreRate, NO_DATA), testId: 'total-score-rate', definition: DEFINITIONS.scoreRate },
    { label: '参与率', value: percent(report.total.participationRate, NO_DATA), testId: 'total-participation', definition: DEFINITIONS.participation },
    { label: '作业完成率', value: percent(report.total.completionRate, NO_DATA), testId: 'total-completion', definition: DEFINITIONS.completion },
    { label: '提交人次', value: String(report.total.works), testId: 'total-works', definition: DEFINITIONS.works },
  ];
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' }, gap: 2, mt: 2 }}>
      {items.map((i) => (
        <Box key={i.label} sx={{ p: 1.5, borderRadius: 1, bgcolor: 'action.hover' }}>
          <Typography variant="caption" color="text.secondary">
            {i.label}
          </Typography>
          <Typography variant="h6" data-testid={i.testId}>
            {i.value}
          </Typography>
          <Typography variant="caption" color="text.secondary" component="p" sx={{ lineHeight: 1.4 }} data-testid={`${i.testId}-definition`}>
            {i.definition}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

export default function Analysis({ route }: ScreenProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const { permissions } = usePermissions<Permissions>();
  const { selection } = useSelection();
  const role = permissions?.activeRole;
  const researcher = role === 'regionResearcher';
  // The researcher's drill (region → school → grade → class) and subject, kept on this screen.
  const phone = usePhone();
  const [drill, setDrill] = useState<Drill>({});
  const filter: AnalysisFilter = useMemo(
    () =>
      researcher
        ? { term: selection.learningTerm, schoolId: drill.school?.id, gradeId: drill.grade?.id, classId: drill.klass?.id, subjectId: drill.subjectId, leaderType: LEADER_TYPES.regionResearcher }
        : {
            term: selection.learningTerm,
            gradeId: selection.allGrades ? undefined : selection.gradeId,
            courseId: selection.allCourses ? undefined : selection.courseId,
            leaderType: role ? LEADER_TYPES[role] : undefined,
          },
    [researcher, drill, selection.learningTerm, selection.gradeId, selection.courseId, selection.allGrades, selection.allCourses, role],
  );
  const query = useQuery({ queryKey: ['analysis', filter], queryFn: () => dataProvider.analysis(filter), enabled: !!role, retry: false });
  // The http client has shown the server's message.
  const report = query.isError ? null : query.data;

  const unit = GROUP_UNITS[report?.groupBy ?? 'class'];
  // A row of the comparison opens the level below it (the researcher's drill), down to one class.
  const drillInto = researcher && report && !drill.klass ? (g: { id: number; name: string }) => setDrill((d) => RegionDrill.into(d, report.groupBy, g)) : undefined;
  const exporter = (figure: AnalysisFigure, title: string) => () => dataProvider.exportAnalysis(filter, figure, title);
  const description = researcher ? `本区域${unit}的学情对比（按名称排列，不作排名）；点击${unit}名称查看下一级。` : '所辖班级的学情对比（按名称排列，不作排名）。';

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>
      {role === 'schoolMaster' && <PrincipalNotices />}
      {role === 'schoolMaster' && <OpenHighRisk />}
      <ScreenCard title={route.meta.title} description={description}>
        {researcher && <RegionDrill drill={drill} onChange={setDrill} region={permissions?.profile.regionName} />}
        {report === undefined && <LinearProgress sx={{ mt: 2 }} />}
        {report === null && <EmptyState text="学情分析加载失败，请稍后重试" />}
        {report && report.groups.length === 0 && <EmptyState />}
        {report && report.groups.length > 0 && <Summary report={report} />}
      </ScreenCard>
      {role === 'schoolMaster' && selection.learningTerm && <SchoolActivity term={selection.learningTerm} />}
      {(role === 'schoolMaster' || researcher) && selection.learningTerm && <JointExams term={selection.learningTerm} researcher={researcher} />}
      {report && report.groups.length > 0 && (
        <>
          <FigureCard testId="card-groups" title={`${unit}对比：得分率`} definition="得分率 = 所有提交的得分之和 ÷ 满分之和（作业与考试）" onExport={exporter('groups', `${unit}对比`)}>
            {report.total.maxScore > 0 ? (
              <BarChart
                height={280}
                xAxis={[bandAxis(report.groups.map((g) => g.name), phone, 40)]}
                yAxis={[{ label: '得分率（%）', min: 0, max: 100, width: 56 }]}
                series={[{ data: report.groups.map((g) => chartPercent(g.scoreRate)), label: '得分率', color: '#5c6bc0', valueFormatter: (v) => (v === null ? NO_DATA : `${v}%`) }]}
                hideLegend
              />
            ) : (
              <EmptyState />
            )}
            <TableContainer>
              <Table size="small" aria-label={`${unit}对比`}>
                <TableHead>
                  <TableRow>
                    <TableCell>{unit}</TableCell>
                    <TableCell align="right">得分</TableCell>
                    <TableCell align="right">满分</TableCell>
                    <TableCell align="right">得分率</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {report.groups.map((g) => (
                    <TableRow key={g.id} data-testid="group-row" data-group-id={g.id}>
                      <TableCell>
                        {drillInto ? (
                          <Link component="button" type="button" onClick={() => drillInto(g)} sx={{ textAlign: 'left' }}>
                            {g.name}
                          </Link>
                        ) : (
                          g.name
                        )}
                      </TableCell>
                      <TableCell align="right">{g.score}</TableCell>
                      <TableCell align="right">{g.maxScore}</TableCell>
                      <TableCell align="right" data-testid="group-score-rate">
                        {percent(g.scoreRate, NO_DATA)}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          </FigureCard>

          <FigureCard testId="card-bands" title="成绩分段" definition={DEFINITIONS.bands} onExport={exporter('bands', '成绩分段')}>
            {report.total.excellent + report.total.good + report.total.pass + report.total.fail > 0 ? (
              <BarChart
                height={280}
                xAxis={[bandAxis(report.groups.map((g) => g.name), phone, 40)]}
                yAxis={[{ label: '占比（%）', min: 0, max: 100, width: 56 }]}
                series={BANDS.map((b) => ({ data: report.groups.map((g) => chartPercent(g.bands[b.key])), label: b.label, color: b.color, stack: 'bands', valueFormatter: (v: number | null) => (v === null ? NO_DATA : `${v}%`) }))}
              />
            ) : (
              <EmptyState text={`本范围内没有考试或题目不少于 ${BAND_MIN_ITEMS} 道的作业，不显示成绩分段`} />
            )}
          </FigureCard>

          <FigureCard testId="card-participation" title="参与与作业完成" definition={`参与率 = ${DEFINITIONS.participation}（没有作业或考试的班级记为暂无数据）；作业完成率 = 已交作业份数 ÷ 应交份数（作业数 × 班级在读人数）`} onExport={exporter('participation', '参与与完成')}>
            <TableContainer>
              <Table size="small" aria-label="参与与作业完成">
                <TableHead>
                  <TableRow>
                    <TableCell>{unit}</TableCell>
                    <TableCell align="right">在读学生</TableCell>
                    <TableCell align="right">参与学生</TableCell>
                    <TableCell align="right">参与率</TableCell>
                    <TableCell align="right">已交 / 应交</TableCell>
                    <TableCell align="right">作业完成率</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {[...report.groups, { id: 0, name: '合计', ...report.total }].map((g) => (
                    <TableRow key={g.id} sx={g.id === 0 ? { '& td': { fontWeight: 600 } } : undefined}>
                      <TableCell>{g.name}</TableCell>
                      <TableCell align="right">{g.enrolled}</TableCell>
                      <TableCell align="right">{g.participants}</TableCell>
                      <TableCell align="right">{percent(g.participationRate, NO_DATA)}</TableCell>
                      <TableCell align="right">
                        {g.homeworkSubmitted} / {g.homeworkAssigned}
                      </TableCell>
                      <TableCell align="right" data-testid={g.id === 0 ? 'completion-total' : undefined}>
                        {percent(g.completionRate, NO_DATA)}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          </FigureCard>

          <FigureCard testId="card-trend" title="学期周趋势" definition="按周（周一起）汇总：得分率 = 当周得分之和 ÷ 满分之和；作业完成率 = 当周布置作业的已交份数 ÷ 应交份数" onExport={exporter('trend', '周趋势')}>
            {report.trend.length ? (
              <LineChart
                height={300}
                margin={{ top: 16 }}
                xAxis={[{ scaleType: 'point', data: report.trend.map((w) => weekLabel(w.week)), height: 52, label: '周（起始日）' }]}
                yAxis={[{ min: 0, max: 100, label: '%', width: 48 }]}
                series={[
                  { data: report.trend.map((w) => chartPercent(w.scoreRate)), label: '得分率', color: '#5c6bc0', connectNulls: false },
                  { data: report.trend.map((w) => chartPercent(w.completionRate)), label: '作业完成率', color: '#26a69a', connectNulls: false },
                ]}
              />
            ) : (
              <EmptyState />
            )}
          </FigureCard>

          <FigureCard testId="card-knowledge" title="知识点掌握" definition={`掌握率 = 答对次数 ÷ 作答次数（${unit} × 本学期作答最多的知识点）`} onExport={exporter('knowledge', '知识点掌握')}>
            <KnowledgeMap report={report} unit={unit} />
          </FigureCard>

          <FigureCard testId="card-questions" title="高频错题" definition="错误率 = 答错次数 ÷ 作答次数（作答不少于 5 次的题目）" onExport={exporter('questions', '高频错题')}>
            {report.questions.length ? (
              <TableContainer>
                <Table size="small" aria-label="高频错题">
                  <TableHead>
                    <TableRow>
                      <TableCell>题目</TableCell>
                      <TableCell align="right">作答次数</TableCell>
                      <TableCell align="right">答错次数</TableCell>
                      <TableCell align="right">错误率</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {report.questions.map((q) => (
                      <TableRow key={q.questionId}>
                        <TableCell sx={{ maxWidth: 560 }}>
                          <Stem text={q.stem} />
                        </TableCell>
                        <TableCell align="right">{q.answered}</TableCell>
                        <TableCell align="right">{q.wrong}</TableCell>
                        <TableCell align="right">{percent(q.wrongRate, NO_DATA)}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
            ) : (
              <EmptyState />
            )}
          </FigureCard>
        </>
      )}
    </Box>
  );
}

function KnowledgeMap({ report, unit }: { report: Report; unit: string }) {
  const { knowledgePoints, cells } = report.knowledge;
  if (!knowledgePoints.length) return <EmptyState />;
  const cell = new Map(cells.map((c) => [`${c.groupId}:${c.knowledgePointId}`, c]));
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label="知识点掌握" sx={{ '& td, & th': { whiteSpace: 'nowrap' } }}>
        <TableHead>
          <TableRow>
            <TableCell>{unit}</TableCell>
            {knowledgePoints.map((k) => (
              <TableCell key={k.id} align="center">
                {k.name}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {report.groups.map((g) => (
            <TableRow key={g.id}>
              <TableCell>{g.name}</TableCell>
              {knowledgePoints.map((k) => {
                const c = cell.get(`${g.id}:${k.id}`);
                const rate = c?.mastery ?? null;
                return (
                  <TableCell key={k.id} align="center" sx={{ bgcolor: heat(rate) }} title={c ? `答对 ${c.correct} / 作答 ${c.answered}` : NO_DATA}>
                    {percent(rate, NO_DATA)}
                  </TableCell>
                );
              })}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
