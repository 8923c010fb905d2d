import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { AdminContext } from 'react-admin';
import { createNotifier } from '../../src/dataProvider/notifier';
import { createAppNotification } from '../../src/layout/AppNotification';
import { i18nProvider } from '../../src/i18n';

describe('toasts from the http client', () => {
  it('shows messages sent before and after the screen mounted', async () => {
    const notifier = createNotifier();
    notifier.notify('服务异常', 'error', 3000);
    const AppNotification = createAppNotification(notifier);
    render(
      <AdminContext i18nProvider={i18nProvider}>
        <AppNotification />
      </AdminContext>,
    );
    expect(await screen.findByText('服务异常')).toBeInTheDocument();
  });
});
