// 终端PIN: the six digits a student types at a print terminal to send a named 学生心声 as
// themselves. The school admin draws a random one or types one (e.g. the number on the student's
// card); either clears a lockout after wrong PINs. The server answers the PIN this once and keeps
// only a keyed hash, so it is shown here once and never stored.
import { useState } from 'react';
import { Button, useDataProvider, useRefresh } from 'react-admin';
import type { RaRecord } from 'ra-core';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MuiButton from '@mui/material/Button';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import PinOutlined from '@mui/icons-material/PinOutlined';
import type { AppDataProvider } from '../../dataProvider';
import { TerminalPinState } from '../../domain/school';

const SIX_DIGITS = /^\d{6}$/;

export function TerminalPinButton({ record }: { record: RaRecord }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState<'random' | 'typed'>('random');
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<string>();
  const has = record.terminalPin !== TerminalPinState.none;
  const close = () => {
    setOpen(false);
    setShown(undefined);
    setTyped('');
    setMode('random');
  };
  const save = async () => {
    setBusy(true);
    try {
      const result = await dataProvider.setTerminalPin(record.id, mode === 'typed' ? typed : undefined);
      setShown(result.pin);
      refresh();
    } catch {
      // Shown by the http client (e.g. 终端PIN过于简单).
    } finally {
      setBusy(false);
    }
  };
  const ready = mode === 'random' || SIX_DIGITS.test(typed);
  return (
    <>
      <Button label="终端PIN" onClick={() => setOpen(true)}>
        <PinOutlined />
      </Button>
      <Dialog open={open} onClose={shown ? undefined : close} maxWidth="xs" fullWidth>
        <DialogTitle>{has ? '重置终端PIN' : '设置终端PIN'}</DialogTitle>
        <DialogContent>
          {shown ? (
            <Box>
              <Alert severity="warning" sx={{ mb: 2 }}>
                终端PIN只显示这一次，关闭后无法再次查看。请当面告知学生本人，不要告诉其他同学。
              </Alert>
              <Typography>
                {String(record.name)}（{String(record.studentNo)}）的终端PIN：
              </Typography>
              <Box component="code" data-testid="terminal-pin" sx={{ display: 'inline-block', mt: 1, fontSize: 28, letterSpacing: 6, px: 1.5, py: 0.5, bgcolor: 'grey.100', borderRadius: 1, fontFamily: 'monospace' }}>
                {shown}
              </Box>
            </Box>
          ) : (
            <>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                学生在打印终端实名提交心声时输入终端PIN，证明是本人提交。{has ? '重置后旧的终端PIN立即失效，因输错被锁定的也会解锁。' : ''}
              </Typography>
              <RadioGroup value={mode} onChange={(e) => setMode(e.target.value as 'random' | 'typed')}>
                <FormControlLabel value="random" control={<Radio />} label="随机生成" />
                <FormControlLabel value="typed" control={<Radio />} label="手动输入（如学生卡上的卡片码）" />
              </RadioGroup>
              {mode === 'typed' && (
                <TextField
                  fullWidth
                  autoFocus
                  label="终端PIN"
                  value={typed}
                  onChange={(e) => setTyped(e.target.value.replace(/\D/g, '').slice(0, 6))}
                  helperText="6位数字，不要用123456、000000这类简单数字"
                  inputProps={{ inputMode: 'numeric', maxLength: 6, autoComplete: 'off' }}
                  sx={{ mt: 1 }}
                />
              )}
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
              <MuiButton variant="contained" color={has ? 'warning' : 'primary'} onClick={save} disabled={busy || !ready}>
                {has ? '确认重置' : '确认设置'}
              </MuiButton>
            </>
          )}
        </DialogActions>
      </Dialog>
    </>
  );
}
