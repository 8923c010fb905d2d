// One statement, checkable on screen: each entry's order with its packs — quantity, the buyer's
// unit price, the seller's unit cost and the margin on each — adding up to the amount; the reject
// reason in full; and the statement's history (built, confirmed, rejected with why, settled,
// reissued), with who and when.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import type { StatementEntry, StatementRow, StatementStep } from '../../dataProvider/settlement';
import { EntryKind, STATEMENT_STATUSES, StatementStatus, labelOf } from '../../domain/orders';
import { AUDIT_ACTIONS } from '../../domain/auditFields';
import { money, dateTime } from '../../domain/format';
import { Facts } from '../../ui/Facts';

const stepName = (action: string) => (action === 'build' ? '生成' : (AUDIT_ACTIONS as Record<string, string>)[action] ?? action);

export function StatementDetailDialog({ detail, onClose }: { detail: StatementRow & { entries: StatementEntry[]; history: StatementStep[] }; onClose: () => void }) {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const cell = { whiteSpace: 'nowrap' } as const;
  return (
    <Dialog open onClose={onClose} maxWidth="xl" fullWidth fullScreen={phone} aria-labelledby="statement-detail-title">
      <DialogTitle id="statement-detail-title">结算单明细</DialogTitle>
      <DialogContent>
        <Facts
          columns={phone ? 2 : 4}
          items={[
            ['结算单号', detail.statementNo],
            ['结算月份', detail.period],
            ['收款方', detail.partnerName],
            ['付款方', detail.payerName],
            ['金额', money(detail.amountFen)],
            ['状态', labelOf(STATEMENT_STATUSES, detail.status)],
            ['生成时间', dateTime(detail.createdAt)],
            ['结算时间', dateTime(detail.settledAt)],
          ]}
        />
        {detail.rejectReason && (
          <Alert severity={detail.status === StatementStatus.rejected ? 'error' : 'info'} sx={{ mb: 2 }}>
            {detail.status === StatementStatus.rejected ? '驳回原因：' : '上次驳回原因：'}
            {detail.rejectReason}
          </Alert>
        )}
        {/* A phone scrolls the table sideways instead of the page. */}
        <TableContainer>
          <Table size="small" aria-label="结算单明细" sx={{ '& th, & td': { whiteSpace: 'nowrap' } }}>
            <TableHead>
              <TableRow>
                <TableCell sx={cell}>订单号</TableCell>
                <TableCell sx={cell}>下单方</TableCell>
                <TableCell sx={cell}>类型</TableCell>
                <TableCell sx={cell}>纸张规格</TableCell>
                <TableCell sx={cell} align="right">
                  数量
                </TableCell>
                <TableCell sx={cell} align="right">
                  进货单价
                </TableCell>
                <TableCell sx={cell} align="right">
                  成本单价
                </TableCell>
                <TableCell sx={cell} align="right">
                  差价
                </TableCell>
                <TableCell sx={cell}>发生时间</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {detail.entries.flatMap((e) =>
                e.lines.map((l, i) => (
                  <TableRow key={`${e.id}-${i}`} data-testid="statement-line">
                    {i === 0 && (
                      <>
                        <TableCell rowSpan={e.lines.length} sx={cell}>
                          {e.orderNo}
                          {e.refundNo && (
                            <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                              退款单 {e.refundNo}
                            </Typography>
                          )}
                        </TableCell>
                        <TableCell rowSpan={e.lines.length}>{e.buyerName}</TableCell>
                        <TableCell rowSpan={e.lines.length} sx={cell}>
                          {e.kind === EntryKind.margin ? '进货差价' : '退款冲减'}
                        </TableCell>
                      </>
                    )}
                    <TableCell sx={cell}>{l.name}</TableCell>
                    <TableCell align="right">{l.quantity}</TableCell>
                    <TableCell align="right">{money(l.unitPriceFen)}</TableCell>
                    <TableCell align="right">{money(l.unitCostFen)}</TableCell>
                    <TableCell align="right" sx={{ ...cell, color: l.marginFen < 0 ? 'error.main' : undefined }}>
                      {money(l.marginFen)}
                    </TableCell>
                    {i === 0 && (
                      <TableCell rowSpan={e.lines.length} sx={cell}>
                        {dateTime(e.occurredAt)}
                      </TableCell>
                    )}
                  </TableRow>
                )),
              )}
              <TableRow>
                <TableCell colSpan={7} align="right" sx={{ fontWeight: 600 }}>
                  合计（{detail.entries.length} 条）
                </TableCell>
                <TableCell align="right" sx={{ fontWeight: 600, ...cell }} data-testid="statement-total">
                  {money(detail.amountFen)}
                </TableCell>
                <TableCell />
              </TableRow>
            </TableBody>
          </Table>
        </TableContainer>
        <Typography variant="subtitle2" sx={{ mt: 3, mb: 1, fontWeight: 600 }}>
          处理记录
        </Typography>
        <TableContainer>
          <Table size="small" aria-label="处理记录">
            <TableHead>
              <TableRow>
                <TableCell sx={cell}>时间</TableCell>
                <TableCell sx={cell}>操作</TableCell>
                <TableCell sx={cell}>操作人</TableCell>
                <TableCell>说明</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {detail.history.map((h, i) => (
                <TableRow key={i}>
                  <TableCell sx={cell}>{dateTime(h.at)}</TableCell>
                  <TableCell sx={cell}>{stepName(h.action)}</TableCell>
                  <TableCell sx={cell}>{h.userName}</TableCell>
                  <TableCell sx={{ minWidth: 200 }}>{h.summary}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>关闭</Button>
      </DialogActions>
    </Dialog>
  );
}
