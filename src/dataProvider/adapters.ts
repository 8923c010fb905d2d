// Per-service adapters: each maps react-admin's CRUD calls onto one resource's endpoints (SPEC §7).
// Later issues register resources (classes, students, teachers, ...) with `pagedResource`, or with
// a hand-written adapter where an endpoint does not follow the paging convention.
import { HttpError, type DataProvider, type GetListParams, type RaRecord } from 'ra-core';
import type { Envelope, HttpClient, Query } from './http';

/** The backend family's paging (DESIGN.md): `current,size` in, this out. */
export interface Page<T> {
  records: T[];
  total: number;
  current: number;
  size: number;
  pages: number;
}

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

/** react-admin list params → the backend's query: 1-based `current`, `size`, filters flat, one sort field. */
export function pageQuery(params: Pick<GetListParams, 'pagination' | 'sort' | 'filter'>): Query {
  const query: Query = { ...(params.filter ?? {}) };
  if (params.pagination) {
    query.current = params.pagination.page;
    query.size = params.pagination.perPage;
  }
  if (params.sort?.field && params.sort.field !== 'id') {
    query.orderBy = params.sort.field;
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
}

/** An adapter for a resource whose endpoints follow the paging and POST conventions. */
export function pagedResource(http: HttpClient, config: PagedResourceConfig): ResourceAdapter {
  const idField = config.idField ?? 'id';
  const toRecord = (row: Record<string, unknown>): RaRecord => ({ ...row, id: row[idField] ?? row.id } as RaRecord);
  const toBackend = (record: Partial<RaRecord>) => {
    const { id, ...rest } = record;
    return id === undefined ? rest : { ...rest, [idField]: id };
  };
  const need = (url: string | undefined, action: string): string => {
    if (!url) throw new HttpError(`不支持${action}`, 405, {});
    return url;
  };
  const getOne = async (id: RaRecord['id']) =>
    toRecord(unwrap(await http.request<Record<string, unknown>>(need(config.one, '查看'), { query: { [idField]: id } })));

  const adapter: ResourceAdapter = {
    async getList(_resource, params) {
      const page = unwrap(await http.request<Page<Record<string, unknown>>>(config.list, { query: pageQuery(params) }));
      return { data: (page?.records ?? []).map(toRecord) as never[], total: page?.total ?? 0 };
    },
    async getManyReference(_resource, params) {
      const query = pageQuery({ ...params, filter: { ...params.filter, [params.target]: params.id } });
      const page = unwrap(await http.request<Page<Record<string, unknown>>>(config.list, { query }));
      return { data: (page?.records ?? []).map(toRecord) as never[], total: page?.total ?? 0 };
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
      return { data: toRecord({ ...body, ...(saved ?? {}) }) as never };
    },
    async delete(_resource, params) {
      unwrap(await http.request(need(config.remove, '删除'), { method: 'POST', body: { [idField]: params.id } }));
      return { data: (params.previousData ?? { id: params.id }) as never };
    },
    async deleteMany(_resource, params) {
      for (const id of params.ids) unwrap(await http.request(need(config.remove, '删除'), { method: 'POST', body: { [idField]: id } }));
      return { data: params.ids };
    },
  };
  return adapter;
}
