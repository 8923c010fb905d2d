// The device API as a terminal meets it: every request signed; unknown serials, bad signatures,
// stale timestamps and replays refused in Chinese; heartbeats write events for transitions only;
// sign-in only for the terminal's school; uploads bounded, idempotent, and the day rollups equal a
// recount from the recorded jobs and sign-ins after the simulator's 90 days.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/testApp';
import { demoDevice, deviceSecret, injectTransport, simulateUsage } from '../support/devices';
import { rows } from '../../server/db/query';
import { signedHeaders } from '../../server/modules/devices/signature';
import { writeBeats } from '../../server/modules/devices/heartbeatWriter';
import { demoSerial } from '../../server/seed/partners';
import { newDeviceSecret } from '../../server/modules/devices/signature';
import type { DeviceClient } from '../../server/devices/client';

let t: TestApp;
const API = '/api/device/v1';
const DAY = 24 * 3600 * 1000;
// Seed order: 1–6 stand in 西湖区实验中学, 7 is p3's stock, 25–29 in 宁波市海曙区育才中学.
let west: DeviceClient;
let stock: DeviceClient;
const serial = demoSerial(2);
let secret: string;

const q = <T>(query: ReturnType<typeof sql>) => rows<T>(t.database.db, query);
const beat = (client: DeviceClient, state: Partial<{ paperLeft: number; jammed: boolean; firmware: string }> = {}) =>
  client.send('POST', `${API}/heartbeat`, { paperLeft: 300, jammed: false, firmware: '2.4.0', ...state });
const deviceId = async (client: DeviceClient) => (await q<{ id: number }>(sql`SELECT id FROM devices WHERE serial = ${client.serial}`))[0].id;
const events = async (client: DeviceClient) =>
  (await q<{ kind: string; detail: Record<string, number> | null }>(sql`SELECT kind, detail FROM device_events WHERE device_id = ${await deviceId(client)} AND kind NOT IN ('bound', 'unbound') ORDER BY id`));

beforeAll(async () => {
  t = await createTestApp();
  west = await demoDevice(t.app, 1);
  stock = await demoDevice(t.app, 7);
  secret = await deviceSecret(t.app, serial);
});
afterAll(() => t.close());

describe('signature', () => {
  it('accepts a signed heartbeat and records the state', async () => {
    const res = await beat(west, { paperLeft: 321, firmware: '2.4.0' });
    expect(res.status).toBe(200);
    const [d] = await q<{ paper_left: number; online: boolean }>(sql`SELECT paper_left, last_heartbeat_at > now() - interval '1 minute' AS online FROM devices WHERE serial = ${west.serial}`);
    expect(d).toEqual({ paper_left: 321, online: true });
  });

  const send = (headers: Record<string, string>, body: string, path = `${API}/heartbeat`) =>
    injectTransport(t.app)('POST', path, body, { ...headers, 'content-type': 'application/json' });
  const body = JSON.stringify({ paperLeft: 300, jammed: false, firmware: '2.4.0' });

  it('refuses a body changed after signing, a wrong secret, and a different path', async () => {
    const headers = signedHeaders(serial, secret, 'POST', `${API}/heartbeat`, body);
    expect((await send(headers, body.replace('300', '301'))).body).toMatchObject({ code: 401, msg: '设备签名校验失败' });
    const wrong = signedHeaders(serial, newDeviceSecret(), 'POST', `${API}/heartbeat`, body);
    expect((await send(wrong, body)).body).toMatchObject({ code: 401, msg: '设备签名校验失败' });
    const elsewhere = signedHeaders(serial, secret, 'POST', `${API}/signIns`, body);
    expect((await send(elsewhere, body)).body).toMatchObject({ code: 401, msg: '设备签名校验失败' });
  });

  it('refuses a replay of the same signed request', async () => {
    const headers = signedHeaders(serial, secret, 'POST', `${API}/heartbeat`, body);
    expect((await send(headers, body)).status).toBe(200);
    expect((await send(headers, body)).body).toMatchObject({ code: 401, msg: '重复的请求（随机串已使用），已拒绝' });
    // The usage calls record their nonce too.
    const roster = signedHeaders(serial, secret, 'GET', `${API}/roster`, '');
    expect((await injectTransport(t.app)('GET', `${API}/roster`, '', roster)).status).toBe(200);
    expect((await injectTransport(t.app)('GET', `${API}/roster`, '', roster)).status).toBe(401);
  });

  it('refuses a timestamp more than five minutes off, either way', async () => {
    for (const skew of [-6 * 60_000, 6 * 60_000]) {
      const headers = signedHeaders(serial, secret, 'POST', `${API}/heartbeat`, body, Date.now() + skew);
      expect((await send(headers, body)).body).toMatchObject({ code: 401, msg: '请求时间与服务器相差超过5分钟，请校准设备时钟' });
    }
    expect((await send(signedHeaders(serial, secret, 'POST', `${API}/heartbeat`, body, Date.now() - 4 * 60_000), body)).status).toBe(200);
  });

  it('refuses an unknown serial, missing or malformed headers, before reading the body', async () => {
    expect((await send(signedHeaders('XZP99999999', secret, 'POST', `${API}/heartbeat`, body), body)).body).toMatchObject({ code: 401, msg: '设备未注册' });
    expect((await send({}, body)).body).toMatchObject({ code: 401, msg: '缺少设备签名信息' });
    const headers = signedHeaders(serial, secret, 'POST', `${API}/heartbeat`, body);
    expect((await send({ ...headers, 'x-device-signature': 'zz' }, body)).body).toMatchObject({ code: 401, msg: '设备签名信息格式不正确' });
    expect((await send({ ...headers, 'x-device-serial': "x' OR 1=1 --" }, body)).body).toMatchObject({ code: 401 });
    // Signed garbage is a Chinese 400, not a 500.
    const garbage = '{"paperLeft":';
    expect((await send(signedHeaders(serial, secret, 'POST', `${API}/heartbeat`, garbage), garbage)).body).toMatchObject({ code: 400, msg: '请求内容不是有效的 JSON' });
    const hostile = JSON.stringify({ paperLeft: 1e300, jammed: 'yes', firmware: '\u0000' });
    expect((await send(signedHeaders(serial, secret, 'POST', `${API}/heartbeat`, hostile), hostile)).status).toBe(400);
  });
});

describe('heartbeat events', () => {
  it('writes one event per transition, none for an unchanged state', async () => {
    const client = await demoDevice(t.app, 3);
    await beat(client, { paperLeft: 200 });
    const before = (await events(client)).length;
    await beat(client, { paperLeft: 200 });
    await beat(client, { paperLeft: 40 });
    await beat(client, { paperLeft: 38 });
    await beat(client, { paperLeft: 38, jammed: true });
    await beat(client, { paperLeft: 38, jammed: true });
    await beat(client, { paperLeft: 38, jammed: false });
    await beat(client, { paperLeft: 500 });
    await beat(client, { paperLeft: 500, firmware: '2.5.0' });
    const after = (await events(client)).slice(before);
    expect(after.map((e) => e.kind)).toEqual(['paperLow', 'jammed', 'jamCleared', 'paperRefilled', 'firmware']);
    expect(after[0].detail).toEqual({ paperLeft: 40 });
    expect(after[3].detail).toEqual({ from: 38, to: 500 });
    expect(after[4].detail).toEqual({ from: '2.4.0', to: '2.5.0' });
  });

  it('says back online after missed beats, with the offline seconds; one late beat does not flap', async () => {
    const client = await demoDevice(t.app, 4);
    await beat(client);
    const id = await deviceId(client);
    const before = (await events(client)).length;
    await t.database.db.execute(sql`UPDATE devices SET last_heartbeat_at = now() - interval '150 seconds' WHERE id = ${id}`);
    await beat(client);
    expect((await events(client)).length).toBe(before);
    await t.database.db.execute(sql`UPDATE devices SET last_heartbeat_at = now() - interval '2 hours' WHERE id = ${id}`);
    await beat(client);
    const [online] = (await events(client)).slice(before);
    expect(online.kind).toBe('online');
    expect(online.detail!.offlineSeconds).toBeGreaterThanOrEqual(7200);
    expect(online.detail!.offlineSeconds).toBeLessThan(7260);
  });
});

describe('heartbeats that arrive together', () => {
  it('are written in one batch: each beat compared with the one before it, a nonce twice is a replay', async () => {
    const [a, b] = [await demoDevice(t.app, 5), await demoDevice(t.app, 6)];
    await beat(a, { paperLeft: 300 });
    await beat(b, { paperLeft: 300 });
    const [idA, idB] = [await deviceId(a), await deviceId(b)];
    const before = (await events(a)).length;
    const state = { paperLeft: 40, jammed: false, firmware: '2.4.0' };
    const results = await writeBeats(t.database.db, [
      { deviceId: idA, nonce: 'batch-nonce-0001', ...state },
      { deviceId: idA, nonce: 'batch-nonce-0002', ...state, jammed: true },
      { deviceId: idA, nonce: 'batch-nonce-0002', ...state, jammed: true },
      { deviceId: idB, nonce: 'batch-nonce-0003', ...state, paperLeft: 300 },
      { deviceId: idA, nonce: 'batch-nonce-0004', ...state, paperLeft: 500 },
      { deviceId: 2_000_000_000, nonce: 'batch-nonce-0005', ...state },
    ]);
    // A recorded beat also says whose terminal it is and whether it was offline (for live events).
    const recorded = (events: string[]) => ({ outcome: 'recorded', events, partnerId: expect.any(Number), wasOffline: false });
    expect(results).toEqual([recorded(['paperLow']), recorded(['jammed']), { outcome: 'replayed' }, recorded([]), recorded(['paperRefilled', 'jamCleared']), { outcome: 'unknown' }]);
    expect((await events(a)).slice(before).map((e) => e.kind)).toEqual(['paperLow', 'jammed', 'paperRefilled', 'jamCleared']);
    const [row] = await q<{ paper_left: number; jammed: boolean }>(sql`SELECT paper_left, jammed FROM devices WHERE id = ${idA}`);
    expect(row).toEqual({ paper_left: 500, jammed: false });
    // The same nonce in a later batch is a replay too.
    expect(await writeBeats(t.database.db, [{ deviceId: idA, nonce: 'batch-nonce-0001', ...state }])).toEqual([{ outcome: 'replayed' }]);
  });

  it('answers every one of many concurrent beats', async () => {
    const clients = await Promise.all([1, 2, 3, 4, 5].map((n) => demoDevice(t.app, n)));
    const replies = await Promise.all(Array.from({ length: 40 }, (_, i) => beat(clients[i % clients.length], { paperLeft: 300 })));
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
  });
});

describe('sign-in', () => {
  it('signs in a current student of the school by number: name and class only, and counts a use', async () => {
    const [s] = await q<{ student_no: string; name: string }>(sql`SELECT s.student_no, s.name FROM students s JOIN devices d ON d.school_id = s.school_id WHERE d.serial = ${west.serial} AND s.status = 0 ORDER BY s.id LIMIT 1`);
    const res = await west.send('POST', `${API}/signIn`, { userKind: 1, studentNo: s.student_no });
    expect(res.status).toBe(200);
    const data = res.body.data as Record<string, unknown>;
    expect(Object.keys(data).sort()).toEqual(['className', 'name', 'userId', 'userKind']);
    expect(data).toMatchObject({ userKind: 1, name: s.name });
    expect(data.className).toMatch(/^[七八九]\(\d\)班$/);
    const [{ n }] = await q<{ n: number }>(sql`SELECT count(*)::int AS n FROM device_sign_ins WHERE user_kind = 1 AND user_id = ${data.userId as number}`);
    expect(n).toBe(1);
  });

  it('refuses a student number of another school and a graduated student', async () => {
    const [other] = await q<{ student_no: string }>(sql`SELECT s.student_no FROM students s JOIN schools sc ON sc.id = s.school_id WHERE sc.name = '宁波市海曙区育才中学' AND s.student_no NOT IN (SELECT student_no FROM students x JOIN devices d ON d.school_id = x.school_id WHERE d.serial = ${west.serial}) LIMIT 1`);
    expect((await west.send('POST', `${API}/signIn`, { userKind: 1, studentNo: other.student_no })).body).toMatchObject({ code: 404, msg: '本校没有该学号的在读学生' });
    const [s] = await q<{ id: number; student_no: string }>(sql`SELECT s.id, s.student_no FROM students s JOIN devices d ON d.school_id = s.school_id WHERE d.serial = ${west.serial} ORDER BY s.id DESC LIMIT 1`);
    await t.database.db.execute(sql`UPDATE students SET status = 1 WHERE id = ${s.id}`);
    expect((await west.send('POST', `${API}/signIn`, { userKind: 1, studentNo: s.student_no })).status).toBe(404);
    await t.database.db.execute(sql`UPDATE students SET status = 0 WHERE id = ${s.id}`);
  });

  it('signs in a teacher of the school by phone, not one of another school', async () => {
    const [mine] = await q<{ phone: string; name: string }>(sql`SELECT t.phone, t.name FROM teachers t JOIN devices d ON d.school_id = t.school_id WHERE d.serial = ${west.serial} AND t.phone IS NOT NULL ORDER BY t.id LIMIT 1`);
    expect((await west.send('POST', `${API}/signIn`, { userKind: 2, phone: mine.phone })).body.data).toMatchObject({ userKind: 2, name: mine.name, className: null });
    const [theirs] = await q<{ phone: string }>(sql`SELECT t.phone FROM teachers t JOIN schools s ON s.id = t.school_id WHERE s.name = '宁波市海曙区育才中学' AND t.phone IS NOT NULL AND t.phone NOT IN (SELECT phone FROM teachers x JOIN devices d ON d.school_id = x.school_id WHERE d.serial = ${west.serial} AND phone IS NOT NULL) LIMIT 1`);
    expect((await west.send('POST', `${API}/signIn`, { userKind: 2, phone: theirs.phone })).body).toMatchObject({ code: 404, msg: '本校没有使用该手机号的教师' });
    expect((await west.send('POST', `${API}/signIn`, { userKind: 2 })).body).toMatchObject({ code: 400, msg: '手机号不能为空' });
  });

  it('refuses usage calls of a terminal in stock, but takes its heartbeat', async () => {
    expect((await stock.send('POST', `${API}/signIn`, { userKind: 1, studentNo: '1' })).body).toMatchObject({ code: 403, msg: '设备未部署到学校，不能登录或上报使用记录' });
    expect((await stock.send('GET', `${API}/roster`)).status).toBe(403);
    expect((await beat(stock)).status).toBe(200);
  });
});

describe('print job upload', () => {
  let student: number;
  let teacher: number;
  let foreignStudent: number;
  beforeAll(async () => {
    const roster = (await west.call<{ students: { userId: number }[]; teachers: { userId: number }[] }>('GET', `${API}/roster`));
    student = roster.students[0].userId;
    teacher = roster.teachers[0].userId;
    [{ id: foreignStudent }] = await q<{ id: number }>(sql`SELECT s.id FROM students s JOIN schools sc ON sc.id = s.school_id WHERE sc.name = '宁波市海曙区育才中学' LIMIT 1`);
  });
  const job = (n: number, over: Record<string, unknown> = {}) => ({ clientJobId: `t-${n}`, userKind: 1, userId: student, app: 1, subjectId: 1, pages: 2, printedAt: new Date(Date.now() - n * 60_000).toISOString(), ...over });

  it('records a batch once: the same upload again adds nothing', async () => {
    const jobs = [job(1), job(2, { userKind: 2, userId: teacher, app: 2, pages: 6 }), job(3, { subjectId: null })];
    expect((await west.send('POST', `${API}/printJobs`, { jobs })).body.data).toEqual({ received: 3, recorded: 3, duplicates: 0 });
    expect((await west.send('POST', `${API}/printJobs`, { jobs })).body.data).toEqual({ received: 3, recorded: 0, duplicates: 3 });
    const [{ n, pages }] = await q<{ n: number; pages: number }>(sql`SELECT count(*)::int AS n, sum(pages)::int AS pages FROM print_jobs WHERE client_job_id LIKE 't-%'`);
    expect({ n, pages }).toEqual({ n: 3, pages: 10 });
  });

  it('bounds the batch: at least one, at most 500', async () => {
    expect((await west.send('POST', `${API}/printJobs`, { jobs: [] })).body).toMatchObject({ code: 400, msg: '打印记录不能为空' });
    const many = Array.from({ length: 501 }, (_, i) => job(1000 + i));
    expect((await west.send('POST', `${API}/printJobs`, { jobs: many })).body).toMatchObject({ code: 400, msg: '打印记录不能超过500项' });
    expect((await west.send('POST', `${API}/printJobs`, { jobs: many.slice(0, 500) })).body.data).toMatchObject({ recorded: 500 });
  });

  it('takes jobs up to 100 days back, none from the future, and nothing of a batch with one bad job', async () => {
    expect((await west.send('POST', `${API}/printJobs`, { jobs: [job(5000, { printedAt: new Date(Date.now() - 99 * DAY).toISOString() })] })).body.data).toMatchObject({ recorded: 1 });
    const old = await west.send('POST', `${API}/printJobs`, { jobs: [job(5001), job(5002, { printedAt: new Date(Date.now() - 101 * DAY).toISOString() })] });
    expect(old.body).toMatchObject({ code: 400, msg: '第2条打印记录的时间不能早于100天前' });
    const future = await west.send('POST', `${API}/printJobs`, { jobs: [job(5003, { printedAt: new Date(Date.now() + 3600_000).toISOString() })] });
    expect(future.body).toMatchObject({ code: 400, msg: '第1条打印记录的时间不能晚于当前时间' });
    const [{ n }] = await q<{ n: number }>(sql`SELECT count(*)::int AS n FROM print_jobs WHERE client_job_id IN ('t-5001', 't-5003')`);
    expect(n).toBe(0);
  });

  it('refuses a user of another school, in one check for the batch', async () => {
    const res = await west.send('POST', `${API}/printJobs`, { jobs: [job(6001), job(6002, { userId: foreignStudent })] });
    expect(res.body).toMatchObject({ code: 400, msg: '第2条打印记录的用户不是本校师生' });
    expect((await west.send('POST', `${API}/printJobs`, { jobs: [job(6003, { userKind: 2, userId: student })] })).status).toBe(400);
    expect((await west.send('POST', `${API}/printJobs`, { jobs: [job(6004, { app: 9 })] })).body).toMatchObject({ code: 400, msg: '应用取值不正确' });
    expect((await west.send('POST', `${API}/printJobs`, { jobs: [job(6005, { printedAt: 'yesterday' })] })).body).toMatchObject({ code: 400, msg: '打印时间格式不正确' });
  });

  it('takes buffered sign-ins once, for the school\'s users only', async () => {
    const signIns = [{ userKind: 1, userId: student, signedInAt: new Date(Date.now() - 2 * DAY).toISOString() }];
    expect((await west.send('POST', `${API}/signIns`, { signIns })).body.data).toEqual({ received: 1, recorded: 1 });
    expect((await west.send('POST', `${API}/signIns`, { signIns })).body.data).toEqual({ received: 1, recorded: 0 });
    const foreign = [{ userKind: 1, userId: foreignStudent, signedInAt: new Date().toISOString() }];
    expect((await west.send('POST', `${API}/signIns`, { signIns: foreign })).body).toMatchObject({ code: 400, msg: '第1条登录记录的用户不是本校师生' });
  });
});

describe('the simulator through the API', () => {
  it('makes 90 days of usage, and every rollup equals a recount from the jobs and sign-ins', async () => {
    const result = await simulateUsage(t.app);
    expect(result).toMatchObject({ terminals: 30, deployed: 25 });
    expect(result.jobs).toBeGreaterThan(5000);
    const [span] = await q<{ days: number; schools: number }>(sql`SELECT count(DISTINCT printed_at::date)::int AS days, count(DISTINCT school_id)::int AS schools FROM print_jobs`);
    expect(span.days).toBeGreaterThanOrEqual(85);
    expect(span.schools).toBe(5);
    // A second run is the same upload again: nothing new.
    const [{ n: before }] = await q<{ n: number }>(sql`SELECT count(*)::int AS n FROM print_jobs`);
    await simulateUsage(t.app, { devices: 6 });
    const [{ n: after }] = await q<{ n: number }>(sql`SELECT count(*)::int AS n FROM print_jobs`);
    expect(after).toBe(before);

    const day = (c: string) => sql.raw(`((${c} AT TIME ZONE 'UTC') + interval '8 hours')::date`);
    const same = async (rollup: ReturnType<typeof sql>, recount: ReturnType<typeof sql>) => {
      const [a, b] = [await q(rollup), await q(recount)];
      expect(a.length).toBeGreaterThan(0);
      expect(a).toEqual(b);
    };
    await same(
      sql`SELECT partner_id, school_id, day::text, app, subject_id, user_kind, jobs, pages FROM print_daily ORDER BY 1, 2, 3, 4, 5, 6`,
      sql`SELECT partner_id, school_id, ${day('printed_at')}::text AS day, app, coalesce(subject_id, 0) AS subject_id, user_kind, count(*)::int AS jobs, sum(pages)::int AS pages
            FROM print_jobs GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6`,
    );
    await same(
      sql`SELECT device_id, day::text, jobs, pages, sign_ins FROM device_daily ORDER BY 1, 2`,
      sql`SELECT device_id, day, sum(jobs)::int AS jobs, sum(pages)::int AS pages, sum(sign_ins)::int AS sign_ins FROM (
            SELECT device_id, ${day('printed_at')}::text AS day, count(*) AS jobs, sum(pages) AS pages, 0 AS sign_ins FROM print_jobs GROUP BY 1, 2
            UNION ALL SELECT device_id, ${day('at')}::text, 0, 0, count(*) FROM device_sign_ins GROUP BY 1, 2) x GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    await same(
      sql`SELECT partner_id, school_id, day::text, user_kind, users, uses, jobs, pages FROM usage_daily ORDER BY 1, 2, 3, 4`,
      sql`WITH used AS (
            SELECT partner_id, school_id, ${day('printed_at')} AS day, user_kind, user_id, 0 AS use, 1 AS job, pages FROM print_jobs
            UNION ALL SELECT partner_id, school_id, ${day('at')}, user_kind, user_id, 1, 0, 0 FROM device_sign_ins)
          SELECT partner_id, school_id, day::text, user_kind, count(DISTINCT user_id)::int AS users, sum(use)::int AS uses,
                 sum(job)::int AS jobs, sum(pages)::int AS pages
            FROM used GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
    );
    // The subtree and month rollups are the day rollups summed (the usage spans three months).
    await same(
      sql`SELECT partner_id, school_id, month::text, user_kind, users, uses, jobs, pages FROM usage_monthly ORDER BY 1, 2, 3, 4`,
      sql`SELECT partner_id, school_id, date_trunc('month', day)::date::text AS month, user_kind, sum(users)::int AS users, sum(uses)::int AS uses,
                 sum(jobs)::int AS jobs, sum(pages)::int AS pages FROM usage_daily GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
    );
    await same(
      sql`SELECT partner_id, day::text, app, subject_id, user_kind, jobs, pages FROM print_partner_daily ORDER BY 1, 2, 3, 4, 5`,
      sql`SELECT partner_id, day::text, app, subject_id, user_kind, sum(jobs)::int AS jobs, sum(pages)::int AS pages FROM print_daily GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`,
    );
    await same(
      sql`SELECT partner_id, month::text, app, subject_id, user_kind, jobs, pages FROM print_partner_monthly ORDER BY 1, 2, 3, 4, 5`,
      sql`SELECT partner_id, date_trunc('month', day)::date::text AS month, app, subject_id, user_kind, sum(jobs)::int AS jobs, sum(pages)::int AS pages
            FROM print_daily GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`,
    );
  }, 300_000);
});
