// Heartbeats are written together: while one statement is in flight, the beats that arrive queue
// up and go out as the next statement, up to MAX_BATCH at a time (group commit). A quiet server
// writes each beat at once; a busy one writes hundreds per round trip, so the database plans and
// commits once per batch instead of once per beat. Each beat still gets its own answer: a replayed
// nonce is refused, and the events are the transitions of that beat.
//
// One statement records the nonces, locks the terminals in id order (so two servers' batches never
// deadlock), writes an event for each transition only (back online after missed beats, paper low,
// refilled, jammed, jam cleared, firmware changed), comparing each beat with the one before it in
// the batch or, for a terminal's first beat in it, with the row as it was, and keeps the last beat
// per terminal. Committed without waiting for the disk (synchronous_commit off for this statement's
// own transaction): a crash may forget the last fraction of a second of beats, which the next beat
// a minute later restores.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { pgErrorCode } from '../../db/errors';
import { rows } from '../../db/query';
import { LOW_PAPER_SHEETS, OFFLINE_AFTER_SECONDS, REFILL_MIN_SHEETS } from '../../../src/domain/partner';
import type { LiveEvent } from '../../../src/domain/alarms';
import { alarmEvents, reconcileAlarms } from './alarms';
import type { LiveBus } from './live';

export interface Beat {
  deviceId: number;
  nonce: string;
  paperLeft: number;
  jammed: boolean;
  firmware: string;
}

/** `replayed`: the nonce was used before; `unknown`: the terminal no longer exists. */
export type BeatResult = { outcome: 'recorded'; events: string[]; partnerId: number; wasOffline?: boolean } | { outcome: 'replayed' } | { outcome: 'unknown' };

/** Beats per statement: a batch's JSON stays well under a megabyte. */
export const MAX_BATCH = 500;

/** Writes one batch; a result per beat, in order. */
export async function writeBeats(db: Db, beats: readonly Beat[]): Promise<BeatResult[]> {
  // A nonce twice in one batch: the first is the beat, the later ones replays of it.
  const seen = new Set<string>();
  const first = beats.map((b) => {
    const key = `${b.deviceId}:${b.nonce}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const input = JSON.stringify(
    beats.flatMap((b, i) => (first[i] ? [{ i, d: b.deviceId, n: b.nonce, p: b.paperLeft, j: b.jammed, f: b.firmware }] : [])),
  );
  const found = await rows<{ i: number; known: boolean; partnerId: number; wasOffline: boolean; events: string[] }>(
    db,
    sql`WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true)),
        input AS (
          SELECT * FROM jsonb_to_recordset(${input}::jsonb) AS x(i int, d int, n text, p int, j boolean, f text)),
        nonce AS (
          INSERT INTO device_nonces (device_id, nonce) SELECT d, n FROM input ORDER BY d, n ON CONFLICT DO NOTHING RETURNING device_id, nonce),
        fresh AS (
          SELECT input.* FROM input JOIN nonce ON nonce.device_id = input.d AND nonce.nonce = input.n),
        old AS (
          SELECT d.id, d.partner_id, d.offline_at, d.last_heartbeat_at, d.paper_left, d.jammed, d.firmware FROM devices d
           WHERE d.id IN (SELECT d FROM fresh) ORDER BY d.id FOR UPDATE),
        seq AS (
          SELECT f.i, f.d, f.p, f.j, f.f,
                 CASE WHEN lag(f.i) OVER w IS NULL THEN o.last_heartbeat_at ELSE now() END AS prev_beat,
                 coalesce(lag(f.p) OVER w, o.paper_left) AS prev_paper,
                 coalesce(lag(f.j) OVER w, o.jammed) AS prev_jammed,
                 coalesce(lag(f.f) OVER w, o.firmware) AS prev_firmware,
                 row_number() OVER (PARTITION BY f.d ORDER BY f.i DESC) = 1 AS last
            FROM fresh f JOIN old o ON o.id = f.d
          WINDOW w AS (PARTITION BY f.d ORDER BY f.i)),
        upd AS (
          UPDATE devices d SET last_heartbeat_at = now(), last_seen_at = greatest(d.last_seen_at, now()),
                 paper_left = s.p, jammed = s.j, firmware = s.f, offline_at = NULL
            FROM seq s WHERE s.last AND d.id = s.d),
        ev AS (
          SELECT s.i, s.d, e.ord, e.kind, e.detail FROM seq s, LATERAL (VALUES
            (1, CASE WHEN s.prev_beat < now() - make_interval(secs => ${OFFLINE_AFTER_SECONDS}) THEN 'online' END,
             jsonb_build_object('offlineSeconds', floor(extract(epoch FROM now() - s.prev_beat))::int)),
            (2, CASE WHEN s.p <= ${LOW_PAPER_SHEETS} AND s.prev_paper > ${LOW_PAPER_SHEETS} THEN 'paperLow' END, jsonb_build_object('paperLeft', s.p)),
            (3, CASE WHEN s.p >= s.prev_paper + ${REFILL_MIN_SHEETS} THEN 'paperRefilled' END, jsonb_build_object('from', s.prev_paper, 'to', s.p)),
            (4, CASE WHEN s.j AND NOT s.prev_jammed THEN 'jammed' END, NULL::jsonb),
            (5, CASE WHEN NOT s.j AND s.prev_jammed THEN 'jamCleared' END, NULL::jsonb),
            -- A newly registered terminal's firmware is '' until its first beat says it: not an upgrade.
            (6, CASE WHEN s.f <> s.prev_firmware AND s.prev_firmware <> '' THEN 'firmware' END, jsonb_build_object('from', s.prev_firmware, 'to', s.f))
          ) AS e(ord, kind, detail)
          WHERE e.kind IS NOT NULL),
        written AS (
          INSERT INTO device_events (device_id, kind, detail) SELECT d, kind, detail FROM ev ORDER BY i, ord)
        SELECT f.i, EXISTS (SELECT 1 FROM old WHERE old.id = f.d) AS known, (SELECT old.partner_id FROM old WHERE old.id = f.d) AS "partnerId",
               coalesce((SELECT old.offline_at IS NOT NULL FROM old WHERE old.id = f.d), false) AS "wasOffline",
               coalesce((SELECT json_agg(ev.kind ORDER BY ev.ord) FROM ev WHERE ev.i = f.i), '[]'::json) AS events
          FROM fresh f, relaxed`,
  );
  const byIndex = new Map(found.map((r) => [r.i, r]));
  return beats.map((_, i): BeatResult => {
    const r = byIndex.get(i);
    if (!r) return { outcome: 'replayed' };
    return r.known ? { outcome: 'recorded', events: r.events, partnerId: r.partnerId, wasOffline: r.wasOffline } : { outcome: 'unknown' };
  });
}

/** Transitions that may open or close an alarm: the batch's terminals with one are reconciled at once. */
const ALARM_TRANSITIONS = new Set(['online', 'paperLow', 'paperRefilled', 'jammed', 'jamCleared']);

/**
 * The batch's live events: a `change` per beat with transitions, a `beat` for the others, then
 * the alarms the transitions opened or closed. Reconciling the alarms is part of the batch: a beat
 * is answered once its alarms are right, so a page that hears the beat reads them.
 */
async function afterBatch(db: Db, bus: LiveBus, beats: readonly Beat[], results: BeatResult[]): Promise<void> {
  const at = new Date().toISOString();
  const events: LiveEvent[] = [];
  const touched = new Set<number>();
  results.forEach((r, i) => {
    if (r.outcome !== 'recorded') return;
    const b = beats[i];
    if (r.events.length) events.push({ type: 'change', deviceId: b.deviceId, partnerId: r.partnerId, at, kinds: r.events });
    else events.push({ type: 'beat', deviceId: b.deviceId, partnerId: r.partnerId, at, paperLeft: b.paperLeft, jammed: b.jammed });
    // The sweep had marked it offline (a terminal that never beat before has no `online` event): its offline alarm may close.
    if (r.wasOffline || r.events.some((k) => ALARM_TRANSITIONS.has(k))) touched.add(b.deviceId);
  });
  const changes = touched.size ? await reconcileAlarms(db, new Date(), [...touched].sort((a, b) => a - b)) : [];
  bus.publish([...events, ...alarmEvents(changes, at)]);
}

/** The server's heartbeat queue: `write` resolves when the beat's batch has committed. */
export function heartbeatWriter(db: Db, bus?: LiveBus) {
  let queue: { beat: Beat; resolve: (r: BeatResult) => void; reject: (e: unknown) => void }[] = [];
  let writing = false;

  async function drain() {
    writing = true;
    while (queue.length) {
      const batch = queue.slice(0, MAX_BATCH);
      queue = queue.slice(batch.length);
      const beats = batch.map((q) => q.beat);
      try {
        // A deadlock with another writer of the terminals (a bulk bind locks them in its own order)
        // rolled the whole batch back, nonces included: writing it again is safe.
        const results = await writeBeats(db, beats).catch((error) => (pgErrorCode(error) === '40P01' ? writeBeats(db, beats) : Promise.reject(error)));
        if (bus) await afterBatch(db, bus, beats, results).catch(() => undefined);
        batch.forEach((q, i) => q.resolve(results[i]));
      } catch (error) {
        batch.forEach((q) => q.reject(error));
      }
    }
    writing = false;
  }

  return {
    write(beat: Beat): Promise<BeatResult> {
      return new Promise((resolve, reject) => {
        queue.push({ beat, resolve, reject });
        if (!writing) void drain();
      });
    },
  };
}
