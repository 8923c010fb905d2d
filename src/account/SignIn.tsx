// The sign-in screen of the account app: username and password, the server's Chinese message on
// failure, then back to the product (SPEC §1).
import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { LoginResult } from '../dataProvider/api';
import { PRODUCT_SUBTITLE, PRODUCT_TITLE } from '../layout/brand';
import { ChangePasswordForm } from './ChangePassword';

export interface SignInProps {
  login: (username: string, password: string) => Promise<LoginResult>;
  /** Replaces a one-time password, signed in with `token`. */
  changePassword: (token: string, oldPassword: string, newPassword: string) => Promise<unknown>;
  /** Called with the token once the server accepted the credentials. */
  onSignedIn: (token: string) => void;
  /** Why the product sent the user here, already turned into a sentence. */
  notice?: string;
}

export function SignIn({ login, changePassword, onSignedIn, notice }: SignInProps) {
  const [username, setUsername] = useState('');
  /** Signed in with a one-time password: the token waits until a new password is set. */
  const [pending, setPending] = useState<string>();
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!username.trim()) return setError('请输入用户名');
    if (!password) return setError('请输入密码');
    setError('');
    setBusy(true);
    try {
      const { accessToken, mustChangePassword } = await login(username.trim(), password);
      if (mustChangePassword) {
        setPending(accessToken);
        setBusy(false);
        return;
      }
      onSignedIn(accessToken);
    } catch (failure) {
      setError((failure as Error)?.message || '登录失败，请稍后重试');
      setBusy(false);
    }
  };

  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', bgcolor: 'background.default', p: 2 }}>
      <Card sx={{ width: '100%', maxWidth: 400 }} elevation={3}>
        <CardContent sx={{ p: 4 }}>
          <Box sx={{ textAlign: 'center', mb: 3 }}>
            <Typography component="h1" variant="h5" sx={{ fontWeight: 700 }}>
              {PRODUCT_TITLE}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {PRODUCT_SUBTITLE}
            </Typography>
          </Box>
          {notice && !error && (
            <Alert severity="info" sx={{ mb: 2 }}>
              {notice}
            </Alert>
          )}
          {error && !pending && (
            <Alert severity="error" sx={{ mb: 2 }} role="alert">
              {error}
            </Alert>
          )}
          {pending ? (
            <ChangePasswordForm oldPassword={password} changePassword={(old, next) => changePassword(pending, old, next)} onChanged={() => onSignedIn(pending)} />
          ) : (
            <Box component="form" onSubmit={submit} noValidate sx={{ display: 'grid', gap: 2 }}>
              <TextField label="用户名" value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="username" autoFocus fullWidth />
              <TextField
                label="密码"
                type="password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                autoComplete="current-password"
                fullWidth
              />
              <Button type="submit" variant="contained" size="large" disabled={busy} fullWidth>
                {busy ? '登录中…' : '登录'}
              </Button>
            </Box>
          )}
        </CardContent>
      </Card>
    </Box>
  );
}
