// The server log: one line per request and per error, each with its request id; a 500 with its
// stack; no token, password or phone number in any line.
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  req?: { method: string; url: string };
  res?: { statusCode: number };
  err?: { type: string; message: string; stack: string };
  [key: string]: unknown;
}

const lines: Line[] = [];
const raw: string[] = [];
let t: TestApp;
let token: string;
const PHONE = '13912345678';

beforeAll(async () => {
  t = await createTestApp({}, { logger: { level: 'info', stream: { write: (line) => lines.push(JSON.parse(raw[raw.push(line) - 1])) } } });
  // A route that fails the way an unforeseen bug does, to see what the log keeps of it.
  t.app.get('/api/test/explode', { config: { public: true } }, async (request) => {
    request.log.info({ password: 'hunter2', headers: request.headers, body: { parentPhone: PHONE, nested: { accessToken: 'abc' } } }, 'about to fail');
    throw new Error(`Failed query: select * from users where phone = $1\nparams: ${PHONE},secret-value`);
  });
  // A write that PostgreSQL parted from another writer's (drizzle wraps the driver's error).
  t.app.get('/api/test/deadlock', { config: { public: true } }, async () => {
    throw new Error('Failed query: update …', { cause: Object.assign(new Error('deadlock detected'), { code: '40P01' }) });
  });
  token = await t.login('teacher');
});
afterAll(async () => t?.close());

const since = (start: number) => lines.slice(start);
const everything = () => JSON.stringify(lines);

describe('server log', () => {
  it('writes one line per request, with its request id, method, path and status', async () => {
    const start = lines.length;
    const res = await t.call(token, { url: '/api/juno/personal/myRoles' });
    expect(res.statusCode).toBe(200);
    const mine = since(start);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ level: 30, msg: 'request completed', req: { method: 'GET', url: '/api/juno/personal/myRoles' }, res: { statusCode: 200 } });
    expect(mine[0].reqId).toEqual(expect.any(String));
    expect(mine[0].responseTime).toEqual(expect.any(Number));
  });

  it('logs a 500 with its stack, under the request id of its request line', async () => {
    const start = lines.length;
    const res = await t.app.inject({ url: '/api/test/explode' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 500, msg: '服务异常', success: false, data: null });
    const mine = since(start);
    const error = mine.find((l) => l.level === 50)!;
    expect(error.err!.stack).toMatch(/Error: Failed query[\s\S]*logging\.test\.ts/);
    const request = mine.find((l) => l.msg === 'request completed')!;
    expect(request.res).toEqual({ statusCode: 500 });
    expect(error.reqId).toBe(request.reqId);
    // The SQL stays readable; its parameters do not reach the log.
    expect(error.err!.message).toMatch(/^Failed query: select \* from users where phone = \$1\nparams: \[redacted\]$/);
    expect(JSON.stringify(mine)).not.toContain('secret-value');
  });

  it('answers a deadlock with another writer as a Chinese 503 to retry, not a 500', async () => {
    const res = await t.app.inject({ url: '/api/test/deadlock' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json()).toEqual({ code: 503, msg: '其他操作正在修改相同的数据，请稍后重试', success: false, data: null });
  });

  it('keeps passwords, tokens and phone numbers out of every line', async () => {
    await t.app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'teacher', password: 'WrongPassword1' } });
    await t.call(token, { url: `/api/vesta/teacher/page?keyword=${PHONE}` });
    await t.app.inject({ url: '/api/test/explode', headers: { 'blade-auth': `bearer ${token}`, authorization: `Bearer ${token}` } });
    const about = lines.findLast((l) => l.msg === 'about to fail')!;
    expect(about).toMatchObject({ password: '[redacted]', headers: { 'blade-auth': '[redacted]', authorization: '[redacted]' }, body: { parentPhone: '[redacted]', nested: { accessToken: '[redacted]' } } });
    const text = everything();
    for (const secret of [PHONE, 'hunter2', 'WrongPassword1', 'Demo@2026', token, token.split('.')[2]]) expect(text).not.toContain(secret);
    expect(lines.some((l) => l.req?.url === '/api/vesta/teacher/page?keyword=[redacted]')).toBe(true);
  });

  it("masks what a search carries in the URL (students' names and numbers), keeping paging and ids", async () => {
    const start = lines.length;
    const url = `/api/vesta/student/page?keyword=${encodeURIComponent('程桐文')}&studentNo=202410401&classId=3&current=2&size=20`;
    await t.call(token, { url });
    const logged = since(start).find((l) => l.req?.url.startsWith('/api/vesta/student/page'))!;
    expect(logged.req!.url).toBe('/api/vesta/student/page?keyword=[redacted]&studentNo=[redacted]&classId=3&current=2&size=20');
    expect(JSON.stringify(since(start))).not.toMatch(/202410401|%E7%A8%8B|程桐文/);
  });

  it('logs a refused request as one line at info, not as an error', async () => {
    const start = lines.length;
    const res = await t.call(token, { url: '/api/vesta/class/getClassInfo?classId=Infinity' });
    expect(res.statusCode).toBe(400);
    const mine = since(start);
    expect(mine.map((l) => [l.level, l.msg])).toEqual([[30, 'request completed']]);
    expect(mine[0].res).toEqual({ statusCode: 400 });
  });

  it('logs a request Node refuses (a 100 KB address) as one short line, without its bytes', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const start = lines.length;
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.end(`GET /api/app/config?x=${PHONE}${'a'.repeat(100 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`));
      socket.on('data', () => undefined);
      socket.on('close', () => resolve());
    });
    const mine = since(start);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ level: 30, msg: 'client error', err: { code: 'HPE_HEADER_OVERFLOW' } });
    expect(raw[start].length).toBeLessThan(2000);
    expect(raw[start]).not.toContain(PHONE);
  });
});
