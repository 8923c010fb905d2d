// The frame every route screen sits in: a card with the route's title as the page heading.
import type { ReactNode } from 'react';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';

export function ScreenCard({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <Card variant="outlined" sx={{ borderRadius: 2, minWidth: 0 }}>
      <CardContent sx={{ minWidth: 0 }}>
        <Typography variant="h6" component="h1" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        {description && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {description}
          </Typography>
        )}
        {children}
      </CardContent>
    </Card>
  );
}
