// Per-service adapters: each maps react-admin's CRUD calls onto one resource's endpoints (SPEC §7).
// Later issues register resources (classes, students, teachers, ...) with `pagedResource`, or with
// a hand-written adapter where an endpoint does not follow the paging convention.
import { HttpError, type DataProvider, type fetchUtils, type GetListParams, type RaRecord } from 'ra-core';
import simpleRestProvider from 'ra-data-simple-rest';
import type { Envelope, Page } from '../domain/envelope';
import type { HttpClient, Query } from './http';

export type { Page };

type Method = 'getList' | 'getOne' | 'getMany' | 'getManyReference' | 'create' | 'update' | 'updateMany' | 'delete' | 'deleteMany';
/** The subset of DataProvider methods a resource supports; the rest answer with a Chinese 405. */
export type ResourceAdapter = Partial<Pick<DataProvider, Method>>;

/** `success:false` in a 200 envelope is a refusal too; forms read `body.errors`. */
export function unwrap<T>(envelope: Envelope<T>): T {
  if (!envelope.success) {
    const data = envelope.data as { errors?: Record<string, string> } | null;
    throw new HttpError(envelope.msg || '服务异常', envelope.code === 200 ? 400 : envelope.code, { errors: data?.errors ?? {} });
  }
  return envelope.data;
}

/** Filter values a list form leaves behind when a field is cleared mean "no filter", not "equals ''". */
function presentFilters(filter: Record<string, unknown> | undefined): Query {
  const query: Query = {};
  for (const [key, value] of Object.entries(filter ?? {})) {
    if (value === '' || value === undefined || value === null) continue;
    query[key] = value as Query[string];
  }
  return query;
}

/** react-admin list params → the backend's query: 1-based `current`, `size`, filters flat, one sort field. */
export function pageQuery(params: Pick<GetListParams, 'pagination' | 'sort' | 'filter'>, sortParam = 'orderBy'): Query {
  const query: Query = presentFilters(params.filter);
  if (params.pagination) {
    query.current = params.pagination.page;
    query.size = params.pagination.perPage;
  }
  if (params.sort?.field && params.sort.field !== 'id') {
    query[sortParam] = params.sort.field;
    query.order = params.sort.order === 'DESC' ? 'desc' : 'asc';
  }
  return query;
}

export interface PagedResourceConfig {
  /** GET, paged (e.g. /api/vesta/student/page). */
  list: string;
  /** GET one record, with `{[idField]: id}` as query. */
  one?: string;
  /** POST the record. */
  create?: string;
  /** POST the record, id field included. */
  update?: string;
  /** POST `{[idField]: id}`. */
  remove?: string;
  /** The backend's key for the record id, e.g. studentId; react-admin always sees `id`. */
  idField?: string;
  /** The query parameter naming the sort field (`orderBy` unless the service says otherwise, e.g. `sort`). */
  sortParam?: string;
  /** Bulk delete in one call, all or nothing: POST `{[removeManyField]: ids}` to `remove`. */
  removeManyField?: string;
  /** The fields create and update send (list-only fields such as className stay behind); all when absent. */
  writable?: readonly string[];
}

/** An adapter for a resource whose endpoints follow the paging and POST conventions. */
export function pagedResource(http: HttpClient, config: PagedResourceConfig): ResourceAdapter {
  const idField = config.idField ?? 'id';
  const toRecord = (row: Record<string, unknown>): RaRecord => ({ ...row, id: row[idField] ?? row.id } as RaRecord);
  const toBackend = (record: Partial<RaRecord>) => {
    const { id, ...rest } = record;
    const sent = config.writable ? Object.fromEntries(Object.entries(rest).filter(([key]) => config.writable!.includes(key))) : rest;
    return id === undefined ? sent : { ...sent, [idField]: id };
  };
  // Without a read-one endpoint (students, teachers), a record is read from the pages already
  // listed: edit forms open from a list row, so the row is always there.
  const listed = new Map<string, RaRecord>();
  const remember = (records: RaRecord[]) => {
    for (const record of records) listed.set(String(record.id), record);
    return records;
  };
  const need = (url: string | undefined, action: string): string => {
    if (!url) throw new HttpError(`不支持${action}`, 405, {});
    return url;
  };
  const getOne = async (id: RaRecord['id']): Promise<RaRecord> => {
    if (!config.one) {
      const record = listed.get(String(id));
      if (!record) throw new HttpError('记录不存在或已被删除', 404, {});
      return record;
    }
    return toRecord(unwrap(await http.request<Record<string, unknown>>(config.one, { query: { [idField]: id } })));
  };
  const sortParam = config.sortParam ?? 'orderBy';

  const adapter: ResourceAdapter = {
    async getList(_resource, params) {
      const page = unwrap(await http.request<Page<Record<string, unknown>>>(config.list, { query: pageQuery(params, sortParam) }));
      return { data: remember((page?.records ?? []).map(toRecord)) as never[], total: page?.total ?? 0 };
    },
    async getManyReference(_resource, params) {
      const query = pageQuery({ ...params, filter: { ...params.filter, [params.target]: params.id } }, sortParam);
      const page = unwrap(await http.request<Page<Record<string, unknown>>>(config.list, { query }));
      return { data: remember((page?.records ?? []).map(toRecord)) as never[], total: page?.total ?? 0 };
    },
    async getOne(_resource, params) {
      return { data: (await getOne(params.id)) as never };
    },
    async getMany(_resource, params) {
      return { data: (await Promise.all(params.ids.map(getOne))) as never[] };
    },
    async create(_resource, params) {
      const saved = unwrap(await http.request<Record<string, unknown> | null>(need(config.create, '新增'), { method: 'POST', body: toBackend(params.data) }));
      return { data: toRecord({ ...params.data, ...(saved ?? {}) }) as never };
    },
    async update(_resource, params) {
      const body = toBackend({ ...params.data, id: params.id });
      const saved = unwrap(await http.request<Record<string, unknown> | null>(need(config.update, '修改'), { method: 'POST', body }));
      // The reply carries ids only; what the list shows (className…) comes from the record before, refreshed on refetch.
      const record = toRecord({ ...(params.previousData ?? {}), ...params.data, ...body, ...(saved ?? {}) });
      listed.set(String(record.id), record);
      return { data: record as never };
    },
    async delete(_resource, params) {
      unwrap(await http.request(need(config.remove, '删除'), { method: 'POST', body: { [idField]: params.id } }));
      listed.delete(String(params.id));
      return { data: (params.previousData ?? { id: params.id }) as never };
    },
    async deleteMany(_resource, params) {
      if (config.removeManyField) {
        unwrap(await http.request(need(config.remove, '删除'), { method: 'POST', body: { [config.removeManyField]: params.ids } }));
        return { data: params.ids };
      }
      for (const id of params.ids) unwrap(await http.request(need(config.remove, '删除'), { method: 'POST', body: { [idField]: id } }));
      return { data: params.ids };
    },
  };
  return adapter;
}

export interface ListResourceConfig extends Omit<PagedResourceConfig, 'sortParam'> {
  /** Turns the endpoint's `data` into rows (default: `data` is the array). */
  rows?: (data: unknown) => Record<string, unknown>[];
  /** Fixed query of the list call. */
  query?: Query;
}

/**
 * A resource whose list endpoint answers the whole (small) list at once: a grade or class list.
 * Filtering (equality; `keyword` contains), sorting and paging happen here, so react-admin sees
 * the same contract as for a paged endpoint. Writes follow the POST conventions of pagedResource.
 */
export function listResource(http: HttpClient, config: ListResourceConfig): ResourceAdapter {
  const base = pagedResource(http, config);
  const idField = config.idField ?? 'id';
  const load = async (): Promise<RaRecord[]> => {
    const data = unwrap(await http.request<unknown>(config.list, { query: config.query }));
    const rows = config.rows ? config.rows(data) : Array.isArray(data) ? (data as Record<string, unknown>[]) : [];
    return rows.map((row) => ({ ...row, id: row[idField] ?? row.id }) as RaRecord);
  };
  const select = (records: RaRecord[], params: Pick<GetListParams, 'pagination' | 'sort' | 'filter'>) => {
    let out = records;
    for (const [key, value] of Object.entries(params.filter ?? {})) {
      if (value === '' || value === undefined) continue;
      if (key === 'keyword' || key === 'q') {
        const needle = String(value);
        out = out.filter((r) => Object.values(r).some((v) => typeof v === 'string' && v.includes(needle)));
      } else {
        // null means "has no value" (e.g. graduatedYear: null = not graduated).
        out = out.filter((r) => String(r[key] ?? '') === String(value ?? ''));
      }
    }
    const { field, order } = params.sort ?? { field: '', order: 'ASC' };
    if (field && field !== 'id') {
      const sign = order === 'DESC' ? -1 : 1;
      out = [...out].sort((a, b) => sign * String(a[field] ?? '').localeCompare(String(b[field] ?? ''), 'zh-CN', { numeric: true }));
    }
    const total = out.length;
    if (params.pagination) {
      const { page, perPage } = params.pagination;
      out = out.slice((page - 1) * perPage, page * perPage);
    }
    return { data: out as never[], total };
  };
  return {
    ...base,
    async getList(_resource, params) {
      return select(await load(), params);
    },
    async getManyReference(_resource, params) {
      return select(await load(), { ...params, filter: { ...params.filter, [params.target]: params.id } });
    },
    async getMany(_resource, params) {
      const wanted = new Set(params.ids.map(String));
      return { data: (await load()).filter((r) => wanted.has(String(r.id))) as never[] };
    },
    ...(config.one ? {} : {
      async getOne(_resource: string, params: { id: RaRecord['id'] }) {
        const record = (await load()).find((r) => String(r.id) === String(params.id));
        if (!record) throw new HttpError('记录不存在或已被删除', 404, {});
        return { data: record as never };
      },
    }),
  };
}

export interface RestResourceConfig {
  /** Where the resources live: `${apiUrl}/${resource}` (default /api). */
  apiUrl?: string;
  /** The fields create and update send; the server refuses others (id, createdAt). */
  writable?: readonly string[];
}

/** The simple REST dialect's list query (sort, filter) for an export of what the list shows. */
export function restQuery(params: Pick<GetListParams, 'sort' | 'filter'>): Query {
  return {
    ...(params.sort?.field ? { sort: JSON.stringify([params.sort.field, params.sort.order]) } : {}),
    filter: JSON.stringify(presentFilters(params.filter)),
  };
}

/**
 * A resource in react-admin's simple REST dialect (a declared CRUD resource on the server,
 * server/modules/crud): ra-data-simple-rest builds the calls, our http client sends them (session,
 * role, timeout, toasts) and unwraps the envelope; the list's total comes from Content-Range.
 */
export function restResource(http: HttpClient, config: RestResourceConfig = {}): ResourceAdapter {
  const httpClient = async (url: string, options: fetchUtils.Options = {}) => {
    const body = typeof options.body === 'string' ? (JSON.parse(options.body) as unknown) : undefined;
    const method = (options.method ?? 'GET') as 'GET' | 'POST' | 'PUT' | 'DELETE';
    const { status, headers, envelope } = await http.exchange<unknown>(url, { method, body });
    const json = unwrap(envelope);
    return { status, headers, body: JSON.stringify(json), json };
  };
  const rest = simpleRestProvider(config.apiUrl ?? '/api', httpClient);
  const writable = <T extends Partial<RaRecord>>(data: T) =>
    config.writable ? Object.fromEntries(Object.entries(data).filter(([key]) => config.writable!.includes(key))) : data;
  return {
    getList: (resource, params) => rest.getList(resource, { ...params, filter: presentFilters(params.filter) }),
    getManyReference: (resource, params) => rest.getManyReference(resource, { ...params, filter: presentFilters(params.filter) }),
    getOne: rest.getOne,
    getMany: rest.getMany,
    create: (resource, params) => rest.create(resource, { ...params, data: writable(params.data) }),
    update: (resource, params) => rest.update(resource, { ...params, data: writable(params.data) }),
    delete: rest.delete,
    deleteMany: rest.deleteMany,
  };
}
