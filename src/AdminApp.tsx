// <Admin> wired with the shell: layout, zh-CN, and one route per permitted entry of the route
// table, added once startup knows the active role (SPEC §4 step 6). Providers come from outside,
// so tests render the real shell with fakes.
import type { ComponentType } from 'react';
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
import { RouteScreen } from './pages';
// Registers the resources' adapters, access routes and screens before the first route renders.
import './resources';

/** The permitted routes as react-router routes; a parent with a redirect only redirects. */
export function permittedRouteElements(permissions: Permissions) {
  return flattenRoutes(permissions.routes).map((route) =>
    route.redirect ? (
      <Route key={route.path} path={route.path} element={<Navigate to={route.redirect} replace />} />
    ) : (
      <Route key={route.path} path={route.path} element={<RouteScreen route={route} />} />
    ),
  );
}

export function AdminApp(props: { dataProvider: DataProvider; authProvider: AuthProvider; notification?: ComponentType }) {
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
      {(permissions: Permissions) => <CustomRoutes>{permittedRouteElements(permissions)}</CustomRoutes>}
    </Admin>
  );
}
