// The small parts of terminal security: the per-terminal window counter, a terminal client that
// waits out a 429, the secret cache that never keeps a secret read before a rotation, and which
// PINs are too simple.
import { describe, expect, it } from 'vitest';
import { WindowLimiter } from '../../server/modules/devices/limits';
import { DeviceClient, type DeviceReply } from '../../server/devices/client';
import { DeviceSecretCache } from '../../server/modules/devices/secretCache';
import { demoStudentPin, hashPin, isWeakPin, pinMatches, randomPin } from '../../server/auth/terminalPins';

describe('window limiter', () => {
  it('allows max requests in a window, then says how long to wait, then allows again', () => {
    const limiter = new WindowLimiter();
    const limit = { max: 3, seconds: 60 };
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) expect(limiter.take('signIn:1', limit, t0 + i)).toEqual({ allowed: true });
    expect(limiter.take('signIn:1', limit, t0 + 20_000)).toEqual({ allowed: false, retryAfter: 40 });
    // Refused requests do not extend the wait; another key has its own window.
    expect(limiter.take('signIn:1', limit, t0 + 50_500)).toEqual({ allowed: false, retryAfter: 10 });
    expect(limiter.take('signIn:2', limit, t0 + 20_000)).toEqual({ allowed: true });
    expect(limiter.take('signIn:1', limit, t0 + 60_000)).toEqual({ allowed: true });
  });

  it('allows everything when limits are off (load measurements)', () => {
    const limiter = new WindowLimiter(false);
    for (let i = 0; i < 100; i++) expect(limiter.take('x', { max: 1, seconds: 60 }).allowed).toBe(true);
  });
});

describe('a terminal told to slow down', () => {
  const reply = (status: number, retryAfter?: number): DeviceReply => ({
    status,
    retryAfter,
    body: { code: status, msg: status === 200 ? '操作成功' : '本终端登录过于频繁，请7秒后再试', success: status === 200, data: status === 200 ? { ok: 1 } : null },
  });

  it('waits as long as Retry-After says and sends again, signed anew', async () => {
    const answers = [reply(429, 7), reply(429, 3), reply(200)];
    const nonces: string[] = [];
    const waits: number[] = [];
    const client = new DeviceClient(
      'XZP00000001',
      'a'.repeat(64),
      async (_m, _p, _b, headers) => {
        nonces.push(headers['x-device-nonce']);
        return answers.shift()!;
      },
      async (ms) => {
        waits.push(ms);
      },
    );
    expect(await client.call('POST', '/api/device/v1/signIn', { userKind: 1, studentNo: '1' })).toEqual({ ok: 1 });
    expect(waits).toEqual([7000, 3000]);
    expect(new Set(nonces).size).toBe(3);
  });

  it('gives up after a few tries with the server’s message; send alone never waits', async () => {
    const waits: number[] = [];
    const client = new DeviceClient('XZP00000001', 'a'.repeat(64), async () => reply(429, 7), async (ms) => {
      waits.push(ms);
    });
    expect((await client.send('GET', '/api/device/v1/roster')).status).toBe(429);
    expect(waits).toEqual([]);
    await expect(client.call('GET', '/api/device/v1/roster')).rejects.toThrow('429 本终端登录过于频繁');
    expect(waits.length).toBe(5);
  });
});

describe('terminal secret cache', () => {
  it('forgets a rotated terminal, and does not keep a secret read before the rotation', () => {
    const cache = new DeviceSecretCache();
    cache.set('A', { id: 1, secret: 'old' }, cache.version());
    expect(cache.get('A')?.secret).toBe('old');
    const before = cache.version();
    void cache.invalidate(1);
    expect(cache.get('A')).toBeUndefined();
    // A lookup that read the old secret before the rotation committed must not cache it after.
    cache.set('A', { id: 1, secret: 'old' }, before);
    expect(cache.get('A')).toBeUndefined();
    cache.set('A', { id: 1, secret: 'new' }, cache.version());
    expect(cache.get('A')?.secret).toBe('new');
    // Invalidations of other kinds are not about terminals.
    cache.receive({ tenantId: 1 });
    expect(cache.get('A')?.secret).toBe('new');
  });
});

describe('terminal PINs', () => {
  it('refuses one digit repeated and runs up or down', () => {
    for (const pin of ['000000', '777777', '123456', '234567', '901234', '654321', '098765']) expect(isWeakPin(pin), pin).toBe(true);
    for (const pin of ['246813', '135792', '120356', '864209']) expect(isWeakPin(pin), pin).toBe(false);
    for (let i = 0; i < 200; i++) expect(isWeakPin(randomPin())).toBe(false);
  });

  it('matches only the student’s own PIN under the same key', () => {
    const key = new TextEncoder().encode('k1');
    const stored = hashPin(key, 7, '246813');
    expect(pinMatches(key, 7, '246813', stored)).toBe(true);
    expect(pinMatches(key, 8, '246813', stored)).toBe(false);
    expect(pinMatches(new TextEncoder().encode('k2'), 7, '246813', stored)).toBe(false);
    expect(pinMatches(key, 7, '246814', stored)).toBe(false);
    expect(pinMatches(key, 7, '246813', null)).toBe(false);
    expect(demoStudentPin('20260101')).toMatch(/^\d{6}$/);
    expect(demoStudentPin('20260101')).toBe(demoStudentPin('20260101'));
  });
});
