// The leaders' exam report (考试分析) of a whole grade, through the real app (HTTP inject: auth, the
// scope's checks, the queries, the reply schema), p95 over RUNS calls: the report and its analysis
// (临界生, 进退步, 学科均衡, knowledge points), the two calls the grade level of the screen makes.
// On the generated district in PostgreSQL (grade 7 of a school: 12 classes, when DATABASE_URL is
// set) a grade leader is appointed for the measurement; on PGlite the demo's 七年级 (4 classes).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app';
import type { Database } from '../server/db';
import { rows } from '../server/db/query';
import { DEMO_PASSWORD } from '../server/seed';
import { testConfig } from '../tests/support/testApp';
import { openTestDatabase } from '../tests/support/testDatabase';
import { benchTeacher, onDistrict } from './district';
import type { BenchRow } from './table';

const RUNS = 60;
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

/** Makes `username` grade leader of their school's 七年级 (the district has no leaders of its own). */
async function appointGradeLeader(database: Database, username: string): Promise<void> {
  const db = database.db;
  await db.execute(sql`
    INSERT INTO user_roles (tenant_id, user_id, role_key) SELECT tenant_id, id, 'xz:gradeLeader' FROM users WHERE username = ${username}
    ON CONFLICT DO NOTHING`);
  await db.execute(sql`
    INSERT INTO leader_scopes (tenant_id, user_id, role, grade_id)
    SELECT u.tenant_id, u.id, 'gradeLeader', g.id FROM users u JOIN grades g ON g.school_id = u.school_id AND g.name = '七年级'
     WHERE u.username = ${username} AND NOT EXISTS (SELECT 1 FROM leader_scopes ls WHERE ls.user_id = u.id AND ls.role = 'gradeLeader')`);
}

async function timeGrade(database: Database, username: string, examTitle: string, label: string): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'xz-bench-leader-'));
  const app = await buildApp({ db: database.db, config: testConfig({ dataDir }) });
  try {
    const login = await app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username, password: DEMO_PASSWORD } });
    if (login.statusCode !== 200) throw new Error(`login ${username}: ${login.body}`);
    const headers = { 'blade-auth': `bearer ${login.json().data.accessToken}`, 'x-active-role': 'gradeLeader' };
    const list = await app.inject({ url: '/api/minerva/v1.0/leader/exams?size=50', headers });
    const exam = (list.json().data?.records as { id: number; title: string }[] | undefined)?.find((e) => e.title === examTitle);
    if (!exam) throw new Error(`${username} sees no exam ${examTitle}: ${list.body.slice(0, 300)}`);
    const call = async (url: string) => {
      const t0 = performance.now();
      const res = await app.inject({ url, headers });
      const ms = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`${url} → ${res.statusCode} ${res.body.slice(0, 200)}`);
      return { ms, data: res.json().data };
    };
    const reportUrl = `/api/minerva/v1.0/leader/exams/${exam.id}/report`;
    const analysisUrl = `/api/minerva/v1.0/leader/exams/${exam.id}/analysis`;
    for (let i = 0; i < 5; i++) for (const url of [reportUrl, analysisUrl]) await call(url);
    const reportMs: number[] = [];
    const analysisMs: number[] = [];
    const pageMs: number[] = [];
    let figures = { classes: 0, students: 0 };
    for (let i = 0; i < RUNS; i++) {
      const r = await call(reportUrl);
      const a = await call(analysisUrl);
      reportMs.push(r.ms);
      analysisMs.push(a.ms);
      // The screen asks for both at once; measured one after the other, their sum bounds it.
      pageMs.push(r.ms + a.ms);
      if (i === 0) figures = { classes: r.data.scope.classIds.length, students: r.data.participants };
    }
    return [
      { name: `leader_exam_report_grade_p95_ms_${label}`, value: percentile(reportMs, 0.95), unit: 'ms', target: '≤ 300' },
      { name: `leader_exam_analysis_grade_p95_ms_${label}`, value: percentile(analysisMs, 0.95), unit: 'ms', target: '≤ 300' },
      { name: `leader_exam_grade_page_p95_ms_${label}`, value: percentile(pageMs, 0.95), unit: 'ms', target: '' },
      { name: `leader_exam_grade_classes_${label}`, value: figures.classes, unit: '', target: label === 'pg' ? '12' : '' },
      { name: `leader_exam_grade_students_${label}`, value: figures.students, unit: '', target: '' },
      { name: `leader_exam_runs_${label}`, value: RUNS, unit: '', target: '≥ 50' },
    ];
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchLeaderExams(): Promise<BenchRow[]> {
  const out: BenchRow[] = [];
  if (process.env.DATABASE_URL) {
    out.push(
      ...(await onDistrict(process.env.DATABASE_URL, async (database) => {
        const [school] = await rows<{ id: number }>(database.db, sql`SELECT id FROM schools ORDER BY id LIMIT 1`);
        const leader = benchTeacher(school!.id);
        await appointGradeLeader(database, leader);
        return timeGrade(database, leader, '七年级数学期中考试', 'pg');
      })),
    );
  }
  const demo = await openTestDatabase({ url: '' });
  try {
    out.push(...(await timeGrade(demo, 'gradeleader', '七年级数学期中考试', 'pglite')));
  } finally {
    await demo.close();
  }
  return out;
}
