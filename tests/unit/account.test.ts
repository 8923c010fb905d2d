import { describe, expect, it } from 'vitest';
import { safeRedirect, signOutMessage } from '../../src/account/redirect';
import { signInUrl } from '../../src/authProvider/session';

const ORIGIN = 'https://xuezhu.example.cn';

describe('sign-in redirect', () => {
  it('returns to same-origin targets, as absolute URLs', () => {
    expect(safeRedirect(`${ORIGIN}/`, ORIGIN)).toBe(`${ORIGIN}/`);
    expect(safeRedirect(`${ORIGIN}/#/homework?classId=3`, ORIGIN)).toBe(`${ORIGIN}/#/homework?classId=3`);
    expect(safeRedirect('/index.html#/exam', ORIGIN)).toBe(`${ORIGIN}/index.html#/exam`);
  });

  it.each([
    'https://evil.example.com/',
    '//evil.example.com/x',
    '/\\evil.example.com',
    '\\\\evil.example.com',
    ' //evil.example.com',
    '\t//evil.example.com',
    'https:/\\evil.example.com',
    'http:evil.example.com',
    'javascript:alert(1)',
    'data:text/html,hi',
    'http://xuezhu.example.cn/',
    'https://xuezhu.example.cn.evil.com/',
    'https://xuezhu.example.cn@evil.com/',
    'https://xuezhu.example.cn:8443/',
  ])('sends %s home instead', (target) => {
    expect(safeRedirect(target, ORIGIN)).toBe(`${ORIGIN}/`);
  });

  // Same-origin paths that, handed back as paths, a browser would read as another host.
  it.each(['/.//evil.example', '/%2e//evil.example', '/a/..//evil.example', '/./\\evil.example', '/.\\/evil.example', '/%2e%2e//evil.example', '/./%2e//evil.example'])(
    '%s stays on our origin whichever way the browser reads it',
    (target) => {
      const result = safeRedirect(target, ORIGIN);
      expect(new URL(result).origin).toBe(ORIGIN);
      // What location.replace() does with it: resolve against the sign-in page.
      expect(new URL(result, `${ORIGIN}/account.html`).origin).toBe(ORIGIN);
    },
  );

  it('goes home without a redirect', () => {
    expect(safeRedirect(null, ORIGIN)).toBe(`${ORIGIN}/`);
    expect(safeRedirect('', ORIGIN)).toBe(`${ORIGIN}/`);
  });

  it('explains known sign-out reasons only', () => {
    expect(signOutMessage('expired')).toBe('登录已失效，请重新登录');
    expect(signOutMessage('constructor')).toBeUndefined();
    expect(signOutMessage('请拨打 400 电话')).toBeUndefined();
  });

  it('the product sends users to the account app with the logout flag and its home URL', () => {
    const url = new URL(signInUrl('expired', ORIGIN), ORIGIN);
    expect(url.pathname).toBe('/account.html');
    expect(url.searchParams.get('logout')).toBe('1');
    expect(url.searchParams.get('redirect')).toBe(`${ORIGIN}/`);
    expect(url.searchParams.get('reason')).toBe('expired');
    expect(safeRedirect(url.searchParams.get('redirect'), ORIGIN)).toBe(`${ORIGIN}/`);
  });
});
