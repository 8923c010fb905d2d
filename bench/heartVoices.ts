// 学生心声 through the real app (HTTP inject: signatures or session, scope checks, SQL,
// serialisation) on the demo data plus VOLUME generated messages of the demo school (a busy year):
// a terminal's post with screening, the psychology teacher's first page (pinned sort), the badge,
// the mood chart and the counts export; and the lexicon's throughput alone.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app';
import { rows } from '../server/db/query';
import { DEMO_PASSWORD } from '../server/seed';
import { DEMO_VOICES } from '../server/devices/heartVoices';
import { screen } from '../server/modules/heartVoices/lexicon';
import { testConfig } from '../tests/support/testApp';
import { openTestDatabase } from '../tests/support/testDatabase';
import { demoDevice } from '../tests/support/devices';
import type { BenchRow } from './table';

const VOLUME = 20_000;
const RUNS = 40;

const p95 = (ms: number[]) => Math.round([...ms].sort((a, b) => a - b)[Math.floor(ms.length * 0.95)] * 10) / 10;

async function timed(run: (i: number) => Promise<unknown>, runs = RUNS): Promise<number[]> {
  for (let i = 0; i < 3; i++) await run(-1 - i);
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await run(i);
    ms.push(performance.now() - t0);
  }
  return ms;
}

export async function benchHeartVoices(): Promise<BenchRow[]> {
  const demo = await openTestDatabase({ url: '' });
  const app = await buildApp({ db: demo.db, config: testConfig({ dataDir: mkdtempSync(join(tmpdir(), 'xz-bench-heart-')), deviceRateLimits: false }) });
  try {
    // A year of messages in the demo school: about 1% suggested 高危, most handled.
    await demo.db.execute(sql`
      INSERT INTO heart_voices (tenant_id, school_id, student_id, grade_id, class_id, anonymous, category, mood, content, suggested_level, confirmed_level, status, created_at, handled_at)
      SELECT s.tenant_id, s.school_id, s.id, c.grade_id, c.id, i % 3 = 0, 1 + i % 5, 1 + i % 5, '今天的心情记录第' || i || '条',
             CASE WHEN i % 100 = 0 THEN 3 WHEN i % 20 = 0 THEN 2 ELSE 1 END,
             CASE WHEN i % 7 = 0 THEN NULL ELSE 1 END, CASE WHEN i % 7 = 0 THEN 0 ELSE 2 END,
             now() - make_interval(mins => i * 26), CASE WHEN i % 7 = 0 THEN NULL ELSE now() - make_interval(mins => i * 26 - 60) END
        FROM generate_series(1, ${VOLUME}) i
        JOIN LATERAL (SELECT st.* FROM students st JOIN schools sc ON sc.id = st.school_id
                       WHERE sc.name = '杭州市西湖区实验中学' AND st.status = 0 ORDER BY st.id OFFSET (i % 400) LIMIT 1) s ON true
        JOIN classes c ON c.id = s.class_id`);
    const login = await app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'psych', password: DEMO_PASSWORD } });
    const headers = { 'blade-auth': `bearer ${login.json().data.accessToken}` };
    const get = (url: string) => async () => {
      const res = await app.inject({ url, headers });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    };
    const terminal = await demoDevice(app, 1);
    const [{ id: studentId }] = await rows<{ id: number }>(
      demo.db,
      sql`SELECT s.id FROM students s JOIN guardian_consents gc ON gc.student_id = s.id JOIN schools sc ON sc.id = s.school_id WHERE sc.name = '杭州市西湖区实验中学' LIMIT 1`,
    );
    const post = await timed(async (i) => {
      const reply = await terminal.send('POST', '/api/device/v1/heartVoices', { studentId, content: DEMO_VOICES[Math.abs(i) % DEMO_VOICES.length].content, mood: 3, anonymous: true, category: 4 });
      if (!reply.body.success) throw new Error(reply.body.msg);
    });
    const list = await timed(get('/api/heart/v1/voices?size=10'));
    const badge = await timed(get('/api/wrongbook/v1.0/web/nav/getMenuBadge'));
    const mood = await timed(get('/api/heart/v1/mood'));
    const exported = await timed(get('/api/heart/v1/export'), 10);
    // The lexicon alone: the demo messages screened over and over.
    const texts = DEMO_VOICES.map((v) => v.content);
    const t0 = performance.now();
    let n = 0;
    while (performance.now() - t0 < 1000) for (const text of texts) (screen(text), n++);
    const perSecond = Math.round(n / ((performance.now() - t0) / 1000));
    return [
      { name: 'heart_post_p95_ms', value: p95(post), unit: 'ms', target: '≤ 100' },
      { name: 'heart_list_p95_ms', value: p95(list), unit: 'ms', target: '≤ 150' },
      { name: 'heart_badge_p95_ms', value: p95(badge), unit: 'ms', target: '≤ 100' },
      { name: 'heart_mood_p95_ms', value: p95(mood), unit: 'ms', target: '≤ 200' },
      { name: 'heart_export_p95_ms', value: p95(exported), unit: 'ms', target: '≤ 1000' },
      { name: 'heart_screen_per_s', value: perSecond, unit: '条/s', target: '≥ 10000' },
      { name: 'heart_messages', value: VOLUME, unit: '条', target: '' },
    ];
  } finally {
    await app.close();
    await demo.close();
  }
}
