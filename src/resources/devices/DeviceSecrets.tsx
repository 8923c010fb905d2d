// A terminal's secret in 设备管理: 登记设备 (a new terminal in the partner's stock) and 重置密钥
// (a new secret; the old one is refused at once). The server answers the secret to that call only
// and never again, so it is shown here once, with a copy button, and never kept in the browser.
import { useState } from 'react';
import { Button, useDataProvider, useRefresh } from 'react-admin';
import type { RaRecord } from 'ra-core';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import MuiButton from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddOutlined from '@mui/icons-material/AddOutlined';
import type { AppDataProvider } from '../../dataProvider';
import type { DeviceSecret } from '../../dataProvider/devices';
import { MakeSecretButton, OneTimeSecret } from '../../ui/OneTimeSecret';
import { DEVICE_SERIAL_PATTERN } from '../../domain/devices';
import { DEVICE_MODELS } from '../../domain/partner';

function SecretShown({ shown, note }: { shown: DeviceSecret; note: string }) {
  return (
    <OneTimeSecret
      warning={`${note}密钥只显示这一次，关闭后无法再次查看，请立即写入终端并妥善保管，不要通过聊天工具转发。`}
      lines={[
        { label: '设备编号', value: shown.serial },
        { label: '设备密钥', value: shown.secret, secret: { testId: 'device-secret', long: true } },
      ]}
      copyLabel="复制编号和密钥"
    />
  );
}

/** Toolbar action: registers a terminal into the caller's stock and shows its first secret. */
export function RegisterDeviceButton() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [serial, setSerial] = useState('');
  const [model, setModel] = useState<string>(DEVICE_MODELS[0].value);
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<DeviceSecret>();
  const trimmed = serial.trim();
  const valid = DEVICE_SERIAL_PATTERN.test(trimmed);
  const close = () => {
    setOpen(false);
    setShown(undefined);
    setSerial('');
  };
  const register = async () => {
    setBusy(true);
    try {
      setShown(await dataProvider.registerDevice(trimmed, model));
      refresh();
    } catch {
      // Shown by the http client (e.g. 设备编号…已登记).
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button label="登记设备" onClick={() => setOpen(true)}>
        <AddOutlined />
      </Button>
      <Dialog open={open} onClose={shown ? undefined : close} maxWidth="xs" fullWidth>
        <DialogTitle>登记设备</DialogTitle>
        <DialogContent>
          {shown ? (
            <SecretShown shown={shown} note="设备已登记到本渠道库存。" />
          ) : (
            <>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
                登记后系统为该终端生成专属密钥，终端用它签名每一次请求；登记的设备进入本渠道库存，可再绑定到直营学校。
              </Typography>
              <TextField
                fullWidth
                label="设备编号"
                value={serial}
                onChange={(e) => setSerial(e.target.value)}
                error={!!trimmed && !valid}
                helperText={trimmed && !valid ? '设备编号由字母、数字或“-”组成，最多32位' : '见终端背面的铭牌，如 XZP02025037'}
                inputProps={{ maxLength: 32 }}
                sx={{ mb: 2 }}
              />
              <TextField select fullWidth label="型号" value={model} onChange={(e) => setModel(e.target.value)}>
                {DEVICE_MODELS.map((m) => (
                  <MenuItem key={m.value} value={m.value}>
                    {m.label}
                  </MenuItem>
                ))}
              </TextField>
            </>
          )}
        </DialogContent>
        <DialogActions>
          {shown ? (
            <MuiButton variant="contained" onClick={close}>
              我已记下
            </MuiButton>
          ) : (
            <>
              <MuiButton onClick={close}>取消</MuiButton>
              <MuiButton variant="contained" onClick={register} disabled={busy || !valid}>
                登记
              </MuiButton>
            </>
          )}
        </DialogActions>
      </Dialog>
    </>
  );
}

/** Row action: a new secret for the terminal, shown once; the old one stops working at once. */
export function RotateSecretButton({ record }: { record: RaRecord }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  return (
    <MakeSecretButton
      label="重置密钥"
      title="重置密钥"
      question={`确定要重置设备 ${String(record.serial)} 的密钥吗？旧密钥立即失效，终端写入新密钥前将无法登录和上报数据。`}
      confirmLabel="确认重置"
      make={() => dataProvider.rotateDeviceSecret(record.id)}
      show={(shown) => <SecretShown shown={shown} note="旧密钥已失效。" />}
    />
  );
}
