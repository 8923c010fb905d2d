// The KPI cards of a board (docs/api-partner-boards.md defines each figure).
import Box from '@mui/material/Box';
import type { BoardKpis as Kpis } from '../../dataProvider/partnerBoards';
import { Tile } from '../../ui/Tile';
import { count } from './UsageChart';

export function BoardKpis({ kpis, schools = true }: { kpis: Kpis; schools?: boolean }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(190px, 1fr))', gap: 2, mt: 2 }}>
      <Tile label="打印量" value={kpis.pages} unit="页" hint={`打印任务 ${count(kpis.jobs)} 个`} />
      <Tile label="使用次数" value={kpis.uses} unit="次" hint="终端登录次数" />
      <Tile label="用户数" value={kpis.users} unit="人次" hint="每天使用的人数之和" />
      {schools && <Tile label="活跃学校" value={kpis.activeSchools} unit="所" hint="有使用记录的学校" />}
      <Tile label="活跃设备 / 设备总数" value={`${count(kpis.activeDevices)} / ${count(kpis.devices)}`} unit="台" hint="有登录或打印的终端" />
      <Tile label="在线设备" value={kpis.onlineDevices} unit="台" hint="当前在线的终端" />
    </Box>
  );
}
