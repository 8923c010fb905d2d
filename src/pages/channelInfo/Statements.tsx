// The statements the partner earns (我的结算单) or pays to its children (下级结算单, level 1), with
// the flow: the earner confirms or rejects; the payer settles, or reissues a rejected one. Every
// action waits for the server, then the list is read again.
import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDataProvider, useNotify } from 'react-admin';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
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
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Box from '@mui/material/Box';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import type { AppDataProvider } from '../../dataProvider';
import type { StatementRow, StatementSide } from '../../dataProvider/settlement';
import { REASON_MAX_LENGTH, STATEMENT_STATUSES, StatementStatus, labelOf } from '../../domain/orders';
import { EmptyState } from '../../ui/EmptyState';
import { TablePaging } from '../../ui/TablePaging';
import { money, dateTime } from '../../domain/format';
import { StatementDetailDialog } from './StatementDetail';

const STATUS_COLORS: Record<number, 'warning' | 'info' | 'success' | 'error'> = { 1: 'warning', 2: 'info', 3: 'success', 4: 'error' };

/** `platform`: the platform administrator's view (一级合作商 → 结算单): it only pays, so no tabs. */
export function Statements({ canPay, platform = false }: { canPay: boolean; platform?: boolean }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [side, setSide] = useState<StatementSide>(platform ? 'payable' : 'earned');
  const [status, setStatus] = useState<number | ''>('');
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(10);
  const [busy, setBusy] = useState<string>();
  const [rejecting, setRejecting] = useState<StatementRow>();
  const [reason, setReason] = useState('');
  const [detail, setDetail] = useState<Awaited<ReturnType<AppDataProvider['statementDetail']>>>();
  // On a phone each statement is a card, its buttons in view without scrolling sideways.
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));

  const filter = { side, status: status === '' ? undefined : status, current: page + 1, size };
  const query = useQuery({ queryKey: ['statements', filter], queryFn: () => dataProvider.statements(filter), retry: false, placeholderData: keepPreviousData });
  const data = query.data;

  const run = async (statementNo: string, work: () => Promise<unknown>, done: string) => {
    setBusy(statementNo);
    try {
      await work();
      notify(done, { type: 'success' });
      return true;
    } catch {
      return false;
    } finally {
      setBusy(undefined);
      void query.refetch();
    }
  };
  const exportAll = () =>
    dataProvider.download('/api/wrongbook/v1.0/partner/channel/exportStatements', { name: '结算单', ext: 'xlsx', query: { side, ...(status === '' ? {} : { status }) } }).catch(() => undefined);

  const actions = (s: StatementRow) => {
    const small = { size: 'small', disabled: busy === s.statementNo, sx: { minWidth: 0, px: 1 } } as const;
    const list = [
      <Button key="detail" {...small} onClick={() => dataProvider.statementDetail(s.statementNo).then(setDetail, () => undefined)}>
        明细
      </Button>,
    ];
    if (s.earned && s.status === StatementStatus.pending) {
      list.push(
        <Button key="confirm" {...small} variant="contained" disableElevation onClick={() => run(s.statementNo, () => dataProvider.confirmStatement(s.statementNo), '已确认结算单')}>
          确认
        </Button>,
        <Button key="reject" {...small} color="error" onClick={() => setRejecting(s)}>
          驳回
        </Button>,
      );
    }
    if (!s.earned && s.status === StatementStatus.confirmed) {
      list.push(
        <Button key="settle" {...small} variant="contained" disableElevation onClick={() => run(s.statementNo, () => dataProvider.settleStatement(s.statementNo), '已标记结算')}>
          标记已结算
        </Button>,
      );
    }
    if (!s.earned && s.status === StatementStatus.rejected) {
      list.push(
        <Button key="reissue" {...small} onClick={() => run(s.statementNo, () => dataProvider.reissueStatement(s.statementNo), '已重新提交结算单')}>
          重新提交
        </Button>,
      );
    }
    return list;
  };

  return (
    <>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
        {platform ? (
          <Typography variant="body2" color="text.secondary">
            一级合作商确认后，平台转账并标记已结算；被驳回的核实后重新提交
          </Typography>
        ) : (
          <Tabs
            value={side}
            onChange={(_, v) => {
              setSide(v);
              setPage(0);
            }}
          >
            <Tab value="earned" label="我的结算单" />
            {canPay && <Tab value="payable" label="下级结算单" />}
          </Tabs>
        )}
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <TextField
            select
            size="small"
            label="状态"
            value={status}
            onChange={(e) => {
              setStatus(e.target.value === '' ? '' : Number(e.target.value));
              setPage(0);
            }}
            sx={{ minWidth: 120 }}
          >
            <MenuItem value="">全部</MenuItem>
            {STATEMENT_STATUSES.map((o) => (
              <MenuItem key={o.value} value={o.value}>
                {o.label}
              </MenuItem>
            ))}
          </TextField>
          <Button startIcon={<FileDownloadOutlined />} onClick={exportAll} sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
            导出
          </Button>
        </Stack>
      </Stack>
      {!data || !data.total ? (
        <EmptyState />
      ) : (
        <>
          {phone ? (
            <Stack spacing={1.5} sx={{ mt: 1 }}>
              {data.records.map((s) => (
                <Box key={s.statementNo} data-testid={`statement-${s.statementNo}`} sx={{ p: 1.5, border: 1, borderColor: 'divider', borderRadius: 1.5 }}>
                  <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1 }}>
                    <Typography sx={{ fontWeight: 600, color: s.amountFen < 0 ? 'error.main' : undefined }}>{money(s.amountFen)}</Typography>
                    <Chip size="small" variant="outlined" color={STATUS_COLORS[s.status]} label={labelOf(STATEMENT_STATUSES, s.status)} />
                  </Stack>
                  <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                    {s.period} · {side === 'earned' ? s.payerName : s.partnerName} · {s.entryCount} 条
                  </Typography>
                  <Typography variant="caption" color="text.secondary" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
                    {s.statementNo} · {dateTime(s.createdAt)}
                  </Typography>
                  {s.status === StatementStatus.rejected && s.rejectReason && (
                    <Typography variant="caption" color="error" sx={{ display: 'block', overflowWrap: 'anywhere' }} data-testid="reject-reason">
                      原因：{s.rejectReason}
                    </Typography>
                  )}
                  <Stack direction="row" spacing={0.5} sx={{ mt: 1, flexWrap: 'wrap' }}>
                    {actions(s)}
                  </Stack>
                </Box>
              ))}
            </Stack>
          ) : (
          <TableContainer>
            <Table size="small" aria-label="结算单" sx={{ '& th': { whiteSpace: 'nowrap' }, '& td': { whiteSpace: 'nowrap' } }}>
              <TableHead>
                <TableRow>
                  <TableCell>结算单号</TableCell>
                  <TableCell>结算月份</TableCell>
                  <TableCell>{side === 'earned' ? '付款方' : '收款方'}</TableCell>
                  <TableCell align="right">金额</TableCell>
                  <TableCell align="right">明细条数</TableCell>
                  <TableCell>状态</TableCell>
                  <TableCell>生成时间</TableCell>
                  <TableCell>操作</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.records.map((s) => (
                  <TableRow key={s.statementNo}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{s.statementNo}</TableCell>
                    <TableCell>{s.period}</TableCell>
                    <TableCell>{side === 'earned' ? s.payerName : s.partnerName}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap', color: s.amountFen < 0 ? 'error.main' : undefined }}>
                      {money(s.amountFen)}
                    </TableCell>
                    <TableCell align="right">{s.entryCount}</TableCell>
                    <TableCell>
                      <Chip size="small" variant="outlined" color={STATUS_COLORS[s.status]} label={labelOf(STATEMENT_STATUSES, s.status)} />
                      {s.status === StatementStatus.rejected && s.rejectReason && (
                        <Typography variant="caption" color="error" sx={{ display: 'block', mt: 0.5, maxWidth: 240, whiteSpace: 'normal', overflowWrap: 'anywhere' }} data-testid="reject-reason">
                          原因：{s.rejectReason}
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{dateTime(s.createdAt)}</TableCell>
                    <TableCell>
                      <Stack direction="row" spacing={0.5}>
                        {actions(s)}
                      </Stack>
                    </TableCell>
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
      {rejecting && (
        <Dialog open onClose={() => !busy && setRejecting(undefined)} maxWidth="xs" fullWidth>
          <DialogTitle>驳回结算单</DialogTitle>
          <DialogContent>
            <TextField
              autoFocus
              label="驳回原因"
              value={reason}
              onChange={(e) => setReason(e.target.value.slice(0, REASON_MAX_LENGTH))}
              fullWidth
              multiline
              minRows={2}
              sx={{ mt: 1 }}
              helperText={`${reason.length}/${REASON_MAX_LENGTH}`}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setRejecting(undefined)} disabled={!!busy}>
              返回
            </Button>
            <Button
              color="error"
              variant="contained"
              disableElevation
              disabled={!!busy || !reason.trim()}
              onClick={async () => {
                if (await run(rejecting.statementNo, () => dataProvider.rejectStatement(rejecting.statementNo, reason.trim()), '已驳回结算单')) {
                  setRejecting(undefined);
                  setReason('');
                }
              }}
            >
              驳回
            </Button>
          </DialogActions>
        </Dialog>
      )}
      {detail && <StatementDetailDialog detail={detail} onClose={() => setDetail(undefined)} />}
    </>
  );
}
