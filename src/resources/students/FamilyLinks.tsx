// 家长查看链接: a student's links to their read-only page for the student and the family. The
// teacher issues one for a course they teach in the student's class, the school admin also one for
// all the child's courses (for a guardian). The server answers the link once: it is shown here
// with a QR code to print or send, then only its state is kept (views, expiry, revocation).
import { useCallback, useEffect, useState } from 'react';
import { Button, useDataProvider } from 'react-admin';
import type { RaRecord } from 'ra-core';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import MuiButton from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import LinkOutlined from '@mui/icons-material/LinkOutlined';
import type { AppDataProvider } from '../../dataProvider';
import { FAMILY_LIMITS, type FamilyLinkOptions, type FamilyLinkRow, type IssuedFamilyLink } from '../../domain/family';
import { dateTime } from '../../domain/format';
import { OneTimeSecret } from '../../ui/OneTimeSecret';
import { QrCode } from '../../ui/QrCode';

const STATE_CHIPS: Record<FamilyLinkRow['state'], { label: string; color: 'success' | 'default' | 'warning' }> = {
  live: { label: '有效', color: 'success' },
  expired: { label: '已过期', color: 'default' },
  revoked: { label: '已撤销', color: 'warning' },
};

const ALL = 'all';

/** The dialog's body: issue a link (shown once with its QR code), and the list with 撤销. */
export function FamilyLinks({ studentId }: { studentId: number | string }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [options, setOptions] = useState<FamilyLinkOptions>();
  const [course, setCourse] = useState<string>('');
  const [label, setLabel] = useState('');
  const [days, setDays] = useState<number>(FAMILY_LIMITS.defaultDays);
  const [busy, setBusy] = useState(false);
  const [issued, setIssued] = useState<IssuedFamilyLink>();

  const load = useCallback(async () => {
    const o = await dataProvider.familyLinks(studentId);
    setOptions(o);
    setCourse((c) => c || (o.allCourses ? ALL : String(o.courses[0]?.courseId ?? '')));
  }, [dataProvider, studentId]);
  useEffect(() => {
    load().catch(() => undefined);
  }, [load]);

  const issue = async () => {
    setBusy(true);
    try {
      const made = await dataProvider.issueFamilyLink({ studentId, ...(course === ALL ? {} : { courseId: Number(course) }), label: label.trim() || undefined, days });
      setIssued(made);
      setLabel('');
      await load();
    } catch {
      // Shown by the http client.
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (id: number) => {
    try {
      await dataProvider.revokeFamilyLink(id);
      await load();
    } catch {
      // Shown by the http client.
    }
  };

  if (!options) return <Typography color="text.secondary">加载中…</Typography>;
  const url = issued ? `${window.location.origin}${issued.path}` : '';
  const canIssue = options.allCourses || options.courses.length > 0;
  return (
    <Box>
      {issued ? (
        <Box data-testid="family-link-issued" sx={{ mb: 2 }}>
          <OneTimeSecret
            warning="链接只显示这一次，关闭后无法再次查看。请只发给学生本人或家长；不需要时可随时撤销。"
            lines={[
              { label: '查看范围', value: issued.scopeName },
              { label: '有效期至', value: dateTime(issued.expiresAt) },
              { label: '链接', value: url, secret: { testId: 'family-link-url', long: true } },
            ]}
            copyLabel="复制链接"
          />
          <Box sx={{ mt: 1, textAlign: 'center' }}>
            <QrCode text={url} size={168} label="家长查看二维码" />
            <Typography variant="body2" color="text.secondary">
              家长用手机扫码即可查看
            </Typography>
          </Box>
        </Box>
      ) : canIssue ? (
        <Stack spacing={1.5} sx={{ mb: 2 }}>
          <TextField select size="small" label="查看范围" value={course} onChange={(e) => setCourse(e.target.value)}>
            {options.allCourses && <MenuItem value={ALL}>全部课程（给监护人）</MenuItem>}
            {options.courses.map((c) => (
              <MenuItem key={c.courseId} value={String(c.courseId)}>
                {c.courseName}
              </MenuItem>
            ))}
          </TextField>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <TextField
              size="small"
              label="发给谁（选填）"
              placeholder="如：妈妈"
              value={label}
              onChange={(e) => setLabel(e.target.value.slice(0, FAMILY_LIMITS.labelMax))}
              sx={{ flex: 1 }}
            />
            <TextField
              select
              size="small"
              label="有效期"
              value={days}
              onChange={(e) => setDays(Number(e.target.value))}
              sx={{ minWidth: 120 }}
            >
              {[7, 30, 60, 90].map((d) => (
                <MenuItem key={d} value={d}>
                  {d} 天
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <MuiButton variant="contained" onClick={issue} disabled={busy || !course}>
            生成链接
          </MuiButton>
        </Stack>
      ) : (
        <Alert severity="info" sx={{ mb: 2 }}>
          该学生所在班级没有可选的课程
        </Alert>
      )}
      <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
        已发放的链接
      </Typography>
      {options.links.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          还没有发放过链接
        </Typography>
      ) : (
        <Stack spacing={1} data-testid="family-link-list">
          {options.links.map((l) => (
            <Box key={l.id} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1 }}>
              <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
                <Chip size="small" label={STATE_CHIPS[l.state].label} color={STATE_CHIPS[l.state].color} />
                <Typography variant="body2" sx={{ fontWeight: 500 }}>
                  {l.scopeName}
                  {l.label ? ` · ${l.label}` : ''}
                </Typography>
                <Box sx={{ flex: 1 }} />
                {l.state === 'live' && (
                  <MuiButton size="small" color="warning" onClick={() => revoke(l.id)}>
                    撤销
                  </MuiButton>
                )}
              </Stack>
              <Typography variant="caption" color="text.secondary" component="div">
                {l.createdByName} 发放于 {dateTime(l.createdAt)} · {l.revokedAt ? `撤销于 ${dateTime(l.revokedAt)}` : `有效期至 ${dateTime(l.expiresAt)}`} · 查看 {l.views} 次
                {l.lastViewedAt ? `（最近 ${dateTime(l.lastViewedAt)}）` : ''}
              </Typography>
            </Box>
          ))}
        </Stack>
      )}
    </Box>
  );
}

/** The button and dialog, for a student's row or page. */
export function FamilyLinkButton({ record }: { record: RaRecord }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button label="家长查看" onClick={() => setOpen(true)}>
        <LinkOutlined />
      </Button>
      {open && (
        <Dialog open onClose={() => setOpen(false)} maxWidth="sm" fullWidth>
          <DialogTitle>
            家长查看链接 · {String(record.name)}
            {record.studentNo ? `（${String(record.studentNo)}）` : ''}
          </DialogTitle>
          <DialogContent>
            <FamilyLinks studentId={record.id} />
          </DialogContent>
          <DialogActions>
            <MuiButton onClick={() => setOpen(false)}>关闭</MuiButton>
          </DialogActions>
        </Dialog>
      )}
    </>
  );
}
