// 学校看板 (/school-dashboard?schoolId=…, partner view, full screen): one school's usage on the
// partner's terminals in the range — KPI cards, trend, apps and subjects, grades and classes, its
// terminals and the students who print most (name and class only). A student opens their detail.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { useNavigate, useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { BarChart } from '@mui/x-charts/BarChart';
import type { AppDataProvider } from '../../dataProvider';
import type { SchoolBoard as Board } from '../../dataProvider/partnerBoards';
import type { RangeQuery } from '../../domain/boardRange';
import { dateTime } from '../../domain/format';
import { ROLE_FILTERS } from '../../domain/partner';
import { EmptyState } from '../../ui/EmptyState';
import { FigureCard } from '../analysis/FigureCard';
import { BoardFrame } from './BoardFrame';
import { BoardKpis } from './BoardKpis';
import { RangeFilter, rangeFromSearch, rangeToSearch } from './RangeFilter';
import { count, SharePie, UsageChart } from './UsageChart';

export default function SchoolBoard() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const schoolId = Number(search.get('schoolId'));
  const range = rangeFromSearch(search);
  const [userKind, setUserKind] = useState(0);
  const query = useQuery({ queryKey: ['schoolBoard', schoolId, range, userKind], queryFn: () => dataProvider.schoolBoard(schoolId, { ...range, userKind }), enabled: !!schoolId, retry: false });
  const board = !schoolId || query.isError ? null : query.data;

  const setRange = (next: RangeQuery) => setSearch({ schoolId: String(schoolId), ...rangeToSearch(next) }, { replace: true });
  const openStudent = (studentId: number) => navigate(`/student-usage-detail?${new URLSearchParams({ schoolId: String(schoolId), studentId: String(studentId), ...rangeToSearch(range) })}`);

  return (
    <BoardFrame
      title={board?.school.name ?? '学校看板'}
      subtitle={board && `${board.school.region} · 在读学生 ${count(board.school.students)} 名${board.school.partnerName ? ` · 直营：${board.school.partnerName}` : ''}`}
      filters={
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 1.5 }}>
          <RangeFilter value={range} onChange={setRange} />
          <ToggleButtonGroup size="small" exclusive color="primary" value={userKind} onChange={(_, v: number | null) => v !== null && setUserKind(v)} aria-label="角色">
            {ROLE_FILTERS.map((o) => (
              <ToggleButton key={o.value} value={o.value} sx={{ px: 1.5 }}>
                {o.label}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        </Box>
      }
    >
      {board === undefined && <LinearProgress />}
      {board === null && <EmptyState text="学校看板加载失败，请返回后重试" />}
      {board && <Content board={board} openStudent={openStudent} />}
    </BoardFrame>
  );
}

function Content({ board, openStudent }: { board: Board; openStudent: (id: number) => void }) {
  const { range } = board;
  return (
    <>
      <BoardKpis kpis={board.kpis} schools={false} />
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: '2fr 1fr 1fr' }, gap: 2 }}>
        <FigureCard testId="card-trend" title="使用趋势" definition="打印量（页）与使用次数（登录）">
          <UsageChart
            range={range}
            height={300}
            series={[
              { id: 1, name: '打印量', values: board.trend.pages, total: board.kpis.pages },
              { id: 2, name: '使用次数', values: board.trend.uses, total: board.kpis.uses },
            ]}
          />
        </FigureCard>
        <FigureCard testId="card-apps" title="按应用" definition="各应用打印的页数">
          <SharePie items={board.byApp} height={300} />
        </FigureCard>
        <FigureCard testId="card-subjects" title="按学科" definition="各学科打印的页数">
          <SharePie items={board.bySubject} height={300} />
        </FigureCard>
      </Box>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' }, gap: 2 }}>
        <FigureCard testId="card-classes" title="年级与班级" definition="学生打印的页数；使用学生 = 所选时间内打印过的在读学生">
          {board.byGrade.some((g) => g.pages > 0) ? (
            <BarChart
              height={220}
              layout="horizontal"
              yAxis={[{ scaleType: 'band', data: board.byGrade.map((g) => g.gradeName), width: 64 }]}
              // Each bar says its pages, so the chart reads without hovering.
              series={[
                {
                  data: board.byGrade.map((g) => g.pages),
                  label: '打印量（页）',
                  color: '#4e79a7',
                  valueFormatter: (v) => count(v ?? 0),
                  barLabel: (item) => (item.value ? count(item.value) : ''),
                  barLabelPlacement: 'outside',
                },
              ]}
              xAxis={[{ valueFormatter: (v: number) => count(v) }]}
              margin={{ right: 56 }}
              hideLegend
            />
          ) : (
            <EmptyState />
          )}
          <TableContainer sx={{ maxHeight: 360 }}>
            <Table size="small" stickyHeader aria-label="班级">
              <TableHead>
                <TableRow>
                  <TableCell>班级</TableCell>
                  <TableCell align="right">在读学生</TableCell>
                  <TableCell align="right">使用学生</TableCell>
                  <TableCell align="right">打印量（页）</TableCell>
                  <TableCell align="right">打印任务</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {board.byClass.map((c) => (
                  <TableRow key={c.classId}>
                    <TableCell>{c.className}</TableCell>
                    <TableCell align="right">{count(c.students)}</TableCell>
                    <TableCell align="right">{count(c.activeStudents)}</TableCell>
                    <TableCell align="right">{count(c.pages)}</TableCell>
                    <TableCell align="right">{count(c.jobs)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </FigureCard>
        <FigureCard testId="card-top-students" title="打印最多的学生" definition="所选时间内打印页数最多的 10 名学生，点击姓名查看使用明细">
          {board.topStudents.length ? (
            <TableContainer>
              <Table size="small" aria-label="打印最多的学生">
                <TableHead>
                  <TableRow>
                    <TableCell>学生</TableCell>
                    <TableCell>班级</TableCell>
                    <TableCell align="right">打印量（页）</TableCell>
                    <TableCell align="right">打印任务</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {board.topStudents.map((s) => (
                    <TableRow key={s.studentId} hover sx={{ cursor: 'pointer' }} onClick={() => openStudent(s.studentId)} data-testid="top-student">
                      <TableCell sx={{ color: 'primary.main' }}>{s.name}</TableCell>
                      <TableCell>{s.className ?? '—'}</TableCell>
                      <TableCell align="right">{count(s.pages)}</TableCell>
                      <TableCell align="right">{count(s.jobs)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          ) : (
            <EmptyState />
          )}
        </FigureCard>
      </Box>
      <FigureCard testId="card-devices" title="学校终端" definition="本校的所辖终端；打印量、登录次数为所选时间内">
        {board.devices.length ? (
          <TableContainer>
            <Table size="small" aria-label="学校终端">
              <TableHead>
                <TableRow>
                  <TableCell>序列号</TableCell>
                  <TableCell>型号</TableCell>
                  <TableCell>状态</TableCell>
                  <TableCell align="right">剩余纸张（张）</TableCell>
                  <TableCell align="right">打印量（页）</TableCell>
                  <TableCell align="right">打印任务</TableCell>
                  <TableCell align="right">登录次数</TableCell>
                  <TableCell>最近在线</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {board.devices.map((d) => (
                  <TableRow key={d.id}>
                    <TableCell>{d.serial}</TableCell>
                    <TableCell>{d.model}</TableCell>
                    <TableCell>
                      <Chip size="small" label={d.online ? '在线' : '离线'} color={d.online ? 'success' : 'default'} variant="outlined" />
                    </TableCell>
                    <TableCell align="right">{count(d.paperLeft)}</TableCell>
                    <TableCell align="right">{count(d.pages)}</TableCell>
                    <TableCell align="right">{count(d.jobs)}</TableCell>
                    <TableCell align="right">{count(d.signIns)}</TableCell>
                    <TableCell>{d.lastSeenAt ? dateTime(d.lastSeenAt) : '—'}</TableCell>
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
  );
}
