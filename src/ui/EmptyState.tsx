// The honest empty state: what a screen shows while it has nothing to show.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import InboxOutlined from '@mui/icons-material/InboxOutlined';

export function EmptyState({ text = '暂无数据' }: { text?: string }) {
  return (
    <Box sx={{ py: 8, display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1, color: 'text.disabled' }}>
      <InboxOutlined sx={{ fontSize: 56 }} />
      <Typography color="text.secondary">{text}</Typography>
    </Box>
  );
}
