// Bulk binding of the selected students (batchEnableStudentOrg): bind lets them use the product,
// unbind takes it back. The server writes all or nothing.
import { useState } from 'react';
import { Button, useDataProvider, useListContext, useNotify, useRefresh, useUnselectAll } from 'react-admin';
import LinkOutlined from '@mui/icons-material/LinkOutlined';
import LinkOffOutlined from '@mui/icons-material/LinkOffOutlined';
import type { AppDataProvider } from '../../dataProvider';

function BindingButton({ status }: { status: 0 | 1 }) {
  const { selectedIds, resource } = useListContext();
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const unselectAll = useUnselectAll(resource);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const { count } = await dataProvider.setStudentBinding(selectedIds, status);
      notify(`已${status ? '绑定' : '解绑'} ${count} 名学生`, { type: 'success' });
      unselectAll();
      refresh();
    } catch {
      // Shown by the http client.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button label={status ? '批量绑定' : '批量解绑'} onClick={run} disabled={busy}>
      {status ? <LinkOutlined /> : <LinkOffOutlined />}
    </Button>
  );
}

export const BindStudents = () => <BindingButton status={1} />;
export const UnbindStudents = () => <BindingButton status={0} />;
