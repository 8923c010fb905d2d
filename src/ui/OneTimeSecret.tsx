// A secret the server answers exactly once (a teacher's one-time password, a terminal's key): shown
// once with a copy button, never stored in the browser; and the confirm → working → shown-once
// dialog of the row actions that make a new one (重置密码, 重置密钥).
import { useState, type ReactNode } from 'react';
import { Button } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MuiButton from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import KeyOutlined from '@mui/icons-material/KeyOutlined';

export interface SecretLine {
  label: string;
  value: string;
  /** The secret itself: monospace, for copying by eye; `testId` names it for tests. */
  secret?: { testId: string; long?: boolean };
}

/** The warning, the lines and one button that copies them all as "label：value" lines. */
export function OneTimeSecret({ warning, lines, copyLabel }: { warning: string; lines: SecretLine[]; copyLabel: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(lines.map((l) => `${l.label}：${l.value}`).join('\n')).catch(() => undefined);
    setCopied(true);
  };
  return (
    <Box>
      <Alert severity="warning" sx={{ mb: 2 }}>
        {warning}
      </Alert>
      {lines.map((line, i) => (
        <Typography key={line.label} component="div" sx={{ mt: i ? 1 : 0 }}>
          {line.label}：
          {line.secret ? (
            <Box
              component="code"
              data-testid={line.secret.testId}
              sx={{
                fontFamily: 'monospace',
                bgcolor: 'grey.100',
                borderRadius: 1,
                px: 1,
                ...(line.secret.long ? { display: 'block', mt: 0.5, fontSize: 14, py: 0.75, wordBreak: 'break-all' } : { fontSize: 18, py: 0.25 }),
              }}
            >
              {line.value}
            </Box>
          ) : (
            <b>{line.value}</b>
          )}
        </Typography>
      ))}
      <MuiButton size="small" onClick={copy} sx={{ mt: 1 }}>
        {copied ? '已复制' : copyLabel}
      </MuiButton>
    </Box>
  );
}

/**
 * A row action that asks first, then makes a new secret and shows it once. The confirm step can be
 * dismissed; the shown secret closes only with 我已记下, so it is not lost to a stray click.
 * A failed call is reported by the http client and closes the dialog.
 */
export function MakeSecretButton<T>({ label, title, question, confirmLabel, make, show }: {
  label: string;
  title: string;
  question: ReactNode;
  confirmLabel: string;
  make: () => Promise<T>;
  show: (made: T) => ReactNode;
}) {
  const [step, setStep] = useState<{ at: 'confirm' | 'busy' } | { at: 'shown'; made: T }>();
  const close = () => setStep(undefined);
  const run = async () => {
    setStep({ at: 'busy' });
    try {
      setStep({ at: 'shown', made: await make() });
    } catch {
      close();
    }
  };
  return (
    <>
      <Button label={label} onClick={() => setStep({ at: 'confirm' })}>
        <KeyOutlined />
      </Button>
      <Dialog open={!!step} onClose={step?.at === 'shown' ? undefined : close} maxWidth="xs" fullWidth>
        <DialogTitle>{title}</DialogTitle>
        <DialogContent>{step?.at === 'shown' ? show(step.made) : <Typography>{question}</Typography>}</DialogContent>
        <DialogActions>
          {step?.at === 'shown' ? (
            <MuiButton variant="contained" onClick={close}>
              我已记下
            </MuiButton>
          ) : (
            <>
              <MuiButton onClick={close}>取消</MuiButton>
              <MuiButton variant="contained" color="warning" onClick={run} disabled={step?.at === 'busy'}>
                {confirmLabel}
              </MuiButton>
            </>
          )}
        </DialogActions>
      </Dialog>
    </>
  );
}
