// One terminal's page in 设备管理: its record with the schools it served, its heartbeat and event
// history, its recent print jobs (students unnamed) and a daily chart of the last days (device_daily).
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isoTime, rows } from '../../db/query';
import { ok } from '../../http/envelope';
import { PagingQuery, page, pageWindow } from '../../http/paging';
import { Id } from '../../http/schemas';
import { BACKFILL_DAYS, DevicePrintJobSchema, type DeviceBinding, type DevicePrintJob, type DeviceRecord } from '../../../src/domain/devices';
import { EnvelopeSchema, PageSchema } from '../../../src/domain/envelope';
import { UserKind } from '../../../src/domain/partner';
import { anyPartner, checkDevice, scopeOf } from './scope';
import { SELECT_DEVICE } from './devices';

const BASE = '/api/wrongbook/v1.0/partner/devices';
const DeviceQuery = { deviceId: Id };
const iso = (column: string) => isoTime(sql.raw(column));

const deviceHistoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get(`${BASE}/detail`, { preHandler: anyPartner, schema: { querystring: Type.Object(DeviceQuery) } }, async (request) => {
    const { deviceId } = request.query;
    const device = await checkDevice(db, await scopeOf(request), deviceId);
    const [record] = await rows<DeviceRecord>(db, sql`${SELECT_DEVICE} WHERE d.id = ${device.id}`);
    const bindings = await rows<DeviceBinding>(
      db,
      sql`SELECT s.name AS "schoolName", ${iso('b.bound_at')} AS "boundAt", ${iso('b.unbound_at')} AS "unboundAt", ub.name AS "boundBy", uu.name AS "unboundBy"
            FROM device_bindings b JOIN schools s ON s.id = b.school_id
            LEFT JOIN users ub ON ub.id = b.bound_by LEFT JOIN users uu ON uu.id = b.unbound_by
           WHERE b.device_id = ${device.id} ORDER BY b.bound_at DESC, b.id DESC`,
    );
    return ok({ ...record, bindings });
  });

  app.get(`${BASE}/events`, { preHandler: anyPartner, schema: { querystring: Type.Object({ ...PagingQuery, ...DeviceQuery }) } }, async (request) => {
    const q = request.query;
    const device = await checkDevice(db, await scopeOf(request), q.deviceId);
    const { current, size, offset } = pageWindow(q);
    const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM device_events WHERE device_id = ${device.id}`);
    const records = await rows<{ id: number; at: string; kind: string; detail: Record<string, unknown> | null }>(
      db,
      sql`SELECT id, ${iso('at')} AS at, kind, detail FROM device_events WHERE device_id = ${device.id} ORDER BY at DESC, id DESC LIMIT ${size} OFFSET ${offset}`,
    );
    return ok(page(records, total, current, size));
  });

  // A student's job without the name: the minute and the terminal would say who stood there
  // (src/domain/devices.ts). Teachers' names stay.
  const jobsReply = { 200: EnvelopeSchema(PageSchema(DevicePrintJobSchema)) };
  app.get(`${BASE}/printJobs`, { preHandler: anyPartner, schema: { querystring: Type.Object({ ...PagingQuery, ...DeviceQuery }), response: jobsReply } }, async (request) => {
    const q = request.query;
    const device = await checkDevice(db, await scopeOf(request), q.deviceId);
    const { current, size, offset } = pageWindow(q);
    const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM print_jobs WHERE device_id = ${device.id}`);
    const records = await rows<DevicePrintJob>(
      db,
      sql`SELECT j.id, ${iso('j.printed_at')} AS "printedAt", j.user_kind AS "userKind",
                 te.name AS "userName", j.app, sj.name AS "subjectName", j.pages, s.name AS "schoolName"
            FROM (SELECT * FROM print_jobs WHERE device_id = ${device.id} ORDER BY printed_at DESC, id DESC LIMIT ${size} OFFSET ${offset}) j
            JOIN schools s ON s.id = j.school_id
            LEFT JOIN teachers te ON j.user_kind = ${UserKind.teacher} AND te.id = j.user_id
            LEFT JOIN subjects sj ON sj.id = j.subject_id
           ORDER BY j.printed_at DESC, j.id DESC`,
    );
    return ok(page(records, total, current, size));
  });

  /** Jobs, pages and sign-ins per China day over the last `days` days, every day present (0 when idle). */
  app.get(
    `${BASE}/daily`,
    { preHandler: anyPartner, schema: { querystring: Type.Object({ ...DeviceQuery, days: Type.Optional(Type.Integer({ minimum: 7, maximum: BACKFILL_DAYS, default: 30 })) }) } },
    async (request) => {
      const q = request.query;
      const device = await checkDevice(db, await scopeOf(request), q.deviceId);
      const days = q.days ?? 30;
      const list = await rows<{ day: string; jobs: number; pages: number; signIns: number }>(
        db,
        sql`WITH today AS (SELECT ((now() AT TIME ZONE 'UTC') + interval '8 hours')::date AS d),
                 span AS (SELECT (today.d - g)::date AS day FROM today, generate_series(0, ${days - 1}::int) AS g)
            SELECT to_char(span.day, 'YYYY-MM-DD') AS day, coalesce(dd.jobs, 0)::int AS jobs, coalesce(dd.pages, 0)::int AS pages,
                   coalesce(dd.sign_ins, 0)::int AS "signIns"
              FROM span LEFT JOIN device_daily dd ON dd.device_id = ${device.id} AND dd.day = span.day
             ORDER BY span.day`,
      );
      return ok(list);
    },
  );
};

export default deviceHistoryRoutes;
