// Binding terminals to a school the partner's subtree runs directly, and unbinding them: one row
// or the selected rows. The server binds all or none and says why in Chinese.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Confirm, useDataProvider, useListContext, useNotify, useRefresh, useUnselectAll } from 'react-admin';
import type { RaRecord } from 'ra-core';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import MuiButton from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import LinkOutlined from '@mui/icons-material/LinkOutlined';
import LinkOffOutlined from '@mui/icons-material/LinkOffOutlined';
import type { AppDataProvider } from '../../dataProvider';
import type { DeviceSchool } from '../../dataProvider/devices';

type Ids = (number | string)[];

/** After a bind or unbind: the server's count, the list again, the selection cleared. */
function useDone() {
  const notify = useNotify();
  const refresh = useRefresh();
  const unselectAll = useUnselectAll('devices');
  return (message: string) => {
    notify(message, { type: 'success' });
    unselectAll();
    refresh();
  };
}

function BindDialog({ ids, open, onClose }: { ids: Ids; open: boolean; onClose: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const done = useDone();
  // Read when the dialog first opens, then kept.
  const schoolList = useQuery({ queryKey: ['deviceSchools'], queryFn: () => dataProvider.deviceSchools().then((list) => list.filter((s) => s.direct)), enabled: open, retry: false, staleTime: Infinity });
  const schools: DeviceSchool[] | undefined = schoolList.isError ? [] : schoolList.data;
  const [schoolId, setSchoolId] = useState<number | ''>('');
  const [busy, setBusy] = useState(false);
  const bind = async () => {
    if (schoolId === '') return;
    setBusy(true);
    try {
      const { count } = await dataProvider.bindDevices(ids, schoolId);
      const name = schools?.find((s) => s.schoolId === schoolId)?.schoolName ?? '';
      done(`已将${count}台设备绑定到${name}`);
      onClose();
    } catch {
      // Shown by the http client.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>绑定到学校</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          将所选 {ids.length} 台设备部署到本渠道直营的学校；已部署的设备需先解绑。
        </Typography>
        <TextField select fullWidth label="学校" value={schoolId} onChange={(e) => setSchoolId(Number(e.target.value))} disabled={!schools?.length}>
          {(schools ?? []).map((s) => (
            <MenuItem key={s.schoolId} value={s.schoolId}>
              {s.schoolName}
            </MenuItem>
          ))}
        </TextField>
        {schools && !schools.length && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            暂无可绑定的直营学校
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <MuiButton onClick={onClose}>取消</MuiButton>
        <MuiButton variant="contained" onClick={bind} disabled={busy || schoolId === ''}>
          确定绑定
        </MuiButton>
      </DialogActions>
    </Dialog>
  );
}

function UnbindConfirm({ ids, label, open, onClose }: { ids: Ids; label: string; open: boolean; onClose: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const done = useDone();
  const [busy, setBusy] = useState(false);
  const unbind = async () => {
    setBusy(true);
    try {
      const { count } = await dataProvider.unbindDevices(ids);
      done(`已解绑${count}台设备`);
      onClose();
    } catch {
      // Shown by the http client.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Confirm
      isOpen={open}
      loading={busy}
      title="解除绑定"
      content={`确定将${label}从所在学校解绑吗？解绑后设备不能再登录和上报使用记录，历史数据保留。`}
      confirm="确定解绑"
      cancel="取消"
      onConfirm={unbind}
      onClose={onClose}
    />
  );
}

/** Row action: 绑定 for a terminal in stock, 解绑 for a deployed one. */
export function BindButton({ record }: { record: RaRecord }) {
  const [open, setOpen] = useState(false);
  const deployed = record.deployment === 1;
  return (
    <>
      <Button label={deployed ? '解绑' : '绑定'} onClick={() => setOpen(true)}>
        {deployed ? <LinkOffOutlined /> : <LinkOutlined />}
      </Button>
      {deployed ? (
        <UnbindConfirm ids={[record.id]} label={`设备${record.serial}`} open={open} onClose={() => setOpen(false)} />
      ) : (
        <BindDialog ids={[record.id]} open={open} onClose={() => setOpen(false)} />
      )}
    </>
  );
}

export function BulkBind() {
  const { selectedIds } = useListContext();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button label="批量绑定" onClick={() => setOpen(true)}>
        <LinkOutlined />
      </Button>
      <BindDialog ids={selectedIds} open={open} onClose={() => setOpen(false)} />
    </>
  );
}

export function BulkUnbind() {
  const { selectedIds } = useListContext();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button label="批量解绑" onClick={() => setOpen(true)}>
        <LinkOffOutlined />
      </Button>
      <UnbindConfirm ids={selectedIds} label={`所选 ${selectedIds.length} 台设备`} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
