// 学年管理: the school's terms (their dates and which one runs now: every report's default range
// follows it) and 升年级 at the end of the year — preview, apply in one go, undo within the period.
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useNotify } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import type { AppDataProvider } from '../../dataProvider';
import { dateOnly, dateTime } from '../../domain/format';
import { PROMOTION_UNDO_DAYS, termLabel, type PromotionPreview, type SchoolTerm } from '../../domain/schoolYear';
import type { ScreenProps } from '../screen';
import { ScreenCard } from '../../ui/ScreenCard';

/** Terms a school may set: the school years from two back to one ahead, 上 and 下. */
function termChoices(now = new Date()): string[] {
  const y = Number(dateOnly(now).slice(0, 4));
  return [y - 2, y - 1, y, y + 1].flatMap((year) => [`${year}01`, `${year}02`]);
}

/** A new row: the term after the last one, with the usual dates (上学期 Sep–Jan, 下学期 Feb–Jul). */
function nextTerm(terms: SchoolTerm[], current: string): SchoolTerm {
  const last = terms.at(-1)?.term ?? current;
  const year = Number(last.slice(0, 4));
  const term = terms.length === 0 ? current : last.endsWith('01') ? `${year}02` : `${year + 1}01`;
  const y = Number(term.slice(0, 4));
  return term.endsWith('01')
    ? { term, startDate: `${y}-09-01`, endDate: `${y + 1}-01-20` }
    : { term, startDate: `${y + 1}-02-16`, endDate: `${y + 1}-07-10` };
}

function TermSettings() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const query = useQuery({ queryKey: ['schoolTerms'], queryFn: () => dataProvider.schoolTerms(), retry: false });
  const [terms, setTerms] = useState<SchoolTerm[]>([]);
  const [current, setCurrent] = useState('');
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (!query.data) return;
    setTerms(query.data.terms.map(({ term, startDate, endDate }) => ({ term, startDate, endDate })));
    setCurrent(query.data.currentTerm);
  }, [query.data]);
  if (!query.data) return <LinearProgress sx={{ mt: 2 }} />;
  const edit = (i: number, change: Partial<SchoolTerm>) => setTerms((list) => list.map((t, j) => (j === i ? { ...t, ...change } : t)));
  const save = () => {
    setSaving(true);
    dataProvider
      .saveSchoolTerms(current, terms)
      .then(() => {
        notify('学期设置已保存', { type: 'success' });
        void query.refetch();
      }, () => undefined)
      .finally(() => setSaving(false));
  };
  return (
    <Box component="section" sx={{ mt: 2 }} aria-label="学期设置">
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        学期设置
      </Typography>
      <Typography variant="body2" color="text.secondary">
        当前学期：{termLabel(query.data.currentTerm)}
        {query.data.configured ? '' : '（未设置，按日历推算）'}。学情分析等报表默认显示当前学期。
      </Typography>
      {terms.length === 0 ? (
        <Typography variant="body2" sx={{ mt: 1.5 }}>
          尚未设置学期。点“添加学期”填写起止日期，并选定当前学期。
        </Typography>
      ) : (
        <TableContainer sx={{ mt: 1 }}>
          <Table size="small" data-testid="school-terms" sx={{ '& th': { whiteSpace: 'nowrap' } }}>
            <TableHead>
              <TableRow>
                <TableCell>当前</TableCell>
                <TableCell>学期</TableCell>
                <TableCell>开始日期</TableCell>
                <TableCell>结束日期</TableCell>
                <TableCell align="right">操作</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {terms.map((t, i) => (
                <TableRow key={i}>
                  <TableCell padding="checkbox">
                    <Radio size="small" checked={current === t.term} onChange={() => setCurrent(t.term)} slotProps={{ input: { 'aria-label': `设为当前学期：${termLabel(t.term)}` } }} />
                  </TableCell>
                  <TableCell sx={{ minWidth: 190 }}>
                    <TextField select hiddenLabel size="small" value={t.term} onChange={(e) => edit(i, { term: e.target.value })} slotProps={{ htmlInput: { 'aria-label': '学期' } }} fullWidth>
                      {[...new Set([...termChoices(), t.term])].sort().map((v) => (
                        <MenuItem key={v} value={v}>
                          {termLabel(v)}
                        </MenuItem>
                      ))}
                    </TextField>
                  </TableCell>
                  <TableCell>
                    <TextField type="date" hiddenLabel size="small" value={t.startDate} onChange={(e) => edit(i, { startDate: e.target.value })} slotProps={{ htmlInput: { 'aria-label': '开始日期' } }} />
                  </TableCell>
                  <TableCell>
                    <TextField type="date" hiddenLabel size="small" value={t.endDate} onChange={(e) => edit(i, { endDate: e.target.value })} slotProps={{ htmlInput: { 'aria-label': '结束日期' } }} />
                  </TableCell>
                  <TableCell align="right">
                    <IconButton size="small" aria-label="删除该学期" onClick={() => setTerms((list) => list.filter((_, j) => j !== i))}>
                      <DeleteOutline fontSize="small" />
                    </IconButton>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
        <Button size="small" onClick={() => setTerms((list) => [...list, nextTerm(list, query.data.currentTerm)])} disabled={terms.length >= 12}>
          添加学期
        </Button>
        <Button size="small" variant="contained" onClick={save} disabled={saving || terms.length === 0 || !terms.some((t) => t.term === current)}>
          保存学期设置
        </Button>
      </Stack>
    </Box>
  );
}

function PreviewTable({ preview }: { preview: PromotionPreview }) {
  return (
    <TableContainer>
      <Table size="small" data-testid="promotion-preview" sx={{ '& th': { whiteSpace: 'nowrap' } }}>
        <TableHead>
          <TableRow>
            <TableCell>年级</TableCell>
            <TableCell>变为</TableCell>
            <TableCell>班级</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {preview.graduating.map((g) => (
            <TableRow key={`g${g.gradeId}`}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{g.gradeName}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap', color: 'warning.main' }}>{preview.year}年毕业</TableCell>
              <TableCell>
                {g.classCount} 个班，{g.studentCount} 名在读学生将标记为已毕业
              </TableCell>
            </TableRow>
          ))}
          {[...preview.moving].reverse().map((m) => (
            <TableRow key={`m${m.gradeId}`}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{m.from}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{m.to}</TableCell>
              <TableCell>{m.classes.length ? m.classes.map((c) => (c.from === c.to ? c.from : `${c.from}→${c.to}`)).join('、') : '没有班级'}</TableCell>
            </TableRow>
          ))}
          {preview.created.map((name) => (
            <TableRow key={`c${name}`}>
              <TableCell>—</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>新建{name}</TableCell>
              <TableCell>空年级，供新生入学后添加班级</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function PromotionWizard({ open, onClose, onApplied }: { open: boolean; onClose: () => void; onApplied: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const thisYear = Number(dateOnly(new Date()).slice(0, 4));
  const [year, setYear] = useState(thisYear);
  const [applying, setApplying] = useState(false);
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const preview = useQuery({ queryKey: ['promotionPreview', year], queryFn: () => dataProvider.promotionPreview(year), enabled: open, retry: false });
  const apply = () => {
    setApplying(true);
    dataProvider
      .applyPromotion(year)
      .then(() => {
        notify('升年级完成', { type: 'success' });
        onApplied();
      }, () => undefined)
      .finally(() => setApplying(false));
  };
  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth fullScreen={phone}>
      <DialogTitle>升年级 · 预览</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
        <TextField select size="small" label="毕业年份" value={year} onChange={(e) => setYear(Number(e.target.value))} sx={{ width: 160 }}>
          {[thisYear - 1, thisYear, thisYear + 1].map((y) => (
            <MenuItem key={y} value={y}>
              {y}年
            </MenuItem>
          ))}
        </TextField>
        {preview.isLoading && <LinearProgress />}
        {preview.error && <Alert severity="error">{(preview.error as Error).message}</Alert>}
        {preview.data && <PreviewTable preview={preview.data} />}
        <Alert severity="info">
          班级、学生和任课安排随班级一起升入新年级，作业和成绩记录不变。应用后 {PROMOTION_UNDO_DAYS} 天内可以撤销。
        </Alert>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>取消</Button>
        <Button variant="contained" onClick={apply} disabled={!preview.data || applying}>
          确认升年级
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function Promotion() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const last = useQuery({ queryKey: ['lastPromotion'], queryFn: () => dataProvider.lastPromotion(), retry: false });
  const [wizard, setWizard] = useState(false);
  const [confirmUndo, setConfirmUndo] = useState(false);
  const record = last.data;
  const undo = () =>
    record &&
    dataProvider.undoPromotion(record.id).then(() => {
      notify('已撤销升年级', { type: 'success' });
      setConfirmUndo(false);
      void last.refetch();
    }, () => setConfirmUndo(false));
  return (
    <Box component="section" sx={{ mt: 4 }} aria-label="升年级">
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        升年级
      </Typography>
      <Typography variant="body2" color="text.secondary">
        学年结束时使用：最高年级毕业，其他年级升一级，班级名称随之更改（如七(1)班→八(1)班），并新建入学年级。
      </Typography>
      {record && (
        <Alert severity={record.undoable ? 'success' : 'info'} sx={{ mt: 1 }} data-testid="last-promotion"
          action={record.undoable ? <Button color="inherit" size="small" onClick={() => setConfirmUndo(true)}>撤销</Button> : undefined}
        >
          {record.undoneAt
            ? `${record.year}年升年级（${dateTime(record.createdAt)}）已于 ${dateTime(record.undoneAt)} 撤销。`
            : `${record.year}年升年级已于 ${dateTime(record.createdAt)} 完成：${record.summary}。${record.undoable ? `${dateTime(record.undoUntil)} 前可以撤销。` : '已超过撤销期限。'}`}
        </Alert>
      )}
      <Button variant="contained" sx={{ mt: 1.5 }} onClick={() => setWizard(true)}>
        开始升年级
      </Button>
      <PromotionWizard
        open={wizard}
        onClose={() => setWizard(false)}
        onApplied={() => {
          setWizard(false);
          void last.refetch();
        }}
      />
      <Dialog open={confirmUndo} onClose={() => setConfirmUndo(false)} maxWidth="xs" fullWidth>
        <DialogTitle>撤销升年级</DialogTitle>
        <DialogContent>年级、班级名称和毕业学生的状态将恢复到升年级之前。确定撤销吗？</DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirmUndo(false)}>取消</Button>
          <Button variant="contained" color="warning" onClick={undo}>
            确定撤销
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}

export default function SchoolYear({ route }: ScreenProps) {
  return (
    <ScreenCard title={route.meta.title} description="设置学年与学期的起止日期和当前学期；学年结束时为全校升年级。">
      <TermSettings />
      <Promotion />
    </ScreenCard>
  );
}
