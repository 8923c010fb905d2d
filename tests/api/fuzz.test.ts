// Every registered route, fuzzed from its own schema: query, body and (for POST and PUT routes) multipart
// uploads mixing valid values with hostile ones — huge and non-finite numbers, NUL, lone
// surrogates, bidi controls, 100 KB strings, wrong types, missing and unknown fields. Whatever
// comes in: no 5xx; every refusal is the envelope with a Chinese message that names no English
// field; a refused request wrote nothing (database and file store compared before and after); and
// no request stored a text-direction control character.
// Routes are found through Fastify's onRoute hook, so a new route is fuzzed without being listed.
import fc from 'fast-check';
import ExcelJS from 'exceljs';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rows } from '../../server/db/query';
import { readToken } from '../../server/auth/tokens';
import { loadPrincipalRow, toPrincipal, type Principal } from '../../server/auth/principal';
import { createTestApp, type TestApp } from '../support/testApp';
import { tempDataDir } from '../support/school';
import { signedHeaders } from '../../server/modules/devices/signature';
import { LIVE_STREAM_PATH } from '../../src/domain/alarms';
import { apiRoutes, methodOf, routeParts, typesOf, walk, type JsonSchema } from '../support/routeSchemas';

/** Fixed, so a failure replays; FUZZ_SEED and FUZZ_RUNS explore further by hand. */
const SEED = Number(process.env.FUZZ_SEED ?? 20260517);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
/** Tried in this order; a route is fuzzed as the first whose role its guards let in. */
const USERS = ['schooladmin', 'teacher', 'parttime', 'principal', 'subjectleader', 'gradeleader', 'researcher', 'psych', 'admin', 'partner1'];
const LOGIN = '/api/juno/auth/login';

let t: TestApp;
let dataDir: string;
const tokens = new Map<string, string>();
const principals = new Map<string, Principal>();
let demoAccounts: { id: number; username: string; passwordHash: string }[] = [];
/** Chinese column names of every import template, for hostile workbooks. */
let importColumns: string[] = [];

beforeAll(async () => {
  dataDir = tempDataDir();
  // No background sweep: a write it makes while a refused request runs would be blamed on that request.
  t = await createTestApp({ dataDir, backgroundSweeps: false });
  demoAccounts = await rows(t.database.db, sql`
    SELECT id, username, password_hash AS "passwordHash" FROM users WHERE username IN (${sql.join(USERS.map((u) => sql`${u}`), sql`, `)})`);
  for (const user of USERS) await signIn(user);
  importColumns = await templateColumns();
  // The order routes close unpaid orders past their time on read. An expired one is there from
  // the start (not only once the seeded snapshot is half an hour old), so every refused order
  // call meets it and must still write nothing.
  await t.database.db.execute(sql`UPDATE partner_orders SET expires_at = now() - interval '1 minute' WHERE status = 1`);
  await countWrites();
}, 120_000);
afterAll(async () => t?.close());

async function signIn(user: string) {
  const token = await t.login(user);
  const claims = await readToken(t.app.config.jwtSecret, token);
  const row = await loadPrincipalRow(t.database.db, claims!.sid, t.app.config.sessionIdle);
  tokens.set(user, token);
  principals.set(user, toPrincipal(row!, undefined, t.app.config));
}

/**
 * A fuzzed request may succeed and change a demo account (reset its password, rename it, sign it
 * out). Each route starts with a live session: the account is put back as seeded when needed.
 */
async function ensureSession(user: string) {
  const res = await t.call(tokens.get(user)!, { url: '/api/juno/personal/myRoles' });
  if (res.statusCode === 200) return;
  const account = demoAccounts.find((a) => a.username === user)!;
  await t.database.db.execute(sql`UPDATE users SET username = ${account.username}, password_hash = ${account.passwordHash} WHERE id = ${account.id}`);
  await t.database.db.execute(sql`DELETE FROM login_throttles`);
  await signIn(user);
}

/** The first demo user every guard of the route lets through (guards are the real preHandlers). */
async function userFor(route: RouteOptions): Promise<string | undefined> {
  if ((route.config as { public?: boolean } | undefined)?.public) return undefined;
  const guards = [route.preHandler ?? []].flat() as ((request: unknown) => Promise<void>)[];
  for (const user of USERS) {
    const request = { principal: principals.get(user), server: t.app, headers: {} };
    try {
      for (const guard of guards) await guard.call(t.app, request);
      return user;
    } catch {
      // Not this user's route.
    }
  }
  return USERS[0];
}

async function templateColumns(): Promise<string[]> {
  const names = new Set<string>();
  for (const route of apiRoutes(t.routes).filter((r) => methodOf(r) === 'GET' && r.url.endsWith('/importTemplate'))) {
    const user = (await userFor(route))!;
    const res = await t.call(tokens.get(user)!, { url: route.url });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    workbook.worksheets[0].getRow(1).eachCell((cell) => names.add(String(cell.value).replace(/[*\s]/g, '')));
  }
  return [...names];
}

// ---------------------------------------------------------------------------------------------
// Inputs

const ABSENT = Symbol('absent');
/** A number JSON cannot spell: written raw into the body (1e400 parses to Infinity). */
class RawNumber {
  constructor(readonly text: string) {}
}

const HOSTILE_TEXT = [
  'a\u0000b', '\u0000', 'x\ud800', '\udc00y', '\ud83d', 'abc\u202e', '\u202aLTR', '\u2066x\u2069', '\u2067', 'a'.repeat(100_000),
  '中'.repeat(100_000), '', ' ', '1e300', '1e400', 'Infinity', '-Infinity', 'NaN', '2147483648', '9007199254740993', '-1', '0', '1.5',
  '0x10', '١٢', 'null', 'true', '[]', '{}', "' OR 1=1 --", '%00', '../../etc/passwd', '<script>alert(1)</script>', '😀',
];
const HOSTILE_NUMBERS = [2 ** 31, 2 ** 31 - 1, 2 ** 53, 1e300, -1e300, -1, 0, 1.5, -0, Number.MAX_VALUE, Number.MIN_VALUE, new RawNumber('1e400'), new RawNumber('-1e400')];
const WRONG_TYPES: unknown[] = [null, true, false, {}, [], [1, 2], { a: 1 }, 'abc', [[[[[[[[[[]]]]]]]]]]];

function hostile(schema: JsonSchema): fc.Arbitrary<unknown> {
  const edges: unknown[] = [];
  if (Number.isFinite(schema.maximum)) edges.push(schema.maximum! + 1, schema.maximum! + 0.5);
  if (Number.isFinite(schema.minimum)) edges.push(schema.minimum! - 1);
  if (Number.isFinite(schema.maxLength)) edges.push('字'.repeat(schema.maxLength! + 1));
  return fc.oneof(
    fc.constantFrom(...HOSTILE_TEXT),
    fc.constantFrom(...HOSTILE_NUMBERS),
    fc.constantFrom(...WRONG_TYPES),
    ...(edges.length ? [fc.constantFrom(...edges)] : []),
    fc.string({ unit: 'binary', maxLength: 12 }),
  );
}

const TEXT_UNIT = fc.constantFrom(...'张三李四七年级八班(1)一二数学教案ABCxyz0123456789-_ 。，'.split(''));

function valid(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map(valid));
  const type = typesOf(schema)[0];
  const min = schema.minimum ?? -1000;
  const max = schema.maximum ?? 1000;
  switch (type) {
    case 'integer':
      // Small ids and numbers hit seeded rows; the whole range finds the edges.
      return fc.oneof(fc.integer({ min, max: Math.min(max, min + 40) }), fc.integer({ min, max }));
    case 'number':
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'string': {
      const maxLength = Math.min(schema.maxLength ?? 30, 30);
      const minLength = Math.min(schema.minLength ?? 0, maxLength);
      if (schema.pattern) {
        // A run of one character class (hex signatures, serials, nonces) is drawn at a length the
        // schema allows: drawing any match and filtering by length almost never meets a 64-character minimum.
        const run = /^\^\[([^\]]+)\]\+\$$/.exec(schema.pattern);
        if (run) {
          const least = schema.minLength ?? 1;
          return fc.string({ unit: fc.constantFrom(...classChars(run[1])), minLength: least, maxLength: Math.min(schema.maxLength ?? least + 30, least + 30) });
        }
        return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity));
      }
      return fc.string({ unit: TEXT_UNIT, minLength, maxLength });
    }
    case 'array':
      return fc.array(valid(schema.items ?? {}), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 3, 3) });
    case 'object':
      return object(schema, valid);
    default:
      return fc.anything();
  }
}

/** The characters of a regular expression's class body such as `0-9a-fA-F._-`. */
function classChars(body: string): string[] {
  const chars: string[] = [];
  for (let i = 0; i < body.length; i++) {
    if (body[i + 1] === '-' && i + 2 < body.length) {
      for (let c = body.charCodeAt(i); c <= body.charCodeAt(i + 2); c++) chars.push(String.fromCharCode(c));
      i += 2;
    } else chars.push(body[i] === '\\' ? body[++i] : body[i]);
  }
  return chars;
}

function object(schema: JsonSchema, field: (s: JsonSchema) => fc.Arbitrary<unknown>): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.entries(schema.properties ?? {});
  const patterned = Object.values(schema.patternProperties ?? {})[0];
  return fc
    .tuple(
      fc.tuple(...keys.map(([, child]) => field(child))),
      patterned ? fc.dictionary(fc.constantFrom('1', '2', '3', '40', 'x'), field(patterned), { maxKeys: 3 }) : fc.constant({}),
    )
    .map(([values, extra]) => {
      const out: Record<string, unknown> = { ...extra };
      keys.forEach(([name], i) => {
        if (values[i] !== ABSENT) out[name] = values[i];
      });
      return out;
    });
}

/** Mostly valid, with hostile values, missing fields and unknown ones mixed in at every level. */
function fuzzed(schema: JsonSchema): fc.Arbitrary<unknown> {
  const types = typesOf(schema);
  const structured = types.includes('object') || types.includes('array') || schema.anyOf;
  return fc.oneof(
    { weight: 6, arbitrary: structured ? fuzzedStructure(schema) : valid(schema) },
    { weight: 3, arbitrary: hostile(schema) },
    { weight: 1, arbitrary: fc.constant(ABSENT) },
  );
}

function fuzzedStructure(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map(fuzzed));
  if (typesOf(schema).includes('array')) return fc.array(fuzzed(schema.items ?? {}), { maxLength: 3 }).map((a) => a.filter((v) => v !== ABSENT));
  return fc
    .tuple(object(schema, fuzzed), fc.option(fc.tuple(fc.constantFrom('extra', 'a\u0000', '\u202e', '__proto__x'), hostile({})), { freq: 4 }))
    .map(([value, extra]) => (extra ? { ...value, [extra[0]]: extra[1] } : value));
}

/** Every place in a value where a field could be replaced or removed, and one where an unknown field could go. */
function places(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => [[...path, i], ...places(v, [...path, i])]);
  if (value !== null && typeof value === 'object') {
    return [[...path, 'extra'], ...Object.entries(value).flatMap(([k, v]) => [[...path, k], ...places(v, [...path, k])])];
  }
  return [];
}

const UNSAFE_CHARS = ['\u0000', '\ud800', '\udfff', '\u202a', '\u202e', '\u2066', '\u2069'];
const NUMERIC_TEXT = ['Infinity', '-Infinity', '1e400', '1e300', 'NaN', '2147483648', '-1', '0', '1.5', 'abc', ''];

/** A fault fitting what it replaces: text gets an unsafe character or grows huge, numbers go out of range. */
const fault = fc
  .record({ kind: fc.nat(9), unsafe: fc.constantFrom(...UNSAFE_CHARS), at: fc.nat(), text: fc.constantFrom(...HOSTILE_TEXT), number: fc.constantFrom(...HOSTILE_NUMBERS), numeric: fc.constantFrom(...NUMERIC_TEXT), wrong: fc.constantFrom(...WRONG_TYPES) })
  .map((f) => (existing: unknown): unknown => {
    if (f.kind === 9) return ABSENT;
    if (typeof existing === 'string') {
      if (f.kind < 5) {
        const at = f.at % (existing.length + 1);
        return existing.slice(0, at) + f.unsafe + existing.slice(at);
      }
      return f.kind < 7 ? f.text : f.kind < 8 ? 'x'.repeat(100_000) : f.wrong;
    }
    if (typeof existing === 'number') return f.kind < 4 ? f.number : f.kind < 7 ? f.numeric : f.kind < 8 ? f.text : f.wrong;
    return f.kind < 5 ? f.wrong : f.kind < 7 ? f.text : f.number;
  });

/** A valid value with exactly one field made hostile or left out: the fault reaches deep into the handler. */
function oneFault(schema: JsonSchema): fc.Arbitrary<unknown> {
  return fc.tuple(valid(schema), fc.nat(), fault).map(([value, pick, spoil]) => {
    const where = places(value);
    if (!where.length) {
      const replacement = spoil(value);
      return replacement === ABSENT ? value : replacement;
    }
    const copy = structuredClone(value) as Record<string | number, unknown>;
    const path = where[pick % where.length];
    let parent = copy;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
    const last = path[path.length - 1];
    const replacement = spoil(parent[last]);
    if (replacement === ABSENT) {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else parent[last] = replacement;
    return copy;
  });
}

/** One request part: valid, valid but for one fault, faults everywhere, or something else entirely. */
function part(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  if (!schema) return fc.oneof({ weight: 8, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: oneFault({ type: 'object', properties: {} }) });
  return fc.oneof(
    { weight: 3, arbitrary: valid(schema) },
    { weight: 5, arbitrary: oneFault(schema) },
    { weight: 2, arbitrary: fuzzedStructure(schema) },
    { weight: 1, arbitrary: hostile(schema) },
  );
}

// ---------------------------------------------------------------------------------------------
// Encoding

/** Percent-encoding that keeps a lone surrogate as its WTF-8 bytes, the way a broken client sends it. */
function encode(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    out += code >= 0xd800 && code <= 0xdfff ? [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('') : encodeURIComponent(char);
  }
  return out;
}

const queryText = (value: unknown): string =>
  typeof value === 'string' ? value : value instanceof RawNumber ? value.text : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);

function queryString(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof RawNumber) return `q=${encode(queryText(value))}`;
  const pairs: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    for (const item of Array.isArray(v) ? v : [v]) pairs.push(`${encode(key)}=${encode(queryText(item))}`);
  }
  return pairs.join('&');
}

/** The route's path with its `:name` parameters filled in (a missing one stays as typed). */
function pathWith(path: string, params: unknown): string {
  const values = params !== null && typeof params === 'object' ? (params as Record<string, unknown>) : {};
  return path.replace(/:(\w+)/g, (whole, name: string) => (name in values ? encode(queryText(values[name])) || '_' : whole));
}

function jsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_, v) => (v instanceof RawNumber ? `\u0001${raws.push(v.text) - 1}\u0001` : v));
  return (text ?? 'null').replace(/"\\u0001(\d+)\\u0001"/g, (_, i) => raws[Number(i)]);
}

interface Upload {
  fields: unknown;
  fileName: string;
  content: Buffer;
}

function multipartBody({ fields, fileName, content }: Upload) {
  const boundary = `----xzfuzz${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  const record = fields !== null && typeof fields === 'object' && !Array.isArray(fields) ? (fields as Record<string, unknown>) : { value: fields };
  for (const [name, value] of Object.entries(record)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, '_')}"\r\n\r\n${queryText(item)}\r\n`));
    }
  }
  chunks.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName.replace(/["\r\n]/g, '_')}"; filename*=UTF-8''${encode(fileName)}\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(48)]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const JPEG = Buffer.concat([Buffer.from('ffd8ffe000104a464946', 'hex'), Buffer.alloc(48)]);

/** A workbook with the import templates' columns and rows of plausible and hostile cells. */
async function workbook(cells: unknown[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('导入');
  sheet.addRow(importColumns);
  for (const row of cells) sheet.addRow(row.map((c) => (c instanceof RawNumber ? Number(c.text) : (c as ExcelJS.CellValue))));
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** Cells an import of the demo school accepts, by template column; other columns get any of them. */
const PLAUSIBLE: Record<string, fc.Arbitrary<unknown>> = {
  姓名: fc.constantFrom('张三', '李四', '王老师'),
  学号: fc.stringMatching(/^F[0-9]{6}$/),
  性别: fc.constantFrom('男', '女', ''),
  年级: fc.constant('七年级'),
  班级: fc.constantFrom('七(1)班', '七(2)班'),
  家长手机号: fc.constantFrom('', '13800138000'),
  手机号: fc.stringMatching(/^139[0-9]{8}$/),
  职务: fc.constantFrom('任课教师', '班主任', ''),
  任教课程: fc.constant('数学'),
};
const ANY_CELL = fc.oneof(fc.constantFrom('七年级', '七(1)班', '数学', '男', '13800138000', '张三'), fc.constantFrom(...HOSTILE_TEXT.map((s) => s.slice(0, 40_000))), fc.constantFrom(...HOSTILE_NUMBERS));

/** Rows of an import workbook: plausible rows, some with one spoiled cell, and rows of anything. */
const workbookRows = fc.array(
  fc.oneof(
    { weight: 3, arbitrary: fc.tuple(fc.boolean(), fc.nat(), fault).chain(([spoiled, pick, spoil]) =>
      fc.tuple(...importColumnsArbitraries()).map((cells) =>
        cells.map((cell, i) => {
          if (!spoiled || i !== pick % cells.length) return cell;
          const bad = spoil(cell);
          return bad === ABSENT ? '' : bad;
        }),
      ),
    ) },
    { weight: 1, arbitrary: fc.array(ANY_CELL, { minLength: 1, maxLength: 9 }) },
  ),
  { minLength: 1, maxLength: 3 },
);

function importColumnsArbitraries(): fc.Arbitrary<unknown>[] {
  return importColumns.map((column) => PLAUSIBLE[column] ?? ANY_CELL);
}

/** What goes in the file part: real magic bytes, noise, nothing, or an import workbook. */
const fileContent: fc.Arbitrary<Buffer | unknown[][]> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(PNG, PDF, JPEG) },
  { weight: 1, arbitrary: fc.constantFrom(Buffer.alloc(0), Buffer.from('PK\u0003\u0004not a zip')) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 256 }).map((a) => Buffer.from(a)) },
  { weight: 3, arbitrary: fc.constant(null).chain(() => workbookRows) },
);

const fileName = fc.oneof(fc.constantFrom('作业.png', 'sheet.pdf', '学生.xlsx', 'a.jpg', 'noext'), fc.constantFrom(...HOSTILE_TEXT.map((s) => s.slice(0, 300))));

type Body = { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; type: string } | { kind: 'multipart'; fields: unknown; fileName: string; content: Buffer | unknown[][] } | { kind: 'none' };

function bodyFor(route: RouteOptions): fc.Arbitrary<Body> {
  if (methodOf(route) !== 'POST' && methodOf(route) !== 'PUT') return fc.constant({ kind: 'none' });
  const parts = routeParts(route);
  const json = part(parts.body).map((value): Body => ({ kind: 'json', value }));
  const raw = fc
    .tuple(fc.constantFrom('{"a":', 'not json', '', '[]', 'null', '"x"', '{"__proto__":{"a":1}}'), fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded'))
    .map(([text, type]): Body => ({ kind: 'raw', text, type }));
  const upload = fc
    .tuple(part(parts.multipart), fileName, fileContent)
    .map(([fields, name, content]): Body => ({ kind: 'multipart', fields, fileName: name, content }));
  const takesFiles = Boolean(parts.multipart) || !parts.body;
  return fc.oneof(
    { weight: takesFiles ? 2 : 6, arbitrary: json },
    { weight: 1, arbitrary: raw },
    { weight: takesFiles ? 6 : 1, arbitrary: upload },
  );
}

// ---------------------------------------------------------------------------------------------
// What was written

function filesUnder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    // The store's tmp/ holds uploads while a request reads them; they are removed once the reply
    // is sent (tests/api/uploads.test.ts proves it), possibly a moment after inject resolves.
    if (name === 'tmp' && dir === join(dataDir, 'files')) return [];
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * Every committed row write is counted per table by a trigger on every table (installed once, in
 * beforeAll): a rolled-back write leaves no count, as it leaves no row. Reading the counts costs
 * one small query, where counting every table's rows cost a scan of the whole demo per request.
 */
async function countWrites() {
  await t.database.db.execute(sql`CREATE TABLE fuzz_writes (table_name text PRIMARY KEY, n bigint NOT NULL)`);
  await t.database.db.execute(sql`
    CREATE FUNCTION fuzz_count_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO fuzz_writes VALUES (TG_TABLE_NAME, 1) ON CONFLICT (table_name) DO UPDATE SET n = fuzz_writes.n + 1;
      RETURN NULL;
    END $$;`);
  // A partitioned table's trigger is cloned onto its partitions (answer records by term), so the
  // partitions get none of their own; a write is counted under the partition it lands in.
  const tables = await rows<{ name: string }>(t.database.db, sql`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> 'fuzz_writes'`);
  for (const { name } of tables) {
    await t.database.db.execute(sql`CREATE TRIGGER fuzz_rows AFTER INSERT OR UPDATE OR DELETE ON ${sql.identifier(name)} FOR EACH ROW EXECUTE FUNCTION fuzz_count_write()`);
    await t.database.db.execute(sql`CREATE TRIGGER fuzz_truncate AFTER TRUNCATE ON ${sql.identifier(name)} FOR EACH STATEMENT EXECUTE FUNCTION fuzz_count_write()`);
  }
}

/** Writes so far per table, and every stored file. */
async function fingerprint(): Promise<Record<string, string>> {
  const states = await rows<{ name: string; n: string }>(t.database.db, sql`SELECT table_name AS name, n::text AS n FROM fuzz_writes`);
  return { ...Object.fromEntries(states.map((s) => [s.name, s.n])), files: filesUnder(dataDir).sort().join('|') };
}

/** Columns that hold text a user typed (text, varchar, json). */
let textColumns: { table: string; column: string }[] = [];

/** Where a text-direction control was stored, in the given tables (NUL and lone surrogates cannot be stored at all). */
async function storedUnsafe(tables?: string[]): Promise<string[]> {
  if (!textColumns.length) {
    textColumns = await rows(t.database.db, sql`
      SELECT table_name AS "table", column_name AS "column" FROM information_schema.columns
       WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'json', 'jsonb') ORDER BY 1, 2`);
  }
  const columns = textColumns.filter((c) => !tables || tables.includes(c.table));
  if (!columns.length) return [];
  const pattern = '[\u202a-\u202e\u2066-\u2069]';
  const union = sql.join(
    columns.map(({ table, column }) => sql`(SELECT ${`${table}.${column}`} AS place FROM ${sql.identifier(table)} WHERE ${sql.identifier(column)}::text ~ ${pattern} LIMIT 1)`),
    sql` UNION ALL `,
  );
  return (await rows<{ place: string }>(t.database.db, union)).map((r) => r.place);
}

function changed(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((k) => before[k] !== after[k]);
}

// ---------------------------------------------------------------------------------------------

const CJK = /[\u4e00-\u9fff]/;
const ENGLISH = /\b(must|should|undefined|NaN|null|object|Error|Cannot|Invalid)\b/;

const seedOf = (route: RouteOptions) => [...`${methodOf(route)} ${route.url}`].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, SEED);

function describeInput(query: unknown, body: Body): string {
  const show = (v: unknown) => jsonText(v).slice(0, 300);
  const b = body.kind === 'json' ? show(body.value) : body.kind === 'raw' ? `${body.type} ${JSON.stringify(body.text)}` : body.kind === 'multipart' ? `multipart ${show(body.fields)} file ${JSON.stringify(body.fileName.slice(0, 40))} ${Array.isArray(body.content) ? `workbook ${show(body.content)}` : `${body.content.length} bytes`}` : '';
  return `query ${queryString(query).slice(0, 300)} body ${b}`;
}

it('no input reaches a 500, every refusal is a Chinese envelope, and a refused request writes nothing', async () => {
  // The partner's live event stream answers a signed-in partner with a stream that stays open for
  // minutes, so an injected request never completes; its refusals and scoping are tested over real
  // HTTP in partner-alarms.test.ts.
  const routes = apiRoutes(t.routes).filter((r) => r.url !== LIVE_STREAM_PATH);
  expect(routes.length).toBeGreaterThan(40);
  const failures: string[] = [];
  const reached = new Map<string, number>();
  const storedBefore = new Set(await storedUnsafe());
  for (const route of routes) {
    const method = methodOf(route);
    const name = `${method} ${route.url}`;
    const parts = routeParts(route);
    const englishNames = [...new Set(Object.values(parts).flatMap((s) => [...walk(s!)].map((w) => w.property).filter((p): p is string => !!p && p.length > 1)))];
    const user = await userFor(route);
    if (user) await ensureSession(user);
    // The device API is signed by a terminal instead of a session: sign as a demo terminal that
    // stands in a school now (fuzzed partner calls may have unbound some).
    const [terminal, terminalSecret] = route.url.startsWith('/api/device/')
      ? (await rows<{ serial: string; secret: string }>(t.database.db, sql`SELECT serial, secret FROM devices WHERE school_id IS NOT NULL ORDER BY id LIMIT 1`)).map((d) => [d.serial, d.secret])[0]
      : [undefined, undefined];
    const samples = fc.sample(fc.tuple(part(parts.querystring), bodyFor(route), part(parts.params)), { seed: seedOf(route), numRuns: RUNS });
    let before = await fingerprint();
    for (const [query, body, params] of samples) {
      const url = `${pathWith(route.url, params)}?${queryString(query)}`;
      const headers: Record<string, string> = {};
      let payload: string | Buffer | undefined;
      if (body.kind === 'json') [headers['content-type'], payload] = ['application/json', jsonText(body.value)];
      if (body.kind === 'raw') [headers['content-type'], payload] = [body.type, body.text];
      if (body.kind === 'multipart') {
        const content = Buffer.isBuffer(body.content) ? body.content : await workbook(body.content);
        const form = multipartBody({ fields: body.fields, fileName: body.fileName, content });
        [headers['content-type'], payload] = [form.headers['content-type'], form.payload];
      }
      const options = { method: method as 'GET' | 'POST' | 'PUT' | 'DELETE', url, headers, ...(payload !== undefined ? { payload } : {}) };
      if (terminal) {
        // Signed as the server will read the address: inject normalises it as a URL (no bare '?').
        const sent = new URL(url, 'http://localhost');
        Object.assign(headers, signedHeaders(terminal, terminalSecret!, method, sent.pathname + sent.search, payload ?? ''));
      }
      const res = user ? await t.call(tokens.get(user)!, options) : await t.app.inject(options);
      const input = describeInput(query, body);
      const fail = (why: string) => failures.push(`${name} → ${res.statusCode} ${why}\n    ${input}\n    ${res.body.slice(0, 300)}`);

      if (res.statusCode !== 401 && res.statusCode !== 403) reached.set(name, (reached.get(name) ?? 0) + 1);
      if (process.env.FUZZ_REPORT) console.log(`${name} ${user} ${res.statusCode} ${res.body.slice(0, 120)}`);
      if (res.statusCode >= 500) fail('server error');
      const after = await fingerprint();
      const written = changed(before, after);
      before = after;
      const stored = (await storedUnsafe(written)).filter((place) => !storedBefore.has(place));
      if (stored.length) fail(`stored a text-direction control in ${stored.join(', ')}`);
      stored.forEach((place) => storedBefore.add(place));
      if (res.statusCode < 300) continue;

      const importRefusal = res.statusCode === 422 && res.headers['x-import-result'] === 'failed';
      if (!importRefusal) {
        let envelope: { code?: unknown; msg?: unknown; success?: unknown; data?: unknown } | undefined;
        try {
          envelope = res.json();
        } catch {
          fail('not JSON');
        }
        if (envelope) {
          const msg = String(envelope.msg);
          if (envelope.code !== res.statusCode || envelope.success !== false || envelope.data !== null) fail('not the envelope');
          if (!CJK.test(msg) || ENGLISH.test(msg)) fail(`message not Chinese: ${msg}`);
          const named = englishNames.find((p) => new RegExp(`(?<![A-Za-z])${p}(?![A-Za-z])`).test(msg));
          if (named) fail(`message names the field ${named}: ${msg}`);
        }
      }
      // A wrong password (or terminal PIN) is recorded, by design (the lock-outs count failures); any signed-in
      // request may record the session's last use (the idle timeout), at most once a minute; a
      // terminal's correctly signed request uses up its nonce, refused or not (replay protection).
      const allowed = [
        'sessions',
        ...(route.url === LOGIN && (res.statusCode === 401 || res.statusCode === 429) ? ['login_throttles'] : []),
        ...(terminal ? ['device_nonces'] : []),
        // A wrong terminal PIN is counted towards the student's PIN lockout, by design.
        ...(route.url === '/api/device/v1/heartVoices' && (res.statusCode === 401 || res.statusCode === 423) ? ['students'] : []),
      ];
      const refusedWrites = written.filter((k) => !allowed.includes(k));
      if (refusedWrites.length) fail(`refused but wrote ${refusedWrites.join(', ')}`);
    }
  }
  // Each route must have been reached past its guards, or the fuzzing proved nothing about it.
  const unreached = routes.map((r) => `${methodOf(r)} ${r.url}`).filter((name) => !reached.get(name));
  expect(unreached).toEqual([]);
  expect(failures).toEqual([]);
}, 600_000);
