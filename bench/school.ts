// School administration figures: (a) a 5,000-student workbook imported end to end through HTTP
// inject (seconds, peak RSS), (b) student list p95 on a school of 100,000 students.
// Embedded PGlite always; PostgreSQL as well when DATABASE_URL is set.
import ExcelJS from 'exceljs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app';
import { rows } from '../server/db/query';
import { DEMO_PASSWORD } from '../server/seed';
import { testConfig } from '../tests/support/testApp';
import { multipart } from '../tests/support/school';
import { openTestDatabase } from '../tests/support/testDatabase';
import type { BenchRow } from './table';

const IMPORT_ROWS = 5000;
const SCHOOL_STUDENTS = 100_000;

export async function importWorkbook(classes: { gradeName: string; className: string }[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('学生');
  sheet.addRow(['姓名*', '学号*', '性别', '年级*', '班级*', '家长手机号']);
  for (let i = 0; i < IMPORT_ROWS; i++) {
    const c = classes[i % classes.length];
    sheet.addRow([`压测学生${i}`, `B${String(i).padStart(6, '0')}`, i % 2 ? '男' : '女', c.gradeName, c.className, `139${String(i).padStart(8, '0')}`]);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

async function benchDriver(label: string, url?: string): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'xz-bench-school-'));
  // '' means PGlite even when DATABASE_URL is set (the default openTestDatabase would take).
  const database = await openTestDatabase({ url: url ?? '' });
  const app = await buildApp({ db: database.db, config: testConfig({ dataDir }) });
  const out: BenchRow[] = [];
  try {
    const login = await app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'schooladmin', password: DEMO_PASSWORD } });
    const headers = { 'blade-auth': `bearer ${login.json().data.accessToken}` };
    const tree = (await app.inject({ url: '/api/vesta/class/treeClassBySchool', headers })).json().data as { gradeId: number; gradeName: string; children: { id: number; className: string }[] }[];
    const classes = tree.flatMap((g) => g.children.map((c) => ({ id: c.id, gradeName: g.gradeName, className: c.className })));

    // (a) import, end to end: multipart parse, checks, exceljs read, validation, one transaction.
    const bytes = await importWorkbook(classes);
    const body = multipart({}, { name: '学生.xlsx', content: bytes });
    global.gc?.();
    // RSS includes the in-process database (PGlite's WASM heap), so the growth is reported too.
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const t0 = performance.now();
    const res = await app.inject({ method: 'POST', url: '/api/vesta/student/importData', payload: body.payload, headers: { ...headers, ...body.headers } });
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    if (res.statusCode !== 200 || res.json().data.created !== IMPORT_ROWS) throw new Error(`import failed: ${res.statusCode} ${res.body.slice(0, 200)}`);
    out.push({ name: `school_import_5000_s_${label}`, value: seconds, unit: 's', target: '≤ 10' });
    out.push({ name: `school_import_5000_peak_rss_mb_${label}`, value: peak / 1024 / 1024, unit: 'MB', target: '≤ 300' });
    out.push({ name: `school_import_5000_rss_growth_mb_${label}`, value: (peak - baseline) / 1024 / 1024, unit: 'MB', target: '' });

    // (b) a school of 100,000 students, generated in one statement.
    const [school] = await rows<{ tenantId: number; schoolId: number }>(database.db, sql`
      SELECT tenant_id AS "tenantId", school_id AS "schoolId" FROM classes WHERE id = ${classes[0].id}`);
    const existing = (await rows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM students WHERE school_id = ${school.schoolId}`))[0].n;
    const classIds = `{${classes.map((c) => c.id).join(',')}}`;
    const surnames = '{王,李,张,刘,陈,杨,黄,赵,吴,周}';
    const given = '{子涵,梓轩,浩宇,欣怡,雨桐,一诺,思远,佳琪,俊杰,嘉怡,喆,堃,昇,玥}';
    await database.db.execute(sql`
      INSERT INTO students (tenant_id, school_id, class_id, name, student_no, gender, parent_phone, status, binding_status)
      SELECT ${school.tenantId}, ${school.schoolId},
             (${classIds}::int[])[1 + i % ${classes.length}],
             (${surnames}::text[])[1 + i % 10] || (${given}::text[])[1 + (i / 10) % 14],
             'G' || lpad(i::text, 7, '0'),
             1 + i % 2, '137' || lpad(i::text, 8, '0'),
             CASE WHEN i % 10 = 0 THEN 1 ELSE 0 END, (i % 3 = 0)::int
        FROM generate_series(1, ${SCHOOL_STUDENTS - existing}) AS i`);
    await database.db.execute(sql`VACUUM ANALYZE students`);

    const queries = [
      '/api/vesta/student/page?current=1&size=20',
      '/api/vesta/student/page?current=250&size=20',
      `/api/vesta/student/page?classId=${classes[3].id}&size=20&sort=name&order=asc`,
      `/api/vesta/student/page?gradeId=${tree[1].gradeId}&status=0&bindingStatus=1&size=20`,
      `/api/vesta/student/page?keyword=${encodeURIComponent('王喆')}&size=20`,
      '/api/vesta/student/page?keyword=G00123&size=20',
    ];
    for (const q of queries) await app.inject({ url: q, headers }); // warm-up
    const timings: number[] = [];
    const keywordTimings: number[] = [];
    for (let i = 0; i < 300; i++) {
      const q = queries[i % queries.length];
      const t1 = performance.now();
      const r = await app.inject({ url: q, headers });
      const ms = performance.now() - t1;
      if (r.statusCode !== 200) throw new Error(`${q} → ${r.statusCode}`);
      (q.includes('keyword') ? keywordTimings : timings).push(ms);
    }
    out.push({ name: `school_student_page_p95_ms_${label}`, value: percentile(timings, 0.95), unit: 'ms', target: '≤ 30' });
    out.push({ name: `school_student_search_p95_ms_${label}`, value: percentile(keywordTimings, 0.95), unit: 'ms', target: '≤ 30' });
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return out;
}

export async function benchSchool(): Promise<BenchRow[]> {
  // PostgreSQL first: PGlite's WASM heap stays in the process once grown and would inflate the
  // other driver's peak RSS. With PGlite the database itself lives in the measured process.
  const rowsOut = process.env.DATABASE_URL ? await benchDriver('postgres', process.env.DATABASE_URL) : [];
  rowsOut.push(...(await benchDriver('pglite')));
  return rowsOut;
}
