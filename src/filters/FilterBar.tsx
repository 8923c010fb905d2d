// The header's filter bar: the route's search setting for the active role (SPEC §2.2).
import Stack from '@mui/material/Stack';
import { filtersFor, type RouteDef } from '../menu/routes';
import type { Role } from '../domain/roles';
import { FILTER_WIDGETS } from './widgets';

export function FilterBar({ route, role }: { route: RouteDef | undefined; role: Role | undefined }) {
  const keys = filtersFor(route, role);
  if (keys.length === 0) return null;
  return (
    <Stack direction="row" spacing={1.5} alignItems="center" role="search" aria-label="筛选" sx={{ minWidth: 0, overflowX: 'auto', py: 1 }}>
      {keys.map((key) => {
        const Widget = FILTER_WIDGETS[key];
        return <Widget key={key} />;
      })}
    </Stack>
  );
}
