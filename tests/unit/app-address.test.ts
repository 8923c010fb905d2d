// A page address typed without '#' is sent into the app; API calls and files stay 404s.
import { describe, expect, it } from 'vitest';
import { appAddress } from '../../server/http/envelope';

describe('appAddress', () => {
  it('sends a screen address to its hash route, query and all', () => {
    expect(appAddress('GET', '/studentManage')).toBe('/#/studentManage');
    expect(appAddress('GET', '/homeworkDetails?id=12')).toBe('/#/homeworkDetails?id=12');
    expect(appAddress('HEAD', '/resource/teaching')).toBe('/#/resource/teaching');
  });

  it('leaves API calls, files, writes and odd paths as 404', () => {
    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['GET', '/api'],
      ['GET', '/assets/missing.js'],
      ['GET', '/favicon.ico'],
      ['POST', '/studentManage'],
      ['GET', '//evil.example.com'],
      ['GET', '/a//b'],
      ['GET', '/%0d%0aSet-Cookie:x'],
      ['GET', `/${'a'.repeat(300)}`],
    ]) {
      expect(appAddress(method, url), url).toBeNull();
    }
  });
});
