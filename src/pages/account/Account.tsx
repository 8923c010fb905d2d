// 我的账户 (/account, level-1 partners): the balance and a recharge by QR code, paper packs at
// the partner's price with a new order that leads to the pay dialog, and the recharge records.
import { useCallback, useState, type ReactNode } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AccountBalanceWalletOutlined from '@mui/icons-material/AccountBalanceWalletOutlined';
import type { AppDataProvider } from '../../dataProvider';
import type { PayCode, PlacedOrder, RechargeRecord } from '../../dataProvider/orders';
import type { Page } from '../../dataProvider/adapters';
import { RECHARGE_MAX_FEN, RECHARGE_MIN_FEN, fenFromYuan } from '../../domain/orders';
import { ScreenCard } from '../../ui/ScreenCard';
import { EmptyState } from '../../ui/EmptyState';
import { TablePaging } from '../../ui/TablePaging';
import { PayDialog } from '../../resources/orders/PayDialog';
import { NewOrderForm, PlacedOrderPay } from '../../resources/orders/NewOrder';
import { money, dateTime } from '../../domain/format';
import type { ScreenProps } from '../screen';
import { ReorderSuggestion } from './ReorderCard';

function Section({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <Card variant="outlined" sx={{ borderRadius: 2 }}>
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mb: 1.5 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
            {title}
          </Typography>
          {action}
        </Stack>
        {children}
      </CardContent>
    </Card>
  );
}

function RechargeDialog({ onPlaced, onClose }: { onPlaced: (r: PayCode & { rechargeNo: string }) => void; onClose: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const fen = fenFromYuan(text);
  const error = text && (fen === undefined ? '请输入金额，最多两位小数' : fen < RECHARGE_MIN_FEN ? `单次充值不少于${money(RECHARGE_MIN_FEN)}` : fen > RECHARGE_MAX_FEN ? `单次充值不超过${money(RECHARGE_MAX_FEN)}` : '');
  const submit = async () => {
    if (!fen || error) return;
    setBusy(true);
    try {
      onPlaced(await dataProvider.addRecharge(fen));
    } catch {
      // The http client showed why.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>账户充值</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          label="充值金额"
          value={text}
          onChange={(e) => setText(e.target.value)}
          error={!!error}
          helperText={error || '充值到账后计入账户余额'}
          fullWidth
          sx={{ mt: 1 }}
          slotProps={{ input: { startAdornment: <InputAdornment position="start">¥</InputAdornment> } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>取消</Button>
        <Button variant="contained" disableElevation onClick={submit} disabled={busy || !fen || !!error}>
          去支付
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function RechargeRecords() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(10);
  const query = useQuery({ queryKey: ['rechargeRecords', page, size], queryFn: () => dataProvider.rechargeRecords(page + 1, size), retry: false, placeholderData: keepPreviousData });
  const data: Page<RechargeRecord> | undefined = query.isError ? { records: [], total: 0, current: 1, size, pages: 0 } : query.data;
  if (!data) return null;
  if (!data.total) return <EmptyState />;
  const state = (r: RechargeRecord) => (r.payStatus === 1 ? <Chip size="small" color="success" label="已到账" /> : r.closed ? <Chip size="small" label="已关闭" /> : <Chip size="small" color="warning" label="待支付" />);
  return (
    <>
      {/* A phone scrolls the table sideways instead of the page. */}
      <TableContainer>
        <Table size="small" sx={{ '& th, & td': { whiteSpace: 'nowrap' } }}>
          <TableHead>
            <TableRow>
              <TableCell>充值单号</TableCell>
              <TableCell align="right">金额</TableCell>
              <TableCell>状态</TableCell>
              <TableCell>创建时间</TableCell>
              <TableCell>到账时间</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {data.records.map((r) => (
              <TableRow key={r.rechargeNo}>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.rechargeNo}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {money(r.amountFen)}
                </TableCell>
                <TableCell>{state(r)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{dateTime(r.createdAt)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{dateTime(r.paidAt)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePaging
        total={data.total}
        page={page}
        size={size}
        onChange={(p, n) => {
          setPage(p);
          setSize(n);
        }}
      />
    </>
  );
}

export default function Account({ route }: ScreenProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const balance = useQuery({ queryKey: ['balance'], queryFn: () => dataProvider.balance(), retry: false }).data;
  const [recharging, setRecharging] = useState(false);
  const [rechargePay, setRechargePay] = useState<PayCode & { rechargeNo: string }>();
  const [placed, setPlaced] = useState<PlacedOrder>();
  /** Quantities from 补货建议; a new suggestion remounts the form with them. */
  const [suggested, setSuggested] = useState<{ at: number; quantities: Record<number, number> }>();
  const reload = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: ['balance'] });
    void queryClient.invalidateQueries({ queryKey: ['rechargeRecords'] });
  }, [queryClient]);

  return (
    <ScreenCard title={route.meta.title} description="账户余额 = 已到账充值 + 已结算的渠道收入 − 已结算给下级的渠道收入">
      <Stack spacing={2} sx={{ mt: 2 }}>
        <Section
          title="账户余额"
          action={
            <Button variant="contained" disableElevation startIcon={<AccountBalanceWalletOutlined />} onClick={() => setRecharging(true)}>
              充值
            </Button>
          }
        >
          {/* Two a row on a phone, where four would print the amounts over each other. */}
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' }, gap: 2 }}>
            {[
              ['可用余额', balance?.balanceFen],
              ['累计充值', balance?.rechargedFen],
              ['结算收入', balance?.settledInFen],
              ['结算支出', balance?.settledOutFen],
            ].map(([label, fen], i) => (
              <Box key={label as string}>
                <Typography variant="body2" color="text.secondary">
                  {label}
                </Typography>
                <Typography
                  variant={i === 0 ? 'h4' : 'h6'}
                  sx={{ fontWeight: 600, overflowWrap: 'anywhere', ...(i === 0 ? { fontSize: { xs: 22, sm: 34 } } : { fontSize: { xs: 16, sm: 20 } }) }}
                  data-testid={i === 0 ? 'balance' : `account-${label as string}`}
                >
                  {money(fen)}
                </Typography>
              </Box>
            ))}
          </Box>
        </Section>
        <Section title="补货建议">
          <ReorderSuggestion
            onFill={(items) => {
              setSuggested({ at: Date.now(), quantities: Object.fromEntries(items.map((i) => [i.packId, i.quantity])) });
              // The form below, filled in: where the partner checks and places the order.
              requestAnimationFrame(() => document.getElementById('new-order')?.scrollIntoView({ behavior: 'smooth', block: 'start' }));
            }}
          />
        </Section>
        <Box id="new-order">
          <Section title="纸张进货">
            <NewOrderForm key={suggested?.at ?? 0} initial={suggested?.quantities} onPlaced={setPlaced} />
          </Section>
        </Box>
        <Section title="充值记录">
          <RechargeRecords />
        </Section>
      </Stack>
      {recharging && (
        <RechargeDialog
          onClose={() => setRecharging(false)}
          onPlaced={(r) => {
            setRecharging(false);
            setRechargePay(r);
            reload();
          }}
        />
      )}
      {rechargePay && (
        <PayDialog
          title="扫码支付充值"
          number={`充值单号 ${rechargePay.rechargeNo}`}
          pay={rechargePay}
          poll={() => dataProvider.rechargePayStatus(rechargePay.rechargeNo)}
          onPaid={reload}
          onClose={() => {
            setRechargePay(undefined);
            reload();
          }}
        />
      )}
      {placed && <PlacedOrderPay order={placed} onDone={() => setPlaced(undefined)} />}
    </ScreenCard>
  );
}
