// One-time passwords: the server returns a new account's password, or a reset one, exactly once and
// keeps only its hash. They are shown here once, with a copy button, and never stored.
import { useDataProvider } from 'react-admin';
import type { RaRecord } from 'ra-core';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import MuiButton from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../dataProvider';
import { MakeSecretButton, OneTimeSecret } from '../../ui/OneTimeSecret';

function Credentials({ username, password }: { username: string; password: string }) {
  return (
    <OneTimeSecret
      warning="密码只显示这一次，关闭后无法再次查看，请立即转告教师并提醒其登录后修改。"
      lines={[
        { label: '账号', value: username },
        { label: '密码', value: password, secret: { testId: 'one-time-password' } },
      ]}
      copyLabel="复制账号和密码"
    />
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
  return (
    <MakeSecretButton
      label="重置密码"
      title="重置密码"
      question={`确定要重置教师“${record.name}”的密码吗？其已登录的设备将被退出。`}
      confirmLabel="确认重置"
      make={() => dataProvider.resetPassword(record.id)}
      show={(result) => <Credentials username={result.username} password={result.password} />}
    />
  );
}
