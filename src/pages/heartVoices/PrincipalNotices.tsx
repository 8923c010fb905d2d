// The principal's notices of 学生心声: each reveal of an anonymous writer by a psychology teacher
// (with its reason) shows above the principal's landing screen until marked as read.
import { useDataProvider } from 'react-admin';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { AppDataProvider } from '../../dataProvider';
import { dayTime } from '../../domain/format';
import { useHeartNotices } from './useHeartNotices';

export function PrincipalNotices() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [notices, clear] = useHeartNotices();
  if (!notices.length) return null;
  const seen = () => dataProvider.markHeartNoticesSeen(notices.map((n) => n.id)).then(clear, () => undefined);
  return (
    <Alert
      severity="warning"
      data-testid="principal-notices"
      action={
        <Button color="inherit" size="small" onClick={seen}>
          知道了
        </Button>
      }
    >
      <AlertTitle>学生心声提醒（{notices.length}）</AlertTitle>
      {notices.map((n) => (
        <Box key={n.id} sx={{ mb: 0.5 }}>
          {dayTime(n.createdAt)}　{n.text}
        </Box>
      ))}
    </Alert>
  );
}
