// One-time passwords: the server returns a new account's password, or a reset one, exactly once and
// keeps only its hash. They are shown here once, with a copy button, and never stored.
import { useState } from 'react';
import { Button, useDataProvider } from 'react-admin';
import type { RaRecord } from 'ra-core';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MuiButton from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import type { AppDataProvider } from '../../dataProvider';

function Credentials({ username, password }: { username: string; password: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(`账号：${username}\n密码：${password}`).catch(() => undefined);
    setCopied(true);
  };
  return (
    <Box>
      <Alert severity="warning" sx={{ mb: 2 }}>
        密码只显示这一次，关闭后无法再次查看，请立即转告教师并提醒其登录后修改。
      </Alert>
      <Typography>
        账号：<b>{username}</b>
      </Typography>
      <Typography sx={{ mt: 1 }}>
        密码：
        <Box component="code" data-testid="one-time-password" sx={{ fontSize: 18, px: 1, py: 0.25, bgcolor: 'grey.100', borderRadius: 1, fontFamily: 'monospace' }}>
          {password}
        </Box>
      </Typography>
      <MuiButton size="small" onClick={copy} sx={{ mt: 1 }}>
        {copied ? '已复制' : '复制账号和密码'}
      </MuiButton>
    </Box>
  );
}

/** After a teacher is added: the new account's username (the phone) and its first password. */
export function CreatedAccount({ record, onClose }: { record: RaRecord; onClose: () => void }) {
  return (
    <>
      <DialogContent>
        <Typography sx={{ mb: 1 }}>已新增教师“{record.name}”。</Typography>
        <Credentials username={String(record.username ?? record.phone)} password={String(record.password ?? '')} />
      </DialogContent>
      <DialogActions>
        <MuiButton variant="contained" onClick={onClose}>
          我已记下
        </MuiButton>
      </DialogActions>
    </>
  );
}

export function ResetPasswordButton({ record }: { record: RaRecord }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [step, setStep] = useState<'confirm' | 'busy' | { username: string; password: string }>();
  const reset = async () => {
    setStep('busy');
    try {
      const result = await dataProvider.resetPassword(record.id);
      setStep({ username: result.username, password: result.password });
    } catch {
      setStep(undefined);
    }
  };
  const shown = typeof step === 'object' ? step : undefined;
  return (
    <>
      <Button label="重置密码" onClick={() => setStep('confirm')}>
        <KeyOutlined />
      </Button>
      <Dialog open={!!step} onClose={shown ? () => setStep(undefined) : undefined} maxWidth="xs" fullWidth>
        <DialogTitle>重置密码</DialogTitle>
        <DialogContent>
          {shown ? (
            <Credentials username={shown.username} password={shown.password} />
          ) : (
            <Typography>确定要重置教师“{record.name}”的密码吗？其已登录的设备将被退出。</Typography>
          )}
        </DialogContent>
        <DialogActions>
          {shown ? (
            <MuiButton variant="contained" onClick={() => setStep(undefined)}>
              我已记下
            </MuiButton>
          ) : (
            <>
              <MuiButton onClick={() => setStep(undefined)}>取消</MuiButton>
              <MuiButton variant="contained" color="warning" onClick={reset} disabled={step === 'busy'}>
                确认重置
              </MuiButton>
            </>
          )}
        </DialogActions>
      </Dialog>
    </>
  );
}
