// Usage as the terminals report it: sign-ins and print jobs, written together with the rollups the
// data boards read, in one statement each, so a board never sees a job without its totals:
//   print_daily          partner × school × day × app × subject × user kind (a school's 按应用/按学科)
//   print_partner_daily  the same without the school, and print_partner_monthly by month (a subtree's)
//   usage_daily          partner × school × day × user kind: users, uses, jobs, pages (KPIs, 总体)
//   usage_monthly        the same by month (a year's board reads 12 rows per school)
//   device_daily         per terminal and day (active terminals, a terminal's history)
// Days are China days; a month is its first day.
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
 * The usage_daily and usage_monthly upserts, as CTEs reading `totals(day, user_kind, users, uses,
 * jobs, pages)`: what one statement adds to a school's (day, user kind) rows.
 */
const usageUpserts = (device: DeviceRef) => sql`
    used_day AS (
      INSERT INTO usage_daily (partner_id, school_id, day, user_kind, users, uses, jobs, pages)
      SELECT ${device.partnerId}, ${device.schoolId}, day, user_kind, users, uses, jobs, pages FROM totals ORDER BY day, user_kind
      ON CONFLICT (partner_id, day, school_id, user_kind)
      DO UPDATE SET users = usage_daily.users + excluded.users, uses = usage_daily.uses + excluded.uses,
                    jobs = usage_daily.jobs + excluded.jobs, pages = usage_daily.pages + excluded.pages),
    used_month AS (
      INSERT INTO usage_monthly (partner_id, school_id, month, user_kind, users, uses, jobs, pages)
      SELECT ${device.partnerId}, ${device.schoolId}, date_trunc('month', day)::date, user_kind, sum(users), sum(uses), sum(jobs), sum(pages)
        FROM totals GROUP BY 3, 4 ORDER BY 3, 4
      ON CONFLICT (partner_id, month, school_id, user_kind)
      DO UPDATE SET users = usage_monthly.users + excluded.users, uses = usage_monthly.uses + excluded.uses,
                    jobs = usage_monthly.jobs + excluded.jobs, pages = usage_monthly.pages + excluded.pages)`;

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
    kinds AS (
      SELECT day, app, subject_id, user_kind, count(*) AS jobs, sum(pages) AS pages FROM ins GROUP BY 1, 2, 3, 4),
    printed AS (
      INSERT INTO print_daily (partner_id, school_id, day, app, subject_id, user_kind, jobs, pages)
      SELECT ${device.partnerId}, ${device.schoolId}, day, app, subject_id, user_kind, jobs, pages FROM kinds ORDER BY day, app, subject_id, user_kind
      ON CONFLICT (partner_id, day, school_id, app, subject_id, user_kind)
      DO UPDATE SET jobs = print_daily.jobs + excluded.jobs, pages = print_daily.pages + excluded.pages),
    printed_partner AS (
      INSERT INTO print_partner_daily (partner_id, day, app, subject_id, user_kind, jobs, pages)
      SELECT ${device.partnerId}, day, app, subject_id, user_kind, jobs, pages FROM kinds ORDER BY day, app, subject_id, user_kind
      ON CONFLICT (partner_id, day, app, subject_id, user_kind)
      DO UPDATE SET jobs = print_partner_daily.jobs + excluded.jobs, pages = print_partner_daily.pages + excluded.pages),
    printed_month AS (
      INSERT INTO print_partner_monthly (partner_id, month, app, subject_id, user_kind, jobs, pages)
      SELECT ${device.partnerId}, date_trunc('month', day)::date, app, subject_id, user_kind, sum(jobs), sum(pages) FROM kinds GROUP BY 2, 3, 4, 5 ORDER BY 2, 3, 4, 5
      ON CONFLICT (partner_id, month, app, subject_id, user_kind)
      DO UPDATE SET jobs = print_partner_monthly.jobs + excluded.jobs, pages = print_partner_monthly.pages + excluded.pages),
    per_device AS (
      INSERT INTO device_daily (device_id, day, partner_id, school_id, jobs, pages)
      SELECT ${device.id}, day, ${device.partnerId}, ${device.schoolId}, sum(jobs), sum(pages) FROM kinds GROUP BY day ORDER BY day
      ON CONFLICT (device_id, day) DO UPDATE SET jobs = device_daily.jobs + excluded.jobs, pages = device_daily.pages + excluded.pages),
    first_today AS (
      INSERT INTO usage_user_days (day, tenant_id, user_kind, user_id)
      SELECT DISTINCT day, ${device.tenantId}::int, user_kind, user_id FROM ins ORDER BY 1, 3, 4
      ON CONFLICT DO NOTHING
      RETURNING day, user_kind),
    totals AS (
      SELECT k.day, k.user_kind, (SELECT count(*) FROM first_today f WHERE f.day = k.day AND f.user_kind = k.user_kind) AS users,
             0 AS uses, sum(k.jobs) AS jobs, sum(k.pages) AS pages
        FROM kinds k GROUP BY k.day, k.user_kind),
    ${usageUpserts(device)},
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
    totals AS (
      SELECT i.day, i.user_kind, (SELECT count(*) FROM first_today f WHERE f.day = i.day AND f.user_kind = i.user_kind) AS users,
             count(*) AS uses, 0 AS jobs, 0 AS pages
        FROM ins i GROUP BY i.day, i.user_kind),
    ${usageUpserts(device)}
    SELECT count(*)::int AS n FROM ins`,
  );
  return n;
}
