import { describe, expect, it } from 'vitest';
import { loadConfig, parseTrustProxy } from '../../server/config';

const env = (extra: Record<string, string>) => ({ JWT_SECRET: 'unit-test-secret', TERMINAL_PIN_KEY: 'unit-test-pin-key', DATA_DIR: '/nonexistent', ...extra });

describe('TRUST_PROXY', () => {
  it('trusts no proxy when unset', () => {
    expect(loadConfig(env({})).trustProxy).toEqual([]);
    expect(parseTrustProxy('')).toEqual([]);
  });

  it('takes addresses and networks, comma-separated', () => {
    expect(parseTrustProxy('10.0.0.1, 172.16.0.0/12,::1,fd00::/8,loopback')).toEqual(['10.0.0.1', '172.16.0.0/12', '::1', 'fd00::/8', 'loopback']);
  });

  it.each(['true', '*', '1', '10.0.0.300', '10.0.0.0/33', '10.0.0.0/8/1', 'proxy.example.com'])('refuses %s with a Chinese message', (value) => {
    expect(() => parseTrustProxy(value)).toThrow(/^TRUST_PROXY 中的“.+”不是 IP 地址或网段/);
  });
});

describe('SESSION_IDLE_MINUTES', () => {
  it('is two hours by default, next to a seven-day lifetime', () => {
    const config = loadConfig(env({}));
    expect(config.sessionIdle).toBe(7200);
    expect(config.sessionTtl).toBe(7 * 24 * 3600);
  });

  it('takes whole minutes', () => {
    expect(loadConfig(env({ SESSION_IDLE_MINUTES: '30' })).sessionIdle).toBe(1800);
  });

  it.each(['0', '-5', '1.5', 'two'])('refuses %s', (value) => {
    expect(() => loadConfig(env({ SESSION_IDLE_MINUTES: value }))).toThrow(/^SESSION_IDLE_MINUTES 应为正整数/);
  });
});

describe('terminal keys and limits', () => {
  it('takes the terminal PIN key from TERMINAL_PIN_KEY', () => {
    expect(new TextDecoder().decode(loadConfig(env({})).pinKey)).toBe('unit-test-pin-key');
  });

  it('keeps the per-terminal limits on unless DEVICE_RATE_LIMITS=0', () => {
    expect(loadConfig(env({})).deviceRateLimits).toBe(true);
    expect(loadConfig(env({ DEVICE_RATE_LIMITS: '1' })).deviceRateLimits).toBe(true);
    expect(loadConfig(env({ DEVICE_RATE_LIMITS: '0' })).deviceRateLimits).toBe(false);
  });
});
