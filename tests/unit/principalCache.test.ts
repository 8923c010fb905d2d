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
