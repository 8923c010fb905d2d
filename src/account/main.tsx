// The separate sign-in app (account.html). `?logout=1` ends the stored session; `redirect`
// names where to go after signing in (same origin only); `reason` says why the product sent us.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import CssBaseline from '@mui/material/CssBaseline';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import { zhCN } from '@mui/material/locale';
import { createHttpClient } from '../dataProvider/http';
import { createShellApi } from '../dataProvider/api';
import { clearSession, setToken } from '../authProvider/session';
import { brand } from '../layout/brandTheme';
import { pageTitle } from '../layout/brand';
import { safeRedirect, signOutMessage } from './redirect';
import { SignIn } from './SignIn';

const params = new URLSearchParams(window.location.search);
if (params.get('logout') === '1') clearSession();
document.title = pageTitle('登录');

// Sign-in errors are shown in the form, so the client needs no toasts and no session handling.
// The token of a sign-in with a one-time password is held here (not stored) until it is changed.
let pendingToken: string | null = null;
const api = createShellApi(
  createHttpClient({ getToken: () => pendingToken, getActiveRole: () => null, notify: () => undefined, onAuthFailure: () => undefined }),
);
const changePassword = (token: string, oldPassword: string, newPassword: string) => {
  pendingToken = token;
  return api.changePassword(oldPassword, newPassword);
};
const target = safeRedirect(params.get('redirect'), window.location.origin);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ThemeProvider theme={createTheme(brand, zhCN)}>
      <CssBaseline />
      <SignIn
        login={api.login}
        changePassword={changePassword}
        notice={signOutMessage(params.get('reason'))}
        onSignedIn={(token) => {
          // A new sign-in starts a new session: nothing of the previous user's role or choices stays.
          clearSession();
          setToken(token);
          window.location.replace(target);
        }}
      />
    </ThemeProvider>
  </StrictMode>,
);
