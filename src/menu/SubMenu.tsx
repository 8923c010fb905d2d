// The second level of the menu: a menu entry with children (教务管理 → 班级管理, 教师管理, 学生管理,
// 教室管理) shows them as tabs above its screens, so every child has an entry of its own and not
// only the first one its group redirects to.
import { Link, useLocation } from 'react-router-dom';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { activeMenuPath } from '../domain/permissions';
import type { RouteDef } from './routes';

export function SubMenu({ entries }: { entries: readonly RouteDef[] }) {
  const { pathname } = useLocation();
  const group = entries.find((route) => route.path === activeMenuPath(pathname));
  const children = group?.children ?? [];
  if (children.length < 2) return null;
  const current = children.find((child) => child.path === pathname)?.path ?? false;
  return (
    <Box component="nav" aria-label={`${group!.meta.title}菜单`} sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}>
      <Tabs value={current} variant="scrollable" allowScrollButtonsMobile>
        {children.map((child) => (
          <Tab key={child.path} value={child.path} label={child.meta.title} component={Link} to={child.path} />
        ))}
      </Tabs>
    </Box>
  );
}
