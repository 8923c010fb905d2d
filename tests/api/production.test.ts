// A school's install: NODE_ENV=production on an empty database. The server refuses to start with
// the sandbox gateway or without its own secret, loads no demo data, and the only way in is the
// platform admin that `npm run admin:create` makes, whose one-time password must be replaced first.
// The same app in production mode on the demo database: no sandbox page, paying online refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript, serverEntry, startServer, type RunningServer } from '../support/serverProcess';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';
import { DEMO_PASSWORD, demoAccountsPresent } from '../../server/seed';
import { NOTIFY_PATH } from '../../server/modules/mercury/payment/notifyRoutes';
import { createPlatformAdmin } from '../../server/modules/juno/platformAdmin';

const SECRET = 'f3b1c8a09d7e4b2c6a5f8e1d0c9b7a6e5d4c3b2a19f8e7d6';
const PIN_KEY = '7c2e9a41b05d86f3e1a4c7b9d2f05e8a63b1c4d7e9f2a5b8';
const DEMO_USERNAMES = ['admin', 'schooladmin', 'schooladmin2', 'teacher', 'principal', 'psych', 'parttime', 'partner1', 'partner2', 'partner3'];

describe('starting in production mode', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'xz-prod-refused-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const start = async (env: Record<string, string>) => runScript(await serverEntry(), [], { NODE_ENV: 'production', DATA_DIR: dataDir, PORT: '0', ...env });

  // Each refusal is a unit test of loadConfig (tests/unit/config.test.ts); this one is the whole
  // process, as an operator sees it: one Chinese sentence, exit code 1, no stack trace.
  it('refuses to start with the sandbox gateway, and says why in Chinese', async () => {
    const sandbox = await start({ JWT_SECRET: SECRET, TERMINAL_PIN_KEY: PIN_KEY, PAYMENT_GATEWAY: 'sandbox' });
    expect(sandbox.code).toBe(1);
    expect(sandbox.out).toContain('生产模式（NODE_ENV=production）无法启动');
    expect(sandbox.out).toContain('PAYMENT_GATEWAY=sandbox 是演示用的沙箱支付');
    expect(sandbox.out).not.toMatch(/at .*\.ts:\d+/);
  }, 120_000);

  it('refuses to start with a half-configured WeChat Pay, naming what is missing and printing no key', async () => {
    const apiV3Key = 'a3f9c2e81b7d4065f2e9c1a8b7d3e6f0';
    const half = await start({ JWT_SECRET: SECRET, TERMINAL_PIN_KEY: PIN_KEY, PAYMENT_GATEWAY: 'wechat', WECHATPAY_MCHID: '1900009191', WECHATPAY_API_V3_KEY: apiV3Key });
    expect(half.code).toBe(1);
    expect(half.out).toContain('微信支付配置不完整，缺少：WECHATPAY_APPID、WECHATPAY_SERIAL_NO、WECHATPAY_PRIVATE_KEY_FILE、WECHATPAY_NOTIFY_URL');
    expect(half.out).not.toContain(apiV3Key);
    expect(half.out).not.toMatch(/at .*\.ts:\d+/);
  }, 120_000);
});

describe('a production install on an empty database', () => {
  let dataDir: string;
  let server: RunningServer | undefined;
  let oneTime: string;
  const env = () => ({ NODE_ENV: 'production', JWT_SECRET: SECRET, TERMINAL_PIN_KEY: PIN_KEY, DATA_DIR: dataDir });
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${server!.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { 'blade-auth': `bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  const login = (username: string, password: string) => post('/api/juno/auth/login', { username, password });

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'xz-prod-'));
    // The first platform admin, made before the first start (one process opens the embedded database).
    const created = await runScript('scripts/adminCreate.ts', ['--username', 'rootadmin', '--name', '平台管理员'], env());
    expect(created.code, created.out).toBe(0);
    oneTime = /一次性密码：(\S+)/.exec(created.out)![1];
    server = await startServer({ dataDir, fresh: true, env: env() });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('has no demo account: none of the demo usernames signs in with the demo password', async () => {
    for (const username of DEMO_USERNAMES) {
      const res = await login(username, DEMO_PASSWORD);
      expect(res.status, username).toBe(401);
      expect((await res.json()).msg).toBe('用户名或密码错误');
    }
  });

  it('has no sandbox gateway: its page, its confirm and its notify endpoint answer 404', async () => {
    const page = await fetch(`${server!.url}/sandbox-pay/PO20261127093000123456?token=x`);
    expect(page.status).toBe(404);
    const confirm = await fetch(`${server!.url}/sandbox-pay/PO20261127093000123456/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'token=x&amount_fen=4695300',
    });
    expect(confirm.status).toBe(404);
    const notice = await post(NOTIFY_PATH, { event_type: 'TRANSACTION.SUCCESS', out_trade_no: 'PO20261127093000123456', transaction_id: 'X', amount_fen: 1, success_time: new Date().toISOString() });
    expect(notice.status).toBe(404);
  });

  it('lets the created admin in only to replace the one-time password, then as the platform admin', async () => {
    const first = await login('rootadmin', oneTime);
    expect(first.status).toBe(200);
    const { data } = await first.json();
    expect(data.mustChangePassword).toBe(true);
    const token = data.accessToken as string;
    const info = await fetch(`${server!.url}/api/juno/personal/info`, { headers: { 'blade-auth': `bearer ${token}` } });
    expect(info.status).toBe(403);
    expect((await info.json()).msg).toBe('请先修改初始密码');
    for (const [newPassword, msg] of [
      ['short1', '新密码长度应为 8–64 个字符'],
      ['onlyletters', '新密码需同时包含字母和数字'],
      [oneTime, '新密码不能与原密码相同'],
      ['rootadmin2027', '新密码不能包含用户名'],
    ]) {
      const weak = await post('/api/juno/auth/changePassword', { oldPassword: oneTime, newPassword }, token);
      expect(weak.status, newPassword).toBe(400);
      expect((await weak.json()).msg).toBe(msg);
    }
    const wrongOld = await post('/api/juno/auth/changePassword', { oldPassword: 'not-it-1', newPassword: 'Harbour7lights' }, token);
    expect((await wrongOld.json()).msg).toBe('原密码不正确');
    const changed = await post('/api/juno/auth/changePassword', { oldPassword: oneTime, newPassword: 'Harbour7lights' }, token);
    expect(changed.status).toBe(200);
    const roles = await fetch(`${server!.url}/api/juno/personal/myRoles`, { headers: { 'blade-auth': `bearer ${token}` } });
    expect(roles.status).toBe(200);
    expect((await roles.json()).data.map((r: { roleKey: string }) => r.roleKey)).toEqual(['xz:admin']);
    expect((await login('rootadmin', oneTime)).status).toBe(401);
    const next = await (await login('rootadmin', 'Harbour7lights')).json();
    expect(next.data.mustChangePassword).toBe(false);
  });
});

describe('production mode on a database with orders', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ production: true });
  }, 120_000);
  afterAll(() => t.close());

  it('refuses to pay online until a real gateway is connected, and has no sandbox page', async () => {
    const c = client(t);
    const [pack] = await c.data('partner2', '/api/wrongbook/v1.0/partner/getPartnerPaperConfig');
    const placed = await c.post('partner2', '/api/wrongbook/v1.0/partner/addPaperOrder', { items: [{ packId: pack.packId, quantity: 1 }] });
    expect(placed.statusCode).toBe(409);
    expect(placed.json().msg).toBe('暂未开通在线支付（未配置支付通道），请联系平台管理员');
    expect((await t.app.inject({ method: 'GET', url: '/sandbox-pay/PO20261127093000123456' })).statusCode).toBe(404);
  });

  it('creates a platform admin only under a free, well-formed username', async () => {
    await expect(createPlatformAdmin(t.database.db, { username: 'admin', name: '平台管理员' })).rejects.toThrow('用户名“admin”已存在');
    await expect(createPlatformAdmin(t.database.db, { username: "x' OR 1=1", name: '平台管理员' })).rejects.toThrow('用户名应为 3–64 位字母、数字或 _ . - @');
    const { password } = await createPlatformAdmin(t.database.db, { username: 'ops.admin', name: '运维管理员' });
    expect(password).toMatch(/^[A-Za-z2-9]{14}$/);
    const res = await t.app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'ops.admin', password } });
    expect(res.json().data.mustChangePassword).toBe(true);
  });

  it('recognises the demo accounts, which a production start refuses', async () => {
    expect(await demoAccountsPresent(t.database.db)).toEqual(expect.arrayContaining(['admin', 'schooladmin', 'teacher', 'partner1', 'psych']));
  });
});
