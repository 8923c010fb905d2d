// 学生详情 (/student-usage-detail?schoolId=…&studentId=…, full screen): one student's use of the
// partner's terminals in the range — pages by subject over time, by app, and the print jobs and
// sign-ins page by page. Name and class only: no phone numbers, no scores; days, not times (an
// anonymous 学生心声's hour and who stood at the terminal then must not meet).
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Tab from '@mui/material/Tab';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import type { AppDataProvider } from '../../dataProvider';
import type { Page } from '../../dataProvider/adapters';
import type { StudentPrintJob, StudentSignInDay } from '../../dataProvider/partnerBoards';
import type { RangeQuery } from '../../domain/boardRange';
import { EmptyState } from '../../ui/EmptyState';
import { Tile } from '../../ui/Tile';
import { FigureCard } from '../analysis/FigureCard';
import { BoardFrame } from './BoardFrame';
import { RangeFilter, rangeFromSearch, rangeToSearch } from './RangeFilter';
import { SharePie, UsageChart } from './UsageChart';
import { TablePaging } from '../../ui/TablePaging';

const PAGE_SIZE = 10;

export default function StudentUsageDetail() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [search, setSearch] = useSearchParams();
  const schoolId = Number(search.get('schoolId'));
  const studentId = Number(search.get('studentId'));
  const range = rangeFromSearch(search);
  const rangeKey = JSON.stringify(range);
  const valid = !!schoolId && !!studentId;
  const query = useQuery({ queryKey: ['studentUsage', schoolId, studentId, range], queryFn: () => dataProvider.studentUsage(schoolId, studentId, range), enabled: valid, retry: false });
  const usage = !valid || query.isError ? null : query.data;

  const setRange = (next: RangeQuery) => setSearch({ schoolId: String(schoolId), studentId: String(studentId), ...rangeToSearch(next) }, { replace: true });
  const student = usage?.student;
  return (
    <BoardFrame
      title={student ? `${student.name} 的使用明细` : '学生详情'}
      subtitle={student && [student.gradeName, student.className].filter(Boolean).join(' · ')}
      filters={<RangeFilter value={range} onChange={setRange} />}
    >
      {usage === undefined && <LinearProgress />}
      {usage === null && <EmptyState text="学生详情加载失败，请返回后重试" />}
      {usage && (
        <>
          <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(190px, 1fr))', gap: 2 }}>
            <Tile label="打印量" value={usage.kpis.pages} unit="页" />
            <Tile label="打印任务" value={usage.kpis.jobs} unit="个" />
            <Tile label="登录次数" value={usage.kpis.signIns} unit="次" />
            <Tile label="使用天数" value={usage.kpis.activeDays} unit="天" hint="有登录或打印的天数" />
          </Box>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: '2fr 1fr' }, gap: 2 }}>
            <FigureCard testId="card-subjects" title="各学科打印量" definition="按学科分的打印页数">
              <UsageChart range={usage.range} series={usage.bySubject} stacked height={300} />
            </FigureCard>
            <FigureCard testId="card-apps" title="按应用" definition="各应用打印的页数">
              <SharePie items={usage.byApp.map((a) => ({ id: a.id, name: a.name, total: a.pages }))} height={300} />
            </FigureCard>
          </Box>
          <Records schoolId={schoolId} studentId={studentId} rangeKey={rangeKey} />
        </>
      )}
    </BoardFrame>
  );
}

/** `rangeKey`: the range as JSON, so the lists reload when its value changes, not its identity. */
function Records({ schoolId, studentId, rangeKey }: { schoolId: number; studentId: number; rangeKey: string }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [tab, setTab] = useState<'jobs' | 'signIns'>('jobs');
  const [current, setCurrent] = useState(1);

  useEffect(() => setCurrent(1), [tab, rangeKey]);
  const query = useQuery({
    queryKey: ['studentRecords', schoolId, studentId, rangeKey, tab, current],
    queryFn: (): Promise<Page<StudentPrintJob | StudentSignInDay>> => {
      const load = tab === 'jobs' ? dataProvider.studentPrintJobs : dataProvider.studentSignIns;
      return load(schoolId, studentId, JSON.parse(rangeKey) as RangeQuery, current, PAGE_SIZE);
    },
    retry: false,
  });
  const page = query.isError ? null : query.data;

  return (
    <FigureCard testId="card-records" title="使用记录" definition="所选时间内的打印与登录，最新的在前；为保护学生隐私，只显示日期，不显示具体时间">
      <Tabs value={tab} onChange={(_, v) => setTab(v)} sx={{ mb: 1 }}>
        <Tab value="jobs" label="打印记录" />
        <Tab value="signIns" label="登录记录" />
      </Tabs>
      {page === undefined && <LinearProgress />}
      {page === null && <EmptyState text="加载失败，请稍后重试" />}
      {page && page.total === 0 && <EmptyState />}
      {page && page.total > 0 && (
        <>
          <TableContainer>
            {/* Short values on one line each; a narrow screen scrolls the table sideways. */}
            <Table size="small" aria-label={tab === 'jobs' ? '打印记录' : '登录记录'} sx={{ '& th, & td': { whiteSpace: 'nowrap' } }}>
              <TableHead>
                {tab === 'jobs' ? (
                  <TableRow>
                    <TableCell>打印日期</TableCell>
                    <TableCell>应用</TableCell>
                    <TableCell>学科</TableCell>
                    <TableCell align="right">页数</TableCell>
                    <TableCell>终端</TableCell>
                  </TableRow>
                ) : (
                  <TableRow>
                    <TableCell>日期</TableCell>
                    <TableCell align="right">登录次数</TableCell>
                    <TableCell>终端</TableCell>
                  </TableRow>
                )}
              </TableHead>
              <TableBody>
                {page.records.map((r) =>
                  'appName' in r ? (
                    <TableRow key={r.id} data-testid="record-row">
                      <TableCell>{r.day}</TableCell>
                      <TableCell>{r.appName}</TableCell>
                      <TableCell>{r.subjectName}</TableCell>
                      <TableCell align="right">{r.pages}</TableCell>
                      <TableCell>{r.deviceSerial}</TableCell>
                    </TableRow>
                  ) : (
                    <TableRow key={r.day} data-testid="record-row">
                      <TableCell>{r.day}</TableCell>
                      <TableCell align="right">{r.signIns}</TableCell>
                      <TableCell>
                        {r.deviceSerials.map((serial) => (
                          <div key={serial}>{serial}</div>
                        ))}
                      </TableCell>
                    </TableRow>
                  ),
                )}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePaging total={page.total} page={current - 1} size={PAGE_SIZE} sizes={[PAGE_SIZE]} onChange={(p) => setCurrent(p + 1)} />
        </>
      )}
    </FigureCard>
  );
}
