// One statement's entries: each margin or refund reversal with its order, adding up to the amount.
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
import type { StatementEntry, StatementRow } from '../../dataProvider/settlement';
import { EntryKind, STATEMENT_STATUSES, labelOf } from '../../domain/orders';
import { money, dateTime } from '../../domain/format';
import { Facts } from '../../ui/Facts';

export function StatementDetailDialog({ detail, onClose }: { detail: StatementRow & { entries: StatementEntry[] }; onClose: () => void }) {
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>结算单明细</DialogTitle>
      <DialogContent>
        <Facts
          columns={4}
          items={[
            ['结算单号', detail.statementNo],
            ['结算月份', detail.period],
            ['收款方', detail.partnerName],
            ['付款方', detail.payerName],
            ['金额', money(detail.amountFen)],
            ['状态', labelOf(STATEMENT_STATUSES, detail.status)],
            ['生成时间', dateTime(detail.createdAt)],
            ['驳回原因', detail.rejectReason || '-'],
          ]}
        />
        {/* A phone scrolls the table sideways instead of the page. */}
        <TableContainer>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>订单号</TableCell>
                <TableCell>下单方</TableCell>
                <TableCell>类型</TableCell>
                <TableCell>退款单号</TableCell>
                <TableCell>发生时间</TableCell>
                <TableCell align="right">金额</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {detail.entries.map((e) => (
                <TableRow key={e.id}>
                  <TableCell>{e.orderNo}</TableCell>
                  <TableCell>{e.buyerName}</TableCell>
                  <TableCell>{e.kind === EntryKind.margin ? '进货差价' : '退款冲减'}</TableCell>
                  <TableCell>{e.refundNo ?? '-'}</TableCell>
                  <TableCell>{dateTime(e.occurredAt)}</TableCell>
                  <TableCell align="right" sx={{ color: e.amountFen < 0 ? 'error.main' : undefined }}>
                    {money(e.amountFen)}
                  </TableCell>
                </TableRow>
              ))}
              <TableRow>
                <TableCell colSpan={5} align="right" sx={{ fontWeight: 600 }}>
                  合计（{detail.entries.length} 条）
                </TableCell>
                <TableCell align="right" sx={{ fontWeight: 600 }}>
                  {money(detail.amountFen)}
                </TableCell>
              </TableRow>
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
