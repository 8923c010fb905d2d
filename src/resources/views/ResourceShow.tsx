// A record's details: every field of the config, label and value, read-only.
import { ShowBase, SimpleShowLayout } from 'react-admin';
import type { RaRecord } from 'ra-core';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Button from '@mui/material/Button';
import type { ResourceConfig } from '../types';
import { fieldElement } from './fields';

export function ResourceShow({ config, id }: { config: ResourceConfig; id: RaRecord['id'] }) {
  return (
    <ShowBase resource={config.name} id={id}>
      <SimpleShowLayout>
        {config.fields.map(fieldElement)}
      </SimpleShowLayout>
    </ShowBase>
  );
}

export function ShowDialog({ config, id, onClose }: { config: ResourceConfig; id: RaRecord['id'] | undefined; onClose: () => void }) {
  return (
    <Dialog open={id !== undefined} onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{config.label}详情</DialogTitle>
      <DialogContent>{id !== undefined && <ResourceShow config={config} id={id} />}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>关闭</Button>
      </DialogActions>
    </Dialog>
  );
}
