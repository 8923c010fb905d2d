// <Admin> wired with the shell: layout, zh-CN, and one route per permitted entry of the route
// table, added once startup knows the active role (SPEC §4 step 6). Providers come from outside,
// so tests render the real shell with fakes.
import { useMemo, type ComponentType, type LazyExoticComponent } from 'react';
import { Admin, CustomRoutes, type AuthProvider, type DataProvider } from 'react-admin';
import { Navigate, Route } from 'react-router-dom';
import type { Permissions } from './authProvider';
import { i18nProvider } from './i18n';
import { flattenRoutes } from './menu/routes';
import { Layout } from './layout/Layout';
import { theme } from './layout/theme';
import { PRODUCT_TITLE } from './layout/brand';
import { NotFound } from './pages/NotFound';
import { HomeRedirect } from './pages/HomeRedirect';
import { CUSTOM_SCREENS, RouteScreen } from './pages';
import type { ScreenProps } from './pages/screen';
import { resourceScreens } from './resources/define';
import type { ResourceConfig } from './resources/types';

type Screens = Readonly<Record<string, LazyExoticComponent<ComponentType<ScreenProps>>>>;

/** The permitted routes as react-router routes; a parent with a redirect only redirects. */
export function permittedRouteElements(permissions: Permissions, screens: Screens) {
  return flattenRoutes(permissions.routes).map((route) =>
    route.redirect ? (
      <Route key={route.path} path={route.path} element={<Navigate to={route.redirect} replace />} />
    ) : (
      <Route key={route.path} path={route.path} element={<RouteScreen route={route} screens={screens} />} />
    ),
  );
}

export function AdminApp(props: { dataProvider: DataProvider; authProvider: AuthProvider; resources: readonly ResourceConfig[]; notification?: ComponentType }) {
  // A custom screen on a path wins over the generic screen of the resources the route names.
  const screens = useMemo<Screens>(() => ({ ...resourceScreens(props.resources, flattenRoutes()), ...CUSTOM_SCREENS }), [props.resources]);
  return (
    <Admin
      title={PRODUCT_TITLE}
      dataProvider={props.dataProvider}
      authProvider={props.authProvider}
      i18nProvider={i18nProvider}
      theme={theme}
      layout={Layout}
      dashboard={HomeRedirect}
      catchAll={NotFound}
      notification={props.notification}
      loginPage={false}
      requireAuth
      disableTelemetry
    >
      {(permissions: Permissions) => <CustomRoutes>{permittedRouteElements(permissions, screens)}</CustomRoutes>}
    </Admin>
  );
}
