// 告警通知 (/alarms, partner levels 1–3): the alarms of the subtree's terminals, the header's
// unread count, 标为已读 (confirm: someone of the subtree has seen it) and 处理完成 with a note.
// Alarms open and close by themselves (modules/devices/alarms.ts); what a partner does here is
// published on the live bus so every open page of the subtree updates.
import { sql, type SQL } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isoTime, rows } from '../../db/query';
import { conflict, notFound, ok } from '../../http/envelope';
import { PagingQuery, page, pageWindow } from '../../http/paging';
import { Id } from '../../http/schemas';
import { ALARM_KINDS, ALARM_MAX_BULK, ALARM_NOTE_MAX_LENGTH, ALARM_STATUSES, type AlarmRecord, type AlarmSummary } from '../../../src/domain/alarms';
import { OFFLINE_AFTER_SECONDS } from '../../../src/domain/partner';
import { anyPartner, inSubtree, scopeOf, type PartnerScope } from './scope';

const BASE = '/api/wrongbook/v1.0/partner/alarms';
/** This service's names of its fields, in refusals (the shared dictionary's 分区类型, 记录内容 are others'). */
const config = { fieldLabels: { kind: '告警类型', status: '告警状态', alarmId: '告警', alarmIds: '告警', all: '全部告警', note: '处理说明' } };

const AlarmFilter = {
  status: Type.Optional(Type.Union(ALARM_STATUSES.map((s) => Type.Literal(s.value)))),
  kind: Type.Optional(Type.Union(ALARM_KINDS.map((k) => Type.Literal(k.value)))),
  deviceId: Type.Optional(Id),
};

function alarmWhere(scope: PartnerScope, q: { status?: string; kind?: string; deviceId?: number }): SQL {
  const parts: SQL[] = [inSubtree(scope, sql`a.partner_id`)];
  const status = q.status ?? 'open';
  if (status === 'open') parts.push(sql`a.resolved_at IS NULL`);
  if (status === 'unread') parts.push(sql`a.resolved_at IS NULL AND a.acknowledged_at IS NULL`);
  if (status === 'resolved') parts.push(sql`a.resolved_at IS NOT NULL`);
  if (q.kind) parts.push(sql`a.kind = ${q.kind}`);
  if (q.deviceId) parts.push(sql`a.device_id = ${q.deviceId}`);
  return sql.join(parts, sql` AND `);
}

const SELECT_ALARM = sql`
  SELECT a.id AS "alarmId", a.device_id AS "deviceId", d.serial, p.name AS "partnerName", s.name AS "schoolName", a.kind, a.detail,
         ${isoTime(sql`a.opened_at`)} AS "openedAt", ${isoTime(sql`a.acknowledged_at`)} AS "acknowledgedAt", ua.name AS "acknowledgedByName",
         ${isoTime(sql`a.resolved_at`)} AS "resolvedAt", ur.name AS "resolvedByName", a.auto_resolved AS "autoResolved", a.note
    FROM device_alarms a JOIN devices d ON d.id = a.device_id JOIN partners p ON p.id = a.partner_id
    LEFT JOIN schools s ON s.id = a.school_id LEFT JOIN users ua ON ua.id = a.acknowledged_by LEFT JOIN users ur ON ur.id = a.resolved_by`;

const alarmRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get(`${BASE}/page`, { preHandler: anyPartner, config, schema: { querystring: Type.Object({ ...PagingQuery, ...AlarmFilter }) } }, async (request) => {
    const q = request.query;
    const scope = await scopeOf(request);
    const { current, size, offset } = pageWindow(q);
    const where = alarmWhere(scope, q);
    const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM device_alarms a WHERE ${where}`);
    // Open alarms first (the newest on top), then the closed ones by when they closed.
    const records = total > offset
      ? await rows<AlarmRecord>(db, sql`${SELECT_ALARM} WHERE ${where} ORDER BY (a.resolved_at IS NULL) DESC, coalesce(a.resolved_at, a.opened_at) DESC, a.id DESC LIMIT ${size} OFFSET ${offset}`)
      : [];
    return ok(page(records, total, current, size));
  });

  app.get(`${BASE}/summary`, { preHandler: anyPartner }, async (request) => {
    const scope = await scopeOf(request);
    const [summary] = await rows<AlarmSummary>(
      db,
      sql`SELECT count(*) FILTER (WHERE a.acknowledged_at IS NULL)::int AS unread, count(*)::int AS open,
                 (SELECT count(*)::int FROM devices d WHERE ${inSubtree(scope, sql`d.partner_id`)} AND d.school_id IS NOT NULL) AS deployed,
                 (SELECT count(*)::int FROM devices d WHERE ${inSubtree(scope, sql`d.partner_id`)} AND d.school_id IS NOT NULL
                     AND d.last_heartbeat_at > now() - make_interval(secs => ${OFFLINE_AFTER_SECONDS})) AS online
            FROM device_alarms a WHERE ${inSubtree(scope, sql`a.partner_id`)} AND a.resolved_at IS NULL`,
    );
    return ok(summary);
  });

  /** 标为已读: the given open alarms, or all the subtree's open ones (`all`). Ids outside the subtree: 404, nothing marked. */
  app.post(
    `${BASE}/acknowledge`,
    { preHandler: anyPartner, config, schema: { body: Type.Object({ alarmIds: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: ALARM_MAX_BULK })), all: Type.Optional(Type.Boolean()) }) } },
    async (request) => {
      const { alarmIds, all } = request.body;
      const scope = await scopeOf(request);
      let which: SQL;
      if (alarmIds) {
        const unique = [...new Set(alarmIds)];
        const ids = sql.join(unique.map((id) => sql`${id}`), sql`, `);
        const [{ n }] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM device_alarms a WHERE a.id IN (${ids}) AND ${inSubtree(scope, sql`a.partner_id`)}`);
        if (n !== unique.length) throw notFound('告警不存在');
        which = sql`a.id IN (${ids})`;
      } else if (all) {
        which = sql`true`;
      } else {
        throw notFound('告警不存在');
      }
      const marked = await rows<{ alarmId: number; deviceId: number; partnerId: number; kind: string }>(
        db,
        sql`UPDATE device_alarms a SET acknowledged_at = now(), acknowledged_by = ${request.principal.userId}
             WHERE ${which} AND ${inSubtree(scope, sql`a.partner_id`)} AND a.acknowledged_at IS NULL AND a.resolved_at IS NULL
            RETURNING a.id AS "alarmId", a.device_id AS "deviceId", a.partner_id AS "partnerId", a.kind`,
      );
      const at = new Date().toISOString();
      app.liveBus.publish(marked.map((m) => ({ type: 'alarm', ...m, at, action: 'acknowledged' })));
      return ok({ count: marked.length }, marked.length ? `已将${marked.length}条告警标为已读` : '没有需要标为已读的告警');
    },
  );

  app.post(
    `${BASE}/resolve`,
    { preHandler: anyPartner, config, schema: { body: Type.Object({ alarmId: Id, note: Type.Optional(Type.String({ maxLength: ALARM_NOTE_MAX_LENGTH })) }) } },
    async (request) => {
      const { alarmId } = request.body;
      const note = request.body.note?.trim() || null;
      const scope = await scopeOf(request);
      const [found] = await rows<{ resolved: boolean }>(
        db,
        sql`SELECT a.resolved_at IS NOT NULL AS resolved FROM device_alarms a WHERE a.id = ${alarmId} AND ${inSubtree(scope, sql`a.partner_id`)}`,
      );
      if (!found) throw notFound('告警不存在');
      const userId = request.principal.userId;
      // Resolving also confirms: an alarm someone handled has been seen.
      const [done] = await rows<{ alarmId: number; deviceId: number; partnerId: number; kind: string }>(
        db,
        sql`UPDATE device_alarms a SET resolved_at = now(), resolved_by = ${userId}, note = ${note},
                   acknowledged_at = coalesce(a.acknowledged_at, now()), acknowledged_by = coalesce(a.acknowledged_by, ${userId})
             WHERE a.id = ${alarmId} AND a.resolved_at IS NULL
            RETURNING a.id AS "alarmId", a.device_id AS "deviceId", a.partner_id AS "partnerId", a.kind`,
      );
      if (!done) throw conflict('该告警已处理，无需重复操作');
      app.liveBus.publish([{ type: 'alarm', ...done, at: new Date().toISOString(), action: 'resolved' }]);
      return ok({ alarmId }, '已标记为处理完成');
    },
  );
};
export default alarmRoutes;
