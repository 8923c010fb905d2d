// Every declared CRUD resource (server/modules/crud, CRUD_RESOURCES), checked from its declaration
// alone: list/one/add/update/remove/export for a role it allows; a Chinese 403 for every demo role
// it does not; a Chinese 404 for a record of another tenant and of another school of the same
// tenant; a Chinese 4xx (never a 500) for hostile input, with the declaration's field names; and a
// Content-Range total equal to the database's count. A new declaration is tested without a line here.
import { and, count, eq } from 'drizzle-orm';
import { getTableColumns } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../server/db/schema';
import { CRUD_RESOURCES } from '../../server/modules/crud';
import { crudLabels, type CrudResource } from '../../server/modules/crud/crudRoutes';
import { readToken } from '../../server/auth/tokens';
import { loadPrincipalRow, toPrincipal, type Principal } from '../../server/auth/principal';
import { createTestApp, type TestApp } from '../support/testApp';
import { readRows, XLSX } from '../support/school';
import type { JsonSchema } from '../support/routeSchemas';

/** Demo users of every kind: each resource finds among them one it allows and the ones it refuses. */
const USERS = ['schooladmin', 'teacher', 'parttime', 'principal', 'subjectleader', 'gradeleader', 'researcher', 'psych', 'admin', 'partner1'];
const CJK = /[\u4e00-\u9fff]/;

let t: TestApp;
const tokens = new Map<string, string>();
const principals = new Map<string, Principal>();

beforeAll(async () => {
  t = await createTestApp();
  for (const user of USERS) {
    const token = await t.login(user);
    const claims = await readToken(t.app.config.jwtSecret, token);
    const row = await loadPrincipalRow(t.database.db, claims!.sid, t.app.config.sessionIdle);
    tokens.set(user, token);
    principals.set(user, toPrincipal(row!, undefined, t.app.config));
  }
}, 120_000);
afterAll(async () => t?.close());

type Res = Awaited<ReturnType<TestApp['call']>>;

function expectChinese(res: Res, status: number | 'client') {
  if (status === 'client') expect(res.statusCode >= 400 && res.statusCode < 500, `${res.statusCode} ${res.body}`).toBe(true);
  else expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(body).toMatchObject({ code: res.statusCode, success: false, data: null });
  expect(body.msg).toMatch(CJK);
  return body.msg as string;
}

/** A valid value for a field, the nth of its kind (so two records differ). */
function sample(node: JsonSchema, n: number): unknown {
  if (node.enum) return node.enum[n % node.enum.length];
  if (node.anyOf) return sample(node.anyOf.find((branch) => branch.type !== 'null')!, n);
  if (node.type === 'integer' || node.type === 'number') return Math.min(node.maximum ?? 100, Math.max(node.minimum ?? 0, 0) + n);
  if (node.type === 'boolean') return n % 2 === 0;
  return `测试${n}`.slice(0, node.maxLength ?? 10);
}

/** A value past a field's bound, and what the message then says after the field's name. */
function beyond(node: JsonSchema): { value: unknown; says: RegExp } | undefined {
  if (node.enum) return { value: '不存在的取值', says: /取值不正确$/ };
  if (node.anyOf) return beyond(node.anyOf.find((branch) => branch.type !== 'null')!);
  if (node.type === 'integer' || node.type === 'number') return { value: (node.maximum ?? 0) + 1, says: /取值不正确$/ };
  if (node.type === 'string' && node.maxLength) return { value: '字'.repeat(node.maxLength + 1), says: new RegExp(`长度不能超过${node.maxLength}个字符$`) };
  return undefined;
}

const isText = (node: JsonSchema): boolean => node.type === 'string' || !!node.anyOf?.some(isText);

function record(resource: CrudResource, n: number): Record<string, unknown> {
  const properties = resource.input.properties as Record<string, JsonSchema>;
  return Object.fromEntries(Object.entries(properties).map(([key, node]) => [key, sample(node, n)]));
}

for (const resource of CRUD_RESOURCES) {
  describe(`${resource.label} (/api/${resource.name})`, () => {
    const base = `/api/${resource.name}`;
    const labels = crudLabels(resource);
    const columns = getTableColumns(resource.table) as Record<string, PgColumn>;
    const keyOf = (column: PgColumn) => Object.keys(columns).find((key) => columns[key] === column)!;
    const allowed = () => USERS.find((u) => resource.roles.write.includes(principals.get(u)!.activeRole as never) && principals.get(u)!.schoolId !== null)!;
    const refused = () => USERS.filter((u) => !resource.roles.read.includes(principals.get(u)!.activeRole as never));
    const as = (user: string, options: Parameters<TestApp['call']>[1]) => t.call(tokens.get(user)!, options);
    const send = (user: string, method: 'POST' | 'PUT', url: string, payload: unknown) =>
      as(user, { method, url, payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' } });
    const own = () => principals.get(allowed())!;

    async function dbCount(tenantId: number, schoolId: number): Promise<number> {
      const [{ n }] = await t.database.db.select({ n: count() }).from(resource.table).where(and(eq(resource.scope.tenant, tenantId), eq(resource.scope.school, schoolId)));
      return n;
    }

    async function insertElsewhere(tenantId: number, schoolId: number): Promise<number> {
      const values = { ...record(resource, 7), [keyOf(resource.scope.tenant)]: tenantId, [keyOf(resource.scope.school)]: schoolId };
      const [row] = await t.database.db.insert(resource.table).values(values).returning({ id: columns.id });
      return row.id as number;
    }

    it('is allowed to some demo user with a school, and refused to others', () => {
      expect(allowed()).toBeDefined();
      expect(refused().length).toBeGreaterThan(0);
    });

    it('lists a page with a Content-Range whose total is the database count, sorts, filters and searches', async () => {
      const user = allowed();
      const { tenantId, schoolId } = own();
      const total = await dbCount(tenantId!, schoolId!);
      expect(total).toBeGreaterThan(2);
      const res = await as(user, { url: `${base}?sort=${encodeURIComponent(JSON.stringify(resource.sort))}&range=${encodeURIComponent('[0,1]')}&filter=${encodeURIComponent('{}')}` });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ code: 200, success: true });
      expect(res.json().data).toHaveLength(2);
      expect(res.headers['content-range']).toBe(`${resource.name} 0-1/${total}`);
      const all = await as(user, { url: `${base}?range=${encodeURIComponent(`[0,${total - 1}]`)}` });
      expect(all.headers['content-range']).toBe(`${resource.name} 0-${total - 1}/${total}`);
      const rows = all.json().data as Record<string, unknown>[];
      for (const field of resource.sortable) {
        for (const order of ['ASC', 'DESC']) {
          const sorted = await as(user, { url: `${base}?sort=${encodeURIComponent(JSON.stringify([field, order]))}&range=${encodeURIComponent('[0,499]')}` });
          expect(sorted.statusCode, `${field} ${order} ${sorted.body}`).toBe(200);
          expect(sorted.json().data).toHaveLength(total);
        }
      }
      for (const field of resource.filterable) {
        const value = rows.find((r) => r[field] !== null)![field];
        const filtered = await as(user, { url: `${base}?filter=${encodeURIComponent(JSON.stringify({ [field]: value }))}` });
        expect(filtered.statusCode, filtered.body).toBe(200);
        expect(filtered.headers['content-range']).toMatch(new RegExp(`/${rows.filter((r) => r[field] === value).length}$`));
      }
      const byIds = await as(user, { url: `${base}?filter=${encodeURIComponent(JSON.stringify({ id: rows.slice(0, 2).map((r) => r.id) }))}` });
      expect((byIds.json().data as { id: number }[]).map((r) => r.id).sort()).toEqual(rows.slice(0, 2).map((r) => r.id).sort());
      const needle = String(rows[0][resource.search[0]]);
      const searched = await as(user, { url: `${base}?filter=${encodeURIComponent(JSON.stringify({ q: needle }))}` });
      expect((searched.json().data as Record<string, unknown>[]).map((r) => r.id)).toContain(rows[0].id);
    });

    it('adds, reads, updates, exports and removes a record', async () => {
      const user = allowed();
      const { tenantId, schoolId } = own();
      const before = await dbCount(tenantId!, schoolId!);
      const added = await send(user, 'POST', base, record(resource, 1));
      expect(added.statusCode, added.body).toBe(200);
      const id = added.json().data.id as number;
      expect(added.json().data).toMatchObject(record(resource, 1));
      expect(await dbCount(tenantId!, schoolId!)).toBe(before + 1);

      const one = await as(user, { url: `${base}/${id}` });
      expect(one.json().data).toMatchObject({ id, ...record(resource, 1) });

      const updated = await send(user, 'PUT', `${base}/${id}`, record(resource, 2));
      expect(updated.statusCode, updated.body).toBe(200);
      expect((await as(user, { url: `${base}/${id}` })).json().data).toMatchObject({ id, ...record(resource, 2) });

      const exported = await as(user, { url: `${base}/export?sort=${encodeURIComponent(JSON.stringify(resource.sort))}` });
      expect(exported.statusCode).toBe(200);
      expect(exported.headers['content-type']).toBe(XLSX);
      expect(exported.headers['content-disposition']).toContain(encodeURIComponent(`${resource.label}列表_`));
      const sheet = await readRows(exported.rawPayload);
      expect(sheet).toHaveLength(before + 2);
      for (const key of Object.keys(resource.input.properties)) expect(sheet[0]).toContain(labels[key]);

      const removed = await as(user, { method: 'DELETE', url: `${base}/${id}` });
      expect(removed.statusCode, removed.body).toBe(200);
      expect(removed.json().data).toMatchObject({ id });
      expect(await dbCount(tenantId!, schoolId!)).toBe(before);
      expectChinese(await as(user, { url: `${base}/${id}` }), 404);
    });

    it('refuses a unique field taken in the school with a Chinese 409', async () => {
      for (const key of resource.unique ?? []) {
        const user = allowed();
        const first = await send(user, 'POST', base, record(resource, 3));
        expect(first.statusCode, first.body).toBe(200);
        const again = await send(user, 'POST', base, record(resource, 3));
        expect(expectChinese(again, 409)).toContain(labels[key]);
        await as(user, { method: 'DELETE', url: `${base}/${first.json().data.id}` });
      }
    });

    it('refuses every role it does not name with a Chinese 403, on every route', async () => {
      const { tenantId, schoolId } = own();
      const id = await insertElsewhere(tenantId!, schoolId!);
      for (const user of refused()) {
        expectChinese(await as(user, { url: base }), 403);
        expectChinese(await as(user, { url: `${base}/export` }), 403);
        expectChinese(await as(user, { url: `${base}/${id}` }), 403);
        expectChinese(await send(user, 'POST', base, record(resource, 4)), 403);
        expectChinese(await send(user, 'PUT', `${base}/${id}`, record(resource, 4)), 403);
        expectChinese(await as(user, { method: 'DELETE', url: `${base}/${id}` }), 403);
      }
      expect(await dbCount(tenantId!, schoolId!)).toBeGreaterThan(0);
    });

    it("answers a Chinese 404 for another tenant's and another school's record, and lists neither", async () => {
      const user = allowed();
      const { tenantId } = own();
      const [foreign] = (await t.database.db.select().from(schema.schools)).filter((s) => s.tenantId !== tenantId);
      const [sibling] = await t.database.db.insert(schema.schools).values({ tenantId: tenantId!, name: '同租户另一所学校', region: '杭州市西湖区' }).returning();
      for (const school of [foreign, sibling]) {
        const id = await insertElsewhere(school.tenantId, school.id);
        const before = await dbCount(school.tenantId, school.id);
        expectChinese(await as(user, { url: `${base}/${id}` }), 404);
        expectChinese(await send(user, 'PUT', `${base}/${id}`, record(resource, 5)), 404);
        expectChinese(await as(user, { method: 'DELETE', url: `${base}/${id}` }), 404);
        expect(await dbCount(school.tenantId, school.id)).toBe(before);
        const listed = await as(user, { url: `${base}?filter=${encodeURIComponent(JSON.stringify({ id: [id] }))}` });
        expect(listed.json().data).toEqual([]);
        expect(listed.headers['content-range']).toBe(`${resource.name} */0`);
      }
    });

    it('answers hostile input with a Chinese 4xx, never a 500, naming fields by the declaration', async () => {
      const user = allowed();
      const { tenantId, schoolId } = own();
      const before = await dbCount(tenantId!, schoolId!);
      const id = (await as(user, { url: `${base}?range=${encodeURIComponent('[0,0]')}` })).json().data[0].id as number;
      for (const bad of ['-1', '0', '2147483648', '1e300', 'abc', '1.5', 'Infinity', '9'.repeat(400)]) {
        expectChinese(await as(user, { url: `${base}/${bad}` }), 'client');
        expectChinese(await send(user, 'PUT', `${base}/${bad}`, record(resource, 6)), 'client');
        expectChinese(await as(user, { method: 'DELETE', url: `${base}/${bad}` }), 'client');
      }
      const sorts = ['x', '[]', '["nope","ASC"]', `["${resource.sort[0]}","UP"]`, `["${resource.sort[0]}"]`, '{"a":1}', 'null'];
      const ranges = ['x', '[5,1]', '[-1,3]', '[0,100000]', '[0.5,3]', '[0]', '["a","b"]', '[1e300,1e301]', '{}'];
      const filters = ['{', '[]', '"x"', '{"nope":1}', `{"q":"${'长'.repeat(60)}"}`, '{"id":[-1]}', '{"id":"abc"}', '{"q":"a\\u0000b"}', '{"q":"\\u202e"}', `{"id":[${Array.from({ length: 600 }, (_, i) => i + 1).join(',')}]}`];
      for (const sort of sorts) expect(expectChinese(await as(user, { url: `${base}?sort=${encodeURIComponent(sort)}` }), 400)).toMatch(/^排序/);
      for (const range of ranges) expect(expectChinese(await as(user, { url: `${base}?range=${encodeURIComponent(range)}` }), 400)).toMatch(/^分页范围/);
      for (const filter of filters) {
        expectChinese(await as(user, { url: `${base}?filter=${encodeURIComponent(filter)}` }), 400);
        expectChinese(await as(user, { url: `${base}/export?filter=${encodeURIComponent(filter)}` }), 400);
      }
      expectChinese(await as(user, { url: `${base}?sort=${'x'.repeat(100_000)}` }), 'client');
      expectChinese(await as(user, { url: `${base}?unknown=1` }), 400);
      expectChinese(await as(user, { url: `${base}/export?range=[0,1]` }), 400);
      for (const [key, node] of Object.entries(resource.input.properties as Record<string, JsonSchema>)) {
        const past = beyond(node);
        if (past) {
          const msg = expectChinese(await send(user, 'POST', base, { ...record(resource, 8), [key]: past.value }), 400);
          expect(msg).toMatch(new RegExp(`^${labels[key]}`));
          expect(msg).toMatch(past.says);
          expect(expectChinese(await send(user, 'PUT', `${base}/${id}`, { ...record(resource, 8), [key]: past.value }), 400)).toMatch(new RegExp(`^${labels[key]}`));
        }
        const bidi = expectChinese(await send(user, 'POST', base, { ...record(resource, 8), [key]: 'a\u202eb' }), 400);
        if (isText(node)) expect(bidi).toBe(`${labels[key]}包含不支持的字符（如空字符、不完整的字符或文字方向控制符）`);
        expectChinese(await send(user, 'POST', base, { ...record(resource, 8), [key]: { a: 1 } }), 400);
        expectChinese(await send(user, 'POST', base, { ...record(resource, 8), [key]: 'x'.repeat(100_000) }), 400);
      }
      for (const key of resource.input.required ?? []) {
        const { [key]: _, ...rest } = record(resource, 8);
        expect(expectChinese(await send(user, 'POST', base, rest), 400)).toBe(`${labels[key]}不能为空`);
        if (isText((resource.input.properties as Record<string, JsonSchema>)[key])) {
          expect(expectChinese(await send(user, 'POST', base, { ...rest, [key]: '   ' }), 400)).toBe(`${labels[key]}不能为空`);
        }
      }
      expect(expectChinese(await send(user, 'POST', base, { ...record(resource, 8), hacked: 1 }), 400)).toBe('请求包含不支持的参数');
      expect(expectChinese(await send(user, 'PUT', `${base}/${id}`, { ...record(resource, 8), id: 1 }), 400)).toBe('请求包含不支持的参数');
      expectChinese(await as(user, { method: 'POST', url: base, payload: '{"a":', headers: { 'content-type': 'application/json' } }), 400);
      expectChinese(await as(user, { method: 'POST', url: base, payload: '[]', headers: { 'content-type': 'application/json' } }), 400);
      expect(await dbCount(tenantId!, schoolId!)).toBe(before);
    });
  });
}
