// The header's user menu (SPEC §2.1): name; school (region for a regional researcher, partner
// label for a partner); current role; switch-role entries; exit.
import { useState } from 'react';
import { useAuthProvider, useGetIdentity, useLogout } from 'react-admin';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import MenuItem from '@mui/material/MenuItem';
import MuiMenu from '@mui/material/Menu';
import Typography from '@mui/material/Typography';
import KeyboardArrowDown from '@mui/icons-material/KeyboardArrowDown';
import Logout from '@mui/icons-material/Logout';
import SwapHoriz from '@mui/icons-material/SwapHoriz';
import { ROLE_NAMES, switchableRoles, type Role } from '../domain/roles';
import type { AppAuthProvider, Permissions } from '../authProvider';

/** The second line under the name: where the user works. */
export function affiliation(permissions: Permissions): string {
  const { activeRole, profile } = permissions;
  if (activeRole === 'partner') return `合作伙伴：${profile.partnerName ?? ''}`;
  if (activeRole === 'regionResearcher') return profile.regionName ?? '';
  return profile.schoolName ?? '';
}

export function UserMenu({ permissions }: { permissions: Permissions }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const { identity } = useGetIdentity();
  const authProvider = useAuthProvider() as AppAuthProvider | undefined;
  const logout = useLogout();
  const name = identity?.fullName || permissions.profile.displayName || '用户';
  const roleName = ROLE_NAMES[permissions.activeRole];
  const others = switchableRoles(permissions.roles, permissions.activeRole);
  const switchTo = (role: Role) => {
    setAnchor(null);
    authProvider?.switchRole(role);
  };
  return (
    <>
      <ButtonBase
        onClick={(event) => setAnchor(event.currentTarget)}
        aria-haspopup="menu"
        aria-label="用户菜单"
        sx={{ gap: 1, px: 1, py: 0.5, borderRadius: 2, flexShrink: 0, '&:hover': { bgcolor: 'action.hover' } }}
      >
        <Avatar sx={{ width: 32, height: 32, fontSize: 15, bgcolor: 'primary.main' }}>{name.slice(0, 1)}</Avatar>
        <Box sx={{ textAlign: 'left', display: { xs: 'none', md: 'block' } }}>
          <Typography variant="body2" sx={{ fontWeight: 600, lineHeight: 1.3, whiteSpace: 'nowrap' }}>
            {name}
          </Typography>
          <Typography variant="caption" color="text.secondary" sx={{ lineHeight: 1.2, whiteSpace: 'nowrap' }}>
            {roleName}
          </Typography>
        </Box>
        <KeyboardArrowDown fontSize="small" color="action" />
      </ButtonBase>
      <MuiMenu
        anchorEl={anchor}
        open={!!anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { minWidth: 220 } } }}
      >
        <Box sx={{ px: 2, py: 1 }}>
          <Typography sx={{ fontWeight: 600 }}>{name}</Typography>
          <Typography variant="body2" color="text.secondary">
            {affiliation(permissions)}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            当前角色：{roleName}
          </Typography>
        </Box>
        {others.length > 0 && <Divider />}
        {others.map((role) => (
          <MenuItem key={role} onClick={() => switchTo(role)}>
            <ListItemIcon>
              <SwapHoriz fontSize="small" />
            </ListItemIcon>
            切换为{ROLE_NAMES[role]}
          </MenuItem>
        ))}
        <Divider />
        <MenuItem
          onClick={() => {
            setAnchor(null);
            void logout();
          }}
        >
          <ListItemIcon>
            <Logout fontSize="small" />
          </ListItemIcon>
          退出
        </MenuItem>
      </MuiMenu>
    </>
  );
}
