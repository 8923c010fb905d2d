// SPEC §4 step 7: '/' goes to the active role's home route.
import { Navigate } from 'react-router-dom';
import { Loading, usePermissions } from 'react-admin';
import type { Permissions } from '../authProvider';

export function HomeRedirect() {
  const { permissions } = usePermissions<Permissions>();
  if (!permissions) return <Loading />;
  return <Navigate to={permissions.home} replace />;
}
