// 角色任命 (/roleManage, /academic/roles): per appointed role, who holds it and for what (a grade, a
// subject and grades, a class), with appointing and removing. Per teacher, the same is on the
// teacher list's “角色” button.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../dataProvider';
import type { RoleHolders as RoleHoldersData } from '../../dataProvider/roles';
import type { AppointedRole } from '../../domain/roles';
import { AppointDialog, AppointmentChips } from '../../resources/teachers/Roles';
import { ScreenCard } from '../../ui/ScreenCard';
import type { ScreenProps } from '../screen';

function RoleCard({ group, onAppoint, onChange }: { group: RoleHoldersData; onAppoint: (role: AppointedRole) => void; onChange: () => void }) {
  return (
    <Card variant="outlined" data-testid={`role-${group.role}`} sx={{ minWidth: 0 }}>
      <CardContent>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1, mb: 1 }}>
          <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
            {group.roleName}
            <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 1 }}>
              {group.holders.length} 人
            </Typography>
          </Typography>
          <Button size="small" variant="outlined" sx={{ whiteSpace: 'nowrap' }} onClick={() => onAppoint(group.role)}>
            任命{group.roleName}
          </Button>
        </Box>
        {group.holders.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            暂无任命
          </Typography>
        )}
        {group.holders.map((h) => (
          <Box key={h.userId} sx={{ display: 'flex', flexWrap: { xs: 'wrap', sm: 'nowrap' }, alignItems: 'center', gap: 1, py: 0.75, borderTop: 1, borderColor: 'divider' }}>
            <Typography sx={{ minWidth: 96, flexShrink: 0 }}>
              {h.name}
              {h.phone && (
                <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                  {h.phone}
                </Typography>
              )}
            </Typography>
            <AppointmentChips userId={h.userId} name={h.name} roles={[{ role: group.role, roleName: group.roleName, scopes: h.scopes }]} onChange={onChange} />
          </Box>
        ))}
      </CardContent>
    </Card>
  );
}

export default function RoleHolders({ route }: ScreenProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const holders = useQuery({ queryKey: ['roleHolders'], queryFn: () => dataProvider.roleHolders(), retry: false });
  const [appointing, setAppointing] = useState<AppointedRole | null>(null);
  const reload = () => void holders.refetch();
  return (
    <ScreenCard title={route.meta.title} description="学校管理员在此任命校长、年级组长、学科组长、心理教师和班主任，任命与免去在其下一次操作时生效，并记入操作日志。">
      {!holders.data ? (
        <LinearProgress sx={{ mt: 2 }} />
      ) : (
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' }, gap: 2, mt: 2 }}>
          {holders.data.map((group) => (
            <RoleCard key={group.role} group={group} onAppoint={setAppointing} onChange={reload} />
          ))}
        </Box>
      )}
      {appointing && <AppointDialog role={appointing} onClose={() => setAppointing(null)} onDone={reload} />}
    </ScreenCard>
  );
}
