// Security headers over real HTTP handling: the web pages carry the content security policy and
// may not be framed; API replies (JSON, errors and file downloads) are never sniffed nor stored
// by the browser, since they carry students' personal data.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../server/app';
import { PrincipalCache } from '../../server/auth/principalCache';
import type { Database } from '../../server/db';
import { multipart } from '../support/school';
import { openTestDatabase } from '../support/testDatabase';
import { testConfig } from '../support/testApp';

let app: FastifyInstance;
let database: Database;
let dir: string;
let admin: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'xz-headers-'));
  const web = join(dir, 'web');
  mkdirSync(join(web, 'assets'), { recursive: true });
  writeFileSync(join(web, 'index.html'), '<!doctype html><title>AI教学助手</title><script type="module" src="/assets/main.js"></script>');
  writeFileSync(join(web, 'account.html'), '<!doctype html><title>AI教学助手-登录</title>');
  writeFileSync(join(web, 'assets', 'main.js'), 'console.log(1)');
  database = await openTestDatabase();
  app = await buildApp({ db: database.db, config: testConfig({ dataDir: join(dir, 'data') }), webRoot: web, principals: new PrincipalCache() });
  const login = await app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'schooladmin', password: 'Demo@2026' } });
  admin = { 'blade-auth': `bearer ${login.json().data.accessToken}` };
});
afterAll(async () => {
  await app?.close();
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** 'a b; c d e' → { a: ['b'], c: ['d', 'e'] } */
function policy(res: LightMyRequestResponse): Record<string, string[]> {
  const header = String(res.headers['content-security-policy'] ?? '');
  return Object.fromEntries(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name, values]),
  );
}

function expectApiHeaders(res: LightMyRequestResponse) {
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['cache-control']).toBe('no-store');
}

describe('web pages', () => {
  it.each(['/', '/index.html', '/account.html'])('%s carries a policy without inline scripts and may not be framed', async (url) => {
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = policy(res);
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['script-src-attr']).toEqual(["'none'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['base-uri']).toEqual(["'self'"]);
    expect(csp['form-action']).toEqual(["'self'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['connect-src']).toEqual(["'self'"]);
    // Plain-HTTP school networks keep working.
    expect(csp).not.toHaveProperty('upgrade-insecure-requests');
    expect(Object.values(csp).flat()).not.toContain("'unsafe-eval'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('scripts are served as JavaScript with nosniff', async () => {
    const res = await app.inject({ url: '/assets/main.js' });
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('API replies', () => {
  it('JSON, signed in or not, is neither sniffed nor stored', async () => {
    const open = await app.inject({ url: '/api/app/config' });
    expect(open.headers['content-type']).toMatch(/^application\/json/);
    expectApiHeaders(open);
    const info = await app.inject({ url: '/api/juno/personal/info', headers: admin });
    expect(info.statusCode).toBe(200);
    expectApiHeaders(info);
  });

  it('errors too: 401 without a session, 404 for an unknown path, 400 for a bad body', async () => {
    const answers: [LightMyRequestResponse, number][] = [
      [await app.inject({ url: '/api/juno/personal/info' }), 401],
      // Past the web app's catch-all route too, signed in or not.
      [await app.inject({ url: '/api/nope' }), 404],
      [await app.inject({ url: '/api/nope', headers: admin }), 404],
      [await app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'x' } }), 400],
    ];
    for (const [res, status] of answers) {
      expect(res.statusCode).toBe(status);
      expect(res.json().success).toBe(false);
      expectApiHeaders(res);
    }
  });

  it('file downloads: an Excel template, and a resource previewed and downloaded', async () => {
    const template = await app.inject({ url: '/api/vesta/teacher/importTemplate', headers: admin });
    expect(template.statusCode).toBe(200);
    expect(template.headers['content-disposition']).toMatch(/^attachment;/);
    expectApiHeaders(template);

    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('pixels')]);
    const body = multipart({ type: '其他', title: '座位表' }, { name: '座位表.png', content: png });
    const upload = await app.inject({ method: 'POST', url: '/api/vesta/resource/upload', payload: body.payload, headers: { ...admin, ...body.headers } });
    expect(upload.statusCode, upload.body).toBe(200);
    const id = upload.json().data.id;
    for (const kind of ['preview', 'download']) {
      const res = await app.inject({ url: `/api/vesta/resource/${kind}?resourceId=${id}`, headers: admin });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expectApiHeaders(res);
    }
  });
});
