// The fleet's watch: terminals that stopped beating get an `offline` event (the heartbeat writes
// `online` when they come back), and alarms open and close with the terminals' state
// (src/domain/alarms.ts). `sweep` looks at every terminal and runs every SWEEP_SECONDS;
// `reconcileAlarms` looks at the terminals of a heartbeat batch that reported a transition, so a
// jam or low paper shows at once rather than at the next sweep. Both take the instant to judge by,
// so tests move time without waiting.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db';
import { isoTime, rows } from '../../db/query';
import { ALARM_OFFLINE_MINUTES, ALARM_PAPER_SHEETS, type LiveEvent } from '../../../src/domain/alarms';
import { OFFLINE_AFTER_SECONDS } from '../../../src/domain/partner';
import type { LiveBus } from './live';
import { sweepOnce } from '../../jobs/sweeps';

/**
 * A terminal's last sign of life: its last beat; for one that never beat since it was deployed
 * (a demo terminal that fell silent before the server kept beats), its last print job, else when
 * it was bound.
 */
const LAST_LIFE = sql.raw('coalesce(d.last_heartbeat_at, d.last_seen_at, d.bound_at)');

interface AlarmChange {
  alarmId: number;
  deviceId: number;
  partnerId: number;
  kind: string;
  action: 'opened' | 'resolved';
}

/**
 * Opens the alarms whose condition holds and closes those whose condition cleared, for the given
 * terminals (all when omitted), judged at `at`. One statement: the resolutions and openings read
 * the same snapshot. A terminal's condition is an episode (`since`): a new jam, a new fall below
 * the paper line, a new silence; an alarm of an older episode closes, and one already closed by a
 * partner is not opened again for the same episode.
 */
export async function reconcileAlarms(db: Db, at: Date, deviceIds?: readonly number[]): Promise<AlarmChange[]> {
  if (deviceIds && !deviceIds.length) return [];
  const which: SQL = deviceIds ? sql`d.id IN (${sql.join(deviceIds.map((id) => sql`${id}`), sql`, `)})` : sql`true`;
  const now = at.toISOString();
  return rows<AlarmChange>(
    db,
    sql`WITH cond AS (
          SELECT d.id AS device_id, d.partner_id, d.school_id, k.kind, k.active,
                 CASE WHEN k.active THEN coalesce(k.since, d.created_at) END AS since, k.detail
            FROM devices d, LATERAL (VALUES
              ('offline', d.school_id IS NOT NULL AND ${LAST_LIFE} < ${now}::timestamptz - make_interval(mins => ${ALARM_OFFLINE_MINUTES}),
               ${LAST_LIFE}, jsonb_build_object('lastSeenAt', ${isoTime(LAST_LIFE)})),
              ('paperLow', d.school_id IS NOT NULL AND d.paper_left <= ${ALARM_PAPER_SHEETS},
               CASE WHEN d.paper_left <= ${ALARM_PAPER_SHEETS} THEN (SELECT max(e.at) FROM device_events e WHERE e.device_id = d.id AND e.kind = 'paperLow') END,
               jsonb_build_object('paperLeft', d.paper_left)),
              ('jammed', d.school_id IS NOT NULL AND d.jammed,
               CASE WHEN d.jammed THEN (SELECT max(e.at) FROM device_events e WHERE e.device_id = d.id AND e.kind = 'jammed') END,
               NULL::jsonb)
            ) AS k(kind, active, since, detail)
           WHERE ${which}),
        closed AS (
          UPDATE device_alarms a SET resolved_at = ${now}::timestamptz, auto_resolved = true
            FROM cond c
           WHERE a.device_id = c.device_id AND a.kind = c.kind AND a.resolved_at IS NULL
             AND (NOT c.active OR a.since <> c.since)
          RETURNING a.id, a.device_id, a.partner_id, a.kind),
        opened AS (
          INSERT INTO device_alarms (device_id, partner_id, school_id, kind, since, detail, opened_at)
          SELECT device_id, partner_id, school_id, kind, since, detail, ${now}::timestamptz FROM cond WHERE active
           ORDER BY device_id, kind
          ON CONFLICT (device_id, kind, since) DO NOTHING
          RETURNING id, device_id, partner_id, kind)
        SELECT id AS "alarmId", device_id AS "deviceId", partner_id AS "partnerId", kind, 'resolved' AS action FROM closed
        UNION ALL
        SELECT id, device_id, partner_id, kind, 'opened' FROM opened`,
  );
}

/**
 * Records `offline` for the deployed terminals whose beats stopped (once per silence: `offline_at`
 * is set until the next beat), at the moment they became offline, then reconciles every alarm.
 */
export async function sweep(db: Db, at: Date = new Date(), bus?: LiveBus): Promise<{ offline: number; opened: number; resolved: number }> {
  const now = at.toISOString();
  const silent = await rows<{ deviceId: number; partnerId: number; at: string }>(
    db,
    sql`WITH gone AS (
          UPDATE devices d SET offline_at = ${LAST_LIFE} + make_interval(secs => ${OFFLINE_AFTER_SECONDS})
           WHERE d.school_id IS NOT NULL AND d.offline_at IS NULL
             AND ${LAST_LIFE} < ${now}::timestamptz - make_interval(secs => ${OFFLINE_AFTER_SECONDS})
          RETURNING d.id, d.partner_id, d.offline_at, ${LAST_LIFE} AS last_life),
        written AS (
          INSERT INTO device_events (device_id, at, kind, detail)
          SELECT id, offline_at, 'offline', jsonb_build_object('lastSeenAt', ${isoTime(sql`last_life`)}) FROM gone ORDER BY id)
        SELECT id AS "deviceId", partner_id AS "partnerId", ${isoTime(sql`offline_at`)} AS at FROM gone`,
  );
  const changes = await reconcileAlarms(db, at);
  bus?.publish([
    ...silent.map((s): LiveEvent => ({ type: 'change', deviceId: s.deviceId, partnerId: s.partnerId, at: s.at, kinds: ['offline'] })),
    ...alarmEvents(changes, now),
  ]);
  return { offline: silent.length, opened: changes.filter((c) => c.action === 'opened').length, resolved: changes.filter((c) => c.action === 'resolved').length };
}

export const alarmEvents = (changes: AlarmChange[], at: string): LiveEvent[] =>
  changes.map((c) => ({ type: 'alarm', deviceId: c.deviceId, partnerId: c.partnerId, at, alarmId: c.alarmId, kind: c.kind, action: c.action }));

/** Runs the sweep every `seconds` (in one of the API processes) until stopped; a failed sweep is logged and the next one tries again. */
export function startSweeps(db: Db, bus: LiveBus, seconds: number, log: (error: unknown) => void): { stop(): Promise<void> } {
  let running: Promise<unknown> | undefined;
  const tick = () => {
    if (running) return;
    // Once per period across all API processes (jobs/sweeps.ts); the process that sweeps publishes
    // the events, which reach every process's streams through the shared bus.
    running = sweepOnce(db, 'device-offline', seconds * 1000, () => sweep(db, new Date(), bus))
      .catch(log)
      .finally(() => (running = undefined));
  };
  const timer = setInterval(tick, seconds * 1000);
  timer.unref();
  tick();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
