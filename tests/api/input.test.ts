// No input reaches a 500: the shared input rules (bounded numbers, no NUL / lone surrogate / bidi
// control, Chinese field names in every message) on every registered route, and the cases that
// used to fail. tests/api/fuzz.test.ts throws generated input at every route besides.
import ExcelJS from 'exceljs';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { FIELD_LABELS } from '../../server/http/fieldLabels';
import { AJV_OPTIONS } from '../../server/http/lazySchemas';
import { createTestApp, type TestApp } from '../support/testApp';
import { apiRoutes, methodOf, routeParts, typesOf, walk } from '../support/routeSchemas';
import { multipart, tempDataDir } from '../support/school';
import { rows } from '../../server/db/query';

let t: TestApp;
let admin: string;
let teacher: string;

beforeAll(async () => {
  t = await createTestApp({ dataDir: tempDataDir() });
  admin = await t.login('schooladmin');
  teacher = await t.login('teacher');
});
afterAll(async () => t?.close());

const CJK = /[\u4e00-\u9fff]/;

function expectRefusal(res: { statusCode: number; body: string; json(): any }, status: number, msg?: string | RegExp) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(body).toMatchObject({ code: status, success: false, data: null });
  expect(body.msg).toMatch(CJK);
  if (msg) expect(body.msg).toMatch(msg);
  return body.msg as string;
}

describe('route schemas', () => {
  // The server compiles a route's schemas on its first request (server/http/lazySchemas.ts); here
  // every one is compiled by Fastify's own compilers with the server's options, so a schema that
  // cannot compile fails the suite instead of a user's first request.
  it('compile, every one, with the compilers and options the server uses', () => {
    const validators = AjvCompiler()({}, AJV_OPTIONS as never) as (route: unknown) => unknown;
    const serializers = SerializerSelector()({}, undefined as never) as (route: unknown) => unknown;
    const failures: string[] = [];
    let compiled = 0;
    const tryCompile = (what: string, compile: () => unknown) => {
      try {
        if (typeof compile() !== 'function') throw new Error('no function');
        compiled++;
      } catch (error) {
        failures.push(`${what}: ${(error as Error).message}`);
      }
    };
    const bodies = (schema: unknown) => {
      const content = (schema as { content?: Record<string, { schema: unknown }> } | undefined)?.content;
      return content ? Object.entries(content).map(([type, c]) => [type, c.schema] as const) : [['', schema] as const];
    };
    for (const route of t.routes) {
      const schema = (route.schema ?? {}) as Record<string, unknown>;
      const name = `${methodOf(route)} ${route.url}`;
      for (const httpPart of ['params', 'querystring', 'headers'] as const) {
        if (schema[httpPart] !== undefined) tryCompile(`${name} ${httpPart}`, () => validators({ schema: schema[httpPart], method: methodOf(route), url: route.url, httpPart }));
      }
      if (schema.body !== undefined) {
        for (const [contentType, body] of bodies(schema.body)) tryCompile(`${name} body ${contentType}`, () => validators({ schema: body, method: methodOf(route), url: route.url, httpPart: 'body', contentType }));
      }
      for (const [httpStatus, reply] of Object.entries((schema.response ?? {}) as Record<string, unknown>)) {
        for (const [contentType, body] of bodies(reply)) tryCompile(`${name} ${httpStatus} ${contentType}`, () => serializers({ schema: body, method: methodOf(route), url: route.url, httpStatus, contentType }));
      }
    }
    expect(failures).toEqual([]);
    // Most routes declare their input and many their reply: a walk that found none would pass above.
    expect(compiled).toBeGreaterThan(400);
  });

  it('give every field of every route a Chinese name', () => {
    const missing: string[] = [];
    for (const route of apiRoutes(t.routes)) {
      // A route's own names (a declared resource's labels) come before the shared dictionary, as in its messages.
      const labels = { ...FIELD_LABELS, ...(route.config as { fieldLabels?: Record<string, string> } | undefined)?.fieldLabels };
      for (const [part, schema] of Object.entries(routeParts(route))) {
        for (const { property } of walk(schema)) {
          if (property && !(Object.hasOwn(labels, property) && CJK.test(labels[property]))) {
            missing.push(`${methodOf(route)} ${route.url} ${part}.${property}`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('bound every number and every text of every route', () => {
    const unbounded: string[] = [];
    for (const route of apiRoutes(t.routes)) {
      for (const [part, schema] of Object.entries(routeParts(route))) {
        for (const { schema: node, property } of walk(schema)) {
          const where = `${methodOf(route)} ${route.url} ${part}.${property ?? '(root)'}`;
          const types = typesOf(node);
          if ((types.includes('number') || types.includes('integer')) && node.const === undefined && node.enum === undefined && !(Number.isFinite(node.minimum) && Number.isFinite(node.maximum))) {
            unbounded.push(`${where}: number without minimum and maximum`);
          }
          if (types.includes('string') && node.const === undefined && node.enum === undefined && !Number.isFinite(node.maxLength)) {
            unbounded.push(`${where}: text without maxLength`);
          }
          if (types.includes('array') && !Number.isFinite(node.maxItems)) unbounded.push(`${where}: list without maxItems`);
        }
      }
    }
    expect(unbounded).toEqual([]);
  });
});

const CORRECT = '/api/wrongbook/v1.0/correct';
const json = (token: string, url: string, payload: string) =>
  t.call(token, { method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });

describe('numbers', () => {
  it.each(['2147483648', '1e300', 'Infinity', '-Infinity', 'NaN', '0', '1.5', 'abc'])('refuses classId=%s in a query', async (value) => {
    expectRefusal(await t.call(admin, { url: `/api/vesta/class/getClassInfo?classId=${value}` }), 400, /^班级/);
  });

  it.each(['1e400', '"Infinity"', '1e300', '2147483648', '-1', '[]', '{}', 'null'])('refuses a classId of %s in a JSON body', async (value) => {
    expectRefusal(await json(admin, '/api/vesta/class/remove', `{"classId":${value}}`), 400, /^班级/);
  });

  it.each([
    ['current=1e300', /^页码/],
    ['current=Infinity', /^页码/],
    ['current=0', /^页码/],
    ['size=Infinity', /^每页条数/],
    ['size=0', /^每页条数/],
    ['size=501', /^每页条数/],
  ])('bounds paging: %s', async (query, msg) => {
    expectRefusal(await t.call(admin, { url: `/api/vesta/student/page?${query}` }), 400, msg);
  });

  it('names nested fields in Chinese, never by their English names', async () => {
    const missing = await t.call(teacher, { method: 'POST', url: `${CORRECT}/task/create`, payload: { type: 1, title: '测验', answerKey: { items: { '1': { points: 1 } } } } });
    expectRefusal(missing, 400, '答案不能为空');
    const infinite = await json(teacher, `${CORRECT}/result/review`, '{"resultId":1,"items":[{"no":1,"score":1e400}]}');
    expectRefusal(infinite, 400, /^得分/);
    const huge = await json(teacher, `${CORRECT}/result/review`, '{"resultId":1,"items":[{"no":1e300,"score":1}]}');
    expectRefusal(huge, 400, /^题号/);
  });
});

describe('text', () => {
  it('refuses NUL in the sign-in, unauthenticated, and counts no failed attempt', async () => {
    const before = await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n, coalesce(sum(level), 0)::float8 AS level FROM login_throttles`);
    const res = await t.app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'teacher\u0000', password: 'x' } });
    expectRefusal(res, 400, /^用户名包含不支持的字符/);
    expect(await rows(t.database.db, sql`SELECT count(*)::int AS n, coalesce(sum(level), 0)::float8 AS level FROM login_throttles`)).toEqual(before);
  });

  it.each([
    ['NUL', '%00'],
    ['a right-to-left override', '%E2%80%AE'],
    ['a pop directional isolate', '%E2%81%A9'],
  ])('refuses %s in a query string, naming the field', async (_, encoded) => {
    expectRefusal(await t.call(admin, { url: `/api/vesta/student/page?keyword=a${encoded}b` }), 400, /^关键字包含不支持的字符/);
  });

  it('refuses unsafe text in a parameter no schema declares, on a route without a schema', async () => {
    expectRefusal(await t.call(admin, { url: '/api/juno/personal/myRoles?undeclaredParam=%00' }), 400, /^参数包含不支持的字符/);
  });

  it('refuses a lone surrogate in an answer-sheet title and a bidi control in a class name', async () => {
    const sheet = await json(teacher, `${CORRECT}/sheet/create`, JSON.stringify({ title: '期中', paper: 'A4', identity: 'anonymous', sections: [{ kind: 'objective', title: '选择题', items: [{ no: 1, type: 'single' }] }] }).replace('期中', '期中\\ud800'));
    expectRefusal(sheet, 400, /^标题包含不支持的字符/);
    const grades = await rows<{ id: number }>(t.database.db, sql`SELECT id FROM grades ORDER BY id LIMIT 1`);
    const cls = await t.call(admin, { method: 'POST', url: '/api/vesta/class/add', payload: { gradeId: grades[0].id, className: '七(9)\u202e班' } });
    expectRefusal(cls, 400, /^班级名称包含不支持的字符/);
  });

  it('keeps well-formed text: a pair of surrogates (emoji) and Chinese are fine', async () => {
    const res = await t.call(admin, { url: `/api/vesta/student/page?keyword=${encodeURIComponent('张😀')}` });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('walks a deeply nested JSON body without overflowing', async () => {
    const deep = `{"classId":1,"x":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    const res = await json(admin, '/api/vesta/class/remove', deep);
    expect(res.statusCode).toBeLessThan(500);
  });
});

describe('multipart fields', () => {
  const upload = (token: string, url: string, fields: Record<string, string>, name = 'a.png') => {
    // PNG magic bytes: the file passes the type check, so the fields decide.
    const body = multipart(fields, { name, content: Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64)]) });
    return t.call(token, { method: 'POST', url, payload: body.payload, headers: body.headers });
  };

  it.each([
    [{ taskId: 'abc' }, /^批改任务格式不正确/],
    [{ taskId: '1e300' }, /^批改任务取值不正确/],
    [{ taskId: 'Infinity' }, /^批改任务取值不正确/],
    [{ taskId: '1', studentId: 'abc' }, /^学生格式不正确/],
    [{ taskId: '1', studentId: '99999999999' }, /^学生取值不正确/],
    [{ taskId: '1', studentId: '1\u0000' }, /^学生/],
    [{}, /^批改任务不能为空/],
  ])('refuses task upload fields %o', async (fields, msg) => {
    expectRefusal(await upload(teacher, `${CORRECT}/task/upload`, fields), 400, msg);
  });

  it.each([
    [{ type: '教案', gradeId: 'Infinity' }, /^年级取值不正确/],
    [{ type: '教案', subjectId: 'x' }, /^学科格式不正确/],
    [{ type: '教案', title: '教案\u2066' }, /^标题包含不支持的字符/],
    [{ type: '教\u0000案' }, /^类型包含不支持的字符/],
  ])('refuses resource upload fields %o', async (fields, msg) => {
    expectRefusal(await upload(admin, '/api/vesta/resource/upload', fields), 400, msg);
  });

  it('refuses import rows whose cells carry a text-direction control, and writes none of them', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('学生');
    sheet.addRow(['姓名', '学号', '性别', '年级', '班级', '家长手机号']);
    sheet.addRow(['张\u202e三', 'BIDI-1', '男', '七年级', '七(1)班', '']);
    sheet.addRow(['李四', 'BIDI-2', '女', '七年级', '七(1)班', '']);
    const body = multipart({}, { name: '学生.xlsx', content: Buffer.from(await book.xlsx.writeBuffer()) });
    const res = await t.call(admin, { method: 'POST', url: '/api/vesta/student/importData', payload: body.payload, headers: body.headers });
    expect(res.statusCode).toBe(422);
    expect(res.headers['x-import-result']).toBe('failed');
    const marked = new ExcelJS.Workbook();
    await marked.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(String(marked.worksheets[0].getRow(2).getCell(7).value)).toMatch(/^姓名包含不支持的字符/);
    expect(await rows(t.database.db, sql`SELECT id FROM students WHERE student_no LIKE 'BIDI-%'`)).toEqual([]);
  });

  it('holds import workbooks to the same rules', async () => {
    expectRefusal(await upload(admin, '/api/vesta/student/importData', { scribble: '\u202e' }, 'a.xlsx'), 400, /^参数包含不支持的字符/);
  });
});

describe('over real HTTP', () => {
  let port: number;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });

  /** Sends raw bytes and reads the whole answer (the server closes the connection). */
  function raw(text: string): Promise<{ status: number; headers: string; body: string }> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.end(text));
      const chunks: Buffer[] = [];
      socket.on('data', (c) => chunks.push(c));
      socket.on('error', reject);
      socket.on('close', () => {
        const answer = Buffer.concat(chunks).toString('utf8');
        const [head, ...rest] = answer.split('\r\n\r\n');
        resolve({ status: Number(head.split(' ')[1]), headers: head, body: rest.join('\r\n\r\n') });
      });
    });
  }

  const expectEnvelope = (res: { status: number; body: string }, status: number) => {
    expect(res.status, res.body).toBe(status);
    const body = JSON.parse(res.body);
    expect(body).toMatchObject({ code: status, success: false, data: null });
    expect(body.msg).toMatch(CJK);
  };

  it('answers a 100 KB query string with the envelope, in Chinese', async () => {
    const res = await raw(`GET /api/vesta/student/page?keyword=${'a'.repeat(100 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expectEnvelope(res, 431);
  });

  it('answers a 100 KB header with the envelope, in Chinese', async () => {
    const res = await raw(`GET /api/app/config HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100 * 1024)}\r\n\r\n`);
    expectEnvelope(res, 431);
  });

  it('answers a malformed request with the envelope, in Chinese', async () => {
    expectEnvelope(await raw('GARBAGE\r\n\r\n'), 400);
  });

  it('still answers a long but acceptable query through the route', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/vesta/student/page?keyword=${'a'.repeat(4000)}`, { headers: { 'blade-auth': `bearer ${admin}` } });
    expect(res.status).toBe(400);
    expect((await res.json()).msg).toBe('关键字长度不能超过50个字符');
  });
});
