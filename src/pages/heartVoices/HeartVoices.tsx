// 学生心声 (/heart-sounds) of the psychology teacher: the school's messages for the header's grade
// and class, suspected 高危 ones not yet handled pinned on top, with the unseen high-risk alerts
// above; search, status and level filters; counts export; the mood chart below. The list holds no
// message text: opening a message (its page) is the recorded read.
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import PushPinOutlined from '@mui/icons-material/PushPinOutlined';
import type { AppDataProvider } from '../../dataProvider';
import type { HeartNotice } from '../../dataProvider/heartVoices';
import { HeartNoticeKind, labelOf, MOODS, RISK_LEVELS, VOICE_CATEGORIES, VOICE_STATUSES } from '../../domain/heartVoices';
import { useSelection } from '../../filters/SelectionProvider';
import { classLabel } from '../../filters/widgets';
import type { ScreenProps } from '../screen';
import { EmptyState } from '../../ui/EmptyState';
import { ScreenCard } from '../../ui/ScreenCard';
import { dayHour, dayTime } from '../../domain/format';
import { LevelChip, placeText, riskTypesText, StatusChip } from './labels';
import { MoodChart } from './MoodChart';
import { TablePaging } from '../../ui/TablePaging';
import { useHeartNotices } from './useHeartNotices';

const PAGE_SIZE = 10;



function Notices({ notices }: { notices: HeartNotice[] }) {
  const navigate = useNavigate();
  if (!notices.length) return null;
  const first = notices.find((n) => n.voiceId);
  const fresh = notices.filter((n) => n.kind !== HeartNoticeKind.reminder);
  const overdue = notices.filter((n) => n.kind === HeartNoticeKind.reminder);
  return (
    <Alert
      severity="error"
      data-testid="heart-alert"
      sx={{ mt: 2 }}
      action={
        first && (
          <Button color="inherit" size="small" onClick={() => navigate(`/heart-sounds/detail?id=${first.voiceId}`)}>
            立即查看
          </Button>
        )
      }
    >
      {fresh.length > 0 && <>收到 {fresh.length} 条疑似高危的学生心声，请尽快查看并确认等级。最近一条：{dayHour(fresh[0].createdAt)}</>}
      {/* Reminders (kind 3): a suspected 高危 message still unconfirmed 24 h after it came in. */}
      {overdue.length > 0 && <Box data-testid="heart-reminder">{overdue.length} 条疑似高危的学生心声超过 24 小时仍未确认等级，请尽快确认。</Box>}
    </Alert>
  );
}

export default function HeartVoices({ route }: ScreenProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const { selection } = useSelection();
  const { gradeId, classId } = selection;
  const [keyword, setKeyword] = useState('');
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('');
  const [level, setLevel] = useState('');
  const [current, setCurrent] = useState(1);
  const [notices] = useHeartNotices();

  useEffect(() => setCurrent(1), [gradeId, classId, search, status, level]);
  const filter = { gradeId, classId, current, size: PAGE_SIZE, keyword: search, status: status === '' ? undefined : Number(status), level: level ? Number(level) : undefined };
  const query = useQuery({ queryKey: ['heartVoices', filter], queryFn: () => dataProvider.heartVoices(filter), retry: false });
  const page = query.isError ? null : query.data;

  const scope = (classId && selection.className ? classLabel(selection.gradeName, selection.className) : gradeId && selection.gradeName) || '全校';
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>
      <ScreenCard
        title={route.meta.title}
        description={`${scope}学生在打印终端写下的心声。机器只提示疑似高危，等级以心理老师确认为准；打开一条心声会记入查阅记录（学校管理员可见）。`}
      >
        <Notices notices={notices} />
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', mt: 2 }}>
          <TextField
            size="small"
            label="搜索"
            placeholder="心声内容或实名学生姓名"
            value={keyword}
            onChange={(e) => setKeyword(e.target.value)}
            onKeyDown={(e) => e.key === 'Enter' && setSearch(keyword.trim())}
            onBlur={() => setSearch(keyword.trim())}
            slotProps={{ htmlInput: { maxLength: 50, 'data-testid': 'heart-search' } }}
            sx={{ width: 240 }}
          />
          <TextField select size="small" label="状态" value={status} onChange={(e) => setStatus(e.target.value)} sx={{ width: 120 }}>
            <MenuItem value="">全部</MenuItem>
            {VOICE_STATUSES.map((s) => (
              <MenuItem key={s.value} value={String(s.value)}>
                {s.label}
              </MenuItem>
            ))}
          </TextField>
          <TextField select size="small" label="等级" value={level} onChange={(e) => setLevel(e.target.value)} sx={{ width: 120 }}>
            <MenuItem value="">全部</MenuItem>
            {RISK_LEVELS.map((l) => (
              <MenuItem key={l.value} value={String(l.value)}>
                {l.label}
              </MenuItem>
            ))}
          </TextField>
          <Box sx={{ flex: 1 }} />
          <Button variant="outlined" startIcon={<FileDownloadOutlined />} onClick={() => dataProvider.exportHeartCounts({ gradeId, classId })}>
            导出统计
          </Button>
        </Box>
        {page === undefined && <LinearProgress sx={{ mt: 2 }} />}
        {page === null && <EmptyState text="学生心声加载失败，请稍后重试" />}
        {page && page.records.length === 0 && <EmptyState />}
        {page && page.records.length > 0 && (
          <>
            <TableContainer sx={{ mt: 2 }}>
              <Table size="small" data-testid="heart-list">
                <TableHead>
                  <TableRow>
                    <TableCell>写下时间</TableCell>
                    <TableCell>年级班级</TableCell>
                    <TableCell>学生</TableCell>
                    <TableCell>分类</TableCell>
                    <TableCell>心情</TableCell>
                    <TableCell>机器提示</TableCell>
                    <TableCell>确认等级</TableCell>
                    <TableCell>状态</TableCell>
                    <TableCell align="right">操作</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {page.records.map((r) => (
                    <TableRow
                      key={r.id}
                      data-testid="heart-row"
                      data-pinned={r.pinned}
                      hover
                      sx={r.pinned ? { bgcolor: 'rgba(211, 47, 47, 0.06)', '& td:first-of-type': { borderLeft: '3px solid', borderLeftColor: 'error.main' } } : undefined}
                    >
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>
                        {r.pinned && <PushPinOutlined color="error" sx={{ fontSize: 16, verticalAlign: 'middle', mr: 0.5 }} titleAccess="置顶" />}
                        {r.anonymous ? <span title="匿名心声的时间只精确到小时">{dayHour(r.createdAt)}</span> : dayTime(r.createdAt)}
                      </TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{placeText(r)}</TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.anonymous ? <Chip size="small" label="匿名" /> : r.studentName}</TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{labelOf(VOICE_CATEGORIES, r.category)}</TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.mood ? labelOf(MOODS, r.mood) : '未选'}</TableCell>
                      <TableCell>
                        {r.suggestedLevel > 1 ? (
                          <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'center', flexWrap: 'wrap' }}>
                            <LevelChip level={r.suggestedLevel} suggested />
                            <Box component="span" sx={{ fontSize: 12, color: 'text.secondary' }}>
                              {riskTypesText(r.riskTypes)}
                            </Box>
                          </Box>
                        ) : (
                          <Box component="span" sx={{ color: 'text.secondary' }}>
                            无
                          </Box>
                        )}
                      </TableCell>
                      <TableCell>{r.confirmedLevel ? <LevelChip level={r.confirmedLevel} /> : <LevelChip level={null} />}</TableCell>
                      <TableCell>
                        <StatusChip status={r.status} />
                      </TableCell>
                      <TableCell align="right">
                        <Button size="small" component={RouterLink} to={`/heart-sounds/detail?id=${r.id}`}>
                          查看
                        </Button>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
            <TablePaging total={page.total} page={current - 1} size={PAGE_SIZE} sizes={[PAGE_SIZE]} onChange={(p) => setCurrent(p + 1)} />
          </>
        )}
      </ScreenCard>
      <MoodChart place={{ gradeId, classId }} />
    </Box>
  );
}
