// The 90 px left rail (SPEC §2.1): one entry per menu route, outlined icon when normal and filled
// when selected, the active entry plain text and the others links, with capped badges.
import { Link, useLocation } from 'react-router-dom';
import Box from '@mui/material/Box';
import MuiBadge from '@mui/material/Badge';
import Typography from '@mui/material/Typography';
import type { MenuBadges } from '../dataProvider/api';
import { activeMenuPath } from '../domain/permissions';
import { badgeText } from '../domain/format';
import { SIDEBAR_WIDTH } from '../domain/enums';
import type { RouteDef } from './routes';
import { MENU_ICONS } from './icons';

const entrySx = {
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  gap: 0.5,
  py: 1.25,
  mx: 1,
  borderRadius: 2,
  textDecoration: 'none',
  color: 'text.secondary',
} as const;

function MenuEntry({ route, active, badge }: { route: RouteDef; active: boolean; badge: string }) {
  const icons = route.meta.icon ? MENU_ICONS[route.meta.icon] : undefined;
  const Icon = icons ? (active ? icons.selected : icons.normal) : undefined;
  const content = (
    <>
      <MuiBadge badgeContent={badge} color="error" invisible={!badge}>
        {Icon ? <Icon /> : null}
      </MuiBadge>
      <Typography variant="caption" sx={{ fontSize: 13, lineHeight: 1.3, textAlign: 'center', fontWeight: active ? 600 : 400 }}>
        {route.meta.title}
      </Typography>
    </>
  );
  if (active) {
    return (
      <Box aria-current="page" sx={{ ...entrySx, color: 'primary.main', bgcolor: 'action.selected' }}>
        {content}
      </Box>
    );
  }
  return (
    <Box component={Link} to={route.path} sx={{ ...entrySx, '&:hover': { bgcolor: 'action.hover', color: 'text.primary' } }}>
      {content}
    </Box>
  );
}

/** `routes` are every permitted route, so a detail screen lights the entry it belongs to. */
export function Menu({ entries, routes = entries, badges }: { entries: readonly RouteDef[]; routes?: readonly RouteDef[]; badges: MenuBadges }) {
  const { pathname } = useLocation();
  const active = activeMenuPath(pathname, routes);
  return (
    <Box
      component="nav"
      aria-label="主菜单"
      sx={{ width: SIDEBAR_WIDTH, flexShrink: 0, borderRight: 1, borderColor: 'divider', bgcolor: 'background.paper', overflowY: 'auto', py: 1 }}
    >
      {entries.map((route) => (
        <MenuEntry key={route.path} route={route} active={route.path === active} badge={route.meta.badge ? badgeText(badges[route.meta.badge]) : ''} />
      ))}
    </Box>
  );
}
