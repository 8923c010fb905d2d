// One figure of a report: a titled card with what it counts and an 导出 button for its numbers.
import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';

export function FigureCard(props: { title: string; definition: string; onExport?: () => Promise<unknown>; testId: string; children: ReactNode }) {
  const [busy, setBusy] = useState(false);
  const exportIt = async () => {
    if (!props.onExport) return;
    setBusy(true);
    // The http client shows the server's message when the export fails.
    await props.onExport().catch(() => undefined);
    setBusy(false);
  };
  return (
    <Card variant="outlined" sx={{ borderRadius: 2, minWidth: 0 }} data-testid={props.testId}>
      <CardContent sx={{ minWidth: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
              {props.title}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {props.definition}
            </Typography>
          </Box>
          {props.onExport && (
            <Button size="small" variant="outlined" startIcon={<FileDownloadOutlined />} onClick={exportIt} disabled={busy} sx={{ flexShrink: 0 }}>
              导出
            </Button>
          )}
        </Box>
        <Box sx={{ mt: 1.5, minWidth: 0 }}>{props.children}</Box>
      </CardContent>
    </Card>
  );
}
