// A list below 600 px: one card per record instead of a table that runs off the screen with its
// actions out of sight. The record's own name is the title, the next few columns sit under it with
// their labels, and the row actions are visible buttons.
import type { ReactNode } from 'react';
import { RecordContextProvider, useListContext } from 'react-admin';
import type { RaRecord } from 'ra-core';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { EmptyState } from '../../ui/EmptyState';
import type { FieldConfig, ResourceConfig } from '../types';
import { fieldElement } from './fields';

/** Under the title: at most this many columns; a phone shows what tells records apart. */
const SECONDARY = 4;

/** The columns worth a line under the title: not the ones the title already says. */
function secondaryFields(fields: readonly FieldConfig[], record: RaRecord, title: string): FieldConfig[] {
  const shown = fields.filter((field) => {
    const value = record[field.source];
    return !(typeof value === 'string' || typeof value === 'number') || !title.includes(String(value));
  });
  // Fields marked `card` always come first (a state code such as 4 may well appear in the title's
  // number) and do not count against the few others.
  return [...fields.filter((f) => f.card), ...shown.filter((f) => !f.card).slice(0, SECONDARY)];
}

export function CardList({ config, title, actions }: { config: ResourceConfig; title: (record: RaRecord) => string; actions: ReactNode }) {
  const { data, isPending } = useListContext();
  if (isPending) return <LinearProgress sx={{ m: 2 }} />;
  if (!data?.length) return <EmptyState />;
  const fields = config.fields.filter((field) => field.list !== false);
  return (
    <Box component="ul" aria-label={`${config.label}列表`} sx={{ listStyle: 'none', m: 0, p: 1, display: 'grid', gap: 1 }}>
      {data.map((record) => {
        const name = title(record);
        return (
          <RecordContextProvider key={record.id} value={record}>
            <Paper component="li" variant="outlined" data-testid="record-card" sx={{ p: 1.5, minWidth: 0 }}>
              <Typography sx={{ fontWeight: 600, wordBreak: 'break-all' }}>{name}</Typography>
              <Box component="dl" sx={{ m: 0, mt: 0.75, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 1.5, rowGap: 0.5 }}>
                {secondaryFields(fields, record, name).map((field) => (
                  <Box key={field.source} sx={{ display: 'contents' }}>
                    <Typography component="dt" variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
                      {field.label}
                    </Typography>
                    <Box component="dd" sx={{ m: 0, minWidth: 0, wordBreak: 'break-all', '& .MuiTypography-root': { fontSize: 14 } }}>
                      {fieldElement(field)}
                    </Box>
                  </Box>
                ))}
              </Box>
              {actions && <Box sx={{ mt: 1, display: 'flex', flexWrap: 'wrap', '& > *': { flexWrap: 'wrap', whiteSpace: 'normal' } }}>{actions}</Box>}
            </Paper>
          </RecordContextProvider>
        );
      })}
    </Box>
  );
}
