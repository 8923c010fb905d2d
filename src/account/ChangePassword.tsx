// The first sign-in with a one-time password: the account opens nothing until the user sets a
// password of their own. The rules are checked by the server, which says in Chinese what is wrong.
import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';

export interface ChangePasswordProps {
  /** The one-time password just used to sign in. */
  oldPassword: string;
  changePassword: (oldPassword: string, newPassword: string) => Promise<unknown>;
  onChanged: () => void;
}

export function ChangePasswordForm({ oldPassword, changePassword, onChanged }: ChangePasswordProps) {
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!next) return setError('请输入新密码');
    if (next !== again) return setError('两次输入的新密码不一致');
    setError('');
    setBusy(true);
    try {
      await changePassword(oldPassword, next);
      onChanged();
    } catch (failure) {
      setError((failure as Error)?.message || '修改失败，请稍后重试');
      setBusy(false);
    }
  };

  return (
    <Box component="form" onSubmit={submit} noValidate sx={{ display: 'grid', gap: 2 }} aria-label="修改初始密码">
      <Alert severity="info" role="status">这是一次性初始密码，请先设置您自己的新密码：8–64 位，同时包含字母和数字。</Alert>
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      <TextField label="新密码" type="password" value={next} onChange={(e) => setNext(e.target.value)} autoComplete="new-password" autoFocus fullWidth />
      <TextField label="确认新密码" type="password" value={again} onChange={(e) => setAgain(e.target.value)} autoComplete="new-password" fullWidth />
      <Button type="submit" variant="contained" size="large" disabled={busy} fullWidth>
        {busy ? '保存中…' : '设置新密码并进入'}
      </Button>
      <Typography variant="caption" color="text.secondary">
        设置后，使用旧密码的其他登录会被退出。
      </Typography>
    </Box>
  );
}
