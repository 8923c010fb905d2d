// 补货建议 on 我的账户: the schools whose terminals' paper lasts fewer than REORDER_BELOW_DAYS at
// the last 14 days' pace, the sheets that would carry them through REORDER_COVER_DAYS, and the
// packs that make them up; 按建议填写订单 puts those quantities into the order form below.
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../dataProvider';
import type { ReorderItem } from '../../domain/consumption';
import { REORDER_BELOW_DAYS, REORDER_COVER_DAYS } from '../../domain/alarms';
import { daysText } from '../partnerBoards/FleetCard';

export function ReorderSuggestion({ onFill }: { onFill: (items: ReorderItem[]) => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const data = useQuery({ queryKey: ['paperConsumption'], queryFn: () => dataProvider.paperConsumption(), retry: false }).data;
  if (!data) return <Typography color="text.secondary">正在计算各校纸张可用天数…</Typography>;
  const low = data.schools.filter((s) => s.needSheets > 0);
  if (!data.schools.length) {
    return <Typography color="text.secondary">还没有部署到学校的终端。在设备管理中把终端绑定到学校后，这里会按各校打印量给出补货建议。</Typography>;
  }
  if (!low.length) {
    return (
      <Typography color="text.secondary" data-testid="reorder-none">
        各校纸张按近{data.days}天的打印量均可用{REORDER_BELOW_DAYS}天以上，暂不需要补货。
      </Typography>
    );
  }
  return (
    <Stack spacing={1.5} data-testid="reorder">
      <Typography variant="body2">
        {low.length}所学校的纸张预计不足{REORDER_BELOW_DAYS}天，补足{REORDER_COVER_DAYS}天用量约需 <b>{data.reorder.needSheets.toLocaleString('zh-CN')}</b> 张：
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        {low.map((s) => (
          <Chip key={s.schoolId} size="small" color="warning" variant="outlined" label={`${s.schoolName} · 剩${s.paperLeft}张 · ${daysText(s.daysLeft)}`} sx={{ maxWidth: '100%' }} />
        ))}
      </Box>
      <Typography variant="body2" color="text.secondary">
        建议进货：{data.reorder.items.map((i) => `${i.name} × ${i.quantity}`).join('，')}
      </Typography>
      <Box>
        <Button variant="contained" disableElevation onClick={() => onFill(data.reorder.items)}>
          按建议填写订单
        </Button>
      </Box>
    </Stack>
  );
}
