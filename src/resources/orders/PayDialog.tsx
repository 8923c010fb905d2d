// The pay dialog: the gateway's code URL as a QR code (and a link that opens the pay page in this
// browser), polling our server for the pay status through react-query. It says 已支付 only when
// the server does.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import { OrderStatus, PayStatus } from '../../domain/orders';
import type { PayCode, PayStatusReply } from '../../dataProvider/orders';
import { QrCode } from '../../ui/QrCode';
import { money, dateTime } from '../../domain/format';

const POLL_MS = 2000;

type State = 'waiting' | 'paid' | 'closed';

export function PayDialog({ title, number, pay, poll, onPaid, onClose, extra }: {
  title: string;
  /** The order or recharge number. */
  number: string;
  pay: PayCode;
  poll: () => Promise<PayStatusReply>;
  onPaid?: () => void;
  onClose: () => void;
  /** Shown above the QR code while waiting (an order's 余额支付). */
  extra?: ReactNode;
}) {
  const [state, setState] = useState<State>(pay.payStatus === PayStatus.paid ? 'paid' : 'waiting');
  // The latest callbacks, so a parent's re-render does not restart the polling.
  const calls = useRef({ poll, onPaid });
  calls.current = { poll, onPaid };
  // Polls while waiting, in the background too (the payer is on a phone); a failed poll is tried
  // again at the next tick.
  const status = useQuery({
    queryKey: ['payStatus', number],
    queryFn: () => calls.current.poll(),
    enabled: state === 'waiting',
    refetchInterval: POLL_MS,
    refetchIntervalInBackground: true,
    // Each poll asks the gateway too: the interval is enough, focus adds nothing.
    refetchOnWindowFocus: false,
    retry: false,
    gcTime: 0,
  });
  useEffect(() => {
    const reply = status.data;
    if (state !== 'waiting' || !reply) return;
    if (reply.payStatus === PayStatus.paid && (reply.status === undefined || reply.status === OrderStatus.paid)) {
      setState('paid');
      calls.current.onPaid?.();
    } else if (reply.status === OrderStatus.closed || reply.status === OrderStatus.cancelled) {
      setState('closed');
    }
  }, [status.data, state]);

  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center' }}>
          <Typography variant="body2" color="text.secondary">
            {number}
          </Typography>
          <Typography variant="h4" sx={{ fontWeight: 600 }} data-testid="pay-amount">
            {money(pay.amountFen)}
          </Typography>
          {state === 'paid' ? (
            <Stack spacing={1} sx={{ alignItems: 'center', py: 4 }}>
              <CheckCircleOutlined color="success" sx={{ fontSize: 64 }} />
              <Typography variant="h6" color="success.main">
                已支付
              </Typography>
            </Stack>
          ) : state === 'closed' ? (
            <Alert severity="warning" sx={{ width: '100%' }}>
              订单已关闭，未完成支付
            </Alert>
          ) : (
            <>
              {extra}
              <Box sx={{ p: 1, border: 1, borderColor: 'divider', borderRadius: 1 }}>
                <QrCode text={pay.codeUrl} />
              </Box>
              <Typography variant="body2">请使用微信或支付宝扫码支付，{dateTime(pay.expiresAt)} 前有效</Typography>
              {/* A WeChat code URL (weixin://) opens nothing in a browser: only the scan pays it. */}
              {pay.codeUrl.startsWith('http') && (
                <Link href={pay.codeUrl} target="_blank" rel="noopener">
                  在浏览器中打开支付页面
                </Link>
              )}
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'text.secondary' }}>
                <CircularProgress size={16} />
                <Typography variant="body2">等待支付结果…</Typography>
              </Stack>
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{state === 'paid' ? '完成' : '关闭'}</Button>
      </DialogActions>
    </Dialog>
  );
}
