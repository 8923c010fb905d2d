// Raw SQL through Drizzle, typed by the caller. Both drivers return { rows }.
import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './index';

export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** A timestamptz column as ISO 8601 in UTC, the same text through either driver. */
export const isoTime = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Work a caller adds to another module's transaction (its audit entry, say), given what was done. */
export type AlsoInTransaction<T> = (t: Db, done: T) => Promise<void>;

type TypeParser = (text: string) => unknown;

interface NamedQueryClient {
  query(config: { name: string; text: string; values: unknown[]; types: { getTypeParser(id: number, format?: string): TypeParser } }): Promise<{ rows: unknown[] }>;
  totalCount: number;
}

/** What of PGlite this needs: simple statements, and queries with its per-type parsers. */
interface PgliteClient {
  exec(text: string): Promise<unknown>;
  query(text: string, params?: unknown[], options?: { parsers: Record<number, TypeParser> }): Promise<{ rows: unknown[] }>;
}

/**
 * Dates, times and intervals as the text PostgreSQL sends, as Drizzle reads them for `rows`
 * (timestamptz, timestamp, date, interval, time, and their arrays), so both give the same values.
 */
const RAW_TYPE_IDS = [1184, 1114, 1082, 1186, 1231, 1115, 1185, 1187, 1182];
const RAW_TYPES = new Set(RAW_TYPE_IDS);
const rawTypes = (fallback: (id: number, format?: string) => TypeParser) => ({
  getTypeParser: (id: number, format?: string): TypeParser => (RAW_TYPES.has(id) ? (text) => text : fallback(id, format)),
});
let pgTypes: ReturnType<typeof rawTypes> | undefined;
const PGLITE_PARSERS: Record<number, TypeParser> = Object.fromEntries(RAW_TYPE_IDS.map((id) => [id, (text: string) => text]));

const statementNames = new Map<string, string>();
const statementName = (name: string, text: string) => {
  let statement = statementNames.get(text);
  if (!statement) {
    statement = `${name}_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    if (statementNames.size > 10_000) statementNames.clear();
    statementNames.set(text, statement);
  }
  return statement;
};

/** Statements prepared in each PGlite (its one session), as they are being prepared. */
const preparedIn = new WeakMap<object, Map<string, Promise<boolean>>>();

/**
 * A parameter as an SQL literal for EXECUTE: quoted text that PostgreSQL reads as the parameter's
 * inferred type, the quote doubled; undefined for a value this does not write (the query then
 * runs unprepared): other kinds, and text with a NUL or a backslash.
 */
function literal(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') return Number.isFinite(value) ? `'${value}'` : undefined;
  if (typeof value === 'bigint' || typeof value === 'boolean') return `'${value}'`;
  // A backslash means something only without standard_conforming_strings: such text is not risked.
  if (typeof value === 'string') return /[\0\\]/.test(value) ? undefined : `'${value.replaceAll("'", "''")}'`;
  return undefined;
}

/**
 * `rows`, as a prepared statement: the text is parsed and planned once and then only bound and
 * run. For the hottest reads, where parsing and planning cost as much as running (on PGlite, in
 * WebAssembly on the server's own thread, the student list's planning cost more than its rows).
 * The name carries a hash of the text, so each shape of a dynamic query is its own statement.
 * On PostgreSQL, node-postgres keeps a named statement per pooled connection. PGlite's protocol
 * path has no named statements: the statement is PREPAREd in its one session and run by EXECUTE
 * with the values as quoted literals.
 */
export async function preparedRows<T>(db: Db, name: string, query: SQL): Promise<T[]> {
  const client = (db as unknown as { $client: unknown }).$client as (NamedQueryClient & PgliteClient) | undefined;
  if (!client) return rows<T>(db, query);
  const { sql: text, params } = (db as unknown as { dialect: { sqlToQuery(q: SQL): { sql: string; params: unknown[] } } }).dialect.sqlToQuery(query);
  const statement = statementName(name, text);
  if (typeof client.totalCount === 'number') {
    if (!pgTypes) {
      const { default: pg } = await import('pg');
      pgTypes = rawTypes((id, format) => pg.types.getTypeParser(id, format as 'text'));
    }
    const result = await client.query({ name: statement, text, values: params, types: pgTypes });
    return result.rows as T[];
  }
  const literals = params.map(literal);
  if (typeof client.exec !== 'function' || literals.some((l) => l === undefined)) return rows<T>(db, query);
  let prepared = preparedIn.get(client);
  if (!prepared) preparedIn.set(client, (prepared = new Map()));
  let ready = prepared.get(statement);
  if (!ready) {
    // A statement PostgreSQL cannot prepare (a parameter whose type it cannot infer) runs unprepared.
    ready = client.exec(`PREPARE ${statement} AS ${text}`).then(
      () => true,
      () => false,
    );
    prepared.set(statement, ready);
  }
  if (!(await ready)) return rows<T>(db, query);
  const result = await client.query(`EXECUTE ${statement}${literals.length ? `(${literals.join(', ')})` : ''}`, [], { parsers: PGLITE_PARSERS });
  return result.rows as T[];
}
