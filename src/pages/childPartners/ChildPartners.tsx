// 下级合作商 (/child-partners, partner levels 1–2) and 一级合作商 (/level-one-partners, the platform
// administrator): the caller's direct children with status, schools, terminals and this month's
// purchases; 邀请 (the one-time password shown once), 编辑, 停用/启用, and per child its pack prices
// (between the caller's own price and the 建议零售价) and the terminals and schools it runs. The
// platform's screen also settles its level-1 partners' statements. The server checks everything.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useNotify } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import PersonAddAlt1Outlined from '@mui/icons-material/PersonAddAlt1Outlined';
import type { AppDataProvider } from '../../dataProvider';
import type { ChildPartnerDetail, ChildPartnerFields, ChildPartnerRow } from '../../dataProvider/childPartners';
import { CHILD_PARTNER_LIMITS, PARTNER_STATUSES, PartnerStatus } from '../../domain/partner';
import { labelOf } from '../../domain/orders';
import { dateTime, money } from '../../domain/format';
import { ScreenCard } from '../../ui/ScreenCard';
import { EmptyState } from '../../ui/EmptyState';
import type { ScreenProps } from '../screen';
import { Statements } from '../channelInfo/Statements';

const LEVEL_WORD = ['', '一级', '二级', '三级'];
const EMPTY: ChildPartnerFields & { username: string } = { username: '', name: '', contactName: '', phone: '', region: '' };

export default function ChildPartners({ route }: ScreenProps) {
  const platform = route.path === '/level-one-partners';
  const [tab, setTab] = useState<'partners' | 'statements'>('partners');
  return (
    <ScreenCard
      title={route.meta.title}
      description={platform ? '平台直接发展的一级合作商：邀请、编辑、停用，设置其纸张进货价，并结算其结算单' : '您直接发展的下级合作商：邀请、编辑、停用，设置其纸张进货价，分配终端和学校'}
    >
      {platform && (
        <Tabs value={tab} onChange={(_, v) => setTab(v)} sx={{ mb: 1 }}>
          <Tab value="partners" label="合作商" />
          <Tab value="statements" label="结算单" />
        </Tabs>
      )}
      {tab === 'partners' ? <PartnerList platform={platform} /> : <Statements canPay platform />}
    </ScreenCard>
  );
}

function PartnerList({ platform }: { platform: boolean }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const query = useQuery({ queryKey: ['childPartners'], queryFn: () => dataProvider.childPartners(), retry: false });
  const [editing, setEditing] = useState<{ id?: number; fields: typeof EMPTY }>();
  const [invited, setInvited] = useState<{ name: string; username: string; password: string }>();
  const [toggling, setToggling] = useState<ChildPartnerRow>();
  const [openId, setOpenId] = useState<number>();
  const [busy, setBusy] = useState(false);
  const data = query.data;
  const childWord = platform ? '一级合作商' : '下级合作商';

  const save = async () => {
    if (!editing) return;
    setBusy(true);
    try {
      const { username, ...fields } = editing.fields;
      if (editing.id) {
        await dataProvider.updateChildPartner(editing.id, fields);
        notify('已保存', { type: 'success' });
      } else {
        const made = await dataProvider.inviteChildPartner({ username, ...fields });
        setInvited(made);
      }
      setEditing(undefined);
    } catch {
      // The http client showed why.
    } finally {
      setBusy(false);
      void query.refetch();
    }
  };
  const toggle = async () => {
    if (!toggling) return;
    setBusy(true);
    const suspend = toggling.status === PartnerStatus.active;
    try {
      await dataProvider.setChildPartnerStatus(toggling.id, suspend ? PartnerStatus.suspended : PartnerStatus.active);
      notify(suspend ? `已停用 ${toggling.name}` : `已启用 ${toggling.name}`, { type: 'success' });
      setToggling(undefined);
    } catch {
      // Shown by the http client.
    } finally {
      setBusy(false);
      void query.refetch();
    }
  };
  const rowActions = (p: ChildPartnerRow) => (
    <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap' }}>
      <Button size="small" variant="contained" disableElevation onClick={() => setOpenId(p.id)} sx={{ minWidth: 0 }}>
        价格与资源
      </Button>
      <Button
        size="small"
        sx={{ minWidth: 0 }}
        onClick={() => setEditing({ id: p.id, fields: { username: p.username ?? '', name: p.name, contactName: p.contactName ?? '', phone: p.phone ?? '', region: p.region ?? '' } })}
      >
        编辑
      </Button>
      <Button size="small" sx={{ minWidth: 0 }} color={p.status === PartnerStatus.active ? 'error' : 'primary'} onClick={() => setToggling(p)}>
        {p.status === PartnerStatus.active ? '停用' : '启用'}
      </Button>
    </Stack>
  );
  const statusChip = (p: ChildPartnerRow) => (
    <Chip size="small" variant="outlined" color={p.status === PartnerStatus.active ? 'success' : 'default'} label={labelOf(PARTNER_STATUSES, p.status)} />
  );
  const f = editing?.fields;
  const set = (key: keyof typeof EMPTY, max: number) => (e: React.ChangeEvent<HTMLInputElement>) => setEditing((cur) => cur && { ...cur, fields: { ...cur.fields, [key]: e.target.value.slice(0, max) } });

  return (
    <>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1, flexWrap: 'wrap', mt: 1, mb: 1.5 }}>
        <Typography variant="body2" color="text.secondary">
          {data ? `共 ${data.records.length} 家${childWord}` : ''}
        </Typography>
        <Button variant="contained" disableElevation startIcon={<PersonAddAlt1Outlined />} onClick={() => setEditing({ fields: { ...EMPTY } })}>
          {platform ? '新增一级合作商' : '邀请下级'}
        </Button>
      </Stack>
      {!data ? null : !data.records.length ? (
        <EmptyState text={`还没有${childWord}。点击“${platform ? '新增一级合作商' : '邀请下级'}”填写对方的名称、地区和联系人，系统会生成登录账号的初始密码`} />
      ) : phone ? (
        <Stack spacing={1.5}>
          {data.records.map((p) => (
            <Box key={p.id} data-testid={`child-${p.id}`} sx={{ p: 1.5, border: 1, borderColor: 'divider', borderRadius: 1.5 }}>
              <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1 }}>
                <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{p.name}</Typography>
                {statusChip(p)}
              </Stack>
              <Typography variant="body2" color="text.secondary">
                {p.region} · {p.contactName} {p.phone}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                账号 {p.username ?? '—'} · 学校 {p.schoolCount} · 终端 {p.deviceCount}
              </Typography>
              <Typography variant="body2" sx={{ mb: 1 }}>
                本月进货 {money(p.monthBoughtFen)}
              </Typography>
              {rowActions(p)}
            </Box>
          ))}
        </Stack>
      ) : (
        <TableContainer>
          <Table size="small" aria-label={childWord} sx={{ '& th': { whiteSpace: 'nowrap' } }}>
            <TableHead>
              <TableRow>
                <TableCell>合作商</TableCell>
                <TableCell>登录账号</TableCell>
                <TableCell>联系人</TableCell>
                <TableCell>状态</TableCell>
                <TableCell align="right">学校</TableCell>
                <TableCell align="right">终端</TableCell>
                <TableCell align="right">本月进货</TableCell>
                <TableCell>操作</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.records.map((p) => (
                <TableRow key={p.id} data-testid={`child-${p.id}`}>
                  <TableCell>
                    {p.name}
                    <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                      {LEVEL_WORD[p.level]} · {p.region} · {dateTime(p.createdAt)}加入
                    </Typography>
                  </TableCell>
                  <TableCell>{p.username ?? '—'}</TableCell>
                  <TableCell>
                    {p.contactName}
                    <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                      {p.phone}
                    </Typography>
                  </TableCell>
                  <TableCell>{statusChip(p)}</TableCell>
                  <TableCell align="right">{p.schoolCount}</TableCell>
                  <TableCell align="right">{p.deviceCount}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {money(p.monthBoughtFen)}
                  </TableCell>
                  <TableCell>{rowActions(p)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}

      {editing && f && (
        <Dialog open onClose={() => !busy && setEditing(undefined)} maxWidth="xs" fullWidth>
          <DialogTitle>{editing.id ? '编辑合作商' : platform ? '新增一级合作商' : '邀请下级合作商'}</DialogTitle>
          <DialogContent>
            <Stack spacing={2} sx={{ mt: 1 }}>
              {!editing.id && (
                <TextField label="登录账号" required value={f.username} onChange={set('username', CHILD_PARTNER_LIMITS.username)} helperText="3–64 位字母、数字或 _ . - @，对方用它登录" />
              )}
              <TextField label="合作商名称" required value={f.name} onChange={set('name', CHILD_PARTNER_LIMITS.name)} />
              <TextField label="所在地区" required value={f.region} onChange={set('region', CHILD_PARTNER_LIMITS.region)} placeholder="如：绍兴市越城区" />
              <TextField label="联系人" required value={f.contactName} onChange={set('contactName', CHILD_PARTNER_LIMITS.contactName)} />
              <TextField label="联系电话" required value={f.phone} onChange={set('phone', 11)} inputProps={{ inputMode: 'numeric' }} />
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setEditing(undefined)} disabled={busy}>
              取消
            </Button>
            <Button
              variant="contained"
              disableElevation
              disabled={busy || !f.name.trim() || !f.region.trim() || !f.contactName.trim() || !/^1[3-9]\d{9}$/.test(f.phone) || (!editing.id && f.username.trim().length < 3)}
              onClick={save}
            >
              {editing.id ? '保存' : '邀请'}
            </Button>
          </DialogActions>
        </Dialog>
      )}

      {invited && (
        <Dialog open maxWidth="xs" fullWidth>
          <DialogTitle>已邀请 {invited.name}</DialogTitle>
          <DialogContent>
            <Alert severity="warning" sx={{ mb: 2 }}>
              初始密码只显示这一次，请现在告知对方；对方首次登录须修改密码。
            </Alert>
            <Typography>登录账号：{invited.username}</Typography>
            <Typography>
              初始密码：
              <Box component="span" data-testid="initial-password" sx={{ fontFamily: 'monospace', fontWeight: 700, fontSize: 18 }}>
                {invited.password}
              </Box>
            </Typography>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => void navigator.clipboard?.writeText(`账号 ${invited.username} 初始密码 ${invited.password}`).then(() => notify('已复制', { type: 'success' }), () => undefined)}>复制</Button>
            <Button variant="contained" disableElevation onClick={() => setInvited(undefined)}>
              我已告知对方
            </Button>
          </DialogActions>
        </Dialog>
      )}

      {toggling && (
        <Dialog open onClose={() => !busy && setToggling(undefined)} maxWidth="xs" fullWidth>
          <DialogTitle>{toggling.status === PartnerStatus.active ? '停用合作商' : '启用合作商'}</DialogTitle>
          <DialogContent>
            <DialogContentText>
              {toggling.status === PartnerStatus.active
                ? `停用后，${toggling.name} 及其下级的账号立即退出登录，不能登录、不能下单，直到重新启用。`
                : `启用后，${toggling.name} 的账号可以重新登录和下单。`}
            </DialogContentText>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setToggling(undefined)} disabled={busy}>
              取消
            </Button>
            <Button variant="contained" disableElevation color={toggling.status === PartnerStatus.active ? 'error' : 'primary'} disabled={busy} onClick={toggle}>
              {toggling.status === PartnerStatus.active ? '确认停用' : '确认启用'}
            </Button>
          </DialogActions>
        </Dialog>
      )}

      {openId !== undefined && <ChildDetail partnerId={openId} onClose={() => { setOpenId(undefined); void query.refetch(); }} />}
    </>
  );
}

/** Yuan typed by a person, to fen; undefined when it is not an amount. */
const toFen = (text: string): number | undefined => (/^\d{1,6}(\.\d{1,2})?$/.test(text.trim()) ? Math.round(Number(text.trim()) * 100) : undefined);
const toYuan = (fen: number) => (fen / 100).toFixed(2);

function ChildDetail({ partnerId, onClose }: { partnerId: number; onClose: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const query = useQuery({ queryKey: ['childPartner', partnerId], queryFn: () => dataProvider.childPartner(partnerId), retry: false });
  const [typed, setTyped] = useState<Record<number, string>>({});
  const [busy, setBusy] = useState(false);
  const [device, setDevice] = useState<number | ''>('');
  const [school, setSchool] = useState<number | ''>('');
  const d: ChildPartnerDetail | undefined = query.data;

  const run = async (work: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await work();
      notify(done, { type: 'success' });
      return true;
    } catch {
      return false;
    } finally {
      setBusy(false);
      void query.refetch();
    }
  };
  const priceText = (packId: number, fen: number | null, levelFen: number) => typed[packId] ?? toYuan(fen ?? levelFen);
  const problems = d?.prices.map((p) => {
    const fen = toFen(priceText(p.packId, p.setFen, p.priceFen));
    if (fen === undefined) return '请填写金额';
    if (fen < p.minFen || fen > p.maxFen) return `应在 ${money(p.minFen)} 至 ${money(p.maxFen)} 之间`;
    return '';
  });
  const savePrices = () =>
    d &&
    run(
      () => dataProvider.setChildPartnerPrices(d.id, d.prices.map((p) => ({ packId: p.packId, priceFen: toFen(priceText(p.packId, p.setFen, p.priceFen)) }))),
      '价格已保存，对方此后的订单按新价格计算',
    ).then((ok) => ok && setTyped({}));

  return (
    <Dialog open onClose={() => !busy && onClose()} maxWidth="md" fullWidth fullScreen={phone}>
      <DialogTitle>{d ? d.name : '合作商'}</DialogTitle>
      <DialogContent dividers>
        {!d ? null : (
          <Stack spacing={2.5}>
            <Typography variant="body2" color="text.secondary">
              {d.region} · {d.contactName} {d.phone} · 账号 {d.username ?? '—'}
              {d.awaitingPassword ? '（尚未修改初始密码）' : ''} · {labelOf(PARTNER_STATUSES, d.status)}
            </Typography>
            <Box>
              <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
                纸张进货价
              </Typography>
              <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mb: 1 }}>
                不低于您的进货价，不高于平台建议零售价；未单独设置的按级别默认价
              </Typography>
              <Stack spacing={1.5}>
                {d.prices.map((p, i) => (
                  <Stack key={p.packId} direction={phone ? 'column' : 'row'} spacing={phone ? 0.5 : 2} sx={{ alignItems: phone ? 'stretch' : 'center' }} data-testid={`price-${p.packId}`}>
                    <Box sx={{ flex: 1, minWidth: 0 }}>
                      <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                        {p.name}
                      </Typography>
                      <Typography variant="caption" color="text.secondary">
                        现价 {money(p.priceFen)}
                        {p.setFen === null ? '（默认）' : ''} · 可设 {money(p.minFen)}–{money(p.maxFen)}
                      </Typography>
                    </Box>
                    <TextField
                      size="small"
                      label="进货价（元）"
                      value={priceText(p.packId, p.setFen, p.priceFen)}
                      onChange={(e) => setTyped((cur) => ({ ...cur, [p.packId]: e.target.value.slice(0, 10) }))}
                      error={!!problems?.[i]}
                      helperText={problems?.[i] || ' '}
                      inputProps={{ inputMode: 'decimal', 'aria-label': `${p.name} 进货价` }}
                      sx={{ width: phone ? '100%' : 200 }}
                    />
                  </Stack>
                ))}
              </Stack>
              <Button variant="contained" disableElevation disabled={busy || !!problems?.some(Boolean)} onClick={savePrices} sx={{ mt: 1 }}>
                保存价格
              </Button>
            </Box>
            {d.canAssign && (
              <>
                <Held
                  title="终端"
                  empty="尚未分配终端"
                  items={d.devices.map((x) => ({ id: x.id, text: `${x.serial} · ${x.model}${x.schoolName ? ` · ${x.schoolName}` : ' · 未部署'}` }))}
                  busy={busy}
                  onReclaim={(id) => run(() => dataProvider.reclaimFromChild(d.id, { deviceIds: [id] }), '已收回终端')}
                />
                <Assign
                  label="分配我的终端"
                  value={device}
                  onChange={setDevice}
                  options={d.ownDevices.map((x) => ({ id: x.id, text: `${x.serial} · ${x.schoolName ?? '未部署'}` }))}
                  emptyText="您没有直接持有的终端可分配"
                  busy={busy}
                  onAssign={() => device !== '' && run(() => dataProvider.assignToChild(d.id, { deviceIds: [device] }), '已分配终端').then(() => setDevice(''))}
                />
                <Held
                  title="学校"
                  empty="尚未分配学校"
                  items={d.schools.map((x) => ({ id: x.id, text: `${x.name} · ${x.region}` }))}
                  busy={busy}
                  onReclaim={(id) => run(() => dataProvider.reclaimFromChild(d.id, { schoolIds: [id] }), '已收回学校')}
                />
                <Assign
                  label="分配我的直营学校"
                  value={school}
                  onChange={setSchool}
                  options={d.ownSchools.map((x) => ({ id: x.id, text: x.name }))}
                  emptyText="您没有直营学校可分配"
                  busy={busy}
                  onAssign={() => school !== '' && run(() => dataProvider.assignToChild(d.id, { schoolIds: [school] }), '已分配学校').then(() => setSchool(''))}
                />
              </>
            )}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          关闭
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function Held({ title, empty, items, busy, onReclaim }: { title: string; empty: string; items: { id: number; text: string }[]; busy: boolean; onReclaim: (id: number) => void }) {
  return (
    <Box>
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
        {title}（{items.length}）
      </Typography>
      {!items.length ? (
        <Typography variant="body2" color="text.secondary">
          {empty}
        </Typography>
      ) : (
        items.map((x) => (
          <Stack key={x.id} direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1, py: 0.25 }}>
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
              {x.text}
            </Typography>
            <Button size="small" color="error" disabled={busy} onClick={() => onReclaim(x.id)} sx={{ flexShrink: 0 }}>
              收回
            </Button>
          </Stack>
        ))
      )}
    </Box>
  );
}

function Assign(props: { label: string; value: number | ''; onChange: (v: number | '') => void; options: { id: number; text: string }[]; emptyText: string; busy: boolean; onAssign: () => void }) {
  if (!props.options.length)
    return (
      <Typography variant="body2" color="text.secondary">
        {props.emptyText}
      </Typography>
    );
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <TextField select size="small" label={props.label} value={props.value} onChange={(e) => props.onChange(e.target.value === '' ? '' : Number(e.target.value))} sx={{ flex: 1, minWidth: 0, maxWidth: 420 }}>
        {props.options.map((o) => (
          <MenuItem key={o.id} value={o.id}>
            {o.text}
          </MenuItem>
        ))}
      </TextField>
      <Button variant="outlined" disabled={props.busy || props.value === ''} onClick={props.onAssign} sx={{ flexShrink: 0 }}>
        分配
      </Button>
    </Stack>
  );
}
