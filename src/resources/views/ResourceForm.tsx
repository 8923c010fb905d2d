// Create and edit forms of a config, in a dialog over the list (the list keeps its filters and
// page). Saves are pessimistic: the dialog closes when the server has written the record.
import { Suspense, useState } from 'react';
import {
  CreateBase,
  EditBase,
  SaveButton,
  SimpleForm,
  Toolbar,
  useNotify,
  useRecordContext,
} from 'react-admin';
import type { RaRecord } from 'ra-core';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogTitle from '@mui/material/DialogTitle';
import CircularProgress from '@mui/material/CircularProgress';
import Box from '@mui/material/Box';
import type { FieldConfig, ResourceConfig } from '../types';
import { inputElement } from './fields';

/** Cleared optional fields are sent as null (the server's "remove this value"), never as ''. */
export function formToRecord(fields: readonly FieldConfig[], data: Record<string, unknown>, mode: 'create' | 'edit'): Record<string, unknown> {
  const out: Record<string, unknown> = { ...data };
  for (const field of fields) {
    const value = out[field.source];
    if (value === '' || value === undefined) {
      if (mode === 'create') delete out[field.source];
      else if (field.form !== false && field.form !== 'create') out[field.source] = null;
    } else if (typeof value === 'string' && (field.type === 'text' || field.type === 'phone')) {
      out[field.source] = value.trim();
    }
  }
  return out;
}

function FormToolbar({ onCancel }: { onCancel?: () => void }) {
  return (
    <Toolbar sx={{ gap: 1, justifyContent: 'flex-end' }}>
      {onCancel && <Button onClick={onCancel}>取消</Button>}
      <SaveButton label="保存" alwaysEnable={false} />
    </Toolbar>
  );
}

function Inputs({ config, mode }: { config: ResourceConfig; mode: 'create' | 'edit' }) {
  return <>{config.fields.map((field) => inputElement(field, mode))}</>;
}

// The http client already showed the server's reason; react-admin would show it a second time.
const quiet = () => undefined;

export function ResourceCreate({ config, onDone, defaults }: { config: ResourceConfig; onDone?: () => void; defaults?: Record<string, unknown> }) {
  const notify = useNotify();
  const [created, setCreated] = useState<RaRecord>();
  const After = config.afterCreate;
  if (created && After)
    return (
      <Suspense fallback={null}>
        <After record={created} onClose={() => onDone?.()} />
      </Suspense>
    );
  return (
    <CreateBase
      resource={config.name}
      redirect={false}
      transform={(data: Record<string, unknown>) => formToRecord(config.fields, data, 'create')}
      mutationOptions={{
        onSuccess: (record: RaRecord) => {
          notify(`已新增${config.label}`, { type: 'success' });
          if (After) setCreated(record);
          else onDone?.();
        },
        onError: quiet,
      }}
    >
      <SimpleForm defaultValues={defaults} toolbar={<FormToolbar onCancel={onDone} />} sx={{ minWidth: { sm: 420 } }}>
        <Inputs config={config} mode="create" />
      </SimpleForm>
    </CreateBase>
  );
}

function Loaded({ children }: { children: React.ReactNode }) {
  const record = useRecordContext();
  if (!record)
    return (
      <Box sx={{ p: 4, display: 'grid', placeItems: 'center' }}>
        <CircularProgress size={28} />
      </Box>
    );
  return <>{children}</>;
}

export function ResourceEdit({ config, id, onDone }: { config: ResourceConfig; id: RaRecord['id']; onDone?: () => void }) {
  const notify = useNotify();
  return (
    <EditBase
      resource={config.name}
      id={id}
      redirect={false}
      mutationMode="pessimistic"
      transform={(data: Record<string, unknown>) => formToRecord(config.fields, data, 'edit')}
      mutationOptions={{
        onSuccess: () => {
          notify(`已保存${config.label}`, { type: 'success' });
          onDone?.();
        },
        onError: quiet,
      }}
    >
      <Loaded>
        <SimpleForm toolbar={<FormToolbar onCancel={onDone} />} sx={{ minWidth: { sm: 420 } }}>
          <Inputs config={config} mode="edit" />
        </SimpleForm>
      </Loaded>
    </EditBase>
  );
}

/** A create or edit form in a dialog; `target` undefined closes it. */
export function FormDialog({
  config,
  target,
  onClose,
  defaults,
}: {
  config: ResourceConfig;
  target: { mode: 'create' } | { mode: 'edit'; id: RaRecord['id'] } | undefined;
  onClose: () => void;
  defaults?: Record<string, unknown>;
}) {
  return (
    <Dialog open={!!target} onClose={onClose} maxWidth="sm">
      <DialogTitle>{target?.mode === 'edit' ? `编辑${config.label}` : `新增${config.label}`}</DialogTitle>
      {target?.mode === 'edit' && <ResourceEdit config={config} id={target.id} onDone={onClose} />}
      {target?.mode === 'create' && <ResourceCreate config={config} onDone={onClose} defaults={defaults} />}
    </Dialog>
  );
}
