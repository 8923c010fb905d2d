// The row actions of /orders: detail, pay (the buyer's unpaid order), cancel (unpaid, the buyer or
// its upline) and refund (the buyer's paid order). Pessimistic: a button waits for the server's
// answer, and the list is read again before anything shows as done.
import { useContext, useState, type ReactNode } from 'react';
import { useDataProvider, useNotify, useRefresh } from 'react-admin';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Box from '@mui/material/Box';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import type { AppDataProvider } from '../../dataProvider';
import type { PlacedOrder } from '../../dataProvider/orders';
import type { OrderDetail } from '../../domain/orders';
import { orderStateLabel, OrderStatus, PAY_STATUSES, PAYMENT_OUTCOMES, REASON_MAX_LENGTH, REFUND_STATUSES, RefundStatus, labelOf } from '../../domain/orders';
import type { RowActionProps } from '../types';
import { Facts } from '../../ui/Facts';
import { OrderPayDialog } from './OrderPayDialog';
import { FulfilmentSections, PlatformSide } from './Fulfilment';
import { FulfilStatus, fulfilLabel } from '../../domain/fulfilment';
import { money, dateTime } from '../../domain/format';

const small = { size: 'small', sx: { minWidth: 0, px: 1 } } as const;

export function DetailButton({ record }: RowActionProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const refresh = useRefresh();
  const platform = useContext(PlatformSide);
  const [detail, setDetail] = useState<OrderDetail>();
  const [busy, setBusy] = useState(false);
  const open = async () => {
    setBusy(true);
    try {
      setDetail(await dataProvider.orderDetail(String(record.orderNo), platform));
    } catch {
      // The http client showed why.
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button {...small} onClick={open} disabled={busy}>
        详情
      </Button>
      {detail && <DetailDialog detail={detail} onClose={() => setDetail(undefined)} onChanged={async () => { setDetail(await dataProvider.orderDetail(detail.orderNo, platform)); refresh(); }} />}
    </>
  );
}

function DetailDialog({ detail, onClose, onChanged }: { detail: OrderDetail; onClose: () => void; onChanged: () => void }) {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const rows: [string, string][] = [
    ['订单号', detail.orderNo],
    ['下单方', detail.buyerName],
    ['供货方', detail.sellerName],
    ['订单状态', orderStateLabel(detail)],
    ['支付状态', labelOf(PAY_STATUSES, detail.payStatus)],
    ['退款状态', labelOf(REFUND_STATUSES, detail.refundStatus)],
    ['发货状态', fulfilLabel(detail)],
    ['下单时间', dateTime(detail.createdAt)],
    ['支付时间', dateTime(detail.paidAt)],
    ['备注', detail.remark || '-'],
  ];
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth fullScreen={phone}>
      <DialogTitle>订单详情</DialogTitle>
      <DialogContent>
        <Facts columns={phone ? 2 : 3} items={rows} />
        {/* On a phone the lines scroll sideways inside their box; the page itself never does. */}
        <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" sx={{ minWidth: 440 }}>
          <TableHead sx={{ '& th': { whiteSpace: 'nowrap' } }}>
            <TableRow>
              <TableCell>纸张规格</TableCell>
              <TableCell align="right">张数</TableCell>
              <TableCell align="right">单价</TableCell>
              <TableCell align="right">数量</TableCell>
              <TableCell align="right">小计</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {detail.items.map((item) => (
              <TableRow key={item.packId}>
                <TableCell sx={{ minWidth: 150 }}>{item.name}</TableCell>
                <TableCell align="right">{item.sheets}</TableCell>
                <TableCell align="right">{money(item.unitPriceFen)}</TableCell>
                <TableCell align="right">{item.quantity}</TableCell>
                <TableCell align="right">{money(item.amountFen)}</TableCell>
              </TableRow>
            ))}
            <TableRow>
              <TableCell colSpan={4} align="right" sx={{ fontWeight: 600 }}>
                合计
              </TableCell>
              <TableCell align="right" sx={{ fontWeight: 600 }}>
                {money(detail.amountFen)}
              </TableCell>
            </TableRow>
          </TableBody>
        </Table>
        </Box>
        {detail.refund && (
          <Box sx={{ mt: 2, p: 1.5, bgcolor: 'grey.50', borderRadius: 1 }}>
            <Typography variant="subtitle2">退款 {detail.refund.refundNo}</Typography>
            <Typography variant="body2">
              {labelOf(REFUND_STATUSES, detail.refund.status)} · {money(detail.refund.amountFen)} · 申请于 {dateTime(detail.refund.createdAt)}
              {detail.refund.refundedAt ? ` · 退款于 ${dateTime(detail.refund.refundedAt)}` : ''}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              原因：{detail.refund.reason}
            </Typography>
          </Box>
        )}
        <FulfilmentSections detail={detail} onChanged={onChanged} />
        {detail.payments.length > 0 && (
          <Box sx={{ mt: 2 }}>
            <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
              收款记录
            </Typography>
            {detail.payments.map((p) => (
              <Box key={p.transactionId} data-testid="order-payment" sx={{ py: 0.75, borderTop: 1, borderColor: 'divider' }}>
                <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
                  {money(p.amountFen)} · {dateTime(p.paidAt)} · {labelOf(PAYMENT_OUTCOMES, p.outcome)}
                </Typography>
                <Typography variant="caption" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
                  交易号 {p.transactionId}
                  {p.refundNo ? ` · 退款 ${p.refundNo} ${labelOf(REFUND_STATUSES, p.refundStatus ?? RefundStatus.refunding)}` : ''}
                  {p.refundedAt ? `（${dateTime(p.refundedAt)}）` : ''}
                </Typography>
              </Box>
            ))}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>关闭</Button>
      </DialogActions>
    </Dialog>
  );
}

export function PayButton({ record }: RowActionProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const refresh = useRefresh();
  const [pay, setPay] = useState<PlacedOrder>();
  const [busy, setBusy] = useState(false);
  // The list is read again only when the dialog closes: paid, the row would lose this button
  // (or leave a 未支付 filter) and take the open dialog with it.
  if ((!record.mine || record.status !== OrderStatus.pending) && !pay) return null;
  const open = async () => {
    setBusy(true);
    try {
      setPay(await dataProvider.orderPayCode(String(record.orderNo)));
    } catch {
      refresh();
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button {...small} variant="contained" disableElevation onClick={open} disabled={busy}>
        支付
      </Button>
      {pay && (
        <OrderPayDialog
          order={pay}
          onClose={() => {
            setPay(undefined);
            refresh();
          }}
        />
      )}
    </>
  );
}

/** A confirmed action that waits for the server: the dialog stays until it answers. */
function ConfirmAction({ label, title, children, run, color, confirmLabel, canConfirm = true }: {
  label: string;
  title: string;
  children: ReactNode;
  run: () => Promise<string>;
  color?: 'error' | 'primary';
  confirmLabel: string;
  canConfirm?: boolean;
}) {
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      notify(await run(), { type: 'success' });
      setOpen(false);
    } catch {
      // The http client showed the server's reason; the list shows the order as it is now.
    } finally {
      setBusy(false);
      refresh();
    }
  };
  return (
    <>
      <Button {...small} color={color} onClick={() => setOpen(true)}>
        {label}
      </Button>
      <Dialog open={open} onClose={() => !busy && setOpen(false)} maxWidth="xs" fullWidth>
        <DialogTitle>{title}</DialogTitle>
        <DialogContent>{children}</DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)} disabled={busy}>
            返回
          </Button>
          <Button onClick={confirm} color={color} variant="contained" disableElevation disabled={busy || !canConfirm} startIcon={busy ? <CircularProgress size={14} /> : undefined}>
            {confirmLabel}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

export function CancelButton({ record }: RowActionProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  if (record.status !== OrderStatus.pending) return null;
  return (
    <ConfirmAction
      label="取消"
      title="取消订单"
      color="error"
      confirmLabel="确定取消"
      run={async () => {
        await dataProvider.cancelOrder(String(record.orderNo));
        return '订单已取消';
      }}
    >
      <DialogContentText>确定取消订单 {String(record.orderNo)} 吗？取消后不能再支付。</DialogContentText>
    </ConfirmAction>
  );
}

export function RefundButton({ record }: RowActionProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [reason, setReason] = useState('');
  // After dispatch money comes back only with goods: 退货 (Fulfilment.tsx) instead.
  if (!record.mine || record.status !== OrderStatus.paid || record.refundStatus !== RefundStatus.none || record.fulfilStatus !== FulfilStatus.awaiting) return null;
  return (
    <ConfirmAction
      label="退款"
      title="申请退款"
      confirmLabel="提交申请"
      canConfirm={!!reason.trim()}
      run={async () => {
        await dataProvider.applyRefund(String(record.orderNo), reason.trim());
        return '已提交退款申请';
      }}
    >
      <DialogContentText sx={{ mb: 2 }}>
        订单 {String(record.orderNo)} 将整单退款 {money(record.amountFen)}，款项原路退回。
      </DialogContentText>
      <TextField
        label="退款原因"
        value={reason}
        onChange={(e) => setReason(e.target.value.slice(0, REASON_MAX_LENGTH))}
        fullWidth
        multiline
        minRows={2}
        helperText={`${reason.length}/${REASON_MAX_LENGTH}`}
      />
    </ConfirmAction>
  );
}
