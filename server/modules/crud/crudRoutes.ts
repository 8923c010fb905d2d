// A declared CRUD resource: one declaration (table, scope, roles, the record's TypeBox input from
// src/domain, sortable and filterable fields) gives the routes of react-admin's simple REST dialect
// (docs/adding-a-resource.md), with the checks the hand-written routes have: the role from the
// principal, every id held to the caller's tenant AND school (another school's id is a 404),
// bounded ids, paging and text, and Chinese messages naming fields by the declaration's labels.
//
//   GET    /api/<name>?sort=["name","ASC"]&range=[0,24]&filter={"q":"…"}   Content-Range: <name> 0-24/319
//   GET    /api/<name>/export?sort=…&filter=…                               xlsx of every matching row
//   GET    /api/<name>/:id      POST /api/<name>      PUT /api/<name>/:id      DELETE /api/<name>/:id
import { and, asc, count, desc, eq, getTableColumns, ilike, inArray, isNull, ne, or, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type TObject, type TSchema } from 'typebox';
import type { Role } from '../../../src/domain/roles';
import { dateTimeSeconds, exportFileName, fileStamp } from '../../../src/domain/format';
import { allow } from '../../auth/plugin';
import type { Db } from '../../db';
import { isUniqueViolation } from '../../db/errors';
import { streamWorkbook } from '../../files/xlsx';
import { sendWorkbook } from '../../http/download';
import { schoolZone } from '../../http/schoolZone';
import { badRequest, conflict, notFound, ok, validationMessage } from '../../http/envelope';
import { inputProblem } from '../../http/input';
import { MAX_PAGE, MAX_PAGE_SIZE } from '../../http/paging';
import { EnvelopeSchema } from '../../../src/domain/envelope';
import { Id } from '../../http/schemas';
import { schoolOf, type SchoolRef } from '../vesta/access';
import type { AuditKind } from '../../../src/domain/auditFields';
import { recordAudit } from '../audit/record';

export interface CrudResource {
  /** The path segment (/api/<name>) and the react-admin resource name. */
  name: string;
  /** What one record is called: 教室不存在, the export 教室列表. */
  label: string;
  /** The Drizzle table; it has an `id` column, and `createdAt` is listed when it has one. */
  table: PgTable;
  /** The columns holding the tenant and the school: every query is held to the caller's. */
  scope: { tenant: PgColumn; school: PgColumn };
  roles: { read: readonly Role[]; write: readonly Role[] };
  /** The fields add and update write (src/domain), each with its Chinese name as `title`. */
  input: TObject;
  /** Fields the list sorts by (`id` always), and the default order. */
  sortable: readonly string[];
  sort: readonly [field: string, order: 'ASC' | 'DESC'];
  /** Fields `filter` matches exactly; `filter.q` searches the `search` fields (contains). */
  filterable: readonly string[];
  search: readonly string[];
  /** Fields unique within a school: a second one is a Chinese 409. */
  unique?: readonly string[];
  /** 操作日志: the kind every add, update and delete is logged as, and the field that names a record (新增教室 物理实验室). */
  audit: { kind: AuditKind; name: string };
}

/** Most rows one export writes: beyond it the user narrows the filters (one school's list is far smaller). */
const EXPORT_MAX_ROWS = 50_000;

/** Longest text of `filter.q`, and of the JSON parameters. */
const SEARCH_MAX_LENGTH = 50;
const PARAM_LABELS = { id: '编号', createdAt: '创建时间', sort: '排序', range: '分页范围', filter: '筛选条件', q: '关键字' };

/** The Chinese names of a resource's fields: its input's titles, then the dialect's parameters. */
export function crudLabels(resource: CrudResource): Record<string, string> {
  const titles = Object.entries(resource.input.properties).map(([key, schema]) => [key, String((schema as { title?: string }).title ?? key)]);
  return { ...PARAM_LABELS, ...Object.fromEntries(titles) };
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A JSON parameter; `fallback` when it is not sent (an explicit `null` is no fallback). */
function parseJson(text: string | undefined, label: string, fallback: unknown): unknown {
  if (text === undefined) return fallback;
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest(`${label}格式不正确`);
  }
}

export function crudRoutes(untyped: FastifyInstance, resource: CrudResource): void {
  // Requests typed from the route schemas below, as in every service module.
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const db: Db = app.db;
  const { name, label, table, scope } = resource;
  const base = `/api/${name}`;
  const labels = crudLabels(resource);
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const fields = Object.keys(resource.input.properties);
  const required = new Set(resource.input.required ?? []);
  const listed = ['id', ...fields, ...('createdAt' in columns ? ['createdAt'] : [])];
  const selection = Object.fromEntries(listed.map((key) => [key, columns[key]]));
  const sortable = new Set(['id', ...resource.sortable]);
  const tenantKey = keyOf(columns, scope.tenant);
  const schoolKey = keyOf(columns, scope.school);
  const read = { preHandler: allow({ roles: [...resource.roles.read] }), config: { fieldLabels: labels } };
  const write = { preHandler: allow({ roles: [...resource.roles.write] }), config: { fieldLabels: labels } };

  const ListQuery = Type.Object(
    {
      sort: Type.Optional(Type.String({ maxLength: 100 })),
      range: Type.Optional(Type.String({ maxLength: 100 })),
      filter: Type.Optional(Type.String({ maxLength: 2000 })),
    },
    { additionalProperties: false },
  );
  const ExportQuery = Type.Object({ sort: ListQuery.properties.sort, filter: ListQuery.properties.filter }, { additionalProperties: false });
  const IdParams = Type.Object({ id: Id });
  // The record a reply carries, built from the declaration: Fastify serialises by it and sends
  // nothing the declaration does not name.
  const RecordSchema: TObject = Type.Object({
    id: Type.Integer(),
    ...resource.input.properties,
    ...('createdAt' in columns ? { createdAt: Type.String({ format: 'date-time' }) } : {}),
  });
  const one = { 200: EnvelopeSchema(RecordSchema) };
  const Filter = Type.Object(
    {
      q: Type.Optional(Type.String({ maxLength: SEARCH_MAX_LENGTH })),
      // getMany asks for records by id: filter={"id":[1,2,3]}.
      id: Type.Optional(Type.Union([Id, Type.Array(Id, { maxItems: MAX_PAGE_SIZE })])),
      ...Object.fromEntries(resource.filterable.map((key) => [key, Type.Optional(resource.input.properties[key] as TSchema)])),
    },
    { additionalProperties: false },
  );

  const nameOf = (record: Record<string, unknown>) => String(record[resource.audit.name] ?? record.id);
  const inSchool = (s: SchoolRef) => [eq(scope.tenant, s.tenantId), eq(scope.school, s.schoolId)];

  function filterOf(request: FastifyRequest, text: string | undefined): SQL[] {
    const filter = parseJson(text, labels.filter, {});
    const validate = request.compileValidationSchema(Filter, 'querystring');
    if (!validate(filter)) throw badRequest(validationMessage(validate.errors ?? [], labels));
    const problem = inputProblem(filter, labels.filter, labels);
    if (problem) throw badRequest(problem);
    const f = filter as Record<string, unknown>;
    const where: SQL[] = [];
    const q = typeof f.q === 'string' ? f.q.trim() : '';
    if (q) where.push(or(...resource.search.map((key) => ilike(columns[key], likePattern(q))))!);
    if (f.id !== undefined) where.push(inArray(columns.id, [f.id as number | number[]].flat()));
    for (const key of resource.filterable) {
      if (f[key] === undefined) continue;
      where.push(f[key] === null ? isNull(columns[key]) : eq(columns[key], f[key]));
    }
    return where;
  }

  function orderOf(text: string | undefined): SQL[] {
    const sort = parseJson(text, labels.sort, resource.sort);
    if (!Array.isArray(sort) || sort.length !== 2 || !sortable.has(sort[0]) || (sort[1] !== 'ASC' && sort[1] !== 'DESC')) {
      throw badRequest(`${labels.sort}取值不正确`);
    }
    const column = columns[sort[0] as string];
    // Ties keep one order across pages.
    return sort[1] === 'DESC' ? [desc(column), desc(columns.id)] : [asc(column), asc(columns.id)];
  }

  function rangeOf(text: string | undefined): { offset: number; limit: number } {
    const range = parseJson(text, labels.range, [0, MAX_PAGE_SIZE - 1]);
    const valid =
      Array.isArray(range) &&
      range.length === 2 &&
      range.every((n) => Number.isSafeInteger(n)) &&
      range[0] >= 0 &&
      range[1] >= range[0] &&
      range[1] - range[0] < MAX_PAGE_SIZE &&
      range[0] < MAX_PAGE * MAX_PAGE_SIZE;
    if (!valid) throw badRequest(`${labels.range}取值不正确`);
    return { offset: range[0], limit: range[1] - range[0] + 1 };
  }

  async function findOne(s: SchoolRef, id: number) {
    const [row] = await db.select(selection).from(table).where(and(eq(columns.id, id), ...inSchool(s))).limit(1);
    if (!row) throw notFound(`${label}不存在`);
    return row;
  }

  /** Trimmed text; an emptied optional field is null, an emptied required one is refused. */
  function cleaned(body: Record<string, unknown>): Record<string, unknown> {
    const values: Record<string, unknown> = {};
    for (const key of fields) {
      let value = body[key] ?? null;
      if (typeof value === 'string') value = value.trim() || null;
      if (value === null && required.has(key)) throw badRequest(`${labels[key]}不能为空`);
      values[key] = value;
    }
    return values;
  }

  async function checkUnique(s: SchoolRef, values: Record<string, unknown>, id?: number) {
    for (const key of resource.unique ?? []) {
      if (values[key] === null) continue;
      const others = [eq(columns[key], values[key]), ...inSchool(s), ...(id === undefined ? [] : [ne(columns.id, id)])];
      const [taken] = await db.select({ id: columns.id }).from(table).where(and(...others)).limit(1);
      if (taken) throw duplicate(key, values[key]);
    }
  }
  const duplicate = (key: string, value: unknown) => conflict(`${labels[key]}“${String(value)}”已存在`);

  /** A unique index refused what the check above let through (two saves at once). */
  async function saving<T>(values: Record<string, unknown>, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      const key = (resource.unique ?? []).find((k) => values[k] !== null);
      if (isUniqueViolation(error) && key) throw duplicate(key, values[key]);
      throw error;
    }
  }

  app.get(base, { ...read, schema: { querystring: ListQuery, response: { 200: EnvelopeSchema(Type.Array(RecordSchema)) } } }, async (request, reply) => {
    const q = request.query;
    const s = schoolOf(request.principal);
    const where = and(...inSchool(s), ...filterOf(request, q.filter));
    const order = orderOf(q.sort);
    const { offset, limit } = rangeOf(q.range);
    const [{ total }] = await db.select({ total: count() }).from(table).where(where);
    const records = total > offset ? await db.select(selection).from(table).where(where).orderBy(...order).limit(limit).offset(offset) : [];
    reply.header('content-range', records.length ? `${name} ${offset}-${offset + records.length - 1}/${total}` : `${name} */${total}`);
    return ok(records);
  });

  app.get(`${base}/export`, { ...read, schema: { querystring: ExportQuery } }, async (request, reply) => {
    const q = request.query;
    const s = schoolOf(request.principal);
    const where = and(...inSchool(s), ...filterOf(request, q.filter));
    const order = orderOf(q.sort);
    // A file of up to EXPORT_MAX_ROWS rows: from the replica when one is configured.
    const reads = app.readDb;
    const [{ total }] = await reads.select({ total: count() }).from(table).where(where);
    if (total > EXPORT_MAX_ROWS) throw badRequest(`导出的${label}超过 ${EXPORT_MAX_ROWS} 条，请先缩小筛选范围`);
    const records = await reads.select(selection).from(table).where(where).orderBy(...order);
    const headers = listed.map((key) => ({ header: labels[key], width: key === 'createdAt' || key === 'remark' ? 24 : 14 }));
    const zone = await schoolZone(db, s.schoolId);
    const rows = records.map((record) => listed.map((key) => cell(record[key], zone)));
    return sendWorkbook(reply, streamWorkbook(label, headers, rows), exportFileName(`${label}列表`, fileStamp(new Date(), zone), 'xlsx'));
  });

  app.get(`${base}/:id`, { ...read, schema: { params: IdParams, response: one } }, async (request) => {
    const { id } = request.params;
    return ok(await findOne(schoolOf(request.principal), id));
  });

  app.post(base, { ...write, schema: { body: resource.input, response: one } }, async (request) => {
    const s = schoolOf(request.principal);
    const values = cleaned(request.body);
    await checkUnique(s, values);
    const row = await saving(values, () =>
      db.transaction(async (tx) => {
        const [created] = await tx.insert(table).values({ ...values, [tenantKey]: s.tenantId, [schoolKey]: s.schoolId }).returning(selection);
        await recordAudit(tx, request, { action: 'create', kind: resource.audit.kind, recordId: created.id as number, summary: `新增${label} ${nameOf(created)}` });
        return created;
      }),
    );
    return ok(row, '新增成功');
  });

  app.put(`${base}/:id`, { ...write, schema: { params: IdParams, body: resource.input, response: one } }, async (request) => {
    const { id } = request.params;
    const s = schoolOf(request.principal);
    const before = await findOne(s, id);
    const values = cleaned(request.body);
    await checkUnique(s, values, id);
    const row = await saving(values, () =>
      db.transaction(async (tx) => {
        const [updated] = await tx.update(table).set(values).where(and(eq(columns.id, id), ...inSchool(s))).returning(selection);
        const changed = fields.filter((key) => String(before[key] ?? '') !== String(updated[key] ?? '')).map((key) => labels[key]);
        await recordAudit(tx, request, { action: 'update', kind: resource.audit.kind, recordId: id, summary: `修改${label} ${nameOf(before)}${changed.length ? `的${changed.join('、')}` : '（无变化）'}` });
        return updated;
      }),
    );
    return ok(row, '修改成功');
  });

  app.delete(`${base}/:id`, { ...write, schema: { params: IdParams, response: one } }, async (request) => {
    const { id } = request.params;
    const s = schoolOf(request.principal);
    const row = await findOne(s, id);
    await db.transaction(async (tx) => {
      await tx.delete(table).where(and(eq(columns.id, id), ...inSchool(s)));
      await recordAudit(tx, request, { action: 'delete', kind: resource.audit.kind, recordId: id, summary: `删除${label} ${nameOf(row)}` });
    });
    return ok(row, '删除成功');
  });
}

/** The table's property name of a column (the insert names columns by property). */
function keyOf(columns: Record<string, PgColumn>, column: PgColumn): string {
  return Object.keys(columns).find((key) => columns[key] === column)!;
}

/** A spreadsheet cell: times as read on the school's clock (`zone`), the rest as stored. */
function cell(value: unknown, zone: string): string | number | null {
  if (value instanceof Date) return dateTimeSeconds(value, zone);
  if (typeof value === 'number' || typeof value === 'string') return value;
  return value === null || value === undefined ? null : String(value);
}
