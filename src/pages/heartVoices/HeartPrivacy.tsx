// 心声隐私 (/heart-voice-privacy) of the school admin (PIPL art. 28 and 31): who opened which of the
// school's 学生心声 and when, with every reveal of an anonymous writer and its reason (never a
// message's words); and the guardian consents that let a student under 14 write.
import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDataProvider, useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import type { AppDataProvider } from '../../dataProvider';
import type { GuardianConsent, HeartRead } from '../../dataProvider/heartVoices';
import { CONSENT_AGE } from '../../domain/heartVoices';
import type { ScreenProps } from '../screen';
import { EmptyState } from '../../ui/EmptyState';
import { ScreenCard } from '../../ui/ScreenCard';
import { OpenHighRisk } from './OpenHighRisk';
import { dateOnly, dayTime } from '../../domain/format';
import { TablePaging } from '../../ui/TablePaging';
import type { Page } from '../../domain/envelope';
import { classLabel } from '../../domain/school';

const PAGE_SIZE = 10;

/** A page of rows, back to the first page when `key` (what `load` reads) changes; the last page stays up while the next loads. */
function usePaged<T>(key: readonly unknown[], load: (current: number) => Promise<Page<T>>) {
  const [current, setCurrent] = useState(1);
  const keyText = JSON.stringify(key);
  useEffect(() => setCurrent(1), [keyText]);
  const query = useQuery({ queryKey: [...key, current], queryFn: () => load(current), retry: false, placeholderData: keepPreviousData });
  return { page: query.isError ? null : query.data, current, setCurrent, reload: () => void query.refetch() };
}

function Pager({ total, current, onChange }: { total: number; current: number; onChange: (page: number) => void }) {
  return (
    <TablePaging total={total} page={current - 1} size={PAGE_SIZE} sizes={[PAGE_SIZE]} onChange={(p) => onChange(p + 1)} />
  );
}

function ReadLog() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const { page, current, setCurrent } = usePaged<HeartRead>(['heartReads'], (c) => dataProvider.heartReads(c, PAGE_SIZE));
  if (page === undefined) return <LinearProgress sx={{ mt: 2 }} />;
  if (!page || page.records.length === 0) return <EmptyState />;
  return (
    <>
      <TableContainer sx={{ mt: 1 }}>
        <Table size="small" data-testid="heart-reads">
          <TableHead>
            <TableRow>
              <TableCell>时间</TableCell>
              <TableCell>查阅人</TableCell>
              <TableCell>操作</TableCell>
              <TableCell>心声编号</TableCell>
              <TableCell>理由</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {page.records.map((r) => (
              <TableRow key={r.id}>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{dayTime(r.createdAt)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.readerName}</TableCell>
                <TableCell>{r.action === 2 ? <Chip size="small" color="error" label="查看匿名写信人身份" /> : '查看心声'}</TableCell>
                <TableCell>{r.voiceId}</TableCell>
                <TableCell>{r.reason ?? '—'}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <Pager total={page.total} current={current} onChange={setCurrent} />
    </>
  );
}

function ConsentDialog({ student, onClose, onSaved }: { student: GuardianConsent | undefined; onClose: () => void; onSaved: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [guardianName, setGuardianName] = useState('');
  const [consentedOn, setConsentedOn] = useState(() => dateOnly(new Date()));
  useEffect(() => setGuardianName(student?.guardianName ?? ''), [student]);
  const save = () =>
    student &&
    dataProvider.recordGuardianConsent(student.studentId, guardianName.trim(), consentedOn).then(() => {
      notify('已登记监护人同意', { type: 'success' });
      onSaved();
    }, () => undefined);
  return (
    <Dialog open={!!student} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>登记监护人同意 · {student?.name}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
        <TextField label="监护人姓名" value={guardianName} onChange={(e) => setGuardianName(e.target.value)} slotProps={{ htmlInput: { maxLength: 50 } }} />
        <TextField label="同意日期" type="date" value={consentedOn} onChange={(e) => setConsentedOn(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>取消</Button>
        <Button variant="contained" onClick={save} disabled={!guardianName.trim() || !consentedOn}>
          保存
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** A whole class's consents at once (the forms of a parents' meeting); those already recorded stay. */
function ClassConsentDialog({ target, onClose, onSaved }: { target: { classId: number; label: string } | undefined; onClose: () => void; onSaved: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [guardianName, setGuardianName] = useState('');
  const [consentedOn, setConsentedOn] = useState(() => dateOnly(new Date()));
  const save = () =>
    target &&
    dataProvider.recordClassConsent(target.classId, consentedOn, guardianName.trim() || undefined).then((r) => {
      notify(`已为${r.count}名学生登记监护人同意`, { type: 'success' });
      onSaved();
    }, () => undefined);
  return (
    <Dialog open={!!target} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>全班登记监护人同意 · {target?.label}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
        <TextField label="签署说明（选填）" placeholder="全班监护人（统一签署）" value={guardianName} onChange={(e) => setGuardianName(e.target.value)} slotProps={{ htmlInput: { maxLength: 50 } }} />
        <TextField label="同意日期" type="date" value={consentedOn} onChange={(e) => setConsentedOn(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
        <Box sx={{ color: 'text.secondary', fontSize: 14 }}>为该班尚未登记的在读学生登记同意；已登记的学生保持原记录。</Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>取消</Button>
        <Button variant="contained" onClick={save} disabled={!consentedOn}>
          登记
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function Consents() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [keyword, setKeyword] = useState('');
  const [search, setSearch] = useState('');
  const [classId, setClassId] = useState<number>();
  const [editing, setEditing] = useState<GuardianConsent>();
  const [classConsent, setClassConsent] = useState<{ classId: number; label: string }>();
  const [withdrawing, setWithdrawing] = useState<GuardianConsent>();
  const classes = useQuery({ queryKey: ['classTree'], queryFn: () => dataProvider.classTree(), retry: false });
  const classOptions = (classes.data ?? []).flatMap((g) => g.children.map((c) => ({ classId: c.classId, label: classLabel(g.gradeName, c.className) })));
  const { page, current, setCurrent, reload } = usePaged<GuardianConsent>(['guardianConsents', search, classId], (c) => dataProvider.guardianConsents(c, PAGE_SIZE, search, classId));
  const withdraw = () =>
    withdrawing &&
    dataProvider.withdrawConsent(withdrawing.studentId).then(() => {
      notify('已撤回监护人同意', { type: 'success' });
      setWithdrawing(undefined);
      reload();
    }, () => setWithdrawing(undefined));
  return (
    <>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', mt: 2 }}>
        <TextField select size="small" label="班级" value={classId ?? ''} onChange={(e) => setClassId(e.target.value === '' ? undefined : Number(e.target.value))} sx={{ width: 160 }}>
          <MenuItem value="">全部班级</MenuItem>
          {classOptions.map((c) => (
            <MenuItem key={c.classId} value={c.classId}>
              {c.label}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label="搜索"
          placeholder="学生姓名或学号"
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && setSearch(keyword.trim())}
          onBlur={() => setSearch(keyword.trim())}
          slotProps={{ htmlInput: { maxLength: 50 } }}
          sx={{ width: 240 }}
        />
        <Button variant="outlined" disabled={classId === undefined} onClick={() => setClassConsent(classOptions.find((c) => c.classId === classId))}>
          全班登记
        </Button>
      </Box>
      {page === undefined && <LinearProgress sx={{ mt: 2 }} />}
      {page && page.records.length === 0 && <EmptyState />}
      {page && page.records.length > 0 && (
        <>
          <TableContainer sx={{ mt: 1 }}>
            <Table size="small" data-testid="heart-consents">
              <TableHead>
                <TableRow>
                  <TableCell>学号</TableCell>
                  <TableCell>姓名</TableCell>
                  <TableCell>班级</TableCell>
                  <TableCell>出生日期</TableCell>
                  <TableCell>监护人同意</TableCell>
                  <TableCell align="right">操作</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {page.records.map((s) => (
                  <TableRow key={s.studentId}>
                    <TableCell>{s.studentNo}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{s.name}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{s.className ?? '—'}</TableCell>
                    <TableCell>{s.birthDate ?? '未登记'}</TableCell>
                    <TableCell>
                      {s.consentedOn ? (
                        `${s.guardianName}，${s.consentedOn}`
                      ) : s.underAge ? (
                        <Chip size="small" color="warning" label={`未满${CONSENT_AGE}周岁，未登记`} />
                      ) : (
                        <Box component="span" sx={{ color: 'text.secondary' }}>
                          已满{CONSENT_AGE}周岁，无需
                        </Box>
                      )}
                    </TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      <Button size="small" onClick={() => setEditing(s)}>
                        {s.consentedOn ? '更新' : '登记'}
                      </Button>
                      {s.consentedOn && (
                        <Button size="small" color="warning" onClick={() => setWithdrawing(s)}>
                          撤回
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <Pager total={page.total} current={current} onChange={setCurrent} />
        </>
      )}
      <ClassConsentDialog
        target={classConsent}
        onClose={() => setClassConsent(undefined)}
        onSaved={() => {
          setClassConsent(undefined);
          reload();
        }}
      />
      <Dialog open={!!withdrawing} onClose={() => setWithdrawing(undefined)} maxWidth="xs" fullWidth>
        <DialogTitle>撤回监护人同意 · {withdrawing?.name}</DialogTitle>
        <DialogContent>撤回后，未满{CONSENT_AGE}周岁的该生不能再在终端提交心声，直到重新登记。操作日志会记录此次撤回。</DialogContent>
        <DialogActions>
          <Button onClick={() => setWithdrawing(undefined)}>取消</Button>
          <Button variant="contained" color="warning" onClick={withdraw}>
            撤回
          </Button>
        </DialogActions>
      </Dialog>
      <ConsentDialog
        student={editing}
        onClose={() => setEditing(undefined)}
        onSaved={() => {
          setEditing(undefined);
          reload();
        }}
      />
    </>
  );
}

export default function HeartPrivacy({ route }: ScreenProps) {
  const [tab, setTab] = useState(0);
  return (
    <ScreenCard
      title={route.meta.title}
      description={`学生心声只由本校心理教师阅读，每次查阅都记录在此；未满${CONSENT_AGE}周岁的学生须登记监护人同意后才能在终端提交心声。`}
    >
      <OpenHighRisk sx={{ mt: 2 }} />
      <Tabs value={tab} onChange={(_, v: number) => setTab(v)} sx={{ mt: 1, borderBottom: 1, borderColor: 'divider' }}>
        <Tab label="查阅记录" />
        <Tab label="监护人同意" />
      </Tabs>
      {tab === 0 ? <ReadLog /> : <Consents />}
    </ScreenCard>
  );
}
