// The frame of the full-screen partner boards (no menu, header or sidebar): a back button, the
// title and what it is about, the range and its filters, then the board.
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import ArrowBack from '@mui/icons-material/ArrowBack';

export function BoardFrame({ title, subtitle, filters, children }: { title: string; subtitle?: ReactNode; filters: ReactNode; children: ReactNode }) {
  const navigate = useNavigate();
  return (
    <Box sx={{ p: 3, display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0, maxWidth: 1600, mx: 'auto' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 2 }}>
        <Button startIcon={<ArrowBack />} onClick={() => navigate(-1)} variant="outlined" size="small">
          返回
        </Button>
        <Box sx={{ flex: 1, minWidth: 240 }}>
          <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
            {title}
          </Typography>
          {subtitle && (
            <Typography variant="body2" color="text.secondary">
              {subtitle}
            </Typography>
          )}
        </Box>
        {filters}
      </Box>
      {children}
    </Box>
  );
}
