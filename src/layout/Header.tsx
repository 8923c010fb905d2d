// The header (SPEC §2.1): logo linking home, a back link when the rail is hidden, the route's
// filters and the user menu.
import { Link, useLocation } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import ArrowBack from '@mui/icons-material/ArrowBack';
import MenuIcon from '@mui/icons-material/Menu';
import type { RouteDef } from '../menu/routes';
import type { Permissions } from '../authProvider';
import { FilterBar } from '../filters/FilterBar';
import { PRODUCT_SUBTITLE, PRODUCT_TITLE } from './brand';
import { UserMenu } from './UserMenu';
import { AlarmBell } from './AlarmBell';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useState } from 'react';

export const HEADER_HEIGHT = 64;

export function Logo() {
  return (
    <Box
      component={Link}
      to="/"
      aria-label={`${PRODUCT_TITLE}首页`}
      sx={{ display: 'flex', alignItems: 'center', gap: 1.25, textDecoration: 'none', color: 'inherit', flexShrink: 0 }}
    >
      <Box
        aria-hidden
        sx={{ width: 36, height: 36, borderRadius: 2, bgcolor: 'primary.main', color: '#fff', display: 'grid', placeItems: 'center', fontWeight: 700, fontSize: 20 }}
      >
        学
      </Box>
      <Box sx={{ display: { xs: 'none', sm: 'block' } }}>
        <Typography sx={{ fontWeight: 700, fontSize: 16, lineHeight: 1.2, whiteSpace: 'nowrap' }}>{PRODUCT_TITLE}</Typography>
        <Typography sx={{ fontSize: 11, color: 'text.secondary', lineHeight: 1.2, whiteSpace: 'nowrap' }}>{PRODUCT_SUBTITLE}</Typography>
      </Box>
    </Box>
  );
}

export function Header({
  route,
  permissions,
  showBack,
  phone = false,
  onOpenMenu,
  menuBadge = false,
}: {
  route: RouteDef | undefined;
  permissions: Permissions;
  showBack: boolean;
  /** Below 600 px: the menu behind a button (onOpenMenu), the filters behind 筛选. */
  phone?: boolean;
  onOpenMenu?: () => void;
  /** Some menu entry has a count waiting: the folded menu's button says so. */
  menuBadge?: boolean;
}) {
  const { pathname } = useLocation();
  const backTo = route?.parent ?? permissions.home;
  return (
    <Box
      component="header"
      sx={{
        height: HEADER_HEIGHT,
        flexShrink: 0,
        display: 'flex',
        alignItems: 'center',
        gap: { xs: 1, sm: 2 },
        px: { xs: 1, sm: 2 },
        bgcolor: 'background.paper',
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      {onOpenMenu && (
        <IconButton onClick={onOpenMenu} aria-label="打开菜单" edge="start" sx={{ flexShrink: 0 }}>
          <Badge variant="dot" color="error" invisible={!menuBadge}>
            <MenuIcon />
          </Badge>
        </IconButton>
      )}
      <Logo />
      {/* A full-screen home (e.g. the admin's /without/common) has nowhere to go back to; its menu's
          entries sit in the header instead, or the admin could reach 练习册 only by typing its address. */}
      {showBack && backTo !== pathname && (
        <Button component={Link} to={backTo} startIcon={<ArrowBack />} size="small" sx={{ flexShrink: 0 }}>
          返回
        </Button>
      )}
      {showBack && backTo === pathname && permissions.menu.length > 0 && (
        <QuickLinks entries={permissions.menu.filter((entry) => entry.path !== pathname)} phone={phone} />
      )}
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', justifyContent: 'flex-start' }}>
        <FilterBar route={route} role={permissions.activeRole} phone={phone} />
      </Box>
      {permissions.activeRole === 'partner' && <AlarmBell />}
      <UserMenu permissions={permissions} />
    </Box>
  );
}

/** The full-screen home's menu entries in the header; on a phone, behind one 功能 button so they never push the page wider. */
function QuickLinks({ entries, phone }: { entries: RouteDef[]; phone: boolean }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (!phone) {
    return (
      <Box component="nav" aria-label="快捷入口" sx={{ display: 'flex', gap: 0.5, flexShrink: 0 }}>
        {entries.map((entry) => (
          <Button key={entry.path} component={Link} to={entry.path} size="small">
            {entry.meta.title}
          </Button>
        ))}
      </Box>
    );
  }
  return (
    <Box component="nav" aria-label="快捷入口" sx={{ flexShrink: 0 }}>
      <Button size="small" onClick={(e) => setAnchor(e.currentTarget)} aria-haspopup="menu">
        功能
      </Button>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {entries.map((entry) => (
          <MenuItem key={entry.path} component={Link} to={entry.path} onClick={() => setAnchor(null)}>
            {entry.meta.title}
          </MenuItem>
        ))}
      </Menu>
    </Box>
  );
}
