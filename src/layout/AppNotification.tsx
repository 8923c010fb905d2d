// react-admin's toast, fed by the http client's notifier too (SPEC §8/§9: error toasts of
// 3000 ms, at the top, 16 px from the edge).
import { useEffect } from 'react';
import { Notification, useNotify } from 'react-admin';
import type { Notifier } from '../dataProvider/notifier';

export function createAppNotification(notifier: Notifier) {
  return function AppNotification() {
    const notify = useNotify();
    useEffect(() => notifier.attach((message, type, autoHideDuration) => notify(message, { type, autoHideDuration })), [notify]);
    return <Notification anchorOrigin={{ vertical: 'top', horizontal: 'center' }} sx={{ '&.MuiSnackbar-root': { top: 16 } }} />;
  };
}
