// POST /api/device/v1/heartbeat: the terminal's state every minute. One statement records the
// nonce, updates the terminal and writes an event for each transition only (back online after
// missed beats, paper low, refilled, jammed, jam cleared, firmware changed), comparing with the
// row as it was before this beat. Committed without waiting for the disk (synchronous_commit off
// for this statement's own transaction): a crash may forget the last fraction of a second of
// beats, which the next beat a minute later restores, and a flush per beat would cap a server at
// a few hundred beats a second.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { rows } from '../../db/query';
import { ok } from '../../http/envelope';
import { LOW_PAPER_SHEETS, OFFLINE_AFTER_SECONDS } from '../../../src/domain/partner';
import { replayed } from './auth';

const Heartbeat = Type.Object({
  paperLeft: Type.Integer({ minimum: 0, maximum: 10_000 }),
  jammed: Type.Boolean(),
  firmware: Type.String({ minLength: 1, maxLength: 32, pattern: '^[0-9A-Za-z._-]+$' }),
});

export default async function heartbeatRoutes(app: FastifyInstance) {
  app.post('/api/device/v1/heartbeat', { config: { public: true, deviceNonceInline: true }, schema: { body: Heartbeat } }, async (request) => {
    const { paperLeft, jammed, firmware } = request.body as { paperLeft: number; jammed: boolean; firmware: string };
    const id = request.device.id;
    const [row] = await rows<{ events: string[] }>(
      app.db,
      sql`WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true)),
          nonce AS (
            INSERT INTO device_nonces (device_id, nonce) VALUES (${id}, ${request.device.nonce}) ON CONFLICT DO NOTHING RETURNING device_id),
          old AS (
            SELECT d.id, d.last_heartbeat_at, d.paper_left, d.jammed, d.firmware FROM devices d JOIN nonce ON nonce.device_id = d.id),
          upd AS (
            UPDATE devices d SET last_heartbeat_at = now(), last_seen_at = greatest(d.last_seen_at, now()),
                   paper_left = ${paperLeft}::int, jammed = ${jammed}::boolean, firmware = ${firmware}::text
              FROM old WHERE d.id = old.id
            RETURNING old.last_heartbeat_at AS beat, old.paper_left AS paper, old.jammed AS was_jammed, old.firmware AS was_firmware),
          events AS (
            INSERT INTO device_events (device_id, kind, detail)
            SELECT ${id}, e.kind, e.detail FROM upd, LATERAL (VALUES
              (CASE WHEN upd.beat < now() - make_interval(secs => ${OFFLINE_AFTER_SECONDS}) THEN 'online' END,
               jsonb_build_object('offlineSeconds', floor(extract(epoch FROM now() - upd.beat))::int)),
              (CASE WHEN ${paperLeft}::int <= ${LOW_PAPER_SHEETS} AND upd.paper > ${LOW_PAPER_SHEETS} THEN 'paperLow' END,
               jsonb_build_object('paperLeft', ${paperLeft}::int)),
              (CASE WHEN ${paperLeft}::int > upd.paper THEN 'paperRefilled' END, jsonb_build_object('from', upd.paper, 'to', ${paperLeft}::int)),
              (CASE WHEN ${jammed}::boolean AND NOT upd.was_jammed THEN 'jammed' END, NULL::jsonb),
              (CASE WHEN NOT ${jammed}::boolean AND upd.was_jammed THEN 'jamCleared' END, NULL::jsonb),
              (CASE WHEN ${firmware}::text <> upd.was_firmware THEN 'firmware' END, jsonb_build_object('from', upd.was_firmware, 'to', ${firmware}::text))
            ) AS e(kind, detail)
            WHERE e.kind IS NOT NULL
            RETURNING kind)
          SELECT coalesce((SELECT json_agg(kind) FROM events), '[]'::json) AS events FROM upd, relaxed`,
    );
    // No row: the nonce was there already (the terminal itself exists: auth found it).
    if (!row) throw replayed();
    return ok({ serverTime: new Date().toISOString(), events: row.events });
  });
}
