// A screen's address typed without '#' is sent into the app; API calls, files and unknown paths stay 404s.
import { describe, expect, it } from 'vitest';
import { appAddress } from '../../server/http/envelope';
import { findRoute } from '../../src/domain/permissions';
import { ROUTES } from '../../src/menu/routes';

const isAppPath = (path: string) => !!findRoute(ROUTES, path);

describe('appAddress', () => {
  it("sends a screen's address to its hash route, query and all", () => {
    expect(appAddress('GET', '/studentManage', isAppPath)).toBe('/#/studentManage');
    expect(appAddress('GET', '/homeworkDetails?id=12', isAppPath)).toBe('/#/homeworkDetails?id=12');
    expect(appAddress('HEAD', '/workbook/42', isAppPath)).toBe('/#/workbook/42');
  });

  it('leaves API calls, files, writes, unknown and odd paths as 404', () => {
    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['GET', '/api'],
      ['GET', '/assets/missing.js'],
      ['GET', '/favicon.ico'],
      ['POST', '/studentManage'],
      ['GET', '/sandbox-pay/P123'],
      ['GET', '/no-such-page'],
      ['GET', '//evil.example.com'],
      ['GET', '/a//b'],
      ['GET', '/%0d%0aSet-Cookie:x'],
      ['GET', `/${'a'.repeat(300)}`],
    ]) {
      expect(appAddress(method, url, isAppPath), url).toBeNull();
    }
  });
});
