import { describe, expect, it } from 'vitest';
import { PrincipalCache } from '../../server/auth/principalCache';
import type { PrincipalRow } from '../../server/auth/principal';

const row = (freshForMs: number): PrincipalRow => ({
  user_id: 1,
  username: 'teacher',
  name: '陈静',
  tenant_id: 1,
  school_id: 1,
  partner_id: null,
  region: null,
  ancestors: null,
  role_keys: ['xz:teacher'],
  must_change_password: false,
  session_id: 's1',
  fresh_until: new Date(Date.now() + freshForMs),
  idle: false,
});

describe('session cache', () => {
  it('serves a session while its row is fresh', () => {
    const cache = new PrincipalCache();
    cache.set('token', row(60_000));
    expect(cache.get('token')?.username).toBe('teacher');
  });

  it('drops a session once its row is no longer fresh (ended, idle, or use due to be recorded), well within its 5 s', () => {
    const cache = new PrincipalCache();
    cache.set('token', row(-1));
    expect(cache.get('token')).toBeUndefined();
  });
});

describe('checking a token', () => {
  /** A check that waits until released, counting its calls. */
  const gatedCheck = () => {
    let release!: (r: PrincipalRow) => void;
    let calls = 0;
    const check = () => {
      calls++;
      return new Promise<PrincipalRow>((resolve) => (release = resolve));
    };
    return { check, release: (r: PrincipalRow) => release(r), calls: () => calls };
  };

  it('checks a token once for the requests that arrive while it is checked, and keeps the row', async () => {
    const cache = new PrincipalCache();
    const gate = gatedCheck();
    const waiting = Promise.all([cache.load('token', gate.check), cache.load('token', gate.check), cache.load('token', gate.check)]);
    gate.release(row(60_000));
    expect((await waiting).map((r) => r.username)).toEqual(['teacher', 'teacher', 'teacher']);
    expect(gate.calls()).toBe(1);
    expect(cache.get('token')?.username).toBe('teacher');
  });

  it('shares a refusal, then checks again', async () => {
    const cache = new PrincipalCache();
    let calls = 0;
    const refuse = async (): Promise<PrincipalRow> => {
      calls++;
      throw new Error('登录已失效，请重新登录');
    };
    await expect(Promise.all([cache.load('token', refuse), cache.load('token', refuse)])).rejects.toThrow('登录已失效');
    await expect(cache.load('token', refuse)).rejects.toThrow('登录已失效');
    expect(calls).toBe(2);
  });

  it('after a session is revoked, neither joins nor keeps a check begun before', async () => {
    const cache = new PrincipalCache();
    const before = gatedCheck();
    const first = cache.load('token', before.check);
    await cache.evictSession('s1');
    const after = gatedCheck();
    const second = cache.load('token', after.check);
    expect(after.calls()).toBe(1);
    before.release(row(60_000));
    await first;
    expect(cache.get('token')).toBeUndefined();
    after.release(row(60_000));
    await second;
    expect(cache.get('token')?.username).toBe('teacher');
  });
});
