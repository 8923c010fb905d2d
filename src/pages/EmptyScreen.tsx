// A route's screen before its issue fills it: the title and an empty state, nothing invented.
import { ScreenCard } from '../ui/ScreenCard';
import type { RouteDef } from '../menu/routes';
import { EmptyState } from '../ui/EmptyState';

export default function EmptyScreen({ route }: { route: RouteDef }) {
  return (
    <ScreenCard title={route.meta.title}>
      <EmptyState />
    </ScreenCard>
  );
}
