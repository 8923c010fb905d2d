// A headline figure: label, number (zh-CN grouping) and unit; a board's KPI card.
import type { ReactNode } from 'react';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';

export function Tile({ label, value, unit, hint }: { label: string; value: number | string; unit: string; hint?: ReactNode }) {
  return (
    <Card variant="outlined" sx={{ borderRadius: 2 }} aria-label={label}>
      <CardContent>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        <Typography component="p" sx={{ fontSize: 30, fontWeight: 700, lineHeight: 1.3, whiteSpace: 'nowrap' }} data-testid={`tile-${label}`}>
          {typeof value === 'number' ? value.toLocaleString('zh-CN') : value}
          <Typography component="span" sx={{ fontSize: 14, ml: 0.5, color: 'text.secondary' }}>
            {unit}
          </Typography>
        </Typography>
        {hint && (
          <Typography variant="caption" color="text.secondary">
            {hint}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}
