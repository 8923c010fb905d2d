import { describe, expect, it } from 'vitest';
import { safeRedirect, signOutMessage } from '../../src/account/redirect';
import { signInUrl } from '../../src/authProvider/session';

const ORIGIN = 'https://xuezhu.example.cn';

describe('sign-in redirect', () => {
  it('returns to same-origin targets', () => {
    expect(safeRedirect(`${ORIGIN}/`, ORIGIN)).toBe('/');
    expect(safeRedirect(`${ORIGIN}/#/homework?classId=3`, ORIGIN)).toBe('/#/homework?classId=3');
    expect(safeRedirect('/index.html#/exam', ORIGIN)).toBe('/index.html#/exam');
  });

  it.each([
    'https://evil.example.com/',
    '//evil.example.com/x',
    '/\\evil.example.com',
    'javascript:alert(1)',
    'data:text/html,hi',
    'http://xuezhu.example.cn/',
    'https://xuezhu.example.cn.evil.com/',
  ])('sends %s to / instead', (target) => {
    expect(safeRedirect(target, ORIGIN)).toBe('/');
  });

  it('goes home without a redirect', () => {
    expect(safeRedirect(null, ORIGIN)).toBe('/');
    expect(safeRedirect('', ORIGIN)).toBe('/');
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
    expect(safeRedirect(url.searchParams.get('redirect'), ORIGIN)).toBe('/');
  });
});
