// 账户余额与提现 on 渠道结算 (levels 1 and 2): the balance, its frozen part (withdrawals under
// review) and what is available; 申请提现 to the partner's bank account; the payout history.
import { useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useNotify } from 'react-admin';
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
import type { AppDataProvider } from '../../dataProvider';
import { ACCOUNT_NAME_MAX, ACCOUNT_NO_PATTERN, BANK_NAME_MAX, WITHDRAWAL_MAX_FEN, WITHDRAWAL_MIN_FEN, WITHDRAWAL_STATUSES, WithdrawalStatus } from '../../domain/balance';
import { fenFromYuan, labelOf } from '../../domain/orders';
import { dateTime, money } from '../../domain/format';
import { EmptyState } from '../../ui/EmptyState';
import { TablePaging } from '../../ui/TablePaging';

export const WITHDRAWAL_COLORS: Record<number, 'warning' | 'success' | 'default'> = { [WithdrawalStatus.pending]: 'warning', [WithdrawalStatus.paid]: 'success', [WithdrawalStatus.rejected]: 'default' };

function Amount({ label, fen, hint }: { label: string; fen: number | undefined; hint: string }) {
  return (
    <Box sx={{ p: 1.5, border: 1, borderColor: 'divider', borderRadius: 1.5, minWidth: 0 }} data-testid={`balance-${label}`}>
      <Typography variant="body2" color="text.secondary" noWrap>
        {label}
      </Typography>
      <Typography variant="h6" sx={{ fontWeight: 600, overflowWrap: 'anywhere', fontSize: { xs: 16, sm: 20 } }}>
        {money(fen)}
      </Typography>
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
        {hint}
      </Typography>
    </Box>
  );
}

function WithdrawDialog({ availableFen, onDone, onClose }: { availableFen: number; onDone: () => void; onClose: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [amount, setAmount] = useState('');
  const [bankName, setBankName] = useState('');
  const [accountName, setAccountName] = useState('');
  const [accountNo, setAccountNo] = useState('');
  const [busy, setBusy] = useState(false);
  const fen = fenFromYuan(amount);
  const amountError =
    amount &&
    (fen === undefined ? '请输入金额，最多两位小数' : fen < WITHDRAWAL_MIN_FEN ? `单次提现不少于${money(WITHDRAWAL_MIN_FEN)}` : fen > Math.min(availableFen, WITHDRAWAL_MAX_FEN) ? `超过可提现金额 ${money(Math.min(availableFen, WITHDRAWAL_MAX_FEN))}` : '');
  const digits = accountNo.replace(/\s+/g, '');
  const accountError = accountNo && !ACCOUNT_NO_PATTERN.test(digits) ? '银行账号应为 8 到 30 位数字' : '';
  const ready = !!fen && !amountError && bankName.trim() && accountName.trim() && digits && !accountError;
  const submit = async () => {
    if (!ready || !fen) return;
    setBusy(true);
    try {
      await dataProvider.addWithdrawal({ amountFen: fen, bankName: bankName.trim(), accountName: accountName.trim(), accountNo: digits });
      notify('提现申请已提交，金额已冻结，待平台审核', { type: 'success' });
      onDone();
    } catch {
      // The http client showed why.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={() => !busy && onClose()} maxWidth="xs" fullWidth>
      <DialogTitle>申请提现</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <TextField
            autoFocus
            label="提现金额"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            error={!!amountError}
            helperText={amountError || `可提现 ${money(availableFen)}；审核期间该金额冻结`}
            slotProps={{ input: { startAdornment: <InputAdornment position="start">¥</InputAdornment> } }}
          />
          <TextField label="开户银行" placeholder="如：中国工商银行杭州分行" value={bankName} onChange={(e) => setBankName(e.target.value.slice(0, BANK_NAME_MAX))} />
          <TextField label="户名" value={accountName} onChange={(e) => setAccountName(e.target.value.slice(0, ACCOUNT_NAME_MAX))} />
          <TextField
            label="银行账号"
            value={accountNo}
            onChange={(e) => setAccountNo(e.target.value.slice(0, 40))}
            error={!!accountError}
            helperText={accountError || '平台审核通过后转账到该账户'}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          取消
        </Button>
        <Button variant="contained" disableElevation onClick={submit} disabled={busy || !ready}>
          提交申请
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function BalanceCard() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(10);
  const [withdrawing, setWithdrawing] = useState(false);
  const balance = useQuery({ queryKey: ['partnerBalance'], queryFn: () => dataProvider.balance(), retry: false }).data;
  const history = useQuery({ queryKey: ['withdrawals', page, size], queryFn: () => dataProvider.withdrawals(page + 1, size), retry: false, placeholderData: keepPreviousData }).data;
  const reload = () => {
    void queryClient.invalidateQueries({ queryKey: ['partnerBalance'] });
    void queryClient.invalidateQueries({ queryKey: ['withdrawals'] });
  };
  return (
    <Card variant="outlined" sx={{ borderRadius: 2 }}>
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mb: 2 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
            账户余额与提现
          </Typography>
          <Button variant="contained" disableElevation onClick={() => setWithdrawing(true)} disabled={!balance || balance.availableFen < WITHDRAWAL_MIN_FEN}>
            申请提现
          </Button>
        </Stack>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' }, gap: 1.5, mb: 2 }}>
          <Amount label="账户余额" fen={balance?.balanceFen} hint="含冻结金额" />
          <Amount label="冻结金额" fen={balance?.frozenFen} hint="提现审核中" />
          <Amount label="可用余额" fen={balance?.availableFen} hint="可支付订单或提现" />
          <Amount label="累计提现" fen={balance?.withdrawnFen} hint="平台已打款" />
        </Box>
        <Typography variant="body2" sx={{ fontWeight: 600, mb: 1 }}>
          提现记录
        </Typography>
        {!history || !history.records.length ? (
          <EmptyState text="暂无提现记录" />
        ) : (
          <>
            <TableContainer>
              <Table size="small" aria-label="提现记录" sx={{ '& th, & td': { whiteSpace: 'nowrap' } }}>
                <TableHead>
                  <TableRow>
                    <TableCell>申请时间</TableCell>
                    <TableCell align="right">金额</TableCell>
                    <TableCell>状态</TableCell>
                    <TableCell>收款账户</TableCell>
                    <TableCell>转账流水号 / 驳回原因</TableCell>
                    <TableCell>审核时间</TableCell>
                    <TableCell>提现单号</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {history.records.map((w) => (
                    <TableRow key={w.withdrawalNo} data-testid={`withdrawal-${w.withdrawalNo}`}>
                      <TableCell>{dateTime(w.createdAt)}</TableCell>
                      <TableCell align="right" sx={{ fontWeight: 600 }}>
                        {money(w.amountFen)}
                      </TableCell>
                      <TableCell>
                        <Chip size="small" variant="outlined" color={WITHDRAWAL_COLORS[w.status]} label={labelOf(WITHDRAWAL_STATUSES, w.status)} />
                      </TableCell>
                      <TableCell>
                        {w.bankName} {w.accountNo}
                      </TableCell>
                      <TableCell sx={{ whiteSpace: 'normal !important', minWidth: 160 }}>{w.transferRef ?? w.rejectReason ?? '—'}</TableCell>
                      <TableCell>{w.decidedAt ? dateTime(w.decidedAt) : '—'}</TableCell>
                      <TableCell>{w.withdrawalNo}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
            <TablePaging
              total={history.total}
              page={page}
              size={size}
              onChange={(p, n) => {
                setPage(p);
                setSize(n);
              }}
            />
          </>
        )}
      </CardContent>
      {withdrawing && balance && (
        <WithdrawDialog
          availableFen={balance.availableFen}
          onClose={() => setWithdrawing(false)}
          onDone={() => {
            setWithdrawing(false);
            reload();
          }}
        />
      )}
    </Card>
  );
}
