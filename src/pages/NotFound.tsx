// Catch-all (SPEC §2.4): unknown paths, and paths the active role may not open (they are never registered).
import { Link } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';

export function Notice({ code, title, text }: { code: string; title: string; text: string }) {
  return (
    <Box sx={{ py: 10, display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1.5, textAlign: 'center' }}>
      <Typography sx={{ fontSize: 64, fontWeight: 700, color: 'primary.main', lineHeight: 1 }}>{code}</Typography>
      <Typography variant="h6" component="h1">
        {title}
      </Typography>
      <Typography color="text.secondary">{text}</Typography>
      <Button component={Link} to="/" variant="contained" sx={{ mt: 1 }}>
        返回首页
      </Button>
    </Box>
  );
}

export function NotFound() {
  return <Notice code="404" title="页面不存在" text="您访问的页面不存在，或当前角色无权访问" />;
}

export function AccessDenied() {
  return <Notice code="403" title="无权访问" text="当前角色无权访问此页面" />;
}
