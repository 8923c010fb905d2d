// Class wrong-answer book figures: the list of a class's wrongly answered questions (first page,
// all bands, and the >40 % band) and one question's wrong students, through the real app (HTTP
// inject: auth, access checks, the queries, serialisation), p95 over RUNS calls — on PGlite at the
// demo school, and on a generated district in PostgreSQL when DATABASE_URL is set (SCALE as in
// bench/exams.ts; 0.04, two schools, unless given; `--reuse` measures a kept district).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app';
import type { Database } from '../server/db';
import { rows } from '../server/db/query';
import { DEMO_PASSWORD } from '../server/seed';
import { currentAcademicYear } from '../src/domain/semester';
import { testConfig } from '../tests/support/testApp';
import { openTestDatabase } from '../tests/support/testDatabase';
import { benchTeacher, onDistrict } from './district';
import type { BenchRow } from './table';

const RUNS = 100;
const BASE = '/api/wrongbook/v1.0/web/class/mistakes';

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/** Times the book of each teacher's classes for the course `courseName`, teachers taken in turn. */
async function timeBook(database: Database, usernames: string[], courseName: string, label: string): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'xz-bench-wrongbook-'));
  const app = await buildApp({ db: database.db, config: testConfig({ dataDir }) });
  try {
    const targets: { headers: Record<string, string>; list: string; band: string; detail: string }[] = [];
    for (const username of usernames) {
      const login = await app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username, password: DEMO_PASSWORD } });
      if (login.statusCode !== 200) throw new Error(`login ${username}: ${login.body}`);
      const headers = { 'blade-auth': `bearer ${login.json().data.accessToken}` };
      const data = async (url: string) => {
        const res = await app.inject({ url, headers });
        if (res.statusCode !== 200) throw new Error(`${url} → ${res.statusCode} ${res.body.slice(0, 200)}`);
        const d = res.json().data;
        return Array.isArray(d) ? d : (d.records ?? d);
      };
      for (const cls of (await data('/api/vesta/teaching/getTeachClass')) as { id: number }[]) {
        const course = ((await data(`/api/vesta/teaching/getCourseList?classId=${cls.id}`)) as { courseId: number; courseName: string }[]).find((c) => c.courseName === courseName);
        if (!course) continue;
        const scope = `classId=${cls.id}&courseId=${course.courseId}&term=${currentAcademicYear()}`;
        const page = await app.inject({ url: `${BASE}?${scope}&size=20`, headers });
        const first = page.json().data.records[0];
        if (!first) continue;
        targets.push({ headers, list: `${BASE}?${scope}&size=20`, band: `${BASE}?${scope}&band=gt40&size=20`, detail: `${BASE}/${first.question.id}?${scope}` });
      }
    }
    if (!targets.length) throw new Error(`no class with wrong answers for ${usernames.join(', ')}`);
    const call = async (url: string, headers: Record<string, string>) => {
      const t0 = performance.now();
      const res = await app.inject({ url, headers });
      const ms = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`${url} → ${res.statusCode} ${res.body.slice(0, 200)}`);
      return { ms, data: res.json().data };
    };
    for (let i = 0; i < 5; i++) for (const url of [targets[0].list, targets[0].band, targets[0].detail]) await call(url, targets[0].headers);
    const listMs: number[] = [];
    const bandMs: number[] = [];
    const detailMs: number[] = [];
    let questions = 0;
    for (let i = 0; i < RUNS; i++) {
      const t = targets[i % targets.length];
      const list = await call(t.list, t.headers);
      listMs.push(list.ms);
      if (i === 0) questions = list.data.total;
      bandMs.push((await call(t.band, t.headers)).ms);
      detailMs.push((await call(t.detail, t.headers)).ms);
    }
    return [
      { name: `class_wrongbook_list_p95_ms_${label}`, value: percentile(listMs, 0.95), unit: 'ms', target: '≤ 100' },
      { name: `class_wrongbook_list_p50_ms_${label}`, value: percentile(listMs, 0.5), unit: 'ms', target: '' },
      { name: `class_wrongbook_band_p95_ms_${label}`, value: percentile(bandMs, 0.95), unit: 'ms', target: '≤ 100' },
      { name: `class_wrongbook_detail_p95_ms_${label}`, value: percentile(detailMs, 0.95), unit: 'ms', target: '≤ 100' },
      { name: `class_wrongbook_runs_${label}`, value: RUNS, unit: '', target: '≥ 50' },
      { name: `class_wrongbook_classes_${label}`, value: targets.length, unit: '', target: '' },
      { name: `class_wrongbook_questions_${label}`, value: questions, unit: '', target: '' },
    ];
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function benchDistrict(serverUrl: string): Promise<BenchRow[]> {
  return onDistrict(serverUrl, async (database) => {
    const schoolIds = (await rows<{ id: number }>(database.db, sql`SELECT id FROM schools ORDER BY id`)).map((r) => r.id).slice(0, 10);
    return [{ name: 'class_wrongbook_district_schools', value: schoolIds.length, unit: '', target: '' }, ...(await timeBook(database, schoolIds.map(benchTeacher), '数学', 'pg'))];
  });
}

export async function benchWrongbook(): Promise<BenchRow[]> {
  const out: BenchRow[] = [];
  if (process.env.DATABASE_URL) out.push(...(await benchDistrict(process.env.DATABASE_URL)));
  // The demo school: 陈静 teaches 数学 in 七(1) and 七(2).
  const demo = await openTestDatabase({ url: '' });
  try {
    out.push(...(await timeBook(demo, ['teacher'], '数学', 'pglite')));
  } finally {
    await demo.close();
  }
  return out;
}
