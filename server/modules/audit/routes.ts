// 操作日志's read side (docs/api-audit.md): the list with filters and paging, and its xlsx export
// with the same filters. Who reads what is decided here, on the server, from the caller's session:
// the platform administrator reads every entry; a school administrator the entries of their own
// tenant and school; a partner those of its own and its sub-partners' users. No filter the caller
// sends can widen that (a tenant or school parameter is refused as unknown).
import { sql, type SQL } from 'drizzle-orm';
import { Type, type Static } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUDIT_ACTIONS, AUDIT_KINDS, AUDIT_LABELS, AUDIT_LIMITS, AuditRecordSchema, type AuditRecord } from '../../../src/domain/audit';
import { EnvelopeSchema, PageSchema } from '../../../src/domain/envelope';
import { chinaDayStart, dateOnly, dateTimeSeconds, exportFileName, fileStamp } from '../../../src/domain/format';
import { ROLE_NAMES, type Role } from '../../../src/domain/roles';
import { allow } from '../../auth/plugin';
import type { Db } from '../../db';
import { isoTime, rows } from '../../db/query';
import { sendWorkbook } from '../../http/download';
import { callerZone } from '../../http/schoolZone';
import { badRequest, forbidden, ok } from '../../http/envelope';
import { PagingQuery, page, pageWindow } from '../../http/paging';
import { streamWorkbook } from '../../files/xlsx';
import { ADMIN_ROLES, schoolOf } from '../vesta/access';
import { inSubtree, scopeOf } from '../partner/scope';

export const AUDIT_BASE = '/api/audit/v1/logs';

const READER_ROLES: Role[] = [...ADMIN_ROLES, 'admin', 'partner'];
const readers = allow({ roles: READER_ROLES, levels: [1, 2, 3] });

const literals = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));
const Day = Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$', maxLength: 10 });

const AuditFilter = {
  dateFrom: Type.Optional(Day),
  dateTo: Type.Optional(Day),
  action: Type.Optional(literals(Object.keys(AUDIT_ACTIONS))),
  kind: Type.Optional(literals(Object.keys(AUDIT_KINDS))),
  operator: Type.Optional(Type.String({ maxLength: AUDIT_LIMITS.operator })),
  orderBy: Type.Optional(Type.Literal('createdAt')),
  order: Type.Optional(literals(['asc', 'desc'])),
};
// Unknown parameters (tenantId, schoolId…) are refused, not ignored: a forged scope is visible as a 400.
const ListQuery = Type.Object({ ...PagingQuery, ...AuditFilter }, { additionalProperties: false });
const ExportQuery = Type.Object(AuditFilter, { additionalProperties: false });
type Filter = Static<typeof ExportQuery>;

const FIELD_LABELS = { dateFrom: '开始日期', dateTo: '结束日期', action: '操作类型', kind: '对象类型', operator: '操作人', orderBy: '排序字段' };
const DAY_MS = 24 * 3600 * 1000;

/** What the caller may read, from its session only. */
async function scopeWhere(request: FastifyRequest): Promise<SQL> {
  const p = request.principal;
  if (p.activeRole === 'admin') return sql`TRUE`;
  if (p.activeRole === 'partner') return inSubtree(await scopeOf(request), sql`a.partner_id`);
  if (ADMIN_ROLES.includes(p.activeRole as Role)) {
    const s = schoolOf(p);
    return sql`a.tenant_id = ${s.tenantId} AND a.school_id = ${s.schoolId}`;
  }
  throw forbidden();
}

/** A day that exists: it reads back the same after a trip through the calendar. */
function isCalendarDay(day: string, zone: string): boolean {
  const start = chinaDayStart(day, zone);
  return !Number.isNaN(start.getTime()) && dateOnly(start, zone) === day;
}

/** Days are the caller's school's days (China days for the platform and partners). */
function filterWhere(q: Filter, zone: string): SQL[] {
  const parts: SQL[] = [];
  // The pattern lets 2026-02-31 through, and Date would roll it over to March: the calendar decides.
  if ([q.dateFrom, q.dateTo].some((day) => day !== undefined && !isCalendarDay(day, zone))) throw badRequest('日期格式不正确');
  const from = q.dateFrom ? chinaDayStart(q.dateFrom, zone) : undefined;
  const to = q.dateTo ? new Date(chinaDayStart(q.dateTo, zone).getTime() + DAY_MS) : undefined;
  if (from && to && from >= to) throw badRequest('开始日期不能晚于结束日期');
  if (from) parts.push(sql`a.created_at >= ${from.toISOString()}`);
  if (to) parts.push(sql`a.created_at < ${to.toISOString()}`);
  if (q.action) parts.push(sql`a.action = ${q.action}`);
  if (q.kind) parts.push(sql`a.kind = ${q.kind}`);
  const operator = q.operator?.trim();
  if (operator) parts.push(sql`strpos(a.user_name, ${operator}) > 0`);
  return parts;
}

async function whereOf(request: FastifyRequest, q: Filter, zone: string): Promise<SQL> {
  return sql.join([await scopeWhere(request), ...filterWhere(q, zone)], sql` AND `);
}

const FROM = sql`FROM audit_logs a LEFT JOIN schools s ON s.id = a.school_id LEFT JOIN partners p ON p.id = a.partner_id`;

async function listEntries(db: Db, where: SQL, q: Filter, window?: { size: number; offset: number }): Promise<AuditRecord[]> {
  const direction = q.order === 'asc' ? sql`ASC` : sql`DESC`;
  const list = await rows<Omit<AuditRecord, 'roleName'>>(db, sql`
    SELECT a.id, ${isoTime(sql`a.created_at`)} AS "createdAt", a.user_id AS "userId", a.user_name AS "userName", a.role,
           COALESCE(s.name, p.name, '平台') AS "orgName", a.action, a.kind, a.record_id AS "recordId", a.summary, a.ip
      ${FROM} WHERE ${where}
     ORDER BY a.created_at ${direction}, a.id ${direction}
     ${window ? sql`LIMIT ${window.size} OFFSET ${window.offset}` : sql``}`);
  return list.map((entry) => ({ ...entry, roleName: ROLE_NAMES[entry.role as Role] ?? entry.role }));
}

const label = (labels: Record<string, string>, key: string) => labels[key] ?? key;

const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;
  const config = { fieldLabels: FIELD_LABELS };

  app.get(
    AUDIT_BASE,
    { preHandler: readers, config, schema: { querystring: ListQuery, response: { 200: EnvelopeSchema(PageSchema(AuditRecordSchema)) } } },
    async (request) => {
      const q = request.query;
      const where = await whereOf(request, q, await callerZone(db, request.principal));
      const { current, size, offset } = pageWindow(q);
      const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total ${FROM} WHERE ${where}`);
      const records = total > offset ? await listEntries(db, where, q, { size, offset }) : [];
      return ok(page(records, total, current, size));
    },
  );

  app.get(`${AUDIT_BASE}/export`, { preHandler: readers, config, schema: { querystring: ExportQuery } }, async (request, reply) => {
    const q = request.query;
    const zone = await callerZone(db, request.principal);
    const where = await whereOf(request, q, zone);
    const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total ${FROM} WHERE ${where}`);
    if (total > AUDIT_LIMITS.exportRows) throw badRequest(`导出的操作日志超过 ${AUDIT_LIMITS.exportRows} 条，请先缩小时间范围或筛选条件`);
    const list = await listEntries(db, where, q);
    const L = AUDIT_LABELS;
    const headers = [
      { header: L.createdAt, width: 20 },
      { header: L.userName, width: 14 },
      { header: L.roleName, width: 12 },
      { header: L.orgName, width: 26 },
      { header: L.action, width: 10 },
      { header: L.kind, width: 12 },
      { header: L.recordId, width: 24 },
      { header: L.summary, width: 60 },
      { header: L.ip, width: 18 },
    ];
    const data = list.map((e) => [
      dateTimeSeconds(e.createdAt, zone),
      e.userName,
      e.roleName,
      e.orgName,
      label(AUDIT_ACTIONS, e.action),
      label(AUDIT_KINDS, e.kind),
      e.recordId ?? '',
      e.summary,
      e.ip ?? '',
    ]);
    return sendWorkbook(reply, streamWorkbook('操作日志', headers, data), exportFileName('操作日志', fileStamp(new Date(), zone), 'xlsx'));
  });
};
export default auditRoutes;
