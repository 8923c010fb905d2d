// The typed config a resource is written in. Generic views switch on `type` (as react-admin's
// ra-no-code builders do), so a new resource is data, not a page.
import type { ComponentType, ReactNode } from 'react';
import type { RaRecord } from 'ra-core';
import type { HttpClient } from '../dataProvider/http';
import type { ListResourceConfig, PagedResourceConfig, ResourceAdapter, RestResourceConfig } from '../dataProvider/adapters';
import type { Role } from '../domain/roles';
import type { Option } from '../domain/semester';

interface FieldBase {
  /** The record key; also the backend's field name. */
  source: string;
  /** What users read: column header, form label, filter label. */
  label: string;
  required?: boolean;
  /** Shown as a list column (default true). */
  list?: boolean;
  /** Column sortable on the server (default false: the server sorts only by its listed fields). */
  sortable?: boolean;
  /** In the create/edit form (default true); 'create' for fields only set once. */
  form?: boolean | 'create';
  helperText?: string;
  /** Column width hint, so long Chinese names wrap instead of pushing the table wide. */
  width?: number;
  /** List column kept on one line (a time, a role): short values read badly broken in two. */
  nowrap?: boolean;
  /** Narrowest the list column gets, in px: on a phone the table scrolls sideways instead of breaking long text a character per line. */
  minWidth?: number;
  /** Always on the phone's card (before the first few columns), for a state the user acts on. */
  card?: boolean;
}

export type FieldConfig =
  | (FieldBase & { type: 'text'; maxLength?: number; pattern?: { regex: RegExp; message: string } })
  | (FieldBase & { type: 'number'; min?: number; max?: number })
  | (FieldBase & { type: 'select'; choices: readonly Option<number | string>[] })
  | (FieldBase & {
      type: 'reference';
      reference: string;
      /** Which field of the listed record to show (the record carries the name, e.g. className). */
      display: string;
      /** The referenced record's label in pickers. */
      optionText: string;
      /** Narrows the picker by another form value, e.g. classes of the chosen grade. */
      dependsOn?: { source: string; filter: string };
      /** Fixed filter of the picker (e.g. grades that have not graduated). */
      filter?: Record<string, unknown>;
    })
  | (FieldBase & { type: 'date' })
  | (FieldBase & { type: 'phone' })
  | (FieldBase & { type: 'boolean' })
  | (FieldBase & { type: 'fileSize' })
  /** Read-only text computed from the record (e.g. a teacher's classes), list and show only. */
  | (FieldBase & { type: 'computed'; render: (record: RaRecord) => string })
  /** A state shown as a small coloured label (online, low paper…), list and show only. */
  | (FieldBase & { type: 'status'; status: (record: RaRecord) => { label: string; tone: StatusTone } });

export type StatusTone = 'success' | 'warning' | 'error' | 'default';

export type FieldType = FieldConfig['type'];

interface FilterBase {
  source: string;
  label: string;
  /** Only these roles get the filter (its picker may read an endpoint other roles may not call). */
  roles?: readonly Role[];
}

export type FilterConfig =
  | (FilterBase & { type: 'search'; placeholder?: string })
  | (FilterBase & { type: 'select'; choices: readonly Option<number | string>[] })
  /** A day (YYYY-MM-DD); two of them make a date range (e.g. dateFrom, dateTo). */
  | (FilterBase & { type: 'date' })
  | (FilterBase & {
      type: 'reference';
      reference: string;
      optionText: string;
      /** Filters this one by another filter's value; changing that one clears this one. */
      dependsOn?: { source: string; filter: string };
      /** Extra fixed filter for the picker's list (e.g. current grades only). */
      filter?: Record<string, unknown>;
    });

/** How react-admin's calls reach the server: the paging convention, or a hand-written adapter. */
export type EndpointConfig =
  | ({ kind: 'paged' } & PagedResourceConfig)
  /** The endpoint answers the whole list at once; filtered, sorted and paged in the browser. */
  | ({ kind: 'list' } & ListResourceConfig)
  /** A declared CRUD resource (server/modules/crud): react-admin's simple REST dialect, through ra-data-simple-rest. */
  | ({ kind: 'rest' } & RestResourceConfig)
  | { kind: 'custom'; adapter: (http: HttpClient) => ResourceAdapter };

export interface TransferConfig {
  /** GET an .xlsx template (SPEC §7 imports). */
  template?: { url: string; fileName: string };
  /** POST one .xlsx (multipart); 422 answers with the workbook marked up. */
  /** `askUpdate`: before the file is chosen, ask 是否更新已经存在的数据 (rows matching an existing record) and send the answer as `update`. */
  import?: { url: string; askUpdate?: boolean };
  /**
   * GET an .xlsx of every row of the current filters (SPEC §5 download helper, ext xlsx), made by
   * the server, so it is not cut at a page. `columns`: the list lets the user choose its columns,
   * and the export carries the visible ones, in order, as `fields=a,b,c`.
   */
  export?: { url: string; name: string; columns?: boolean };
}

export interface RowActionProps {
  record: RaRecord;
}

export interface ResourceConfig {
  /** react-admin resource name. */
  name: string;
  /** Singular, for titles: 新增{label}, 编辑{label}, 删除{label}. */
  label: string;
  endpoints: EndpointConfig;
  fields: readonly FieldConfig[];
  filters?: readonly FilterConfig[];
  sort?: { field: string; order: 'ASC' | 'DESC' };
  perPage?: number;
  /** What a record is called in confirmations and pickers. */
  recordRepresentation: string | ((record: RaRecord) => string);
  /** Which operations the screen offers. Read-only roles see none. */
  operations?: { create?: boolean; edit?: boolean; delete?: boolean; bulkDelete?: boolean; show?: boolean };
  /** Roles that may only read (e.g. a teacher on the student list of their own classes). */
  readOnlyRoles?: readonly Role[];
  transfer?: TransferConfig;
  /** Extra buttons per row and over a selection, where config is not enough. */
  rowActions?: readonly ComponentType<RowActionProps>[];
  bulkActions?: readonly ComponentType[];
  /** Extra buttons beside 新增/导入/导出 (e.g. an upload). */
  toolbarActions?: readonly ComponentType[];
  /** Shown once after a create, with the saved record (e.g. a one-time password). */
  afterCreate?: ComponentType<{ record: RaRecord; onClose: () => void }>;
  /** A whole custom list where the generic table cannot express the screen (class tree, file library). */
  listView?: ComponentType<{ config: ResourceConfig; readOnly: boolean }>;
  /** 常用筛选: the user's named filters of this list, kept on the server. */
  savedFilters?: boolean;
  /** A short hint under the title. */
  description?: ReactNode;
}
