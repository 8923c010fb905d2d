// The honest empty state: what a screen shows while it has nothing to show, and, where a first step
// exists, what to do first (children: a sentence and the buttons that take it).
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import InboxOutlined from '@mui/icons-material/InboxOutlined';

export function EmptyState({ text = '暂无数据', children }: { text?: string; children?: ReactNode }) {
  return (
    <Box sx={{ py: 8, px: 2, display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1, color: 'text.disabled', textAlign: 'center' }}>
      <InboxOutlined sx={{ fontSize: 56 }} />
      <Typography color="text.secondary">{text}</Typography>
      {children && <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1.5, color: 'text.secondary', maxWidth: 420 }}>{children}</Box>}
    </Box>
  );
}
