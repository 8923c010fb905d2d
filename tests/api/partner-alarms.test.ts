// The live fleet (issue 24 §4): the sweep records a terminal going offline (once per silence) and
// opens an alarm after ALARM_OFFLINE_MINUTES; a beat brings it back (online event, alarm closed by
// itself); jams and low paper open alarms at the beat and close when cleared or refilled; partners
// see their subtree's alarms only, confirm and resolve them; consumption and 补货建议 follow the
// terminals' printing; and the event stream, over real HTTP, carries a beat to the subtree's pages
// only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';
import { deviceSecret, injectTransport, simulateUsage } from '../support/devices';
import { rows } from '../../server/db/query';
import { DeviceClient, httpTransport } from '../../server/devices/client';
import { sweep } from '../../server/modules/devices/alarms';
import { ALARM_OFFLINE_MINUTES, LIVE_STREAM_PATH, MAX_STREAMS_PER_USER, type AlarmRecord } from '../../src/domain/alarms';
import { OFFLINE_AFTER_SECONDS } from '../../src/domain/partner';
import type { Consumption } from '../../src/domain/consumption';

let t: TestApp;
let c: ReturnType<typeof client>;
const BASE = '/api/wrongbook/v1.0/partner/alarms';
const API = '/api/device/v1';

const q = <T>(query: ReturnType<typeof sql>) => rows<T>(t.database.db, query);
const alarms = async (user: string, query = ''): Promise<{ records: AlarmRecord[]; total: number }> => c.data(user, `${BASE}/page?size=100${query}`);
const summary = async (user: string): Promise<{ unread: number; open: number }> => c.data(user, `${BASE}/summary`);
const terminal = async (serial: string) => new DeviceClient(serial, await deviceSecret(t.app, serial), injectTransport(t.app));
const beat = async (serial: string, paperLeft = 300, jammed = false) =>
  (await terminal(serial)).call<{ events: string[] }>('POST', `${API}/heartbeat`, { paperLeft, jammed, firmware: '2.4.0' });
const eventsOf = async (serial: string, kind: string) =>
  q<{ at: string; detail: Record<string, string> }>(sql`SELECT e.at::text, e.detail FROM device_events e JOIN devices d ON d.id = e.device_id WHERE d.serial = ${serial} AND e.kind = ${kind} ORDER BY e.id`);
/** The terminal fell silent `minutes` ago: its last beat is moved back. */
const silence = (serial: string, minutes: number) =>
  t.database.db.execute(sql`UPDATE devices SET last_heartbeat_at = now() - make_interval(mins => ${minutes}), last_seen_at = now() - make_interval(mins => ${minutes}) WHERE serial = ${serial}`);

/** Deployed, beating terminals: partner3's own, and partner1's own (outside partner2's and partner3's subtrees). */
let p3Serial: string;
let p3Second: string;
let p1Serial: string;
let p1DeviceId: number;

beforeAll(async () => {
  t = await createTestApp({ backgroundSweeps: false });
  c = client(t);
  await simulateUsage(t.app, { days: 16 });
  const me = async (user: string) => (await c.data(user, '/api/wrongbook/v1.0/partner/getCurrentPartner')).id as number;
  const beating = async (partnerId: number) =>
    q<{ id: number; serial: string }>(
      sql`SELECT id, serial FROM devices WHERE partner_id = ${partnerId} AND school_id IS NOT NULL AND last_heartbeat_at > now() - interval '1 hour' AND NOT jammed AND paper_left > 100 ORDER BY id`,
    );
  const p3 = await beating(await me('partner3'));
  [p3Serial, p3Second] = [p3[0].serial, p3[1].serial];
  const p1 = await beating(await me('partner1'));
  p1Serial = p1[0].serial;
  p1DeviceId = p1[0].id;
}, 300_000);
afterAll(() => t.close());

describe('the sweep', () => {
  it('opens alarms for the demo fleet: the silent terminals, the jammed one, the one low on paper', async () => {
    const result = await sweep(t.database.db);
    expect(result.offline).toBeGreaterThanOrEqual(2);
    const open = await alarms('partner1');
    const kinds = new Set(open.records.map((a) => a.kind));
    expect(kinds).toEqual(new Set(['offline', 'jammed', 'paperLow']));
    expect(open.records.filter((a) => a.kind === 'offline').length).toBe(2);
    expect((await summary('partner1')).unread).toBe(open.total);
    // A second sweep changes nothing: one offline event per silence, one alarm per episode.
    const again = await sweep(t.database.db);
    expect(again).toEqual({ offline: 0, opened: 0, resolved: 0 });
  });

  it('records offline when the beats stop, alarms after the threshold, and closes it when the terminal beats again', async () => {
    // Silent just past OFFLINE_AFTER_SECONDS: offline, but no alarm yet.
    await silence(p3Serial, Math.ceil(OFFLINE_AFTER_SECONDS / 60) + 1);
    expect((await sweep(t.database.db)).offline).toBe(1);
    const offline = await eventsOf(p3Serial, 'offline');
    expect(offline.length).toBe(1);
    expect((await alarms('partner3', '&kind=offline')).records.some((a) => a.serial === p3Serial)).toBe(false);
    expect((await c.data('partner3', `/api/wrongbook/v1.0/partner/devices/page?size=100&online=2`)).records.map((r: { serial: string }) => r.serial)).toContain(p3Serial);
    // Past ALARM_OFFLINE_MINUTES: the alarm opens (the silence goes on: still one offline event).
    await silence(p3Serial, ALARM_OFFLINE_MINUTES + 5);
    expect(await sweep(t.database.db)).toMatchObject({ offline: 0, opened: 1 });
    expect((await eventsOf(p3Serial, 'offline')).length).toBe(1);
    const alarm = (await alarms('partner3', '&kind=offline')).records.find((a) => a.serial === p3Serial)!;
    expect(alarm).toMatchObject({ kind: 'offline', resolvedAt: null, acknowledgedAt: null });
    // The list carries it too.
    const row = (await c.data('partner3', `/api/wrongbook/v1.0/partner/devices/page?size=100&keyword=${p3Serial}`)).records[0];
    expect(row.openAlarms).toEqual(['offline']);
    // Back: an online event, the alarm closed by itself, nothing left open for it.
    const [{ paper }] = await q<{ paper: number }>(sql`SELECT paper_left AS paper FROM devices WHERE serial = ${p3Serial}`);
    expect((await beat(p3Serial, paper)).events).toEqual(['online']);
    const closed = (await alarms('partner3', '&status=resolved')).records.find((a) => a.alarmId === alarm.alarmId)!;
    expect(closed).toMatchObject({ autoResolved: true, resolvedByName: null });
    expect((await eventsOf(p3Serial, 'online')).length).toBeGreaterThanOrEqual(1);
    // The next silence is a new offline event.
    await silence(p3Serial, 10);
    expect((await sweep(t.database.db)).offline).toBe(1);
    expect((await eventsOf(p3Serial, 'offline')).length).toBe(2);
    await beat(p3Serial, paper);
  });

  it('opens a jam alarm at the beat and closes it when the jam is cleared', async () => {
    await beat(p3Second, 300, true);
    const open = (await alarms('partner3', '&kind=jammed')).records.find((a) => a.serial === p3Second);
    expect(open).toBeDefined();
    await beat(p3Second, 300, false);
    expect((await alarms('partner3', '&kind=jammed')).records.find((a) => a.serial === p3Second)).toBeUndefined();
    expect((await alarms('partner3', '&status=resolved&kind=jammed')).records.find((a) => a.alarmId === open!.alarmId)?.autoResolved).toBe(true);
  });

  it('opens a paper alarm below the line; a rise of a few sheets is no refill, a refill closes it', async () => {
    await beat(p3Second, 20);
    const open = () => alarms('partner3', '&kind=paperLow').then((r) => r.records.filter((a) => a.serial === p3Second));
    expect((await open()).length).toBe(1);
    // Five sheets back (a jam cleared, a sensor's wobble): not 已补纸, the alarm stays.
    expect((await beat(p3Second, 25)).events).toEqual([]);
    expect((await open()).length).toBe(1);
    expect((await beat(p3Second, 480)).events).toEqual(['paperRefilled']);
    expect((await open()).length).toBe(0);
  });

  it('a partner confirms and resolves; a resolved alarm is not opened again for the same episode', async () => {
    await beat(p3Second, 300, true);
    const [alarm] = (await alarms('partner3', '&kind=jammed')).records.filter((a) => a.serial === p3Second);
    const before = await summary('partner3');
    await c.done('partner3', `${BASE}/acknowledge`, { alarmIds: [alarm.alarmId] });
    expect((await summary('partner3')).unread).toBe(before.unread - 1);
    // partner1 (above) sees it confirmed, by whom.
    const seen = (await alarms('partner1', '&kind=jammed')).records.find((a) => a.alarmId === alarm.alarmId)!;
    expect(seen.acknowledgedByName).toBeTruthy();
    const res = await c.post('partner1', `${BASE}/resolve`, { alarmId: alarm.alarmId, note: '已电话通知学校老师清理卡纸' });
    expect(res.statusCode, res.body).toBe(200);
    const done = (await alarms('partner3', '&status=resolved')).records.find((a) => a.alarmId === alarm.alarmId)!;
    expect(done).toMatchObject({ autoResolved: false, note: '已电话通知学校老师清理卡纸' });
    expect(done.resolvedByName).toBeTruthy();
    // Still jammed, same jam: the sweep leaves it closed.
    await sweep(t.database.db);
    expect((await alarms('partner3', '&kind=jammed')).records.filter((a) => a.serial === p3Second)).toEqual([]);
    // Twice: a 409 in Chinese.
    const twice = await c.post('partner3', `${BASE}/resolve`, { alarmId: alarm.alarmId });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().msg).toBe('该告警已处理，无需重复操作');
    await beat(p3Second, 300, false);
  });
});

describe('scope and refusals', () => {
  it('partner3 never sees partner1-only terminals; their alarm ids are not found', async () => {
    await beat(p1Serial, 300, true);
    const p1Alarm = (await alarms('partner1', '&kind=jammed')).records.find((a) => a.deviceId === p1DeviceId)!;
    expect(p1Alarm).toBeDefined();
    const p3Devices = new Set((await q<{ id: number }>(sql`SELECT d.id FROM devices d JOIN partners p ON p.id = d.partner_id JOIN users u ON u.partner_id = p.id WHERE u.username = 'partner3'`)).map((r) => r.id));
    for (const status of ['open', 'resolved', 'all']) {
      const seen = (await alarms('partner3', `&status=${status}`)).records;
      expect(seen.every((a) => p3Devices.has(a.deviceId))).toBe(true);
    }
    expect((await alarms('partner3', `&deviceId=${p1DeviceId}`)).total).toBe(0);
    for (const user of ['partner3', 'partner2']) {
      const ack = await c.post(user, `${BASE}/acknowledge`, { alarmIds: [p1Alarm.alarmId] });
      expect(ack.statusCode).toBe(404);
      expect(ack.json().msg).toBe('告警不存在');
      const resolve = await c.post(user, `${BASE}/resolve`, { alarmId: p1Alarm.alarmId });
      expect(resolve.statusCode).toBe(404);
    }
    // 全部标为已读 of partner3 leaves partner1's alarm unread.
    await c.done('partner3', `${BASE}/acknowledge`, { all: true });
    expect((await summary('partner3')).unread).toBe(0);
    expect((await alarms('partner1', '&status=unread')).records.some((a) => a.alarmId === p1Alarm.alarmId)).toBe(true);
    await beat(p1Serial, 300, false);
  });

  it('other roles are refused', async () => {
    for (const user of ['teacher', 'schooladmin', 'admin']) {
      for (const url of [`${BASE}/page`, `${BASE}/summary`, '/api/wrongbook/v1.0/partner/devices/consumption', LIVE_STREAM_PATH]) {
        const res = await c.get(user, url);
        expect(res.statusCode, `${user} ${url}`).toBe(403);
      }
      expect((await c.post(user, `${BASE}/resolve`, { alarmId: 1 })).statusCode).toBe(403);
    }
    const anonymous = await t.app.inject({ method: 'GET', url: LIVE_STREAM_PATH });
    expect(anonymous.statusCode).toBe(401);
  });

  it('hostile input is a Chinese 400, never a 500', async () => {
    const bad = [
      c.get('partner1', `${BASE}/page?status=everything`),
      c.get('partner1', `${BASE}/page?kind=fire`),
      c.get('partner1', `${BASE}/page?deviceId=99999999999`),
      c.get('partner1', `${BASE}/page?size=100000`),
      c.post('partner1', `${BASE}/resolve`, { alarmId: 'abc' }),
      c.post('partner1', `${BASE}/resolve`, { alarmId: 2 ** 40 }),
      c.post('partner1', `${BASE}/resolve`, { alarmId: 1, note: '长'.repeat(201) }),
      c.post('partner1', `${BASE}/acknowledge`, { alarmIds: Array.from({ length: 201 }, (_, i) => i + 1) }),
      c.post('partner1', `${BASE}/acknowledge`, { alarmIds: [] }),
    ];
    for (const res of await Promise.all(bad)) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    const missing = await c.post('partner1', `${BASE}/resolve`, { alarmId: 2_000_000_000 });
    expect(missing.statusCode).toBe(404);
    expect((await c.post('partner1', `${BASE}/acknowledge`, {})).statusCode).toBe(404);
  });
});

describe('consumption', () => {
  it('pages per terminal against paper bought, days left per school from the last 14 days, and a reorder suggestion', async () => {
    const data: Consumption = await c.data('partner1', '/api/wrongbook/v1.0/partner/devices/consumption');
    expect(data.days).toBe(14);
    const deployed = await q<{ n: number }>(sql`SELECT count(*)::int AS n FROM devices WHERE school_id IS NOT NULL`);
    expect(data.terminals.length).toBe(deployed[0].n);
    const [{ pages }] = await q<{ pages: number }>(sql`SELECT coalesce(sum(pages), 0)::int AS pages FROM print_jobs`);
    expect(data.printedPages).toBe(pages);
    for (const s of data.schools) {
      const mine = data.terminals.filter((d) => d.schoolId === s.schoolId);
      expect(s.paperLeft).toBe(mine.reduce((n, d) => n + d.paperLeft, 0));
      if (s.recentPages > 0) expect(s.daysLeft).toBe(Math.floor(s.paperLeft / (s.recentPages / 14)));
    }
    // Schools are sorted by days left, the shortest first.
    const days = data.schools.map((s) => s.daysLeft ?? Infinity);
    expect(days).toEqual([...days].sort((a, b) => a - b));
    const sheets = data.reorder.items.reduce((n, i) => n + i.sheets * i.quantity, 0);
    expect(sheets).toBeGreaterThanOrEqual(data.reorder.needSheets);
    expect(data.reorder.needSheets).toBe(data.schools.reduce((n, s) => n + s.needSheets, 0));
    // partner3 sees its own terminals only.
    const three: Consumption = await c.data('partner3', '/api/wrongbook/v1.0/partner/devices/consumption');
    expect(three.terminals.every((d) => d.deviceId !== p1DeviceId)).toBe(true);
    expect(three.terminals.length).toBeLessThan(data.terminals.length);
  });
});

describe('the event stream over HTTP', () => {
  let base: string;
  beforeAll(async () => {
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  /** Opens a stream and collects its events until closed. */
  async function open(user: string) {
    const token = await c.token(user);
    const controller = new AbortController();
    const res = await fetch(`${base}${LIVE_STREAM_PATH}`, { headers: { 'blade-auth': `bearer ${token}` }, signal: controller.signal });
    const events: { type: string; deviceId: number; kinds?: string[] }[] = [];
    let text = '';
    const waiters: (() => void)[] = [];
    const reading = (async () => {
      if (!res.body) return;
      const decoder = new TextDecoder();
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          text += decoder.decode(chunk, { stream: true });
          let end;
          while ((end = text.indexOf('\n\n')) >= 0) {
            const block = text.slice(0, end);
            text = text.slice(end + 2);
            const data = block.split('\n').find((l) => l.startsWith('data: '));
            if (data) events.push(JSON.parse(data.slice(6)));
            waiters.splice(0).forEach((w) => w());
          }
        }
      } catch {
        // aborted
      }
    })();
    const waitFor = async (match: (e: (typeof events)[number]) => boolean, ms = 5000) => {
      const until = Date.now() + ms;
      while (!events.some(match)) {
        if (Date.now() > until) return undefined;
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return events.find(match);
    };
    return { res, events, waitFor, close: async () => (controller.abort(), await reading) };
  }

  it("carries a beat to the subtree's streams only, in time", async () => {
    const one = await open('partner1');
    const three = await open('partner3');
    expect(one.res.status).toBe(200);
    expect(one.res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const http = httpTransport(base);
    const p3 = new DeviceClient(p3Serial, await deviceSecret(t.app, p3Serial), http);
    const p1 = new DeviceClient(p1Serial, await deviceSecret(t.app, p1Serial), http);
    const sent = Date.now();
    await p3.call('POST', `${API}/heartbeat`, { paperLeft: 290, jammed: false, firmware: '2.4.0' });
    await p1.call('POST', `${API}/heartbeat`, { paperLeft: 290, jammed: true, firmware: '2.4.0' });
    const [p3Id] = await q<{ id: number }>(sql`SELECT id FROM devices WHERE serial = ${p3Serial}`);
    // A beat without a transition is a `beat`; one with (the paper rose by a refill) a `change`.
    expect(await one.waitFor((e) => (e.type === 'beat' || e.type === 'change') && e.deviceId === p3Id.id)).toBeDefined();
    expect(Date.now() - sent).toBeLessThan(2000);
    expect(await one.waitFor((e) => e.type === 'change' && e.deviceId === p1DeviceId && !!e.kinds?.includes('jammed'))).toBeDefined();
    expect(await one.waitFor((e) => e.type === 'alarm' && e.deviceId === p1DeviceId)).toBeDefined();
    expect(await three.waitFor((e) => e.deviceId === p3Id.id)).toBeDefined();
    // partner3's stream heard nothing of partner1's own terminal.
    expect(three.events.some((e) => e.deviceId === p1DeviceId)).toBe(false);
    await p1.call('POST', `${API}/heartbeat`, { paperLeft: 290, jammed: false, firmware: '2.4.0' });
    await one.close();
    await three.close();
  });

  it('holds at most MAX_STREAMS_PER_USER per user and frees a slot on close', async () => {
    const streams = [];
    for (let i = 0; i < MAX_STREAMS_PER_USER; i++) streams.push(await open('partner2'));
    expect(streams.every((s) => s.res.status === 200)).toBe(true);
    const extra = await open('partner2');
    expect(extra.res.status).toBe(429);
    await extra.close();
    await streams[0].close();
    // The server notices the closed socket.
    let again;
    for (let i = 0; i < 20; i++) {
      again = await open('partner2');
      if (again.res.status === 200) break;
      await again.close();
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(again!.res.status).toBe(200);
    await again!.close();
    for (const s of streams.slice(1)) await s.close();
  });
});
