// The family page (家长查看, server/modules/family) through the real app: GET /f/:token, the HTML a
// family's phone receives (link lookup, the school's disclosure, the term's works with the student's
// results and ranks, wrong questions, 错题 to redo, essays, upcoming homework, the view logged), and
// the same data as JSON. p95 over RUNS calls, students taken in turn, half the links for all the
// child's courses and half for 数学. On a generated district in PostgreSQL when DATABASE_URL is set
// (SCALE and --reuse as in bench/wrongbook.ts), and at the demo school on PGlite; each call from its
// own address, as families are, so the per-address limit is not what is measured.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app';
import type { Database } from '../server/db';
import { rows } from '../server/db/query';
import { tokenHash } from '../server/modules/family/access';
import { ScoreDisclosure } from '../src/domain/content';
import { testConfig } from '../tests/support/testApp';
import { openTestDatabase } from '../tests/support/testDatabase';
import { onDistrict } from './district';
import { percentile, type BenchRow } from './table';

const RUNS = 100;
const STUDENTS = 20;

async function timePage(database: Database, label: string): Promise<BenchRow[]> {
  const db = database.db;
  const dataDir = mkdtempSync(join(tmpdir(), 'xz-bench-family-'));
  const app = await buildApp({ db, config: testConfig({ dataDir }) });
  // Students of the first school's grade-7 classes, spread over the classes; ranks shown (the
  // setting that reads the most).
  const students = await rows<{ id: number; tenantId: number; schoolId: number; courseId: number }>(db, sql`
    WITH first AS (SELECT id FROM schools ORDER BY id LIMIT 1)
    SELECT s.id, s.tenant_id AS "tenantId", s.school_id AS "schoolId",
           (SELECT co.id FROM courses co JOIN subjects su ON su.id = co.subject_id WHERE co.school_id = s.school_id AND su.name = '数学') AS "courseId"
      FROM students s JOIN classes c ON c.id = s.class_id JOIN grades g ON g.id = c.grade_id
     WHERE s.school_id = (SELECT id FROM first) AND g.level = 7 AND s.status = 0
     ORDER BY s.id % 7, s.id LIMIT ${STUDENTS}`);
  if (!students.length) throw new Error('no students');
  const [school] = await rows<{ disclosure: number }>(db, sql`SELECT score_disclosure AS disclosure FROM schools WHERE id = ${students[0].schoolId}`);
  await db.execute(sql`UPDATE schools SET score_disclosure = ${ScoreDisclosure.rank} WHERE id = ${students[0].schoolId}`);
  const links = students.map((s, i) => ({ ...s, token: randomBytes(32).toString('base64url'), all: i % 2 === 0 }));
  const ids: number[] = [];
  try {
    for (const l of links) {
      const [row] = await rows<{ id: number }>(db, sql`
        INSERT INTO family_links (tenant_id, school_id, student_id, course_id, label, token_hash, created_by_name, expires_at)
        VALUES (${l.tenantId}, ${l.schoolId}, ${l.id}, ${l.all ? null : l.courseId}, '压测', ${tokenHash(l.token)}, '压测', now() + interval '1 day')
        RETURNING id`);
      ids.push(row.id);
    }
    let address = 0;
    const call = async (url: string) => {
      address++;
      const t0 = performance.now();
      const res = await app.inject({ url, remoteAddress: `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}` });
      const ms = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`${url.slice(0, 12)}… → ${res.statusCode} ${res.body.slice(0, 200)}`);
      return { ms, bytes: res.rawPayload.length, body: res.body };
    };
    for (let i = 0; i < 5; i++) await call(`/f/${links[i % links.length].token}`);
    const htmlMs: number[] = [];
    const jsonMs: number[] = [];
    const courseMs: number[] = [];
    let bytes = 0;
    let works = 0;
    let wrong = 0;
    for (let i = 0; i < RUNS; i++) {
      const l = links[i % links.length];
      const html = await call(`/f/${l.token}`);
      (l.all ? htmlMs : courseMs).push(html.ms);
      const json = await call(`/api/family/v1.0/view/${l.token}`);
      jsonMs.push(json.ms);
      if (i === 0) {
        bytes = html.bytes;
        const page = JSON.parse(json.body).data as { works: { wrong: unknown[] }[] };
        works = page.works.length;
        wrong = page.works.reduce((s, w) => s + w.wrong.length, 0);
      }
    }
    const [{ views }] = await rows<{ views: number }>(db, sql`SELECT count(*)::int AS views FROM family_link_views WHERE link_id IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
    return [
      { name: `family_page_p95_ms_${label}`, value: percentile(htmlMs, 0.95), unit: 'ms', target: '≤ 100' },
      { name: `family_page_p50_ms_${label}`, value: percentile(htmlMs, 0.5), unit: 'ms', target: '' },
      { name: `family_page_course_p95_ms_${label}`, value: percentile(courseMs, 0.95), unit: 'ms', target: '≤ 100' },
      { name: `family_page_json_p95_ms_${label}`, value: percentile(jsonMs, 0.95), unit: 'ms', target: '≤ 100' },
      { name: `family_page_runs_${label}`, value: RUNS * 2, unit: '', target: '' },
      { name: `family_page_students_${label}`, value: links.length, unit: '', target: '' },
      { name: `family_page_views_logged_${label}`, value: views, unit: '', target: `= ${RUNS * 2 + 5}` },
      { name: `family_page_works_${label}`, value: works, unit: '', target: '' },
      { name: `family_page_wrong_questions_${label}`, value: wrong, unit: '', target: '' },
      { name: `family_page_html_kb_${label}`, value: Math.round(bytes / 102.4) / 10, unit: 'KB', target: '' },
    ];
  } finally {
    if (ids.length) await db.execute(sql`DELETE FROM family_links WHERE id IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
    await db.execute(sql`UPDATE schools SET score_disclosure = ${school.disclosure} WHERE id = ${students[0].schoolId}`);
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function benchDistrict(serverUrl: string): Promise<BenchRow[]> {
  return onDistrict(serverUrl, async (database) => {
    const [{ n }] = await rows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM answer_records`);
    return [{ name: 'family_page_district_answer_records', value: n, unit: '', target: '' }, ...(await timePage(database, 'pg'))];
  });
}

export async function benchFamily(): Promise<BenchRow[]> {
  const out: BenchRow[] = [];
  if (process.env.DATABASE_URL) out.push(...(await benchDistrict(process.env.DATABASE_URL)));
  const demo = await openTestDatabase({ url: '' });
  try {
    out.push(...(await timePage(demo, 'pglite')));
  } finally {
    await demo.close();
  }
  return out;
}
