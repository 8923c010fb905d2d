// 批量开通账号: one-time passwords for a batch of teachers (imported accounts first), printed one
// sheet per class with the teachers of that class, and changed by each teacher at first sign-in.
// The passwords exist only in this dialog: closing it loses them (the server keeps hashes only).
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, useDataProvider, useRefresh } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import GlobalStyles from '@mui/material/GlobalStyles';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import MuiButton from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import type { AppDataProvider } from '../../dataProvider';
import type { IssuedPassword } from '../../dataProvider/roles';
import { classLabel } from '../../filters/widgets';

/** Most teachers one batch takes (the server's PASSWORD_BATCH_MAX). */
const BATCH_MAX = 200;

export interface PasswordSheet {
  title: string;
  rows: { name: string; username: string; password: string; courses: string }[];
}

/** One sheet per class (grade order), each listing the class's teachers and what they teach there; teachers without a class on a last sheet. */
export function passwordSheets(issued: IssuedPassword[]): PasswordSheet[] {
  const byClass = new Map<number, { title: string; level: number; rows: PasswordSheet['rows'] }>();
  for (const t of issued) {
    for (const c of t.classes) {
      const sheet = byClass.get(c.classId) ?? { title: classLabel(c.gradeName, c.className), level: c.level, rows: [] };
      const row = sheet.rows.find((r) => r.username === t.username);
      if (row) row.courses += `、${c.courseName}`;
      else sheet.rows.push({ name: t.name, username: t.username, password: t.password, courses: c.courseName });
      byClass.set(c.classId, sheet);
    }
  }
  const sheets = [...byClass.entries()].sort(([a, x], [b, y]) => x.level - y.level || a - b).map(([, s]) => ({ title: s.title, rows: s.rows }));
  const loose = issued.filter((t) => t.classes.length === 0);
  if (loose.length) sheets.push({ title: '未分配班级的教师', rows: loose.map((t) => ({ name: t.name, username: t.username, password: t.password, courses: '—' })) });
  return sheets;
}

function Sheets({ sheets }: { sheets: PasswordSheet[] }) {
  return (
    <Box data-testid="password-sheets">
      {sheets.map((sheet, i) => (
        <Box key={sheet.title} className="password-sheet" sx={{ mb: 3, breakAfter: i < sheets.length - 1 ? 'page' : 'auto' }}>
          <Typography variant="h6" component="h2" sx={{ fontWeight: 700 }}>
            {sheet.title} · 教师初始密码
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            请分发给本人。首次登录须修改初始密码；初始密码仅本次有效，请勿外传。
          </Typography>
          <Box component="table" sx={{ width: '100%', borderCollapse: 'collapse', '& td, & th': { border: '1px solid #999', p: 0.75, textAlign: 'left', fontSize: 14, overflowWrap: 'anywhere' } }}>
            <thead>
              <tr>
                <th>姓名</th>
                <th>任教</th>
                <th>账号</th>
                <th>初始密码</th>
              </tr>
            </thead>
            <tbody>
              {sheet.rows.map((r) => (
                <tr key={r.username}>
                  <td>{r.name}</td>
                  <td>{r.courses}</td>
                  <td>{r.username}</td>
                  <td style={{ fontFamily: 'monospace', fontSize: 16 }} data-testid="sheet-password">
                    {r.password}
                  </td>
                </tr>
              ))}
            </tbody>
          </Box>
        </Box>
      ))}
    </Box>
  );
}

function IssueDialog({ onClose }: { onClose: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const refresh = useRefresh();
  const accounts = useQuery({ queryKey: ['teacherAccounts'], queryFn: () => dataProvider.teacherAccounts(), retry: false, gcTime: 0 });
  const [chosen, setChosen] = useState<Set<number> | null>(null);
  const [issued, setIssued] = useState<IssuedPassword[] | null>(null);
  const [busy, setBusy] = useState(false);
  // Imported accounts that never had a password are chosen to begin with.
  const selected = chosen ?? new Set((accounts.data ?? []).filter((a) => a.awaitingPassword).map((a) => a.teacherId));
  const toggle = (id: number) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setChosen(next);
  };
  const issue = async () => {
    setBusy(true);
    try {
      setIssued(await dataProvider.issueInitialPasswords([...selected]));
      refresh();
    } catch {
      // Shown by the http client.
    } finally {
      setBusy(false);
    }
  };

  if (issued) {
    return (
      <Dialog open fullScreen onClose={() => undefined}>
        <GlobalStyles styles={{ '@media print': { '#root': { display: 'none !important' }, '.no-print': { display: 'none !important' }, '@page': { size: 'A4', margin: '15mm' } } }} />
        <DialogTitle className="no-print">初始密码单（共 {issued.length} 名教师）</DialogTitle>
        <DialogContent>
          <Alert severity="warning" className="no-print" sx={{ mb: 2 }}>
            密码只显示这一次，关闭后无法再次查看。请先打印，按班级分发给教师本人；教师首次登录须修改密码。
          </Alert>
          <Sheets sheets={passwordSheets(issued)} />
        </DialogContent>
        <DialogActions className="no-print">
          <MuiButton onClick={onClose}>我已打印，关闭</MuiButton>
          <MuiButton variant="contained" onClick={() => window.print()}>
            打印密码单
          </MuiButton>
        </DialogActions>
      </Dialog>
    );
  }

  const list = accounts.data ?? [];
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>批量开通账号</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          为所选教师生成初始密码，按班级打印成密码单；已登录的设备将被退出，教师首次登录须修改密码。导入的新教师已默认选中。
        </Typography>
        {accounts.isLoading ? (
          <LinearProgress />
        ) : (
          <>
            <FormControlLabel
              control={<Checkbox checked={list.length > 0 && selected.size === list.length} indeterminate={selected.size > 0 && selected.size < list.length} onChange={(e) => setChosen(new Set(e.target.checked ? list.map((a) => a.teacherId) : []))} />}
              label={`全选（共 ${list.length} 名）`}
            />
            <List dense sx={{ maxHeight: 360, overflow: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}>
              {list.map((a) => (
                <ListItem key={a.teacherId} disablePadding sx={{ px: 1 }}>
                  <FormControlLabel
                    sx={{ width: '100%', mr: 0 }}
                    control={<Checkbox size="small" checked={selected.has(a.teacherId)} onChange={() => toggle(a.teacherId)} />}
                    label={
                      <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1 }}>
                        <span>{a.name}</span>
                        <Typography component="span" variant="body2" color="text.secondary">
                          {a.username} · {a.awaitingPassword ? '未开通' : a.mustChangePassword ? '待修改初始密码' : '已开通'}
                          {a.classes.length ? ` · ${a.classes.join('、')}` : ''}
                        </Typography>
                      </Box>
                    }
                  />
                </ListItem>
              ))}
            </List>
          </>
        )}
        {selected.size > BATCH_MAX && (
          <Alert severity="warning" sx={{ mt: 1 }}>
            一次最多为 {BATCH_MAX} 名教师生成密码，请分批进行。
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <MuiButton onClick={onClose}>取消</MuiButton>
        <MuiButton variant="contained" onClick={issue} disabled={busy || selected.size === 0 || selected.size > BATCH_MAX}>
          {busy ? '正在生成…' : `生成 ${selected.size} 名教师的初始密码`}
        </MuiButton>
      </DialogActions>
    </Dialog>
  );
}

export function InitialPasswordsButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button label="批量开通账号" onClick={() => setOpen(true)}>
        <KeyOutlined />
      </Button>
      {open && <IssueDialog onClose={() => setOpen(false)} />}
    </>
  );
}
