// How many 高危 cases of the school are open, for the principal and the school admin: counts only
// (no message, no student), so they can see that crises are being followed up without reading them.
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import Alert from '@mui/material/Alert';
import type { SxProps, Theme } from '@mui/material/styles';
import type { AppDataProvider } from '../../dataProvider';

export function OpenHighRisk({ sx }: { sx?: SxProps<Theme> }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const { data } = useQuery({ queryKey: ['heartOpenHighRisk'], queryFn: () => dataProvider.heartOpenHighRisk(), retry: false });
  if (!data) return null;
  const details = [data.unconfirmed ? `${data.unconfirmed} 条尚未确认等级` : '', data.overdue ? `其中 ${data.overdue} 条已超过 48 小时` : ''].filter(Boolean).join('，');
  return (
    <Alert severity={data.overdue ? 'error' : data.open ? 'warning' : 'success'} data-testid="open-high-risk" sx={sx}>
      {data.open ? `本校未结案的高危学生心声：${data.open} 条${details ? `（${details}）` : ''}。由心理教师跟进处理。` : '本校目前没有未结案的高危学生心声。'}
    </Alert>
  );
}
