// The shell around every screen: header, 90 px rail, content. It only arranges; what to show
// comes from the route's meta (hideHeader, hideSidebar, search) and the cached permissions.
// Below 600 px the rail would leave a phone about 245 px, so there it folds into a drawer the
// header's menu button opens, badges and all.
import { Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { Loading, useDataProvider, usePermissions } from 'react-admin';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import type { AppDataProvider } from '../dataProvider';
import type { Permissions } from '../authProvider';
import { findRoute } from '../domain/permissions';
import { SelectionProvider, useSelection } from '../filters/SelectionProvider';
import { Menu } from '../menu/Menu';
import { SubMenu } from '../menu/SubMenu';
import { useMenuBadges } from '../menu/useMenuBadges';
import { Header } from './Header';
import { useRouteChrome } from './RouteChrome';

function Shell({ permissions, children }: { permissions: Permissions; children: ReactNode }) {
  const location = useLocation();
  const route = findRoute(permissions.routes, location.pathname);
  const scroller = useRef<HTMLElement>(null);
  useRouteChrome(route?.meta.title ?? '页面不存在', scroller);
  const { selection } = useSelection();
  const dataProvider = useDataProvider<AppDataProvider>();
  const badges = useMenuBadges(dataProvider, permissions.activeRole, selection.dateType, selection.learningYear);
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [menuOpen, setMenuOpen] = useState(false);
  // A chosen entry closes the drawer: the screen it opens is what the teacher wants to see.
  useEffect(() => setMenuOpen(false), [location.pathname]);
  const hideSidebar = !!route?.meta.hideSidebar;
  const hideHeader = !!route?.meta.hideHeader;
  const menu = <Menu entries={permissions.menu} routes={permissions.routes} badges={badges} />;
  const railed = !hideSidebar && permissions.menu.length > 0;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100vh', bgcolor: 'background.default' }}>
      {!hideHeader && (
        <Header route={route} permissions={permissions} showBack={hideSidebar} phone={phone} onOpenMenu={phone && railed ? () => setMenuOpen(true) : undefined} menuBadge={Object.values(badges).some((n) => !!n && n > 0)} />
      )}
      {phone && railed && (
        <Drawer open={menuOpen} onClose={() => setMenuOpen(false)}>
          {/* A tap on an entry closes the drawer, the current one included (it changes no path). */}
          <Box onClick={() => setMenuOpen(false)} sx={{ height: '100%', display: 'flex' }}>
            {menu}
          </Box>
        </Drawer>
      )}
      <Box sx={{ display: 'flex', flex: 1, minHeight: 0 }}>
        {!hideSidebar && !phone && menu}
        <Box component="main" ref={scroller} sx={{ flex: 1, minWidth: 0, overflow: 'auto', p: hideHeader && hideSidebar ? 0 : { xs: 1.5, sm: 2.5 } }}>
          {!hideSidebar && <SubMenu entries={permissions.menu} />}
          <Suspense fallback={null}>{children}</Suspense>
        </Box>
      </Box>
    </Box>
  );
}

export function Layout({ children }: { children?: ReactNode }) {
  const { permissions } = usePermissions<Permissions>();
  const dataProvider = useDataProvider<AppDataProvider>();
  if (!permissions) return <Loading />;
  return (
    <SelectionProvider api={dataProvider} role={permissions.activeRole} schoolId={permissions.profile.schoolId}>
      <Shell permissions={permissions}>{children}</Shell>
    </SelectionProvider>
  );
}
