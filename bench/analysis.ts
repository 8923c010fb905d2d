// 学情分析 response times through the real app (HTTP inject: auth, scope checks, the rollup queries,
// serialisation), p95 over RUNS calls: the principal's school and the regional researcher's
// region on the demo data (PGlite). With DATABASE_URL, also on a generated district
// (bench/district.ts, SCALE as in bench/exams.ts; SCALE=0.04 is 2 schools), where the figures are
// read for one school and for the whole district as a region, calling the module directly
// (the district has no principal or researcher account).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app';
import type { Principal } from '../server/auth/principal';
import { rows } from '../server/db/query';
import { DEMO_PASSWORD } from '../server/seed';
import { analysis } from '../server/modules/analysis/figures';
import { currentSemester } from '../src/domain/semester';
import { testConfig } from '../tests/support/testApp';
import { openTestDatabase } from '../tests/support/testDatabase';
import { onDistrict } from './district';
import { percentile, timed, type BenchRow } from './table';

const rowsFor = (label: string, school: number[], region: number[]): BenchRow[] => [
  { name: `analysis_school_p95_ms_${label}`, value: percentile(school, 0.95), unit: 'ms', target: '≤ 200' },
  { name: `analysis_school_p50_ms_${label}`, value: percentile(school, 0.5), unit: 'ms', target: '' },
  { name: `analysis_region_p95_ms_${label}`, value: percentile(region, 0.95), unit: 'ms', target: '≤ 300' },
  { name: `analysis_region_p50_ms_${label}`, value: percentile(region, 0.5), unit: 'ms', target: '' },
];

async function benchDemo(): Promise<BenchRow[]> {
  const demo = await openTestDatabase({ url: '' });
  const dataDir = mkdtempSync(join(tmpdir(), 'xz-bench-analysis-'));
  const app = await buildApp({ db: demo.db, config: testConfig({ dataDir }) });
  try {
    const as = async (username: string) => {
      const login = await app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username, password: DEMO_PASSWORD } });
      const headers = { 'blade-auth': `bearer ${login.json().data.accessToken}` };
      return async () => {
        const res = await app.inject({ url: '/api/analysis/v1.0/overview', headers });
        if (res.statusCode !== 200) throw new Error(`${username}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      };
    };
    return rowsFor('pglite', await timed(await as('principal')), await timed(await as('researcher')));
  } finally {
    await app.close();
    await demo.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A principal of the figures module's own making: the scope rule reads only these fields. */
const reader = (role: 'schoolMaster' | 'regionResearcher', tenantId: number, schoolId: number, region: string) =>
  ({ userId: 0, tenantId, schoolId, region, activeRole: role, roles: [role], roleKeys: [], partnerId: null, partnerLevel: 0 }) as unknown as Principal;

async function benchDistrict(serverUrl: string): Promise<BenchRow[]> {
  // On a district of its own, or on the one another bench kept (`--keep`, then `--reuse`).
  return onDistrict(serverUrl, async (database) => {
    const [s] = await rows<{ id: number; tenantId: number; region: string }>(database.db, sql`SELECT id, tenant_id AS "tenantId", coalesce(region, '') AS region FROM schools ORDER BY id LIMIT 1`);
    const [{ schools }] = await rows<{ schools: number }>(database.db, sql`SELECT count(*)::int AS schools FROM schools`);
    const db = database.db;
    const q = { term: currentSemester() };
    const school = await timed(() => analysis(db, reader('schoolMaster', s.tenantId, s.id, s.region), q));
    const region = await timed(() => analysis(db, reader('regionResearcher', s.tenantId, s.id, s.region), q));
    return [{ name: 'analysis_district_schools', value: schools, unit: '', target: '' }, ...rowsFor('pg_district', school, region)];
  });
}

export async function benchAnalysis(): Promise<BenchRow[]> {
  const out = await benchDemo();
  if (process.env.DATABASE_URL) out.push(...(await benchDistrict(process.env.DATABASE_URL)));
  return out;
}
