// What every data-board call shares: the time range (docs/api-partner-boards.md), the role filter,
// and the scope: the caller's subtree, or a child partner's subtree inside it. Board figures count
// usage on the scope's terminals only (the rollups' partner_id is the terminal's owner).
import { sql, type SQL } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import { addDays, boardRange, type BoardRange, type Bucket, type RangeQuery } from '../../../src/domain/boardRange';
import { OFFLINE_AFTER_SECONDS } from '../../../src/domain/partner';
import { badRequest } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { checkPartnerId, loadScope, scopeOf, type PartnerScope } from './scope';

/** The range fields; their combination is checked by boardRange (Chinese 400). */
export const RangeFields = {
  queryMode: Type.Optional(Type.Union([Type.Literal('month'), Type.Literal('term'), Type.Literal('custom')])),
  month: Type.Optional(Type.String({ pattern: '^[0-9]{4}-[0-9]{2}$', maxLength: 7 })),
  term: Type.Optional(Type.String({ pattern: '^20[0-9]{2}0[12]$', maxLength: 6 })),
  startDate: Type.Optional(Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', maxLength: 10 })),
  endDate: Type.Optional(Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', maxLength: 10 })),
};

/** SPEC §9 role filter: 0 全部, 1 学生, 2 教师 (the user kinds of usage). */
export const UserKindField = { userKind: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 })) };

export const PartnerField = { partnerId: Type.Optional(Id) };

export function readRange(q: RangeQuery): BoardRange {
  const range = boardRange(q);
  if (typeof range === 'string') throw badRequest(range);
  return range;
}

/** The caller's subtree, or (partnerId given) that partner's subtree, which must lie inside it. */
export async function boardScope(request: FastifyRequest, partnerId?: number): Promise<PartnerScope> {
  const mine = await scopeOf(request);
  if (!partnerId || partnerId === mine.partnerId) return mine;
  checkPartnerId(mine, partnerId);
  return loadScope(request.server.db, partnerId);
}

/** The range as the rollups read it: its whole months, and the days before and after them. */
export interface RangeSplit {
  /** First days of the first and last whole month, or null when the range holds none. */
  months: { from: string; to: string } | null;
  days: { from: string; to: string }[];
}

const monthStart = (day: string) => `${day.slice(0, 7)}-01`;
const monthEnd = (day: string) => addDays(monthStart(addDays(monthStart(day), 31)), -1);

export function splitRange(range: { from: string; to: string }): RangeSplit {
  const first = range.from === monthStart(range.from) ? range.from : addDays(monthEnd(range.from), 1);
  const lastEnd = range.to === monthEnd(range.to) ? range.to : addDays(monthStart(range.to), -1);
  if (first > lastEnd) return { months: null, days: [{ from: range.from, to: range.to }] };
  const days = [];
  if (range.from < first) days.push({ from: range.from, to: addDays(first, -1) });
  if (lastEnd < range.to) days.push({ from: addDays(lastEnd, 1), to: range.to });
  return { months: { from: first, to: monthStart(lastEnd) }, days };
}

/**
 * The rows of a daily rollup and its monthly twin that cover the range, each with its `day` (a
 * monthly row: its month's first day): with `byMonth`, whole months come from the monthly table
 * (a year is 12 rows per key, not 365) and only the days around them from the daily one. A chart
 * in day or week buckets reads days only. `columns` and `where` name columns both tables have.
 */
export function rollupRows(range: BoardRange, tables: { daily: SQL; monthly: SQL }, columns: SQL, where: SQL, byMonth: boolean): SQL {
  const split: RangeSplit = byMonth ? splitRange(range) : { months: null, days: [{ from: range.from, to: range.to }] };
  const parts: SQL[] = [];
  if (split.days.length) {
    const days = sql.join(split.days.map((d) => sql`day BETWEEN ${d.from}::date AND ${d.to}::date`), sql` OR `);
    parts.push(sql`SELECT day, ${columns} FROM ${tables.daily} WHERE ${where} AND (${days})`);
  }
  if (split.months) parts.push(sql`SELECT month AS day, ${columns} FROM ${tables.monthly} WHERE ${where} AND month BETWEEN ${split.months.from}::date AND ${split.months.to}::date`);
  return sql.join(parts, sql` UNION ALL `);
}

export const USAGE = { daily: sql`usage_daily`, monthly: sql`usage_monthly` };
export const PARTNER_PRINTS = { daily: sql`print_partner_daily`, monthly: sql`print_partner_monthly` };

/** Rollup rows of the range: `day` between its first and last day. */
export const inRange = (range: BoardRange, column: SQL = sql`day`): SQL => sql`${column} BETWEEN ${range.from}::date AND ${range.to}::date`;

/** Timestamps of the range, by China day, for the raw tables' (…, time) indexes. */
export const inRangeAt = (range: BoardRange, column: SQL): SQL =>
  sql`${column} >= (${range.from}::date::timestamp - interval '8 hours') AT TIME ZONE 'UTC' AND ${column} < (${range.to}::date::timestamp + interval '16 hours') AT TIME ZONE 'UTC'`;

/** The role filter on a user_kind column; 0 (全部) filters nothing. */
export const ofKind = (userKind: number | undefined, column: SQL = sql`user_kind`): SQL => (userKind ? sql`${column} = ${userKind}` : sql`TRUE`);

/** A day → the first day of its bucket, as text (the keys of BoardRange.buckets). */
export const bucketOf = (bucket: Bucket, column: SQL = sql`day`): SQL => (bucket === 'day' ? sql`${column}::text` : sql`date_trunc(${bucket}, ${column})::date::text`);

/** A timestamp → its China day (the day usage was rolled up in). */
export const chinaDayOf = (column: SQL): SQL => sql`((${column} AT TIME ZONE 'UTC') + interval '8 hours')::date`;

/** Online: a sign of life (heartbeat or job) within the offline threshold. */
export const isOnline = (alias: SQL = sql`d`): SQL => sql`(${alias}.last_seen_at > now() - ${`${OFFLINE_AFTER_SECONDS} seconds`}::interval)`;

/** Values per bucket key → one number per bucket of the range, zero where nothing happened. */
export const fill = (range: BoardRange, values: Map<string, number>): number[] => range.buckets.map((b) => values.get(b) ?? 0);
