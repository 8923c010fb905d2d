// 学籍变动: record a student's 转入, 转出, 休学 or 复学 with its day and reason, and read the history.
// From the day a student leaves they are out of the class lists and of the expected counts of later
// work; every record they made stays.
import { useState } from 'react';
import { Button, useDataProvider, useRefresh } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import type { RaRecord } from 'ra-core';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import MuiButton from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import SwapHorizOutlined from '@mui/icons-material/SwapHorizOutlined';
import type { AppDataProvider } from '../../dataProvider';
import { dateOnly } from '../../domain/format';
import { REASON_MAX_LENGTH, STATUS_CHANGES, STUDENT_STATUSES } from '../../domain/schoolYear';

/** The changes the student's present state allows (none for a graduate). */
const allowedFor = (status: number) =>
  Object.entries(STATUS_CHANGES)
    .filter(([, rule]) => rule.from.includes(status))
    .map(([value, rule]) => ({ value: Number(value), ...rule }))
    // Changes of state first (转出, 休学 for someone in school); 转入 of a student already in school only records the day.
    .sort((a, b) => Number(a.to === status) - Number(b.to === status));

function History({ studentId }: { studentId: number | string }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const history = useQuery({ queryKey: ['studentStatusHistory', studentId], queryFn: () => dataProvider.studentStatusHistory(studentId), retry: false });
  if (!history.data?.length) return <Typography variant="body2" color="text.secondary">暂无学籍变动记录</Typography>;
  return (
    <Table size="small" data-testid="status-history">
      <TableHead>
        <TableRow>
          <TableCell>日期</TableCell>
          <TableCell>变动</TableCell>
          <TableCell>班级</TableCell>
          <TableCell>原因</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {history.data.map((h) => (
          <TableRow key={h.id}>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{h.onDate}</TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{h.changeLabel}</TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{h.className ?? '—'}</TableCell>
            <TableCell>{h.reason ?? '—'}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function StatusChangeButton({ record }: { record: RaRecord }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const allowed = allowedFor(Number(record.status));
  const [change, setChange] = useState<number>();
  const [onDate, setOnDate] = useState(() => dateOnly(new Date()));
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const rule = allowed.find((a) => a.value === change) ?? allowed[0];
  const close = () => {
    setOpen(false);
    setChange(undefined);
    setReason('');
  };
  const save = async () => {
    if (!rule) return;
    setBusy(true);
    try {
      await dataProvider.changeStudentStatus({ studentIds: [record.id], change: rule.value, onDate, ...(reason.trim() ? { reason: reason.trim() } : {}) });
      refresh();
      close();
    } catch {
      // Shown by the http client (e.g. 生效日期不能晚于今天).
    } finally {
      setBusy(false);
    }
  };
  const status = STUDENT_STATUSES.find((s) => s.value === record.status)?.label ?? '';
  return (
    <>
      <Button label="学籍" onClick={() => setOpen(true)}>
        <SwapHorizOutlined />
      </Button>
      <Dialog open={open} onClose={close} maxWidth="sm" fullWidth>
        <DialogTitle>
          学籍变动 · {String(record.name)}（当前：{status}）
        </DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
          {rule ? (
            <>
              <TextField select size="small" label="变动类型" value={rule.value} onChange={(e) => setChange(Number(e.target.value))}>
                {allowed.map((a) => (
                  <MenuItem key={a.value} value={a.value}>
                    {a.label}
                  </MenuItem>
                ))}
              </TextField>
              <TextField type="date" size="small" label="生效日期" value={onDate} onChange={(e) => setOnDate(e.target.value)} slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: dateOnly(new Date()) } }} />
              <TextField
                size="small"
                label={rule.reasonRequired ? '原因（必填）' : '原因'}
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                multiline
                minRows={2}
                slotProps={{ htmlInput: { maxLength: REASON_MAX_LENGTH } }}
                helperText={rule.to === 0 ? '' : '自生效日期起，该生不再出现在班级名单和之后作业的统计中，已有记录保留。'}
              />
            </>
          ) : (
            <Typography variant="body2">已毕业的学生不能再变动学籍。</Typography>
          )}
          <Typography variant="subtitle2">变动记录</Typography>
          {open && <History studentId={record.id} />}
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={close}>关闭</MuiButton>
          {rule && (
            <MuiButton variant="contained" onClick={save} disabled={busy || !onDate || (rule.reasonRequired && !reason.trim())}>
              登记{rule.label}
            </MuiButton>
          )}
        </DialogActions>
      </Dialog>
    </>
  );
}
