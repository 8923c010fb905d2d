// Relayed heartbeats (POST /api/device/v1/heartbeats, docs/api-devices.md) as a school gateway
// meets them: a terminal carries up to 500 beats of its partner's terminals, each signed by its own
// terminal. Each beat is checked as a heartbeat of its own (clock, serial, signature, nonce), a
// beat of another partner's terminal is refused, refusals are per beat and in Chinese, the events,
// alarms and live events are those of the same beats sent one by one, and hostile bodies are a
// Chinese 4xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/testApp';
import { deviceSecret, injectTransport } from '../support/devices';
import { rows } from '../../server/db/query';
import { DeviceClient, type RelayedBeat } from '../../server/devices/client';
import { newDeviceSecret, signedHeaders } from '../../server/modules/devices/signature';
import type { LiveEvent } from '../../src/domain/alarms';

let t: TestApp;
const API = '/api/device/v1';
const STATE = { paperLeft: 300, jammed: false, firmware: '2.4.0' };

const q = <T>(query: ReturnType<typeof sql>) => rows<T>(t.database.db, query);
const client = async (serial: string) => new DeviceClient(serial, await deviceSecret(t.app, serial), injectTransport(t.app));

interface Relayed {
  received: number;
  recorded: number;
  results: { serial: string; nonce: string; code: number; msg: string; events?: string[] }[];
}
const relay = async (via: DeviceClient, beats: unknown[]) => {
  const reply = await via.send('POST', `${API}/heartbeats`, { beats });
  return { status: reply.status, msg: reply.body.msg, data: reply.body.data as Relayed };
};

/** Deployed terminals of one partner (the relay first), and one of another partner. */
let relayClient: DeviceClient;
let same: DeviceClient[];
let foreign: DeviceClient;

const deviceOf = async (c: DeviceClient) => (await q<{ id: number; paper_left: number; jammed: boolean; online: boolean }>(sql`
  SELECT id, paper_left, jammed, last_heartbeat_at > now() - interval '1 minute' AS online FROM devices WHERE serial = ${c.serial}`))[0];
const eventsOf = async (c: DeviceClient) =>
  (await q<{ kind: string; detail: Record<string, number> | null }>(sql`
    SELECT kind, detail FROM device_events WHERE device_id = ${(await deviceOf(c)).id} AND kind NOT IN ('bound', 'unbound') ORDER BY id`));

beforeAll(async () => {
  t = await createTestApp();
  // The partner with the most deployed demo terminals relays; another partner's terminal is the outsider.
  const fleet = await q<{ serial: string; partnerId: number }>(sql`
    SELECT serial, partner_id AS "partnerId" FROM devices WHERE school_id IS NOT NULL AND serial LIKE 'XZP%' ORDER BY serial`);
  const counts = new Map<number, number>();
  for (const d of fleet) counts.set(d.partnerId, (counts.get(d.partnerId) ?? 0) + 1);
  const partner = [...counts].sort((a, b) => b[1] - a[1])[0][0];
  const own = fleet.filter((d) => d.partnerId === partner);
  relayClient = await client(own[0].serial);
  same = await Promise.all(own.slice(1, 4).map((d) => client(d.serial)));
  foreign = await client(fleet.find((d) => d.partnerId !== partner)!.serial);
});
afterAll(() => t.close());

describe('relayed heartbeats', () => {
  it('records each terminal\'s own signed beat, with its events, as if it had sent it', async () => {
    const [a, b] = same;
    for (const c of [a, b]) await c.send('POST', `${API}/heartbeat`, STATE);
    const before = (await eventsOf(a)).length;
    const res = await relay(relayClient, [a.relayedBeat({ ...STATE, paperLeft: 40 }), b.relayedBeat({ ...STATE, paperLeft: 280 }), a.relayedBeat({ ...STATE, paperLeft: 40, jammed: true })]);
    expect(res.status).toBe(200);
    expect(res.data.received).toBe(3);
    expect(res.data.recorded).toBe(3);
    expect(res.data.results.map((r) => [r.serial, r.code, r.events])).toEqual([
      [a.serial, 200, ['paperLow']],
      [b.serial, 200, []],
      [a.serial, 200, ['jammed']],
    ]);
    expect((await eventsOf(a)).slice(before).map((e) => e.kind)).toEqual(['paperLow', 'jammed']);
    expect(await deviceOf(a)).toMatchObject({ paper_left: 40, jammed: true, online: true });
    expect(await deviceOf(b)).toMatchObject({ paper_left: 280, online: true });
  });

  it('opens and closes alarms and tells the live pages as single beats do', async () => {
    const c = same[2];
    await c.send('POST', `${API}/heartbeat`, STATE);
    const heard: LiveEvent[] = [];
    const unsubscribe = t.app.liveBus.subscribe((event) => heard.push(event));
    try {
      await relay(relayClient, [c.relayedBeat({ ...STATE, jammed: true })]);
      const open = await q<{ kind: string }>(sql`SELECT kind FROM device_alarms WHERE device_id = ${(await deviceOf(c)).id} AND resolved_at IS NULL`);
      expect(open.map((a) => a.kind)).toContain('jammed');
      await relay(relayClient, [c.relayedBeat(STATE)]);
      const still = await q<{ kind: string }>(sql`SELECT kind FROM device_alarms WHERE device_id = ${(await deviceOf(c)).id} AND resolved_at IS NULL AND kind = 'jammed'`);
      expect(still).toEqual([]);
    } finally {
      unsubscribe();
    }
    const id = (await deviceOf(c)).id;
    expect(heard.filter((e) => e.type === 'change' && e.deviceId === id).map((e) => (e as { kinds: string[] }).kinds)).toEqual([['jammed'], ['jamCleared']]);
    const alarms = heard.filter((e) => e.type === 'alarm' && e.deviceId === id && e.kind === 'jammed');
    expect(alarms.map((e) => (e as { action: string }).action)).toEqual(['opened', 'resolved']);
  });

  it('says back online after a silence, with the offline seconds', async () => {
    const c = same[1];
    await c.send('POST', `${API}/heartbeat`, STATE);
    const before = (await eventsOf(c)).length;
    await t.database.db.execute(sql`UPDATE devices SET last_heartbeat_at = now() - interval '2 hours' WHERE serial = ${c.serial}`);
    const res = await relay(relayClient, [c.relayedBeat(STATE)]);
    expect(res.data.results[0].events).toEqual(['online']);
    const [online] = (await eventsOf(c)).slice(before);
    expect(online.kind).toBe('online');
    expect(online.detail!.offlineSeconds).toBeGreaterThanOrEqual(7200);
  });
});

describe('per-terminal authentication', () => {
  it('refuses, beat by beat, a forged signature, a changed state, an unknown serial, a stale time and a replay', async () => {
    const [a, b] = same;
    const good = a.relayedBeat(STATE);
    const forged: RelayedBeat = { ...new DeviceClient(b.serial, newDeviceSecret(), injectTransport(t.app)).relayedBeat(STATE) };
    const changed: RelayedBeat = { ...a.relayedBeat(STATE), paperLeft: 9 };
    const unknown = new DeviceClient('XZP99999999', newDeviceSecret(), injectTransport(t.app)).relayedBeat(STATE);
    const stale = a.relayedBeat(STATE, Date.now() - 6 * 60_000);
    const res = await relay(relayClient, [good, forged, changed, unknown, stale, good]);
    expect(res.status).toBe(200);
    expect(res.data.results.map((r) => [r.code, r.msg])).toEqual([
      [200, '操作成功'],
      [401, '设备签名校验失败'],
      [401, '设备签名校验失败'],
      [401, '设备未注册'],
      [401, '请求时间与服务器相差超过5分钟，请校准设备时钟'],
      [401, '重复的请求（随机串已使用），已拒绝'],
    ]);
    expect(res.data.recorded).toBe(1);
    // A nonce is spent whichever way the beat came: the same signed beat sent by the terminal itself is a replay.
    const headers = signedHeaders(a.serial, await deviceSecret(t.app, a.serial), 'POST', `${API}/heartbeat`, JSON.stringify(STATE));
    const beat = a.relayedBeat(STATE);
    Object.assign(beat, { timestamp: Number(headers['x-device-timestamp']), nonce: headers['x-device-nonce'], signature: headers['x-device-signature'] });
    expect((await relay(relayClient, [beat])).data.results[0].code).toBe(200);
    const direct = await injectTransport(t.app)('POST', `${API}/heartbeat`, JSON.stringify(STATE), { ...headers, 'content-type': 'application/json' });
    expect(direct.body).toMatchObject({ code: 401, msg: '重复的请求（随机串已使用），已拒绝' });
  });

  it('refuses a beat of another partner\'s terminal, and records the rest', async () => {
    const before = await deviceOf(foreign);
    const res = await relay(relayClient, [foreign.relayedBeat({ ...STATE, paperLeft: 7 }), same[0].relayedBeat(STATE)]);
    expect(res.data.results.map((r) => [r.serial, r.code, r.msg])).toEqual([
      [foreign.serial, 403, '该设备不属于本合作伙伴，不能代为上报心跳'],
      [same[0].serial, 200, '操作成功'],
    ]);
    expect((await deviceOf(foreign)).paper_left).toBe(before.paper_left);
  });

  it('refuses the whole batch when the relay itself is not signed right', async () => {
    const body = JSON.stringify({ beats: [same[0].relayedBeat(STATE)] });
    const headers = signedHeaders(relayClient.serial, newDeviceSecret(), 'POST', `${API}/heartbeats`, body);
    const res = await injectTransport(t.app)('POST', `${API}/heartbeats`, body, { ...headers, 'content-type': 'application/json' });
    expect(res.body).toMatchObject({ code: 401, msg: '设备签名校验失败' });
    const unsigned = await t.app.inject({ method: 'POST', url: `${API}/heartbeats`, headers: { 'content-type': 'application/json' }, payload: body });
    expect(unsigned.json()).toMatchObject({ code: 401, msg: '缺少设备签名信息' });
  });

  it('counts each relayed beat against its own terminal\'s heartbeat limit', async () => {
    const c = same[2];
    // Up to the limit (30 a minute) this window, whatever came before in this file.
    const beats = Array.from({ length: 40 }, () => c.relayedBeat(STATE));
    const res = await relay(relayClient, beats);
    const codes = res.data.results.map((r) => r.code);
    expect(codes.filter((code) => code === 429).length).toBeGreaterThanOrEqual(10);
    expect(res.data.results.find((r) => r.code === 429)!.msg).toMatch(/^本终端发送心跳过于频繁，请.+后再试$/);
    expect(codes.every((code) => code === 200 || code === 429)).toBe(true);
  });
});

describe('hostile batches', () => {
  const cases: [string, unknown, string][] = [
    ['no beats', { beats: [] }, '心跳不能为空'],
    ['more than 500', { beats: Array.from({ length: 501 }, () => ({ serial: 'XZP1', timestamp: 1, nonce: 'abcdefgh', signature: 'a'.repeat(64), ...STATE })) }, '心跳不能超过500项'],
    ['a field beyond its bounds', { beats: [{ serial: 'XZP1', timestamp: 1, nonce: 'abcdefgh', signature: 'a'.repeat(64), ...STATE, paperLeft: 10_001 }] }, '剩余纸张取值不正确'],
    ['a malformed signature', { beats: [{ serial: 'XZP1', timestamp: 1, nonce: 'abcdefgh', signature: 'z'.repeat(64), ...STATE }] }, '签名格式不正确'],
    ['a serial too long', { beats: [{ serial: 'X'.repeat(33), timestamp: 1, nonce: 'abcdefgh', signature: 'a'.repeat(64), ...STATE }] }, '设备编号长度不能超过32个字符'],
    ['an extra field', { beats: [{ serial: 'XZP1', timestamp: 1, nonce: 'abcdefgh', signature: 'a'.repeat(64), ...STATE, secret: 'x' }] }, '请求包含不支持的参数'],
    ['beats not a list', { beats: 'all' }, '心跳格式不正确'],
  ];
  for (const [what, body, msg] of cases) {
    it(`answers ${what} with a Chinese 400`, async () => {
      const res = await relayClient.send('POST', `${API}/heartbeats`, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 400, success: false, msg });
    });
  }

  it('answers a body that is not JSON with a Chinese 400', async () => {
    const body = '{"beats": [';
    const headers = signedHeaders(relayClient.serial, await deviceSecret(t.app, relayClient.serial), 'POST', `${API}/heartbeats`, body);
    const res = await injectTransport(t.app)('POST', `${API}/heartbeats`, body, { ...headers, 'content-type': 'application/json' });
    expect(res.body).toMatchObject({ code: 400, msg: '请求内容不是有效的 JSON' });
  });
});
