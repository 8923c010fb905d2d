// Usage as the terminals report it: sign-ins and print jobs, written together with the day
// rollups the data boards read (print_daily, device_daily, usage_daily), in one statement each,
// so a board never sees a job without its totals. Days are China days.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { rows } from '../../db/query';

/** A terminal as usage is attributed: its owner and the school it stands in. */
export interface DeviceRef {
  id: number;
  partnerId: number;
  schoolId: number;
  tenantId: number;
}

export interface PrintJobInput {
  /** The terminal's own id of the job: an upload retried after a lost answer is recorded once. */
  clientJobId: string;
  userKind: number;
  userId: number;
  app: number;
  subjectId: number | null;
  pages: number;
  printedAt: Date;
}

const chinaDay = (column: string) => sql.raw(`((${column} AT TIME ZONE 'UTC') + interval '8 hours')::date`);

/**
 * Records a batch of print jobs of one terminal; returns how many were new. The rollups are
 * upserted in key order, so concurrent batches of one school lock their rows in the same order.
 */
export async function recordPrintJobs(db: Db, device: DeviceRef, jobs: readonly PrintJobInput[]): Promise<number> {
  if (!jobs.length) return 0;
  const input = JSON.stringify(
    jobs.map((j) => ({ c: j.clientJobId, k: j.userKind, u: j.userId, a: j.app, s: j.subjectId, p: j.pages, t: j.printedAt.toISOString() })),
  );
  const day = chinaDay('printed_at');
  const [{ n }] = await rows<{ n: number }>(
    db,
    sql`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${input}::jsonb) AS x(c text, k int, u int, a int, s int, p int, t timestamptz)),
    ins AS (
      INSERT INTO print_jobs (device_id, client_job_id, partner_id, school_id, tenant_id, user_kind, user_id, app, subject_id, pages, printed_at)
      SELECT ${device.id}, c, ${device.partnerId}, ${device.schoolId}, ${device.tenantId}, k, u, a, s, p, t FROM input
      ON CONFLICT (device_id, client_job_id) DO NOTHING
      RETURNING user_kind, user_id, app, coalesce(subject_id, 0) AS subject_id, pages, printed_at, ${day} AS day),
    printed AS (
      INSERT INTO print_daily (partner_id, school_id, day, app, subject_id, user_kind, jobs, pages)
      SELECT ${device.partnerId}, ${device.schoolId}, day, app, subject_id, user_kind, count(*), sum(pages) FROM ins
       GROUP BY day, app, subject_id, user_kind ORDER BY day, app, subject_id, user_kind
      ON CONFLICT (partner_id, day, school_id, app, subject_id, user_kind)
      DO UPDATE SET jobs = print_daily.jobs + excluded.jobs, pages = print_daily.pages + excluded.pages),
    per_device AS (
      INSERT INTO device_daily (device_id, day, partner_id, school_id, jobs, pages)
      SELECT ${device.id}, day, ${device.partnerId}, ${device.schoolId}, count(*), sum(pages) FROM ins GROUP BY day ORDER BY day
      ON CONFLICT (device_id, day) DO UPDATE SET jobs = device_daily.jobs + excluded.jobs, pages = device_daily.pages + excluded.pages),
    first_today AS (
      INSERT INTO usage_user_days (day, tenant_id, user_kind, user_id)
      SELECT DISTINCT day, ${device.tenantId}::int, user_kind, user_id FROM ins ORDER BY 1, 3, 4
      ON CONFLICT DO NOTHING
      RETURNING day, user_kind),
    active AS (
      INSERT INTO usage_daily (partner_id, school_id, day, user_kind, users, uses)
      SELECT ${device.partnerId}, ${device.schoolId}, day, user_kind, count(*), 0 FROM first_today GROUP BY day, user_kind ORDER BY day, user_kind
      ON CONFLICT (partner_id, day, school_id, user_kind) DO UPDATE SET users = usage_daily.users + excluded.users),
    seen AS (
      UPDATE devices SET last_seen_at = greatest(last_seen_at, (SELECT max(printed_at) FROM ins)) WHERE id = ${device.id} AND EXISTS (SELECT 1 FROM ins))
    SELECT count(*)::int AS n FROM ins`,
  );
  return n;
}

export interface SignInInput {
  userKind: number;
  userId: number;
  at: Date;
}

/** Records one sign-in on a terminal: one use, and the user active that day. */
export async function recordSignIn(db: Db, device: DeviceRef, user: { userKind: number; userId: number }, at: Date): Promise<void> {
  await recordSignIns(db, device, [{ ...user, at }]);
}

/**
 * Records sign-ins a terminal buffered (its offline roster, docs/api-devices.md); returns how many
 * were new. A sign-in already recorded (same terminal, user and instant) is not counted twice, so
 * a retried upload changes nothing.
 */
export async function recordSignIns(db: Db, device: DeviceRef, signIns: readonly SignInInput[]): Promise<number> {
  if (!signIns.length) return 0;
  const input = JSON.stringify(signIns.map((s) => ({ k: s.userKind, u: s.userId, t: s.at.toISOString() })));
  const day = chinaDay('at');
  const [{ n }] = await rows<{ n: number }>(
    db,
    sql`
    WITH input AS (
      SELECT DISTINCT k, u, t FROM jsonb_to_recordset(${input}::jsonb) AS x(k int, u int, t timestamptz)),
    ins AS (
      INSERT INTO device_sign_ins (device_id, partner_id, school_id, tenant_id, user_kind, user_id, at)
      SELECT ${device.id}, ${device.partnerId}, ${device.schoolId}, ${device.tenantId}, k, u, t FROM input
       WHERE NOT EXISTS (SELECT 1 FROM device_sign_ins s WHERE s.tenant_id = ${device.tenantId} AND s.user_kind = input.k
                            AND s.user_id = input.u AND s.at = input.t AND s.device_id = ${device.id})
      RETURNING user_kind, user_id, ${day} AS day),
    per_device AS (
      INSERT INTO device_daily (device_id, day, partner_id, school_id, sign_ins)
      SELECT ${device.id}, day, ${device.partnerId}, ${device.schoolId}, count(*) FROM ins GROUP BY day ORDER BY day
      ON CONFLICT (device_id, day) DO UPDATE SET sign_ins = device_daily.sign_ins + excluded.sign_ins),
    first_today AS (
      INSERT INTO usage_user_days (day, tenant_id, user_kind, user_id)
      SELECT DISTINCT day, ${device.tenantId}::int, user_kind, user_id FROM ins ORDER BY 1, 3, 4
      ON CONFLICT DO NOTHING
      RETURNING day, user_kind),
    uses AS (
      SELECT day, user_kind, count(*) AS uses FROM ins GROUP BY day, user_kind),
    active AS (
      INSERT INTO usage_daily (partner_id, school_id, day, user_kind, users, uses)
      SELECT ${device.partnerId}, ${device.schoolId}, u.day, u.user_kind,
             (SELECT count(*) FROM first_today f WHERE f.day = u.day AND f.user_kind = u.user_kind), u.uses
        FROM uses u ORDER BY u.day, u.user_kind
      ON CONFLICT (partner_id, day, school_id, user_kind)
      DO UPDATE SET users = usage_daily.users + excluded.users, uses = usage_daily.uses + excluded.uses)
    SELECT count(*)::int AS n FROM ins`,
  );
  return n;
}
