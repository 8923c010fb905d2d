// Fulfilment on /orders (docs/api-partner-orders.md "发货与收货"): the 收货地址 book (a toolbar
// button, every level), the address picker of a new order, and the row actions 发货 (the seller),
// 确认收货 and 退货 (the buyer); the detail's shipments, returns (the seller confirms them back)
// and 订单动态. Pessimistic like the other actions: a dialog waits for the server's answer.
import { createContext, useContext, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useNotify, useRefresh } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import LocalShippingOutlined from '@mui/icons-material/LocalShippingOutlined';
import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import type { AppDataProvider } from '../../dataProvider';
import type { AddressInput } from '../../dataProvider/orders';
import type { OrderDetail } from '../../domain/orders';
import { OrderStatus, REASON_MAX_LENGTH, RefundStatus } from '../../domain/orders';
import {
  ADDRESS_DETAIL_MAX,
  CARRIER_OTHER,
  CARRIER_NAME_MAX,
  CARRIERS,
  FulfilStatus,
  MOBILE_PATTERN,
  RECEIVER_MAX,
  REGION_PART_MAX,
  ReturnStatus,
  RETURN_STATUSES,
  TRACKING_NO_MAX,
  TRACKING_NO_PATTERN,
  addressText,
  type Address,
  type ShipTo,
} from '../../domain/fulfilment';
import { labelOf } from '../../domain/orders';
import type { RowActionProps } from '../types';
import { EmptyState } from '../../ui/EmptyState';
import { dateTime, money } from '../../domain/format';

const small = { size: 'small', sx: { minWidth: 0, px: 1 } } as const;
const ADDRESSES_KEY = ['partnerAddresses'];

/** True on the platform's 平台订单发货 screen: the same actions call the administrator's endpoints. */
export const PlatformSide = createContext(false);

export const shipToText = (a: ShipTo) => `${a.receiver} ${a.phone} · ${addressText(a)}`;

// ---------------------------------------------------------------- the address book

const EMPTY: AddressInput = { receiver: '', phone: '', province: '', city: '', district: '', detail: '', isDefault: false };

function AddressForm({ initial, onSaved, onCancel }: { initial?: Address; onSaved: () => void; onCancel: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [value, setValue] = useState<AddressInput>(initial ?? EMPTY);
  const [busy, setBusy] = useState(false);
  const phoneOk = MOBILE_PATTERN.test(value.phone.replace(/[\s-]/g, ''));
  const complete = !!(value.receiver.trim() && value.province.trim() && value.city.trim() && value.district.trim() && value.detail.trim()) && phoneOk;
  const field = (key: keyof AddressInput, label: string, max: number, extra: object = {}) => (
    <TextField
      label={label}
      size="small"
      value={value[key] as string}
      onChange={(e) => setValue((v) => ({ ...v, [key]: e.target.value.slice(0, max) }))}
      fullWidth
      {...extra}
    />
  );
  const save = async () => {
    setBusy(true);
    try {
      if (initial) await dataProvider.updateAddress({ ...value, id: initial.id });
      else await dataProvider.addAddress(value);
      notify('收货地址已保存', { type: 'success' });
      onSaved();
    } catch {
      // The http client showed why.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack spacing={1.5} sx={{ pt: 1 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
        {field('receiver', '收货人', RECEIVER_MAX)}
        {field('phone', '手机号', 20, { error: !!value.phone && !phoneOk, helperText: value.phone && !phoneOk ? '请输入 11 位手机号码' : undefined, slotProps: { htmlInput: { inputMode: 'tel' } } })}
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
        {field('province', '省份', REGION_PART_MAX)}
        {field('city', '城市', REGION_PART_MAX)}
        {field('district', '区县', REGION_PART_MAX)}
      </Stack>
      {field('detail', '详细地址', ADDRESS_DETAIL_MAX, { helperText: `街道、门牌号、楼层房间（${value.detail.length}/${ADDRESS_DETAIL_MAX}）` })}
      <FormControlLabel
        control={<Checkbox checked={value.isDefault || !!initial?.isDefault} disabled={!!initial?.isDefault} onChange={(e) => setValue((v) => ({ ...v, isDefault: e.target.checked }))} />}
        label="设为默认地址（新订单自动选用）"
      />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1 }}>
        <Button onClick={onCancel} disabled={busy}>
          返回
        </Button>
        <Button variant="contained" disableElevation onClick={save} disabled={busy || !complete} startIcon={busy ? <CircularProgress size={14} /> : undefined}>
          保存地址
        </Button>
      </Box>
    </Stack>
  );
}

function useAddresses() {
  const dataProvider = useDataProvider<AppDataProvider>();
  return useQuery({ queryKey: ADDRESSES_KEY, queryFn: () => dataProvider.addresses(), retry: false });
}

/** The book: every address with edit, delete and 设为默认, and a form to add one. */
export function AddressBook() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const list = useAddresses();
  const [editing, setEditing] = useState<Address | 'new'>();
  const reload = () => queryClient.invalidateQueries({ queryKey: ADDRESSES_KEY });
  if (!list.data) return list.isError ? <EmptyState text="收货地址读取失败，请稍后重试" /> : <CircularProgress size={24} />;
  if (editing) return <AddressForm initial={editing === 'new' ? undefined : editing} onCancel={() => setEditing(undefined)} onSaved={() => { setEditing(undefined); reload(); }} />;
  const act = async (work: () => Promise<unknown>) => {
    try {
      await work();
    } catch {
      // The http client showed why.
    }
    reload();
  };
  return (
    <Stack spacing={1}>
      {list.data.length === 0 && <EmptyState text="还没有收货地址。添加一个地址后，下单时会自动选用它作为收货地址。" />}
      {list.data.map((a) => (
        <Box key={a.id} data-testid="address" sx={{ p: 1.25, border: 1, borderColor: a.isDefault ? 'primary.main' : 'divider', borderRadius: 1 }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {a.receiver} {a.phone} {a.isDefault && <Box component="span" sx={{ color: 'primary.main', fontWeight: 400 }}>· 默认</Box>}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
            {addressText(a)}
          </Typography>
          <Box sx={{ display: 'flex', gap: 0.5, mt: 0.5, flexWrap: 'wrap' }}>
            <Button {...small} onClick={() => setEditing(a)}>
              编辑
            </Button>
            {!a.isDefault && (
              <Button {...small} onClick={() => act(() => dataProvider.updateAddress({ ...a, isDefault: true }))}>
                设为默认
              </Button>
            )}
            <Button {...small} color="error" onClick={() => act(() => dataProvider.deleteAddress(a.id))}>
              删除
            </Button>
          </Box>
        </Box>
      ))}
      <Box>
        <Button variant="outlined" size="small" startIcon={<PlaceOutlined />} onClick={() => setEditing('new')}>
          新增收货地址
        </Button>
      </Box>
    </Stack>
  );
}

export function AddressBookButton() {
  const [open, setOpen] = useState(false);
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return (
    <>
      {/* On a phone the toolbar's other actions are icons too: the text would push them off the screen. */}
      {phone ? (
        <IconButton size="small" color="primary" aria-label="收货地址" title="收货地址" onClick={() => setOpen(true)}>
          <PlaceOutlined />
        </IconButton>
      ) : (
        <Button size="small" startIcon={<PlaceOutlined />} onClick={() => setOpen(true)}>
          收货地址
        </Button>
      )}
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="sm" fullWidth fullScreen={phone}>
        <DialogTitle>收货地址</DialogTitle>
        <DialogContent>
          <AddressBook />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>关闭</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/** The new order's 收货地址: the default pre-selected, or a way to add the first one. */
export function AddressPicker({ value, onChange }: { value: number | undefined; onChange: (id: number | undefined) => void }) {
  const list = useAddresses();
  const [adding, setAdding] = useState(false);
  const queryClient = useQueryClient();
  const addresses = list.data ?? [];
  const chosen = value ?? addresses.find((a) => a.isDefault)?.id ?? addresses[0]?.id;
  if (!list.data) return list.isError ? null : <CircularProgress size={20} />;
  if (adding || addresses.length === 0)
    return (
      <Box sx={{ p: 1.5, border: 1, borderColor: 'divider', borderRadius: 1 }}>
        <Typography variant="subtitle2">{addresses.length === 0 ? '请先添加收货地址，订单将寄往这里' : '新增收货地址'}</Typography>
        <AddressForm
          onCancel={() => setAdding(false)}
          onSaved={() => {
            setAdding(false);
            queryClient.invalidateQueries({ queryKey: ADDRESSES_KEY });
          }}
        />
      </Box>
    );
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
      <TextField
        select
        size="small"
        label="收货地址"
        value={chosen ?? ''}
        onChange={(e) => onChange(Number(e.target.value))}
        sx={{ flex: 1, minWidth: 0 }}
        slotProps={{ select: { renderValue: (id) => { const a = addresses.find((x) => x.id === id); return a ? shipToText(a) : ''; } } }}
      >
        {addresses.map((a) => (
          <MenuItem key={a.id} value={a.id} sx={{ whiteSpace: 'normal' }}>
            {shipToText(a)}
            {a.isDefault ? '（默认）' : ''}
          </MenuItem>
        ))}
      </TextField>
      <Button size="small" onClick={() => setAdding(true)} sx={{ flexShrink: 0 }}>
        新增地址
      </Button>
    </Stack>
  );
}

/** The chosen address id as the picker shows it (the default when none was picked). */
export function useChosenAddress(value: number | undefined): number | undefined {
  const list = useAddresses();
  const addresses = list.data ?? [];
  return value ?? addresses.find((a) => a.isDefault)?.id ?? addresses[0]?.id;
}

// ---------------------------------------------------------------- parcels (ship, return)

interface ParcelLine {
  itemId: number;
  name: string;
  /** How many may move now (left to ship, or shipped and not returned). */
  room: number;
}

function ParcelDialog({ title, intro, lines, withReason, confirmLabel, onClose, send }: {
  title: string;
  intro: string;
  lines: ParcelLine[];
  withReason?: boolean;
  confirmLabel: string;
  onClose: () => void;
  send: (body: { carrier: string; carrierName?: string; trackingNo: string; reason: string; lines: { itemId: number; quantity: number }[] }) => Promise<string>;
}) {
  const notify = useNotify();
  const refresh = useRefresh();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [quantities, setQuantities] = useState<Record<number, number>>(() => Object.fromEntries(lines.map((l) => [l.itemId, withReason ? 0 : l.room])));
  const [carrier, setCarrier] = useState<string>(CARRIERS[0]);
  const [carrierName, setCarrierName] = useState('');
  const [trackingNo, setTrackingNo] = useState('');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const chosen = lines.filter((l) => (quantities[l.itemId] ?? 0) > 0).map((l) => ({ itemId: l.itemId, quantity: quantities[l.itemId] }));
  const tooMany = lines.some((l) => (quantities[l.itemId] ?? 0) > l.room);
  const trackingOk = TRACKING_NO_PATTERN.test(trackingNo.trim());
  const ready = chosen.length > 0 && !tooMany && trackingOk && (carrier !== CARRIER_OTHER || !!carrierName.trim()) && (!withReason || !!reason.trim());
  const submit = async () => {
    setBusy(true);
    try {
      notify(await send({ carrier, carrierName: carrier === CARRIER_OTHER ? carrierName.trim() : undefined, trackingNo: trackingNo.trim(), reason: reason.trim(), lines: chosen }), { type: 'success' });
      onClose();
    } catch {
      // The http client showed the server's reason.
    } finally {
      setBusy(false);
      refresh();
    }
  };
  return (
    <Dialog open onClose={() => !busy && onClose()} maxWidth="sm" fullWidth fullScreen={phone}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 1.5 }}>{intro}</DialogContentText>
        <Stack spacing={1.5}>
          {lines.map((l) => {
            const q = quantities[l.itemId] ?? 0;
            return (
              <Box key={l.itemId} sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                <Typography variant="body2" sx={{ flex: 1, minWidth: 0 }}>
                  {l.name}
                  <Typography component="span" variant="caption" color="text.secondary">
                    {' '}
                    （{withReason ? '可退' : '待发'} {l.room} 包）
                  </Typography>
                </Typography>
                <TextField
                  size="small"
                  type="number"
                  value={q}
                  disabled={l.room === 0}
                  onChange={(e) => setQuantities((v) => ({ ...v, [l.itemId]: Math.max(0, Math.floor(Number(e.target.value) || 0)) }))}
                  error={q > l.room}
                  helperText={q > l.room ? `最多 ${l.room} 包` : undefined}
                  slotProps={{ htmlInput: { min: 0, max: l.room, 'aria-label': `${l.name} 数量` } }}
                  sx={{ width: 96, flexShrink: 0 }}
                />
              </Box>
            );
          })}
          {/* A grid, not a row of flex items: the select's width is its own, the number takes the rest. */}
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '170px 1fr' }, gap: 1.5 }}>
            <TextField select size="small" label="承运商" value={carrier} onChange={(e) => setCarrier(e.target.value)}>
              {CARRIERS.map((c) => (
                <MenuItem key={c} value={c}>
                  {c}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              size="small"
              label={withReason ? '退货运单号' : '运单号'}
              value={trackingNo}
              onChange={(e) => setTrackingNo(e.target.value.slice(0, TRACKING_NO_MAX))}
              error={!!trackingNo && !trackingOk}
              helperText={trackingNo && !trackingOk ? '6–32 位字母、数字或短横线' : undefined}
            />
          </Box>
          {carrier === CARRIER_OTHER && (
            <TextField size="small" label="承运商名称" value={carrierName} onChange={(e) => setCarrierName(e.target.value.slice(0, CARRIER_NAME_MAX))} />
          )}
          {withReason && (
            <TextField label="退货原因" value={reason} onChange={(e) => setReason(e.target.value.slice(0, REASON_MAX_LENGTH))} fullWidth multiline minRows={2} helperText={`${reason.length}/${REASON_MAX_LENGTH}`} />
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          返回
        </Button>
        <Button variant="contained" disableElevation onClick={submit} disabled={busy || !ready} startIcon={busy ? <CircularProgress size={14} /> : <LocalShippingOutlined />}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Loads the order's lines when a parcel dialog opens (the list row has only their text). */
function useDetailOnOpen() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const platform = useContext(PlatformSide);
  const [detail, setDetail] = useState<OrderDetail>();
  const [busy, setBusy] = useState(false);
  const open = async (orderNo: string) => {
    setBusy(true);
    try {
      setDetail(await dataProvider.orderDetail(orderNo, platform));
    } catch {
      // The http client showed why.
    } finally {
      setBusy(false);
    }
  };
  return { detail, busy, open, close: () => setDetail(undefined) };
}

const shippable = (r: { status: number; refundStatus: number; fulfilStatus: number }) =>
  r.status === OrderStatus.paid && (r.fulfilStatus === FulfilStatus.partial || (r.fulfilStatus === FulfilStatus.awaiting && r.refundStatus === RefundStatus.none));

export function ShipButton({ record }: RowActionProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const platform = useContext(PlatformSide);
  const { detail, busy, open, close } = useDetailOnOpen();
  if (!record.seller || !shippable(record as never)) return null;
  return (
    <>
      <Button {...small} variant="contained" disableElevation onClick={() => open(String(record.orderNo))} disabled={busy}>
        发货
      </Button>
      {detail && (
        <ParcelDialog
          title="订单发货"
          intro={detail.shipTo ? `寄往：${shipToText(detail.shipTo)}` : '该订单下单时未填写收货地址，请与下单方确认地址后发货。'}
          lines={detail.items.map((i) => ({ itemId: i.itemId, name: i.name, room: i.quantity - i.shippedQuantity }))}
          confirmLabel="确认发货"
          onClose={close}
          send={async (body) => {
            const done = await dataProvider.shipOrder(detail.orderNo, body, platform);
            return done.fulfilStatus === FulfilStatus.shipped ? '已发货，订单已全部发货' : '已发货，订单部分发货';
          }}
        />
      )}
    </>
  );
}

export function ReturnButton({ record }: RowActionProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const { detail, busy, open, close } = useDetailOnOpen();
  if (!record.mine || record.status !== OrderStatus.paid || record.fulfilStatus === FulfilStatus.awaiting || record.refundStatus === RefundStatus.refunded) return null;
  return (
    <>
      <Button {...small} onClick={() => open(String(record.orderNo))} disabled={busy}>
        退货
      </Button>
      {detail && (
        <ParcelDialog
          title="申请退货退款"
          intro={`选择要退回的商品和数量，寄回给${detail.sellerName}并填写退货运单号；供货方确认收到后，按所退商品金额退款（原路退回）。`}
          lines={detail.items.map((i) => ({ itemId: i.itemId, name: `${i.name}（${money(i.unitPriceFen)}/包）`, room: i.shippedQuantity - i.returnedQuantity }))}
          withReason
          confirmLabel="提交退货"
          onClose={close}
          send={async (body) => {
            const done = await dataProvider.applyReturn(detail.orderNo, body);
            return `已提交退货申请（退款 ${money(done.amountFen)}），待供货方确认收货`;
          }}
        />
      )}
    </>
  );
}

export function ReceiptButton({ record }: RowActionProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!record.mine || record.status !== OrderStatus.paid || record.fulfilStatus !== FulfilStatus.shipped) return null;
  const confirm = async () => {
    setBusy(true);
    try {
      await dataProvider.confirmReceipt(String(record.orderNo));
      notify('已确认收货', { type: 'success' });
      setOpen(false);
    } catch {
      // The http client showed why.
    } finally {
      setBusy(false);
      refresh();
    }
  };
  return (
    <>
      <Button {...small} color="success" onClick={() => setOpen(true)}>
        确认收货
      </Button>
      <Dialog open={open} onClose={() => !busy && setOpen(false)} maxWidth="xs" fullWidth>
        <DialogTitle>确认收货</DialogTitle>
        <DialogContent>
          <DialogContentText>确认已收到订单 {String(record.orderNo)} 的全部商品吗？确认后如有问题仍可在售后期内申请退货。</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)} disabled={busy}>
            返回
          </Button>
          <Button variant="contained" disableElevation color="success" onClick={confirm} disabled={busy} startIcon={busy ? <CircularProgress size={14} /> : undefined}>
            确认收货
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

// ---------------------------------------------------------------- the detail's sections

export function FulfilmentSections({ detail, onChanged }: { detail: OrderDetail; onChanged: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const platform = useContext(PlatformSide);
  const notify = useNotify();
  const [busy, setBusy] = useState<string>();
  const receive = async (returnNo: string) => {
    setBusy(returnNo);
    try {
      const done = await dataProvider.receiveReturn(detail.orderNo, returnNo, platform);
      notify(`已确认收到退货，退款 ${money(done.amountFen)} 已发起`, { type: 'success' });
      onChanged();
    } catch {
      // The http client showed why.
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <>
      <Box sx={{ mt: 2 }}>
        <Typography variant="subtitle2">收货地址</Typography>
        <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
          {detail.shipTo ? shipToText(detail.shipTo) : '下单时未填写（早于收货地址功能的订单）'}
        </Typography>
      </Box>
      {detail.shipments.length > 0 && (
        <Box sx={{ mt: 2 }}>
          <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
            发货记录
          </Typography>
          {detail.shipments.map((s) => (
            <Box key={s.id} data-testid="order-shipment" sx={{ py: 0.75, borderTop: 1, borderColor: 'divider' }}>
              <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
                {s.carrier} · 运单号 {s.trackingNo}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {s.lines.map((l) => `${l.name} × ${l.quantity}`).join('；')} · {s.createdByName || '供货方'} · {dateTime(s.createdAt)}
              </Typography>
            </Box>
          ))}
        </Box>
      )}
      {detail.returns.length > 0 && (
        <Box sx={{ mt: 2 }}>
          <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
            退货
          </Typography>
          {detail.returns.map((r) => (
            <Box key={r.returnNo} data-testid="order-return" sx={{ py: 0.75, borderTop: 1, borderColor: 'divider' }}>
              <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
                {r.returnNo} · {labelOf(RETURN_STATUSES, r.status)} · 退款 {money(r.amountFen)}
              </Typography>
              <Typography variant="caption" color="text.secondary" component="div" sx={{ wordBreak: 'break-all' }}>
                {r.lines.map((l) => `${l.name} × ${l.quantity}`).join('；')} · {r.carrier} {r.trackingNo} · 原因：{r.reason}
              </Typography>
              {detail.seller && r.status === ReturnStatus.requested && (
                <Button size="small" variant="outlined" sx={{ mt: 0.5 }} disabled={!!busy} onClick={() => receive(r.returnNo)}>
                  确认收到退货并退款
                </Button>
              )}
            </Box>
          ))}
        </Box>
      )}
      <Box sx={{ mt: 2 }}>
        <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
          订单动态
        </Typography>
        {detail.timeline.map((e, i) => (
          <Box key={i} data-testid="order-event" sx={{ display: 'flex', gap: 1.5, py: 0.5, borderLeft: 2, borderColor: 'primary.light', pl: 1.5 }}>
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
                {e.what}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {dateTime(e.at)}
                {e.who ? ` · ${e.who}` : ''}
              </Typography>
            </Box>
          </Box>
        ))}
      </Box>
    </>
  );
}
