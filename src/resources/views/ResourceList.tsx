// The generic list of a config: filters in the URL, server paging and sort, row and bulk actions,
// pessimistic deletes behind a confirmation, create/edit/show in dialogs, '暂无数据' when empty.
import { createContext, Suspense, useContext, useState, type ReactNode } from 'react';
import {
  BulkDeleteButton,
  Button,
  Datagrid,
  DatagridConfigurable,
  DeleteButton,
  List,
  Pagination,
  SelectColumnsButton,
  TopToolbar,
  usePermissions,
  useRecordContext,
} from 'react-admin';
import type { RaRecord } from 'ra-core';
import Stack from '@mui/material/Stack';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import AddOutlined from '@mui/icons-material/AddOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import type { Permissions } from '../../authProvider';
import { EmptyState } from '../../ui/EmptyState';
import type { ResourceConfig } from '../types';
import { fieldElement, filterElements } from './fields';
import { FormDialog } from './ResourceForm';
import { ShowDialog } from './ResourceShow';
import { columnsKey, ExportButton, ImportButton, TemplateButton } from './Transfer';
import { SavedFiltersButton } from './SavedFilters';
import { useServerColumns } from './ServerColumns';
import { CardList } from './CardList';

type DialogTarget = { mode: 'create' } | { mode: 'edit'; id: RaRecord['id'] } | { mode: 'show'; id: RaRecord['id'] } | undefined;

const Dialogs = createContext<(target: DialogTarget) => void>(() => undefined);

export const PER_PAGE_OPTIONS = [10, 20, 50, 100];

/** Whether the active role may change this resource (readOnlyRoles only read). */
export function useReadOnly(config: ResourceConfig): boolean {
  const { permissions } = usePermissions<Permissions>();
  return !!permissions && !!config.readOnlyRoles?.includes(permissions.activeRole);
}

/** `label` is read by the Datagrid for the column header. */
function RowActions({ config, readOnly }: { config: ResourceConfig; readOnly: boolean; label?: string }) {
  const record = useRecordContext();
  const open = useContext(Dialogs);
  const ops = config.operations ?? {};
  if (!record) return null;
  return (
    <Stack direction="row" spacing={0.5} sx={{ whiteSpace: 'nowrap' }} onClick={(event) => event.stopPropagation()}>
      {ops.show && (
        <Button label="详情" onClick={() => open({ mode: 'show', id: record.id })}>
          <VisibilityOutlined />
        </Button>
      )}
      {!readOnly && ops.edit !== false && (
        <Button label="编辑" onClick={() => open({ mode: 'edit', id: record.id })}>
          <EditOutlined />
        </Button>
      )}
      {!readOnly &&
        (config.rowActions ?? []).map((Action, i) => (
          <Suspense key={i} fallback={null}>
            <Action record={record} />
          </Suspense>
        ))}
      {!readOnly && ops.delete !== false && (
        <DeleteButton
          label="删除"
          mutationMode="pessimistic"
          redirect={false}
          confirmTitle={`删除${config.label}`}
          confirmContent={`确定要删除${config.label}“${representation(config, record)}”吗？此操作不可恢复。`}
          mutationOptions={{ onError: () => undefined }}
        />
      )}
    </Stack>
  );
}

export function representation(config: ResourceConfig, record: RaRecord): string {
  const r = config.recordRepresentation;
  return typeof r === 'function' ? r(record) : String(record[r] ?? record.id);
}

function ListActions({ config, readOnly }: { config: ResourceConfig; readOnly: boolean }) {
  const open = useContext(Dialogs);
  return (
    <TopToolbar sx={{ alignItems: 'center', minHeight: 'auto', pt: 1.5 }}>
      {!readOnly && config.operations?.create !== false && (
        <Button label={`新增${config.label}`} onClick={() => open({ mode: 'create' })} variant="contained">
          <AddOutlined />
        </Button>
      )}
      {!readOnly && <TemplateButton config={config} />}
      {!readOnly && <ImportButton config={config} />}
      {config.savedFilters && <SavedFiltersButton config={config} />}
      {config.transfer?.export?.columns && <SelectColumnsButton preferenceKey={columnsKey(config)} />}
      <ExportButton config={config} />
      {(config.toolbarActions ?? []).map((Action, i) => (
        <Suspense key={i} fallback={null}>
          <Action />
        </Suspense>
      ))}
    </TopToolbar>
  );
}

function BulkActions({ config }: { config: ResourceConfig }) {
  return (
    <>
      {(config.bulkActions ?? []).map((Action, i) => (
        <Suspense key={i} fallback={null}>
          <Action />
        </Suspense>
      ))}
      {config.operations?.bulkDelete !== false && (
        <BulkDeleteButton
          label="批量删除"
          mutationMode="pessimistic"
          // react-admin's default names the resource by its key ('students'); say it in Chinese.
          confirmTitle={`批量删除${config.label}`}
          confirmContent={`确定要删除选中的 %{smart_count} 个${config.label}吗？此操作不可恢复。`}
          mutationOptions={{ onError: () => undefined }}
        />
      )}
    </>
  );
}

export function ResourceList({
  config,
  readOnly: forcedReadOnly,
  filter,
  hideFilters,
  aside,
}: {
  config: ResourceConfig;
  readOnly?: boolean;
  /** Fixed filters the user does not see (e.g. the class picked in the header). */
  filter?: Record<string, unknown>;
  hideFilters?: boolean;
  aside?: ReactNode;
}) {
  const roleReadOnly = useReadOnly(config);
  const { permissions } = usePermissions<Permissions>();
  const readOnly = forcedReadOnly ?? roleReadOnly;
  const [target, setTarget] = useState<DialogTarget>();
  const close = () => setTarget(undefined);
  const ops = config.operations ?? {};
  const hasRowActions = !!ops.show || (!readOnly && (ops.edit !== false || ops.delete !== false || !!config.rowActions?.length));
  const hasBulkActions = !readOnly && (ops.bulkDelete !== false || !!config.bulkActions?.length);
  // A list whose export follows the visible columns lets the user choose them.
  const Grid = config.transfer?.export?.columns ? DatagridConfigurable : Datagrid;
  // Below 600 px a table would run off the screen with its actions hidden: cards instead. Decided
  // when the list opens: switching while a row action's dialog is open (a phone turned sideways)
  // would unmount the dialog, and with it a password shown only once.
  const phoneNow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const [phone] = useState(phoneNow);
  // The column choice survives signing out: kept on the server with the saved filters.
  useServerColumns(config, !!config.transfer?.export?.columns && !!config.savedFilters);
  return (
    <Dialogs.Provider value={setTarget}>
      <List
        resource={config.name}
        title={false as never}
        filters={hideFilters ? undefined : filterElements(config.filters, permissions?.activeRole)}
        filter={filter}
        sort={config.sort}
        perPage={config.perPage ?? 20}
        actions={<ListActions config={config} readOnly={readOnly} />}
        pagination={<Pagination rowsPerPageOptions={PER_PAGE_OPTIONS} />}
        exporter={false}
        empty={false}
        aside={aside as never}
        sx={{
          '& .RaList-main': { minWidth: 0 },
          '& .RaList-content': { boxShadow: 'none', border: 1, borderColor: 'divider', overflowX: 'auto' },
          // react-admin lifts the bulk-action bar 48 px above the table, over the list toolbar; inside
          // the scrolling content box that lift is clipped and the bar cannot be clicked. In flow it
          // sits on top of the table, in reach, at every width.
          '& .RaDatagrid-root .RaBulkActionsToolbar-toolbar': { position: 'static', transform: 'none' },
          // On a phone the table scrolls sideways: the open bar stays in view at the left and wraps
          // its buttons instead of running off with the table (the 90 px rail and the page's and card's padding).
          '@media (max-width: 599.95px)': {
            '& .RaDatagrid-root .RaBulkActionsToolbar-toolbar:not(.RaBulkActionsToolbar-collapsed)': {
              position: 'sticky',
              left: 0,
              width: 'calc(100vw - 165px)',
              flexWrap: 'wrap',
              height: 'auto',
              py: 0.5,
            },
          },
        }}
      >
        {phone ? (
          <CardList config={config} title={(record) => representation(config, record)} actions={hasRowActions ? <RowActions config={config} readOnly={readOnly} /> : null} />
        ) : (
          <Grid
            {...(config.transfer?.export?.columns ? { preferenceKey: columnsKey(config) } : {})}
            rowClick={false}
            bulkActionButtons={hasBulkActions ? <BulkActions config={config} /> : false}
            empty={<EmptyState />}
            sx={{ '& .RaDatagrid-headerCell': { fontWeight: 600, whiteSpace: 'nowrap', bgcolor: 'grey.50' } }}
          >
            {config.fields.filter((field) => field.list !== false).map(fieldElement)}
            {hasRowActions && <RowActions config={config} readOnly={readOnly} label="操作" />}
          </Grid>
        )}
      </List>
      <FormDialog config={config} target={target?.mode === 'show' ? undefined : target} onClose={close} />
      <ShowDialog config={config} id={target?.mode === 'show' ? target.id : undefined} onClose={close} />
    </Dialogs.Provider>
  );
}
