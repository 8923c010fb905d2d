// The device list follows the fleet live: a terminal going offline or coming back, a jam, paper
// running low or refilled, an alarm opening or closing reload the list (at most once a second)
// without the page being reloaded. Plain beats change nothing the list shows but 最近在线, and
// thirty terminals beating a minute would reload it every two seconds: those are left out.
import { useRefresh } from 'react-admin';
import Chip from '@mui/material/Chip';
import { useLiveRefresh } from '../../live/liveEvents';

export function LiveRefresh() {
  const refresh = useRefresh();
  useLiveRefresh(refresh, (e) => e.type === 'change' || e.type === 'alarm');
  return <Chip size="small" color="success" variant="outlined" label="实时更新" sx={{ alignSelf: 'center' }} />;
}
