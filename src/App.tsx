// The product's wiring: one http client (toasts through react-admin, sign-out on 401/403),
// the dataProvider and authProvider over it, and the shell.
import { createHttpClient } from './dataProvider/http';
import { createNotifier } from './dataProvider/notifier';
import { createDataProvider } from './dataProvider';
import { RESOURCES } from './resources';
import { adaptersOf } from './resources/define';
import { createAuthProvider, createSignOut, type SignOut } from './authProvider';
import { getToken, pageActiveRole } from './authProvider/session';
import { createAppNotification } from './layout/AppNotification';
import { AdminApp } from './AdminApp';

const notifier = createNotifier();
// The http client and sign-out need each other: sign-out revokes through the client, the client signs out on 401.
let signOut: SignOut = async () => undefined;
const http = createHttpClient({
  getToken,
  getActiveRole: pageActiveRole,
  notify: notifier.notify,
  onAuthFailure: (status, _message, revokedRole) => {
    // The active role was taken away since the page loaded: the session is fine, use another role.
    if (revokedRole) return authProvider.leaveRole(revokedRole);
    // A 401 without a token means "never signed in", not "session expired".
    void signOut({ revoke: false, reason: status === 403 ? 'forbidden' : getToken() ? 'expired' : undefined });
  },
});
const dataProvider = createDataProvider(http, adaptersOf(RESOURCES));
signOut = createSignOut(dataProvider);
const authProvider = createAuthProvider({ api: dataProvider, signOut });
const AppNotification = createAppNotification(notifier);

export function App() {
  return <AdminApp dataProvider={dataProvider} authProvider={authProvider} resources={RESOURCES} notification={AppNotification} />;
}
