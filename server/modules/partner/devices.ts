// 设备管理 (/devices): the caller's subtree's terminals — list with filters, xlsx export of every
// filtered row, bind to a school the subtree runs directly and unbind, one or many at once (one
// transaction: all or nothing). A terminal of another subtree is "not found".
import { sql, type SQL } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../db';
import { isoTime, rows } from '../../db/query';
import { sendWorkbook } from '../../http/download';
import { conflict, forbidden, notFound, ok } from '../../http/envelope';
import { PagingQuery, page, pageWindow } from '../../http/paging';
import { Id } from '../../http/schemas';
import { streamWorkbook } from '../../files/xlsx';
import { ColumnsQuery, exportTable, pickColumns, type ExportColumn } from '../../http/exportColumns';
import { cellTime, exportFileName, fileStamp } from '../../../src/domain/format';
import { DEVICE_MODELS, LOW_PAPER_SHEETS, OFFLINE_AFTER_SECONDS } from '../../../src/domain/partner';
import type { DeviceRecord } from '../../../src/domain/devices';
import { anyPartner, checkSchool, inSubtree, scopeOf, type PartnerScope } from './scope';
import { recordAudit } from '../audit/record';

const BASE = '/api/wrongbook/v1.0/partner/devices';
/** Terminals per bulk bind or unbind. */
export const MAX_BULK_DEVICES = 200;

const SORTS: Record<string, SQL> = {
  serial: sql`d.serial`,
  lastSeenAt: sql`d.last_seen_at`,
  paperLeft: sql`d.paper_left`,
  schoolName: sql`s.name`,
};

export const DeviceFilter = {
  schoolId: Type.Optional(Id),
  deployment: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)])),
  online: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2)])),
  model: Type.Optional(Type.Union(DEVICE_MODELS.map((m) => Type.Literal(m.value)))),
  keyword: Type.Optional(Type.String({ maxLength: 50 })),
  sort: Type.Optional(Type.Union(Object.keys(SORTS).map((k) => Type.Literal(k)))),
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
};

interface DeviceFilterQuery {
  schoolId?: number;
  deployment?: 0 | 1 | 2;
  online?: 1 | 2;
  model?: string;
  keyword?: string;
  sort?: string;
  order?: 'asc' | 'desc';
}

const ONLINE = sql`(d.last_heartbeat_at > now() - make_interval(secs => ${OFFLINE_AFTER_SECONDS}))`;

export const SELECT_DEVICE = sql`
  SELECT d.id, d.id AS "deviceId", d.serial, d.model, d.partner_id AS "partnerId", p.name AS "partnerName",
         d.school_id AS "schoolId", s.name AS "schoolName",
         CASE WHEN d.school_id IS NULL THEN 2 ELSE 1 END AS deployment,
         CASE WHEN ${ONLINE} THEN 1 ELSE 2 END AS online,
         d.paper_left AS "paperLeft", d.paper_capacity AS "paperCapacity", d.paper_left <= ${LOW_PAPER_SHEETS} AS "lowPaper",
         d.jammed, d.firmware, ${isoTime(sql`d.last_heartbeat_at`)} AS "lastHeartbeatAt", ${isoTime(sql`d.last_seen_at`)} AS "lastSeenAt",
         ${isoTime(sql`d.bound_at`)} AS "boundAt",
         (SELECT coalesce(array_agg(a.kind ORDER BY a.kind), '{}') FROM device_alarms a WHERE a.device_id = d.id AND a.resolved_at IS NULL) AS "openAlarms"
    FROM devices d JOIN partners p ON p.id = d.partner_id LEFT JOIN schools s ON s.id = d.school_id`;

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function deviceWhere(scope: PartnerScope, q: DeviceFilterQuery): SQL {
  const parts: SQL[] = [inSubtree(scope, sql`d.partner_id`)];
  if (q.schoolId !== undefined) parts.push(sql`d.school_id = ${q.schoolId}`);
  if (q.deployment === 1) parts.push(sql`d.school_id IS NOT NULL`);
  if (q.deployment === 2) parts.push(sql`d.school_id IS NULL`);
  if (q.online === 1) parts.push(ONLINE);
  if (q.online === 2) parts.push(sql`NOT coalesce(${ONLINE}, false)`);
  if (q.model) parts.push(sql`d.model = ${q.model}`);
  const keyword = q.keyword?.trim();
  if (keyword) parts.push(sql`(d.serial ILIKE ${likePattern(keyword)} OR s.name LIKE ${likePattern(keyword)} OR p.name LIKE ${likePattern(keyword)})`);
  return sql.join(parts, sql` AND `);
}

function deviceOrder(q: DeviceFilterQuery): SQL {
  const direction = q.order === 'desc' ? sql`DESC` : sql`ASC`;
  return sql`${SORTS[q.sort ?? 'serial']} ${direction} NULLS LAST, d.id ${direction}`;
}

/** The caller's terminals among `ids`; any other id makes the whole request "not found". */
async function ownDevices(db: Db, scope: PartnerScope, ids: number[]) {
  const unique = [...new Set(ids)];
  const found = await rows<{ id: number; serial: string; schoolId: number | null; schoolName: string | null }>(
    db,
    sql`SELECT d.id, d.serial, d.school_id AS "schoolId", s.name AS "schoolName" FROM devices d LEFT JOIN schools s ON s.id = d.school_id
         WHERE d.id IN (${sql.join(unique.map((id) => sql`${id}`), sql`, `)}) AND ${inSubtree(scope, sql`d.partner_id`)} ORDER BY d.serial`,
  );
  if (found.length !== unique.length) throw notFound('设备不存在');
  return found;
}

const listOf = (serials: string[]) => (serials.length > 5 ? `${serials.slice(0, 5).join('、')}等${serials.length}台` : serials.join('、'));

const yesNo = (v: boolean) => (v ? '是' : '否');


/** The export's columns, keyed by the list's field sources (纸张不足 goes with 剩余纸张). */
const DEVICE_COLUMNS: ExportColumn<DeviceRecord>[] = [
  { key: 'serial', header: '设备编号', width: 16, value: (d) => d.serial },
  { key: 'model', header: '型号', width: 12, value: (d) => d.model },
  { key: 'partnerName', header: '所属合作伙伴', width: 24, value: (d) => d.partnerName },
  { key: 'schoolName', header: '部署学校', width: 26, value: (d) => d.schoolName ?? '' },
  { key: 'deployment', header: '部署状态', width: 10, value: (d) => (d.deployment === 1 ? '已部署' : '未部署') },
  { key: 'online', header: '在线状态', width: 10, value: (d) => (d.online === 1 ? '在线' : '离线') },
  { key: 'paperLeft', header: '剩余纸张', width: 10, value: (d) => d.paperLeft },
  { key: 'paperLeft', header: '纸张不足', width: 10, value: (d) => yesNo(d.lowPaper) },
  { key: 'jammed', header: '卡纸', width: 8, value: (d) => yesNo(d.jammed) },
  { key: 'firmware', header: '固件版本', width: 10, value: (d) => d.firmware },
  { key: 'lastSeenAt', header: '最近在线', width: 18, value: (d) => cellTime(d.lastSeenAt) },
];

const deviceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;
  const DeviceIds = Type.Array(Id, { minItems: 1, maxItems: MAX_BULK_DEVICES });

  app.get(`${BASE}/page`, { preHandler: anyPartner, schema: { querystring: Type.Object({ ...PagingQuery, ...DeviceFilter }) } }, async (request) => {
    const q = request.query;
    const scope = await scopeOf(request);
    const { current, size, offset } = pageWindow(q);
    const where = deviceWhere(scope, q);
    const from = sql`FROM devices d JOIN partners p ON p.id = d.partner_id LEFT JOIN schools s ON s.id = d.school_id`;
    const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total ${from} WHERE ${where}`);
    const records = total > offset ? await rows<DeviceRecord>(db, sql`${SELECT_DEVICE} WHERE ${where} ORDER BY ${deviceOrder(q)} LIMIT ${size} OFFSET ${offset}`) : [];
    return ok(page(records, total, current, size));
  });

  app.get(`${BASE}/export`, { preHandler: anyPartner, schema: { querystring: Type.Object({ ...DeviceFilter, fields: ColumnsQuery }) } }, async (request, reply) => {
    const q = request.query;
    const scope = await scopeOf(request);
    const list = await rows<DeviceRecord>(db, sql`${SELECT_DEVICE} WHERE ${deviceWhere(scope, q)} ORDER BY ${deviceOrder(q)}`);
    const table = exportTable(pickColumns(DEVICE_COLUMNS, q.fields), list);
    const stream = streamWorkbook('设备', table.headers, table.rows);
    return sendWorkbook(reply, stream, exportFileName('设备列表', fileStamp(), 'xlsx'));
  });

  /** Schools for the list's filter (any the caller sees) and for binding (`direct`: run by the subtree). */
  app.get(`${BASE}/schools`, { preHandler: anyPartner }, async (request) => {
    const scope = await scopeOf(request);
    const list = await rows<{ schoolId: number; schoolName: string; direct: boolean }>(
      db,
      sql`SELECT s.id AS "schoolId", s.name AS "schoolName", coalesce(${inSubtree(scope, sql`s.partner_id`)}, false) AS direct FROM schools s
           WHERE ${inSubtree(scope, sql`s.partner_id`)} OR EXISTS (SELECT 1 FROM devices d WHERE d.school_id = s.id AND ${inSubtree(scope, sql`d.partner_id`)})
           ORDER BY s.name`,
    );
    return ok(list);
  });

  app.post(`${BASE}/bind`, { preHandler: anyPartner, schema: { body: Type.Object({ deviceIds: DeviceIds, schoolId: Id }) } }, async (request) => {
    const { deviceIds, schoolId } = request.body;
    const scope = await scopeOf(request);
    const school = await checkSchool(db, scope, schoolId);
    if (!school.partnerId || !scope.subtreeIds.includes(school.partnerId)) throw forbidden('只能绑定到本渠道直营的学校');
    const userId = request.principal.userId;
    const count = await db.transaction(async (tx) => {
      const tdb = tx as unknown as Db;
      const devices = await ownDevices(tdb, scope, deviceIds);
      // Locked, so two partners binding the same terminal cannot both succeed.
      await tdb.execute(sql`SELECT 1 FROM devices WHERE id IN (${sql.join(devices.map((d) => sql`${d.id}`), sql`, `)}) ORDER BY id FOR UPDATE`);
      const deployed = await rows<{ serial: string }>(
        tdb,
        sql`SELECT serial FROM devices WHERE id IN (${sql.join(devices.map((d) => sql`${d.id}`), sql`, `)}) AND school_id IS NOT NULL ORDER BY serial`,
      );
      if (deployed.length) throw conflict(`设备${listOf(deployed.map((d) => d.serial))}已部署到学校，请先解绑；本次未绑定任何设备`);
      const ids = sql.join(devices.map((d) => sql`${d.id}`), sql`, `);
      await tdb.execute(sql`UPDATE devices SET school_id = ${school.id}, tenant_id = ${school.tenantId}, bound_at = now() WHERE id IN (${ids})`);
      await tdb.execute(sql`INSERT INTO device_bindings (device_id, school_id, bound_by) SELECT id, ${school.id}, ${userId} FROM devices WHERE id IN (${ids})`);
      await tdb.execute(
        sql`INSERT INTO device_events (device_id, kind, detail) SELECT id, 'bound', jsonb_build_object('schoolId', ${school.id}::int, 'schoolName', ${school.name}::text, 'by', ${request.principal.name}::text) FROM devices WHERE id IN (${ids})`,
      );
      await recordAudit(tdb, request, { action: 'deploy', kind: 'terminal', recordId: devices.length === 1 ? devices[0].serial : null, summary: `部署终端 ${listOf(devices.map((d) => d.serial))} 到 ${school.name}` });
      return devices.length;
    });
    return ok({ count }, `已将${count}台设备绑定到${school.name}`);
  });

  app.post(`${BASE}/unbind`, { preHandler: anyPartner, schema: { body: Type.Object({ deviceIds: DeviceIds }) } }, async (request) => {
    const { deviceIds } = request.body;
    const scope = await scopeOf(request);
    const userId = request.principal.userId;
    const count = await db.transaction(async (tx) => {
      const tdb = tx as unknown as Db;
      const devices = await ownDevices(tdb, scope, deviceIds);
      const ids = sql.join(devices.map((d) => sql`${d.id}`), sql`, `);
      const locked = await rows<{ id: number; serial: string; schoolId: number | null }>(
        tdb,
        sql`SELECT id, serial, school_id AS "schoolId" FROM devices WHERE id IN (${ids}) ORDER BY id FOR UPDATE`,
      );
      const idle = locked.filter((d) => d.schoolId === null).map((d) => d.serial).sort();
      if (idle.length) throw conflict(`设备${listOf(idle)}未部署，无需解绑；本次未解绑任何设备`);
      await tdb.execute(
        sql`INSERT INTO device_events (device_id, kind, detail)
            SELECT d.id, 'unbound', jsonb_build_object('schoolId', s.id, 'schoolName', s.name, 'by', ${request.principal.name}::text)
              FROM devices d JOIN schools s ON s.id = d.school_id WHERE d.id IN (${ids})`,
      );
      await tdb.execute(sql`UPDATE device_bindings SET unbound_by = ${userId}, unbound_at = now() WHERE device_id IN (${ids}) AND unbound_at IS NULL`);
      await tdb.execute(sql`UPDATE devices SET school_id = NULL, tenant_id = NULL, bound_at = NULL WHERE id IN (${ids})`);
      await recordAudit(tdb, request, { action: 'undeploy', kind: 'terminal', recordId: devices.length === 1 ? devices[0].serial : null, summary: `解绑终端 ${listOf(devices.map((d) => `${d.serial}（${d.schoolName}）`))}` });
      return devices.length;
    });
    return ok({ count }, `已解绑${count}台设备`);
  });
};

export default deviceRoutes;
