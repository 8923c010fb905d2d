// public/session-check.js runs before the product's scripts and must agree with the product on
// where the session is kept and where signing in happens.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { signInUrl, TOKEN_KEY } from '../../src/authProvider/session';

const script = readFileSync(join(import.meta.dirname, '..', '..', 'public', 'session-check.js'), 'utf8');
const ORIGIN = 'https://xuezhu.example.edu.cn';

function run(stored: Record<string, string>, storageBlocked = false): string[] {
  const replaced: string[] = [];
  const localStorage = { getItem: (key: string) => stored[key] ?? null };
  const window = {
    get localStorage() {
      if (storageBlocked) throw new Error('SecurityError');
      return localStorage;
    },
    location: { origin: ORIGIN, replace: (url: string) => replaced.push(url) },
  };
  runInNewContext(script, { window, encodeURIComponent });
  return replaced;
}

describe('the signed-out check before the product loads', () => {
  it('sends a browser without a token to the same sign-in address the product uses', () => {
    expect(run({})).toEqual([signInUrl(undefined, ORIGIN)]);
  });
  it('lets a browser with a token load the product', () => {
    expect(run({ [TOKEN_KEY]: 'a-token' })).toEqual([]);
  });
  it('leaves the decision to the product when storage is blocked', () => {
    expect(run({}, true)).toEqual([]);
  });
});
