// A route's screen before its issue fills it: the title and an empty state, nothing invented.
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { RouteDef } from '../menu/routes';
import { EmptyState } from './EmptyState';

export default function EmptyScreen({ route }: { route: RouteDef }) {
  return (
    <Card variant="outlined" sx={{ borderRadius: 2 }}>
      <CardContent>
        <Typography variant="h6" component="h1" sx={{ fontWeight: 600 }}>
          {route.meta.title}
        </Typography>
        <EmptyState />
      </CardContent>
    </Card>
  );
}
