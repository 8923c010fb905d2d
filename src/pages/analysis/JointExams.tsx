// 区域联考 (researcher and principal on /analysis): the region's joint exams of the term, and one
// opened: the schools side by side (the researcher), or the principal's own school against the
// region as a whole. Definitions: docs/analysis-figures.md, "联考".
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
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
import type { AppDataProvider } from '../../dataProvider';
import { LOW_SCORE_SHARE, REGION_FIGURE_MIN_SCHOOLS, type JointExamFigures, type JointExamReport } from '../../domain/analysis';
import { percent } from '../../domain/format';
import { EmptyState } from '../../ui/EmptyState';
import { FigureCard } from './FigureCard';
import { NO_DATA } from './format';

const GRADE_NAMES: Record<number, string> = { 7: '七年级', 8: '八年级', 9: '九年级' };
const BANDS = [
  { key: 'excellent', label: '优秀（≥90%）', color: '#2e7d32' },
  { key: 'good', label: '良好（70%–90%）', color: '#1976d2' },
  { key: 'pass', label: '及格（60%–70%）', color: '#ed6c02' },
  { key: 'fail', label: '不及格（<60%）', color: '#d32f2f' },
] as const;

export const JOINT_DEFINITION = `每名考生的总分；平均分 = 总分之和 ÷ 参考人数；标准差为总分的总体标准差；优秀率 = 总分 ≥ 满分 90% 的人数 ÷ 参考人数；及格率 = ≥ 60%；低分率 = < ${LOW_SCORE_SHARE * 100}%；全区域由各校考生合计算出，不是各校数字的平均`;

const num = (v: number | null) => (v === null ? NO_DATA : String(v));

export function JointExams({ term, researcher }: { term: string; researcher: boolean }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [openId, setOpenId] = useState<number | null>(null);
  const list = useQuery({ queryKey: ['jointExams', term], queryFn: () => dataProvider.jointExams(term), retry: false });
  const report = useQuery({ queryKey: ['jointExam', openId], queryFn: () => dataProvider.jointExam(openId!), enabled: openId !== null, retry: false });
  const exams = list.data ?? [];
  return (
    <FigureCard
      testId="card-joint"
      title="区域联考"
      definition={researcher ? '本区域几所学校同卷同考，按学校并列对比（按名称排列，不作排名）' : `本校与全区域对比；不显示其他学校的数据（参考学校不少于 ${REGION_FIGURE_MIN_SCHOOLS} 所时显示全区域）`}
    >
      {list.isLoading && <LinearProgress />}
      {list.isSuccess && exams.length === 0 && (
        <EmptyState text={researcher ? '本学期本区域还没有联考：几所学校用同一份试卷考试后，联考在这里按学校并列' : '本学期本校没有参加区域联考'} />
      )}
      {exams.length > 0 && (
        <TableContainer>
          <Table size="small" aria-label="联考列表" sx={{ '& td, & th': { whiteSpace: 'nowrap' } }}>
            <TableHead>
              <TableRow>
                <TableCell>联考</TableCell>
                <TableCell>学科</TableCell>
                <TableCell>考试日期</TableCell>
                <TableCell align="right">参考学校</TableCell>
                <TableCell align="right">操作</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {exams.map((e) => (
                <TableRow key={e.id} selected={e.id === openId} data-testid="joint-row">
                  <TableCell>
                    {/* The title opens it too: on a phone the 操作 column sits past the table's edge. */}
                    <Link component="button" type="button" onClick={() => setOpenId(e.id)} sx={{ textAlign: 'left' }}>
                      {e.title}
                    </Link>
                  </TableCell>
                  <TableCell>
                    {GRADE_NAMES[e.gradeLevel] ?? ''}
                    {e.subject}
                  </TableCell>
                  <TableCell>{e.examDate}</TableCell>
                  <TableCell align="right">{e.schools}</TableCell>
                  <TableCell align="right">
                    <Button size="small" onClick={() => setOpenId(e.id)} disabled={e.id === openId}>
                      查看报告
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {openId !== null && report.isLoading && <LinearProgress sx={{ mt: 2 }} />}
      {openId !== null && report.data && <JointReport r={report.data} />}
    </FigureCard>
  );
}

function JointReport({ r }: { r: JointExamReport }) {
  const rows: ({ key: string; name: string } & JointExamFigures)[] = [
    ...r.schools.map((s) => ({ key: String(s.schoolId), name: s.schoolName, ...s })),
    ...(r.total ? [{ key: 'region', name: `全区域（${r.schoolCount} 所学校）`, ...r.total }] : []),
  ];
  return (
    <Box sx={{ mt: 2 }} data-testid="joint-report">
      <Typography variant="subtitle2" component="h3">
        {r.title} · 满分 {r.fullMarks} · {r.examDate}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
        说明：{JOINT_DEFINITION}
      </Typography>
      <TableContainer>
        <Table size="small" aria-label="联考对比" sx={{ '& td, & th': { whiteSpace: 'nowrap' } }}>
          <TableHead>
            <TableRow>
              <TableCell>学校</TableCell>
              <TableCell align="right">参考人数</TableCell>
              <TableCell align="right">平均分</TableCell>
              <TableCell align="right">标准差</TableCell>
              <TableCell align="right">最高分</TableCell>
              <TableCell align="right">最低分</TableCell>
              <TableCell align="right">优秀率</TableCell>
              <TableCell align="right">及格率</TableCell>
              <TableCell align="right">低分率</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((s) => (
              <TableRow key={s.key} data-testid="joint-school" sx={s.key === 'region' ? { '& td': { fontWeight: 600 } } : undefined}>
                <TableCell>{s.name}</TableCell>
                <TableCell align="right">{s.participants}</TableCell>
                <TableCell align="right" data-testid="joint-average">
                  {num(s.average)}
                </TableCell>
                <TableCell align="right">{num(s.standardDeviation)}</TableCell>
                <TableCell align="right">{num(s.highest)}</TableCell>
                <TableCell align="right">{num(s.lowest)}</TableCell>
                <TableCell align="right">{percent(s.excellentRate, NO_DATA)}</TableCell>
                <TableCell align="right">{percent(s.passRate, NO_DATA)}</TableCell>
                <TableCell align="right">{percent(s.lowRate, NO_DATA)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {rows.some((s) => s.participants > 0) && (
        <BarChart
          height={260}
          xAxis={[{ scaleType: 'band', data: rows.map((s) => s.name), tickLabelInterval: () => true, height: 40 }]}
          yAxis={[{ label: '人数占比（%）', min: 0, max: 100, width: 56 }]}
          series={BANDS.map((b) => ({
            data: rows.map((s) => (s.participants ? Math.round((s.bands[b.key] / s.participants) * 1000) / 10 : null)),
            label: b.label,
            color: b.color,
            stack: 'bands',
            valueFormatter: (v: number | null) => (v === null ? NO_DATA : `${v}%`),
          }))}
        />
      )}
    </Box>
  );
}
