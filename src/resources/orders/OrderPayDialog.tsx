// An order's pay dialog: the QR code, and above it 余额支付 — all of the order from the available
// balance (paid at once), or part of it, the QR code then paying the rest.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../dataProvider';
import type { PlacedOrder } from '../../dataProvider/orders';
import { fenFromYuan } from '../../domain/orders';
import { balancePart } from '../../domain/balance';
import { money } from '../../domain/format';

/** The amount as typed: 1234.50, no grouping. */
const plainYuan = (fen: number) => `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
import { PayDialog } from './PayDialog';

export function OrderPayDialog({ order, onClose }: { order: PlacedOrder; onClose: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [pay, setPay] = useState(order);
  const balance = useQuery({ queryKey: ['partnerBalance'], queryFn: () => dataProvider.balance(), retry: false, gcTime: 0 });
  const available = balance.data?.availableFen ?? 0;
  const most = balancePart(pay.amountFen, available);
  const [text, setText] = useState<string>();
  const shown = text ?? (most > 0 ? plainYuan(most) : '');
  const fen = fenFromYuan(shown);
  const error = shown && (fen === undefined || fen <= 0 ? '请输入金额，最多两位小数' : fen > available ? '超过可用余额' : fen > pay.amountFen ? '超过订单待付金额' : '');
  const [busy, setBusy] = useState(false);
  const payNow = async () => {
    if (!fen || error) return;
    setBusy(true);
    try {
      const done = await dataProvider.payByBalance(pay.orderNo, fen);
      setPay({ ...pay, ...done, codeUrl: done.codeUrl ?? pay.codeUrl });
      void balance.refetch();
    } catch {
      // The http client showed why.
    } finally {
      setBusy(false);
    }
  };
  const used = pay.balanceFen ?? 0;
  const extra =
    used > 0 && pay.amountFen > 0 ? (
      <Typography variant="body2" color="text.secondary" data-testid="balance-used">
        已用余额支付 {money(used)}，请扫码支付剩余金额
      </Typography>
    ) : balance.data ? (
      <Box sx={{ width: '100%', p: 1.5, border: 1, borderColor: 'divider', borderRadius: 1, textAlign: 'left' }} data-testid="balance-pay">
        <Typography variant="body2" sx={{ mb: 1 }}>
          可用余额 <b>{money(available)}</b>
        </Typography>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <TextField
            size="small"
            label="余额支付金额"
            value={shown}
            onChange={(e) => setText(e.target.value)}
            error={!!error}
            helperText={error || '余额不足全额时，余下金额扫码支付'}
            disabled={available <= 0}
            sx={{ flex: 1, minWidth: 0 }}
            slotProps={{ input: { startAdornment: <InputAdornment position="start">¥</InputAdornment> } }}
          />
          <Button variant="outlined" onClick={payNow} disabled={busy || !fen || !!error || available <= 0} sx={{ whiteSpace: 'nowrap', flexShrink: 0, mt: 0.25 }}>
            余额支付
          </Button>
        </Stack>
      </Box>
    ) : null;
  return (
    // Paid wholly from the balance, the dialog starts again in its 已支付 state.
    <PayDialog
      key={pay.payStatus}
      title={used > 0 ? '扫码支付剩余金额' : '支付订单'}
      number={`订单号 ${pay.orderNo}`}
      pay={pay}
      poll={() => dataProvider.orderPayStatus(pay.orderNo)}
      onClose={onClose}
      extra={extra}
    />
  );
}
