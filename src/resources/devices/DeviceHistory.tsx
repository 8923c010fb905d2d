// A terminal's page, in a drawer over the device list: its state, a daily chart of the last 30
// days, its heartbeat and event history, its recent print jobs (students unnamed) and the schools
// it served.
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, useDataProvider } from 'react-admin';
import type { RaRecord } from 'ra-core';
import { BarChart } from '@mui/x-charts/BarChart';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import CloseOutlined from '@mui/icons-material/CloseOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import type { AppDataProvider } from '../../dataProvider';
import type { DeviceDay, DeviceEvent, DevicePrintJob } from '../../dataProvider/devices';
import { eventLabel } from '../../domain/devices';
import { PRINT_APPS, USER_KINDS } from '../../domain/partner';
import { EmptyState } from '../../ui/EmptyState';
import { PagedTable } from '../../ui/PagedTable';
import { jamStatus, onlineStatus, paperStatus } from './status';
import { dateTime } from '../../domain/format';

const DAYS = 30;

function duration(seconds: number): string {
  if (seconds < 3600) return `${Math.max(1, Math.round(seconds / 60))} 分钟`;
  if (seconds < 86400) return `${Math.round(seconds / 360) / 10} 小时`;
  return `${Math.round(seconds / 8640) / 10} 天`;
}

/** What an event's detail says, in words. */
export function eventText(event: DeviceEvent): string {
  const d = event.detail ?? {};
  switch (event.kind) {
    case 'online':
      return `离线 ${duration(Number(d.offlineSeconds))} 后恢复心跳`;
    case 'paperLow':
      return `剩余 ${d.paperLeft} 张`;
    case 'paperRefilled':
      return `${d.from} 张 → ${d.to} 张`;
    case 'firmware':
      return `${d.from} → ${d.to}`;
    case 'bound':
    case 'unbound':
      return [d.schoolName, d.by ? `操作人：${d.by}` : ''].filter(Boolean).join('，');
    case 'registered':
    case 'secretRotated':
      return d.by ? `操作人：${d.by}` : '';
    default:
      return '';
  }
}

const label = (options: { label: string; value: number }[], value: number) => options.find((o) => o.value === value)?.label ?? '-';

function Fact({ name, children }: { name: string; children: ReactNode }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {name}
      </Typography>
      <Typography variant="body2" component="div" sx={{ mt: 0.25 }}>
        {children}
      </Typography>
    </Box>
  );
}

function DailyChart({ days }: { days: DeviceDay[] }) {
  if (!days.some((d) => d.jobs || d.signIns)) return <EmptyState text={`近${DAYS}天暂无打印`} />;
  const total = days.reduce((s, d) => ({ jobs: s.jobs + d.jobs, pages: s.pages + d.pages }), { jobs: 0, pages: 0 });
  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        近{DAYS}天共打印 {total.jobs} 次、{total.pages} 页
      </Typography>
      <BarChart
        height={260}
        margin={{ left: 0, right: 8 }}
        xAxis={[{ scaleType: 'band', data: days.map((d) => d.day.slice(5)), tickLabelStyle: { fontSize: 11 } }]}
        series={[
          { data: days.map((d) => d.pages), label: '打印页数', color: '#1976d2' },
          { data: days.map((d) => d.jobs), label: '打印次数', color: '#9c27b0' },
        ]}
      />
    </Box>
  );
}

function DevicePanel({ deviceId, onClose }: { deviceId: number; onClose: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [tab, setTab] = useState(0);
  const detailQuery = useQuery({ queryKey: ['deviceDetail', deviceId], queryFn: () => dataProvider.deviceDetail(deviceId), retry: false });
  const detail = detailQuery.data;
  // A terminal that cannot be read closes its panel.
  useEffect(() => {
    if (detailQuery.isError) onClose();
  }, [detailQuery.isError, onClose]);
  const daily = useQuery({ queryKey: ['deviceDaily', deviceId, DAYS], queryFn: () => dataProvider.deviceDaily(deviceId, DAYS), retry: false });
  const days = daily.isError ? [] : daily.data;
  if (!detail) return <LinearProgress />;
  const chips = [onlineStatus(detail as unknown as RaRecord), paperStatus(detail as unknown as RaRecord), jamStatus(detail as unknown as RaRecord)];
  return (
    <Box sx={{ p: 3 }} role="region" aria-label="设备详情">
      <Stack direction="row" alignItems="center" spacing={1} sx={{ mb: 2 }}>
        <Typography variant="h6" sx={{ flex: 1 }}>
          设备 {detail.serial}
        </Typography>
        <IconButton onClick={onClose} aria-label="关闭">
          <CloseOutlined />
        </IconButton>
      </Stack>
      <Stack direction="row" spacing={1} sx={{ mb: 2 }}>
        {chips.map((c) => (
          <Chip key={c.label} size="small" label={c.label} color={c.tone} variant={c.tone === 'default' ? 'outlined' : 'filled'} />
        ))}
      </Stack>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: 2, mb: 2 }}>
        <Fact name="型号">{detail.model}</Fact>
        <Fact name="所属合作伙伴">{detail.partnerName}</Fact>
        <Fact name="部署学校">{detail.schoolName ?? '未部署'}</Fact>
        <Fact name="固件版本">{detail.firmware}</Fact>
        <Fact name="最近心跳">{dateTime(detail.lastHeartbeatAt)}</Fact>
        <Fact name="最近在线">{dateTime(detail.lastSeenAt)}</Fact>
      </Box>
      <Tabs value={tab} onChange={(_, next: number) => setTab(next)} sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Tab label="每日打印" />
        <Tab label="状态记录" />
        <Tab label="打印记录" />
        <Tab label="绑定记录" />
      </Tabs>
      {tab === 0 && (days ? <DailyChart days={days} /> : <LinearProgress sx={{ mt: 2 }} />)}
      {tab === 1 && <PagedTable queryKey={['deviceEvents', deviceId]} load={(current, size) => dataProvider.deviceEvents(deviceId, current, size)} head={['时间', '事件', '说明']} row={(e: DeviceEvent) => [dateTime(e.at), eventLabel(e.kind), eventText(e) || '-']} />}
      {tab === 2 && (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
            为保护学生隐私，打印记录不显示学生姓名；学生的使用情况请在数据看板中按日期查看。
          </Typography>
          <PagedTable
            queryKey={['devicePrintJobs', deviceId]}
            load={(current, size) => dataProvider.devicePrintJobs(deviceId, current, size)}
            head={['打印时间', '用户', '身份', '应用', '学科', '页数']}
            row={(j: DevicePrintJob) => [dateTime(j.printedAt), j.userName ?? '-', label(USER_KINDS, j.userKind), label(PRINT_APPS, j.app), j.subjectName ?? '-', j.pages]}
          />
        </>
      )}
      {tab === 3 &&
        (detail.bindings.length ? (
          <Table size="small">
            <TableHead>
              <TableRow>
                {['学校', '绑定时间', '解绑时间', '操作人'].map((h) => (
                  <TableCell key={h} sx={{ fontWeight: 600, bgcolor: 'grey.50' }}>
                    {h}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {detail.bindings.map((b, i) => (
                <TableRow key={i}>
                  <TableCell>{b.schoolName}</TableCell>
                  <TableCell>{dateTime(b.boundAt)}</TableCell>
                  <TableCell>{b.unboundAt ? dateTime(b.unboundAt) : '使用中'}</TableCell>
                  <TableCell>{[b.boundBy, b.unboundBy].filter(Boolean).join(' / ') || '-'}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : (
          <EmptyState />
        ))}
    </Box>
  );
}

/** Row action: the terminal's history drawer. */
export function HistoryButton({ record }: { record: RaRecord }) {
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  return (
    <>
      <Button label="详情" onClick={() => setOpen(true)}>
        <HistoryOutlined />
      </Button>
      <Drawer anchor="right" open={open} onClose={close} PaperProps={{ sx: { width: { xs: '100%', md: 760 } } }}>
        {open && <DevicePanel deviceId={Number(record.id)} onClose={close} />}
      </Drawer>
    </>
  );
}
