// 告警通知 (/alarms, partner levels 1–3): the alarms of the subtree's terminals — offline too long,
// low on paper, jammed — newest open first, updated live. 标为已读 tells the rest of the subtree
// someone has seen it; 处理完成 closes it with an optional note. Alarms also close by themselves when
// the terminal is back, refilled or unjammed.
import { useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useNotify } from 'react-admin';
import { Link } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../dataProvider';
import { ALARM_KINDS, ALARM_NOTE_MAX_LENGTH, ALARM_OFFLINE_MINUTES, ALARM_PAPER_SHEETS, ALARM_STATUSES, alarmKindLabel, type AlarmRecord } from '../../domain/alarms';
import { dateTime } from '../../domain/format';
import { useLiveRefresh } from '../../live/liveEvents';
import { EmptyState } from '../../ui/EmptyState';
import { ScreenCard } from '../../ui/ScreenCard';
import { TablePaging } from '../../ui/TablePaging';
import type { ScreenProps } from '../screen';

const TONES: Record<string, 'error' | 'warning' | 'default'> = { offline: 'error', jammed: 'error', paperLow: 'warning' };

/** What the terminal said when the alarm opened, in a sentence. */
function detailText(a: AlarmRecord): string {
  const d = (a.detail ?? {}) as { lastSeenAt?: string; paperLeft?: number };
  if (a.kind === 'offline') return d.lastSeenAt ? `最后在线 ${dateTime(d.lastSeenAt)}，超过${ALARM_OFFLINE_MINUTES}分钟未收到心跳` : `超过${ALARM_OFFLINE_MINUTES}分钟未收到心跳`;
  if (a.kind === 'paperLow') return `剩余纸张 ${d.paperLeft ?? '—'} 张（不超过${ALARM_PAPER_SHEETS}张）`;
  return '终端报告卡纸，请联系学校清理';
}

function stateText(a: AlarmRecord): string {
  if (a.resolvedAt) {
    if (a.autoResolved) return `已自动恢复 · ${dateTime(a.resolvedAt)}`;
    return `${a.resolvedByName ?? ''} 处理完成 · ${dateTime(a.resolvedAt)}${a.note ? ` · ${a.note}` : ''}`;
  }
  if (a.acknowledgedAt) return `${a.acknowledgedByName ?? ''} 已读 · ${dateTime(a.acknowledgedAt)}`;
  return '未读';
}

function ResolveDialog({ alarm, onClose, onDone }: { alarm: AlarmRecord; onClose: () => void; onDone: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    try {
      await dataProvider.resolveAlarm(alarm.alarmId, note.trim() || undefined);
      notify('已标记为处理完成', { type: 'success' });
      onDone();
    } catch {
      // The http client showed why.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>处理完成</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {alarm.serial} · {alarmKindLabel(alarm.kind)} · {alarm.schoolName ?? '未部署'}
        </Typography>
        <TextField
          label="处理说明（选填）"
          value={note}
          onChange={(e) => setNote(e.target.value)}
          multiline
          minRows={2}
          fullWidth
          error={note.length > ALARM_NOTE_MAX_LENGTH}
          helperText={note.length > ALARM_NOTE_MAX_LENGTH ? `不能超过${ALARM_NOTE_MAX_LENGTH}字` : '例如：已联系学校老师补纸'}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>取消</Button>
        <Button variant="contained" disableElevation disabled={busy || note.length > ALARM_NOTE_MAX_LENGTH} onClick={submit}>
          确认处理完成
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default function Alarms({ route }: ScreenProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState('open');
  const [kind, setKind] = useState('');
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(20);
  const [resolving, setResolving] = useState<AlarmRecord>();
  const filter = { status, kind: kind || undefined };
  const list = useQuery({
    queryKey: ['alarms', filter, page, size],
    queryFn: () => dataProvider.alarmPage(filter, page + 1, size),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const reload = () => {
    void queryClient.invalidateQueries({ queryKey: ['alarms'] });
    void queryClient.invalidateQueries({ queryKey: ['alarmSummary'] });
  };
  useLiveRefresh(reload, (e) => e.type === 'alarm', 500);
  const acknowledge = async (body: { alarmIds?: number[]; all?: boolean }) => {
    try {
      await dataProvider.acknowledgeAlarms(body);
      reload();
    } catch {
      // The http client showed why.
    }
  };
  const records = list.data?.records;
  return (
    <ScreenCard
      title={route.meta.title}
      description={`所辖已部署终端离线超过${ALARM_OFFLINE_MINUTES}分钟、剩余纸张不超过${ALARM_PAPER_SHEETS}张或卡纸时产生告警；终端恢复在线、补纸或卡纸排除后告警自动恢复。`}
    >
      <Box sx={{ mt: 2, display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center' }}>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={status}
          onChange={(_, v: string | null) => {
            if (v) {
              setStatus(v);
              setPage(0);
            }
          }}
          aria-label="告警状态"
        >
          {ALARM_STATUSES.map((s) => (
            <ToggleButton key={s.value} value={s.value} sx={{ px: 1.5 }}>
              {s.label}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <TextField
          select
          size="small"
          label="告警类型"
          value={kind}
          onChange={(e) => {
            setKind(e.target.value);
            setPage(0);
          }}
          sx={{ width: 140 }}
        >
          <MenuItem value="">全部类型</MenuItem>
          {ALARM_KINDS.map((k) => (
            <MenuItem key={k.value} value={k.value}>
              {k.label}
            </MenuItem>
          ))}
        </TextField>
        <Box sx={{ flex: 1 }} />
        <Button onClick={() => acknowledge({ all: true })}>全部标为已读</Button>
      </Box>
      {list.isFetching && <LinearProgress sx={{ mt: 1 }} />}
      {records && !records.length && (
        <EmptyState text={status === 'resolved' ? '还没有处理过的告警' : '暂无告警，所辖终端运行正常'}>
          <Typography variant="body2">终端离线、缺纸或卡纸时，这里和页面右上角的铃铛会立即提示。</Typography>
          <Button component={Link} to="/devices" size="small">
            查看设备管理
          </Button>
        </EmptyState>
      )}
      <Stack spacing={1.5} sx={{ mt: 2 }} data-testid="alarm-list">
        {records?.map((a) => (
          <Paper key={a.alarmId} variant="outlined" sx={{ p: 1.5, borderRadius: 2, opacity: a.resolvedAt ? 0.75 : 1 }} data-testid="alarm-item">
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
              <Chip size="small" label={alarmKindLabel(a.kind)} color={a.resolvedAt ? 'default' : TONES[a.kind]} />
              <Typography sx={{ fontWeight: 600 }}>{a.serial}</Typography>
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                {a.schoolName ?? '未部署'} · {a.partnerName}
              </Typography>
              <Box sx={{ flex: 1 }} />
              <Typography variant="body2" color="text.secondary">
                {dateTime(a.openedAt)}
              </Typography>
            </Box>
            <Typography variant="body2" sx={{ mt: 0.75 }}>
              {detailText(a)}
            </Typography>
            <Box sx={{ mt: 0.75, display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
              <Typography variant="body2" color={a.resolvedAt || a.acknowledgedAt ? 'text.secondary' : 'error.main'} sx={{ flex: 1, minWidth: 160, overflowWrap: 'anywhere' }}>
                {stateText(a)}
              </Typography>
              {!a.resolvedAt && !a.acknowledgedAt && (
                <Button size="small" onClick={() => acknowledge({ alarmIds: [a.alarmId] })}>
                  标为已读
                </Button>
              )}
              {!a.resolvedAt && (
                <Button size="small" variant="outlined" onClick={() => setResolving(a)}>
                  处理完成
                </Button>
              )}
            </Box>
          </Paper>
        ))}
      </Stack>
      {!!list.data?.total && (
        <TablePaging
          total={list.data.total}
          page={page}
          size={size}
          sizes={[20, 50]}
          onChange={(p, s) => {
            setPage(p);
            setSize(s);
          }}
        />
      )}
      {resolving && (
        <ResolveDialog
          alarm={resolving}
          onClose={() => setResolving(undefined)}
          onDone={() => {
            setResolving(undefined);
            reload();
          }}
        />
      )}
    </ScreenCard>
  );
}
