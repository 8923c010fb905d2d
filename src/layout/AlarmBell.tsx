// The partner's 告警 bell in the header: how many alarms of the subtree's terminals are open and
// not yet confirmed, kept current by the live event stream, leading to 告警通知 (/alarms).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { Link } from 'react-router-dom';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import type { AppDataProvider } from '../dataProvider';
import { useLiveRefresh } from '../live/liveEvents';

export function AlarmBell() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const summary = useQuery({ queryKey: ['alarmSummary'], queryFn: () => dataProvider.alarmSummary(), retry: false, refetchInterval: 5 * 60_000 }).data;
  useLiveRefresh(
    () => void queryClient.invalidateQueries({ queryKey: ['alarmSummary'] }),
    (e) => e.type === 'alarm',
    300,
  );
  const unread = summary?.unread ?? 0;
  const label = unread ? `告警通知：${unread}条未读` : '告警通知';
  return (
    <Tooltip title={label}>
      <IconButton component={Link} to="/alarms" aria-label={label} data-testid="alarm-bell" sx={{ flexShrink: 0 }}>
        <Badge badgeContent={unread} color="error" max={99} data-testid="alarm-count">
          <NotificationsOutlined />
        </Badge>
      </IconButton>
    </Tooltip>
  );
}
