// 提现审核 (/withdrawal-review, the platform administrator): partners' withdrawals, pending first;
// 通过 after the bank transfer, with its 转账流水号; 驳回 with a reason (the amount is unfrozen).
import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDataProvider, useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import type { AppDataProvider } from '../../dataProvider';
import { TRANSFER_REF_MAX, WITHDRAWAL_STATUSES, WithdrawalStatus, type WithdrawalRecord } from '../../domain/balance';
import { labelOf, REASON_MAX_LENGTH } from '../../domain/orders';
import { dateTime, money } from '../../domain/format';
import { ScreenCard } from '../../ui/ScreenCard';
import { EmptyState } from '../../ui/EmptyState';
import { TablePaging } from '../../ui/TablePaging';
import type { ScreenProps } from '../screen';
import { WITHDRAWAL_COLORS } from '../channelInfo/BalanceCard';

type Deciding = { w: WithdrawalRecord; approve: boolean };

export default function WithdrawalReview({ route }: ScreenProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [status, setStatus] = useState<number | ''>(WithdrawalStatus.pending);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(10);
  const [deciding, setDeciding] = useState<Deciding>();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const query = useQuery({
    queryKey: ['platformWithdrawals', status, page, size],
    queryFn: () => dataProvider.platformWithdrawals(page + 1, size, status === '' ? undefined : status),
    retry: false,
    placeholderData: keepPreviousData,
  });
  const data = query.data;
  // On a phone each withdrawal is a card: amount, account and the two buttons in view without scrolling sideways.
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const actions = (w: WithdrawalRecord) =>
    w.status === WithdrawalStatus.pending ? (
      <Stack direction="row" spacing={1}>
        <Button size="small" variant="contained" disableElevation onClick={() => setDeciding({ w, approve: true })}>
          通过
        </Button>
        <Button size="small" color="error" onClick={() => setDeciding({ w, approve: false })}>
          驳回
        </Button>
      </Stack>
    ) : (
      dateTime(w.decidedAt)
    );
  const refOk = /^[0-9A-Za-z-]{4,64}$/.test(text.trim());
  const decide = async () => {
    if (!deciding) return;
    setBusy(true);
    try {
      if (deciding.approve) await dataProvider.approveWithdrawal(deciding.w.withdrawalNo, text.trim());
      else await dataProvider.rejectWithdrawal(deciding.w.withdrawalNo, text.trim());
      notify(deciding.approve ? '已审核通过，记为已打款' : '已驳回，金额已解冻', { type: 'success' });
      setDeciding(undefined);
      setText('');
    } catch {
      // The http client showed why.
    } finally {
      setBusy(false);
      void query.refetch();
    }
  };
  return (
    <ScreenCard title={route.meta.title} description="合作伙伴申请提现后金额冻结；转账完成后填写转账流水号通过，或填写原因驳回（金额解冻）">
      <Stack direction="row" sx={{ mt: 2, mb: 1.5 }}>
        <TextField
          select
          size="small"
          label="状态"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value === '' ? '' : Number(e.target.value));
            setPage(0);
          }}
          sx={{ width: 160 }}
        >
          <MenuItem value="">全部</MenuItem>
          {WITHDRAWAL_STATUSES.map((o) => (
            <MenuItem key={o.value} value={o.value}>
              {o.label}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {!data || !data.records.length ? (
        <EmptyState text={status === WithdrawalStatus.pending ? '暂无待审核的提现' : '暂无数据'} />
      ) : (
        <>
          {phone ? (
            <Stack spacing={1.5}>
              {data.records.map((w) => (
                <Box key={w.withdrawalNo} data-testid={`review-${w.withdrawalNo}`} sx={{ p: 1.5, border: 1, borderColor: 'divider', borderRadius: 1.5 }}>
                  <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 0.5 }}>
                    <Typography sx={{ fontWeight: 600 }}>{money(w.amountFen)}</Typography>
                    <Chip size="small" variant="outlined" color={WITHDRAWAL_COLORS[w.status]} label={labelOf(WITHDRAWAL_STATUSES, w.status)} />
                  </Stack>
                  <Typography variant="body2">
                    {w.partnerName}（{w.partnerLevel}级）
                  </Typography>
                  <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                    {w.bankName} {w.accountName} {w.accountNo}
                  </Typography>
                  <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                    {dateTime(w.createdAt)} · {w.withdrawalNo}
                  </Typography>
                  {(w.transferRef || w.rejectReason) && (
                    <Typography variant="body2" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
                      {w.transferRef ? `转账流水号 ${w.transferRef}` : `驳回原因：${w.rejectReason}`}
                    </Typography>
                  )}
                  <Box sx={{ mt: 1 }}>{actions(w)}</Box>
                </Box>
              ))}
            </Stack>
          ) : (
            <TableContainer>
              <Table size="small" aria-label="提现审核" sx={{ '& th, & td': { whiteSpace: 'nowrap' } }}>
                <TableHead>
                  <TableRow>
                    <TableCell>申请时间</TableCell>
                    <TableCell>合作伙伴</TableCell>
                    <TableCell align="right">金额</TableCell>
                    <TableCell>收款账户</TableCell>
                    <TableCell>状态</TableCell>
                    <TableCell>转账流水号 / 驳回原因</TableCell>
                    <TableCell>操作</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.records.map((w) => (
                    <TableRow key={w.withdrawalNo} data-testid={`review-${w.withdrawalNo}`}>
                      <TableCell>
                        {dateTime(w.createdAt)}
                        <br />
                        <small>{w.withdrawalNo}</small>
                      </TableCell>
                      <TableCell>
                        {w.partnerName}（{w.partnerLevel}级）
                      </TableCell>
                      <TableCell align="right" sx={{ fontWeight: 600 }}>
                        {money(w.amountFen)}
                      </TableCell>
                      <TableCell>
                        {w.bankName}
                        <br />
                        {w.accountName} {w.accountNo}
                      </TableCell>
                      <TableCell>
                        <Chip size="small" variant="outlined" color={WITHDRAWAL_COLORS[w.status]} label={labelOf(WITHDRAWAL_STATUSES, w.status)} />
                      </TableCell>
                      <TableCell sx={{ whiteSpace: 'normal !important', minWidth: 140 }}>{w.transferRef ?? w.rejectReason ?? '—'}</TableCell>
                      <TableCell>{actions(w)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
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
      )}
      {deciding && (
        <Dialog open onClose={() => !busy && setDeciding(undefined)} maxWidth="xs" fullWidth>
          <DialogTitle>{deciding.approve ? '审核通过提现' : '驳回提现'}</DialogTitle>
          <DialogContent>
            <DialogContentText sx={{ mb: 2 }}>
              {deciding.w.partnerName} 申请提现 {money(deciding.w.amountFen)} 至 {deciding.w.bankName} {deciding.w.accountName} {deciding.w.accountNo}
            </DialogContentText>
            {deciding.approve ? (
              <TextField
                autoFocus
                fullWidth
                label="转账流水号"
                value={text}
                onChange={(e) => setText(e.target.value.slice(0, TRANSFER_REF_MAX))}
                error={!!text && !refOk}
                helperText={text && !refOk ? '4 到 64 位字母、数字或短横线' : '请先完成银行转账，再填写转账流水号'}
              />
            ) : (
              <TextField
                autoFocus
                fullWidth
                multiline
                minRows={2}
                label="驳回原因"
                value={text}
                onChange={(e) => setText(e.target.value.slice(0, REASON_MAX_LENGTH))}
                helperText={`${text.length}/${REASON_MAX_LENGTH}`}
              />
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setDeciding(undefined)} disabled={busy}>
              返回
            </Button>
            <Button
              variant="contained"
              color={deciding.approve ? 'primary' : 'error'}
              disableElevation
              disabled={busy || (deciding.approve ? !refOk : !text.trim())}
              onClick={decide}
            >
              {deciding.approve ? '确认通过' : '驳回'}
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </ScreenCard>
  );
}
