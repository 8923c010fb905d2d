// The header's filter bar: the route's search setting for the active role (SPEC §2.2). On a phone
// the filters past the first would sit off-screen in a scrolling bar, so there they open as one
// sheet from the bottom, each filter with its current value, behind a 筛选 button.
import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import { filtersFor, type RouteDef } from '../menu/routes';
import type { Role } from '../domain/roles';
import { FILTER_WIDGETS } from './widgets';

export function FilterBar({ route, role, phone = false }: { route: RouteDef | undefined; role: Role | undefined; phone?: boolean }) {
  const [open, setOpen] = useState(false);
  const keys = filtersFor(route, role);
  if (keys.length === 0) return null;
  const widgets = keys.map((key) => {
    const Widget = FILTER_WIDGETS[key];
    return <Widget key={key} />;
  });
  if (!phone) {
    return (
      <Stack direction="row" spacing={1.5} alignItems="center" role="search" aria-label="筛选" sx={{ minWidth: 0, overflowX: 'auto', py: 1 }}>
        {widgets}
      </Stack>
    );
  }
  return (
    <>
      <Button variant="outlined" size="small" startIcon={<TuneOutlined />} onClick={() => setOpen(true)} aria-haspopup="dialog" sx={{ flexShrink: 0 }}>
        筛选
      </Button>
      {/* Kept mounted: the widgets load their lists and settle the defaults the screens read. */}
      <Drawer anchor="bottom" open={open} onClose={() => setOpen(false)} keepMounted slotProps={{ paper: { sx: { borderTopLeftRadius: 12, borderTopRightRadius: 12 } } }}>
        <Box sx={{ p: 2, pb: 3 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 2 }}>
            筛选
          </Typography>
          <Stack spacing={2} role="search" aria-label="筛选" sx={{ '& .MuiTextField-root': { width: '100%' } }}>
            {widgets}
          </Stack>
          <Button variant="contained" fullWidth onClick={() => setOpen(false)} sx={{ mt: 3 }}>
            完成
          </Button>
        </Box>
      </Drawer>
    </>
  );
}
