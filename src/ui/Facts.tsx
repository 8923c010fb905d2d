// A record's facts as a grid of small captions over their values (order and statement details).
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

export function Facts({ items, columns }: { items: [label: string, value: string][]; columns: number }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, gap: 1.5, mb: 2 }}>
      {items.map(([label, value]) => (
        <Box key={label}>
          <Typography variant="caption" color="text.secondary">
            {label}
          </Typography>
          <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
