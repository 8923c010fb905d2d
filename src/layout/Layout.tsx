// The shell around every screen: header, 90 px rail, content. It only arranges; what to show
// comes from the route's meta (hideHeader, hideSidebar, search) and the cached permissions.
import { Suspense, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { Loading, useDataProvider, usePermissions } from 'react-admin';
import Box from '@mui/material/Box';
import type { AppDataProvider } from '../dataProvider';
import type { Permissions } from '../authProvider';
import { findRoute } from '../domain/permissions';
import { SelectionProvider, useSelection } from '../filters/SelectionProvider';
import { Menu } from '../menu/Menu';
import { SubMenu } from '../menu/SubMenu';
import { useMenuBadges } from '../menu/useMenuBadges';
import { Header } from './Header';
import { useRouteChrome } from './RouteChrome';

function Rail({ permissions }: { permissions: Permissions }) {
  const { selection } = useSelection();
  const dataProvider = useDataProvider<AppDataProvider>();
  const badges = useMenuBadges(dataProvider, permissions.activeRole, selection.dateType, selection.learningYear);
  return <Menu entries={permissions.menu} badges={badges} />;
}

function Shell({ permissions, children }: { permissions: Permissions; children: ReactNode }) {
  const location = useLocation();
  const route = findRoute(permissions.routes, location.pathname);
  const scroller = useRef<HTMLElement>(null);
  useRouteChrome(route?.meta.title ?? '页面不存在', scroller);
  const hideSidebar = !!route?.meta.hideSidebar;
  const hideHeader = !!route?.meta.hideHeader;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100vh', bgcolor: 'background.default' }}>
      {!hideHeader && <Header route={route} permissions={permissions} showBack={hideSidebar} />}
      <Box sx={{ display: 'flex', flex: 1, minHeight: 0 }}>
        {!hideSidebar && <Rail permissions={permissions} />}
        <Box component="main" ref={scroller} sx={{ flex: 1, minWidth: 0, overflow: 'auto', p: hideHeader && hideSidebar ? 0 : 2.5 }}>
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
