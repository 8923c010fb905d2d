// 数据看板 response times for a level-1 partner with 1,000 terminals and a year of usage, through
// the real app (HTTP inject: auth, subtree scope, the rollup queries, serialisation), p95 over 20
// calls, on PGlite and, with DATABASE_URL, on PostgreSQL (a fresh database of its own). The
// rollups and terminals are loaded with SQL (generate_series): 200 schools of 5 terminals spread
// over partner1's subtree, school days only, 24 app × subject × role rows per school and day; the
// subtree and monthly rollups are then summed from those as the recorders keep them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app';
import type { Database } from '../server/db';
import { rows } from '../server/db/query';
import { DEMO_PASSWORD } from '../server/seed';
import { addDays, chinaToday } from '../src/domain/boardRange';
import { testConfig } from '../tests/support/testApp';
import { openTestDatabase } from '../tests/support/testDatabase';
import { percentile, timed, type BenchRow } from './table';

const SCHOOLS = 200;
const TERMINALS_PER_SCHOOL = 5;
const DAYS = 365;
/** A year's board on PGlite takes seconds: fewer calls keep the group within minutes. */
const RUNS = 20;

/** Loads the terminals and a year of rollups; returns the row counts. */
async function load(database: Database): Promise<{ printDaily: number; deviceDaily: number; usageDaily: number; ms: number }> {
  const db = database.db;
  const t0 = performance.now();
  const [p1] = await rows<{ id: number; ancestors: string }>(db, sql`SELECT p.id, p.ancestors FROM partners p JOIN users u ON u.partner_id = p.id WHERE u.username = 'partner1'`);
  const subtree = (await rows<{ id: number }>(db, sql`SELECT id FROM partners WHERE id = ${p1.id} OR ancestors LIKE ${`${p1.ancestors},${p1.id}%`} ORDER BY id`)).map((r) => r.id);
  const owners = sql.raw(`ARRAY[${subtree.join(',')}]`);
  const [tenant] = await rows<{ id: number }>(db, sql`INSERT INTO tenants (name) VALUES ('看板压测') RETURNING id`);
  await db.execute(sql`
    INSERT INTO schools (tenant_id, name, region, partner_id)
    SELECT ${tenant.id}, '压测学校' || n, '压测区', (${owners})[1 + n % ${subtree.length}] FROM generate_series(1, ${SCHOOLS}) n`);
  await db.execute(sql`
    INSERT INTO devices (serial, model, partner_id, school_id, tenant_id, secret, firmware, last_seen_at)
    SELECT 'BENCH' || s.id || '-' || k, 'XZ-P100', s.partner_id, s.id, s.tenant_id, 'x', '2.4.0', now() - (k * interval '2 minutes')
      FROM schools s CROSS JOIN generate_series(1, ${TERMINALS_PER_SCHOOL}) k WHERE s.tenant_id = ${tenant.id}`);
  const days = sql`(SELECT d::date AS day FROM generate_series(${addDays(chinaToday(), -(DAYS - 1))}::date, ${chinaToday()}::date, interval '1 day') d WHERE extract(isodow FROM d) < 6)`;
  await db.execute(sql`
    INSERT INTO print_daily (partner_id, school_id, day, app, subject_id, user_kind, jobs, pages)
    SELECT s.partner_id, s.id, d.day, app, subject, kind, 1 + (s.id + app + subject) % 9, 3 + (s.id * app + subject) % 20
      FROM schools s CROSS JOIN ${days} d CROSS JOIN generate_series(1, 4) app CROSS JOIN generate_series(1, 3) subject CROSS JOIN generate_series(1, 2) kind
     WHERE s.tenant_id = ${tenant.id}`);
  await db.execute(sql`
    INSERT INTO device_daily (device_id, day, partner_id, school_id, jobs, pages, sign_ins)
    SELECT dv.id, d.day, dv.partner_id, dv.school_id, 10 + dv.id % 7, 40 + dv.id % 30, 8 + dv.id % 5
      FROM devices dv CROSS JOIN ${days} d WHERE dv.tenant_id = ${tenant.id}`);
  await db.execute(sql`
    INSERT INTO usage_daily (partner_id, school_id, day, user_kind, users, uses)
    SELECT s.partner_id, s.id, d.day, kind, 20 + s.id % 40, 30 + s.id % 50
      FROM schools s CROSS JOIN ${days} d CROSS JOIN generate_series(1, 2) kind WHERE s.tenant_id = ${tenant.id}`);
  // The rollups made from these, as the recorders keep them: jobs and pages per school and day,
  // the subtree's prints without the school, and both by month.
  await db.execute(sql`
    UPDATE usage_daily u SET jobs = p.jobs, pages = p.pages
      FROM (SELECT partner_id, school_id, day, user_kind, sum(jobs) AS jobs, sum(pages) AS pages FROM print_daily GROUP BY 1, 2, 3, 4) p
     WHERE (u.partner_id, u.school_id, u.day, u.user_kind) = (p.partner_id, p.school_id, p.day, p.user_kind)`);
  await db.execute(sql`
    INSERT INTO usage_monthly (partner_id, school_id, month, user_kind, users, uses, jobs, pages)
    SELECT partner_id, school_id, date_trunc('month', day)::date, user_kind, sum(users), sum(uses), sum(jobs), sum(pages) FROM usage_daily GROUP BY 1, 2, 3, 4`);
  await db.execute(sql`
    INSERT INTO print_partner_daily (partner_id, day, app, subject_id, user_kind, jobs, pages)
    SELECT partner_id, day, app, subject_id, user_kind, sum(jobs), sum(pages) FROM print_daily GROUP BY 1, 2, 3, 4, 5`);
  await db.execute(sql`
    INSERT INTO print_partner_monthly (partner_id, month, app, subject_id, user_kind, jobs, pages)
    SELECT partner_id, date_trunc('month', day)::date, app, subject_id, user_kind, sum(jobs), sum(pages) FROM print_daily GROUP BY 1, 2, 3, 4, 5`);
  await db.execute(sql`ANALYZE`);
  const [c] = await rows<{ p: number; d: number; u: number }>(db, sql`
    SELECT (SELECT count(*)::int FROM print_daily) AS p, (SELECT count(*)::int FROM device_daily) AS d, (SELECT count(*)::int FROM usage_daily) AS u`);
  return { printDaily: c.p, deviceDaily: c.d, usageDaily: c.u, ms: performance.now() - t0 };
}

async function benchOn(label: string, database: Database): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'xz-bench-boards-'));
  console.error(`  loading 1,000 terminals and a year of rollups (${label})`);
  const loaded = await load(database);
  console.error(`  loaded in ${Math.round(loaded.ms)} ms: ${loaded.printDaily} print_daily rows`);
  const app = await buildApp({ db: database.db, config: testConfig({ dataDir }) });
  try {
    const login = await app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'partner1', password: DEMO_PASSWORD } });
    const headers = { 'blade-auth': `bearer ${login.json().data.accessToken}` };
    const call = (query: string) => async () => {
      const res = await app.inject({ url: `/api/wrongbook/v1.0/partner/board/overview?${query}`, headers });
      if (res.statusCode !== 200) throw new Error(`${query}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    };
    const today = chinaToday();
    const year = `queryMode=custom&startDate=${addDays(today, -(DAYS - 1))}&endDate=${today}`;
    const month = await timed(call('queryMode=month'), RUNS);
    const yearOverall = await timed(call(`${year}&statistics=overall&metric=pages`), RUNS);
    const yearSubject = await timed(call(`${year}&statistics=subject&metric=pages&userKind=1`), RUNS);
    const term = await timed(call('queryMode=term&statistics=app&metric=pages'), RUNS);
    const schools = await timed(async () => {
      const res = await app.inject({ url: `/api/wrongbook/v1.0/partner/board/schools?${year}&size=20`, headers });
      if (res.statusCode !== 200) throw new Error(`schools: ${res.statusCode}`);
    }, RUNS);
    return [
      { name: `boards_print_daily_rows_${label}`, value: loaded.printDaily, unit: '', target: '' },
      { name: `boards_device_daily_rows_${label}`, value: loaded.deviceDaily, unit: '', target: '' },
      { name: `boards_load_ms_${label}`, value: Math.round(loaded.ms), unit: 'ms', target: '' },
      { name: `boards_overview_month_p95_ms_${label}`, value: percentile(month, 0.95), unit: 'ms', target: '≤ 200' },
      { name: `boards_overview_year_p95_ms_${label}`, value: percentile(yearOverall, 0.95), unit: 'ms', target: '≤ 200' },
      { name: `boards_overview_year_subject_p95_ms_${label}`, value: percentile(yearSubject, 0.95), unit: 'ms', target: '≤ 200' },
      { name: `boards_overview_term_app_p95_ms_${label}`, value: percentile(term, 0.95), unit: 'ms', target: '' },
      { name: `boards_schools_year_p95_ms_${label}`, value: percentile(schools, 0.95), unit: 'ms', target: '' },
    ];
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchPartnerBoards(): Promise<BenchRow[]> {
  const lite = await openTestDatabase({ url: '' });
  const out = await benchOn('pglite', lite).finally(() => lite.close());
  if (process.env.DATABASE_URL) {
    const pg = await openTestDatabase({ url: process.env.DATABASE_URL });
    out.push(...(await benchOn('pg', pg).finally(() => pg.close())));
  }
  return out;
}
