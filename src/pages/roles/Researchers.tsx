// 区域教研员 (/researchers, platform admin): every region with its schools and researchers; appoint
// an existing account by its username, or open a new account whose one-time initial password is
// shown here once (changed at first sign-in); remove. A change applies at the holder's next request.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useNotify } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../dataProvider';
import type { CreatedResearcher, Researcher, ResearcherRegion } from '../../dataProvider/roles';
import { ScreenCard } from '../../ui/ScreenCard';
import type { ScreenProps } from '../screen';

function AppointDialog({ region, onClose, onDone }: { region: string; onClose: () => void; onDone: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [mode, setMode] = useState<'existing' | 'new'>('existing');
  const [username, setUsername] = useState('');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<CreatedResearcher | null>(null);
  const ready = username.trim().length > 0 && (mode === 'existing' || name.trim().length > 0);
  const save = async () => {
    setBusy(true);
    try {
      if (mode === 'existing') {
        notify(await dataProvider.appointResearcher(username.trim(), region), { type: 'success' });
        onDone();
        onClose();
      } else {
        setCreated(await dataProvider.createResearcher({ username: username.trim(), name: name.trim(), region }));
        onDone();
      }
    } catch {
      // Shown by the http client.
    } finally {
      setBusy(false);
    }
  };

  if (created) {
    return (
      <Dialog open onClose={() => undefined} maxWidth="sm" fullWidth>
        <DialogTitle>账号已开通</DialogTitle>
        <DialogContent>
          <Alert severity="warning" sx={{ mb: 2 }}>
            初始密码只显示这一次，关闭后无法再次查看。请交给本人；首次登录须修改密码。
          </Alert>
          <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 1, m: 0, '& dt': { color: 'text.secondary' }, '& dd': { m: 0, overflowWrap: 'anywhere' } }}>
            <dt>姓名</dt>
            <dd>{created.name}</dd>
            <dt>区域</dt>
            <dd>{created.region}</dd>
            <dt>账号</dt>
            <dd data-testid="created-username">{created.username}</dd>
            <dt>初始密码</dt>
            <dd data-testid="created-password" style={{ fontFamily: 'monospace', fontSize: 18 }}>
              {created.password}
            </dd>
          </Box>
        </DialogContent>
        <DialogActions>
          <Button variant="contained" onClick={onClose}>
            我已记下，关闭
          </Button>
        </DialogActions>
      </Dialog>
    );
  }

  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>任命区域教研员 · {region}</DialogTitle>
      <DialogContent>
        <Tabs value={mode} onChange={(_, v) => setMode(v)} sx={{ mb: 2 }}>
          <Tab value="existing" label="已有账号" />
          <Tab value="new" label="开通新账号" />
        </Tabs>
        <TextField
          label="账号"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          fullWidth
          size="small"
          slotProps={{ htmlInput: { maxLength: 64 } }}
          helperText={mode === 'existing' ? '学校或机构已有的登录账号；已是其他区域教研员的，将改任本区域' : '3–64 位字母、数字或 _ . - @'}
          sx={{ mb: 2 }}
        />
        {mode === 'new' && <TextField label="姓名" value={name} onChange={(e) => setName(e.target.value)} fullWidth size="small" slotProps={{ htmlInput: { maxLength: 32 } }} />}
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          任命后，其下一次操作起即可在学情分析中查看本区域各校，并记入操作日志。
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>取消</Button>
        <Button variant="contained" onClick={save} disabled={busy || !ready}>
          {mode === 'existing' ? '任命' : '开通并任命'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function RegionCard({ region, researchers, onAppoint, onRemove }: { region: ResearcherRegion; researchers: Researcher[]; onAppoint: () => void; onRemove: (r: Researcher) => void }) {
  return (
    <Card variant="outlined" data-testid={`region-${region.region}`} sx={{ minWidth: 0 }}>
      <CardContent>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1, mb: 1 }}>
          <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
            {region.region}
            <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 1, whiteSpace: 'nowrap' }}>
              {region.schoolCount} 所学校
            </Typography>
          </Typography>
          <Button size="small" variant="outlined" sx={{ whiteSpace: 'nowrap' }} onClick={onAppoint}>
            任命教研员
          </Button>
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1, overflowWrap: 'anywhere' }}>
          {region.schools}
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          {researchers.length === 0 && (
            <Typography variant="body2" color="text.secondary">
              暂无区域教研员
            </Typography>
          )}
          {researchers.map((r) => (
            <Chip key={r.userId} color="primary" variant="outlined" label={`${r.name}（${r.username}）`} onDelete={() => onRemove(r)} data-testid={`researcher-${r.username}`} />
          ))}
        </Box>
      </CardContent>
    </Card>
  );
}

export default function Researchers({ route }: ScreenProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const list = useQuery({ queryKey: ['researchers'], queryFn: () => dataProvider.researchers(), retry: false });
  const [appointing, setAppointing] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Researcher | null>(null);
  const reload = () => void list.refetch();
  const remove = async () => {
    if (!removing) return;
    try {
      notify(await dataProvider.dismissResearcher(removing.userId), { type: 'success' });
      reload();
    } catch {
      // Shown by the http client.
    } finally {
      setRemoving(null);
    }
  };
  return (
    <ScreenCard title={route.meta.title} description="区域教研员查看本区域各校的学情分析与联考。任命、改任与免去在其下一次操作时生效，并记入操作日志。">
      {!list.data ? (
        <LinearProgress sx={{ mt: 2 }} />
      ) : (
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' }, gap: 2, mt: 2 }}>
          {list.data.regions.map((region) => (
            <RegionCard
              key={region.region}
              region={region}
              researchers={list.data.researchers.filter((r) => r.region === region.region)}
              onAppoint={() => setAppointing(region.region)}
              onRemove={setRemoving}
            />
          ))}
        </Box>
      )}
      {appointing && <AppointDialog region={appointing} onClose={() => setAppointing(null)} onDone={reload} />}
      <Dialog open={!!removing} onClose={() => setRemoving(null)}>
        <DialogTitle>免去区域教研员</DialogTitle>
        <DialogContent>
          <Typography>
            确定免去 {removing?.name} 的“{removing?.region} 区域教研员”吗？其下一次操作起即不能再查看该区域各校。
          </Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setRemoving(null)}>取消</Button>
          <Button color="error" variant="contained" onClick={remove}>
            确认免去
          </Button>
        </DialogActions>
      </Dialog>
    </ScreenCard>
  );
}
