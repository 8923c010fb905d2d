// 数据看板 figures of a subtree: KPI cards and one chart, from the day rollups only (print_daily,
// usage_daily, device_daily) and the devices table, so a level-1 partner's year stays a few
// aggregate scans. Definitions: docs/api-partner-boards.md.
import { sql, type SQL } from 'drizzle-orm';
import type { BoardRange } from '../../../src/domain/boardRange';
import { PRINT_APPS } from '../../../src/domain/partner';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { bucketOf, fill, inRange, isOnline, ofKind } from './boardQuery';
import { inSubtree, type PartnerScope } from './scope';

export type Statistics = 'overall' | 'app' | 'subject';
export type Metric = 'pages' | 'uses';

export interface OverviewQuery {
  userKind?: number;
  statistics: Statistics;
  metric: Metric;
}

export interface Kpis {
  pages: number;
  jobs: number;
  uses: number;
  users: number;
  activeSchools: number;
  activeDevices: number;
  devices: number;
  onlineDevices: number;
}

/** One line of the chart: a name and a value per bucket. */
export interface Series {
  id: number;
  name: string;
  values: number[];
  total: number;
}

const n = (v: unknown) => Number(v ?? 0);

/** App names by id; subjects are read from the subjects table, 0 being a job without one. */
export const appName = (id: number) => PRINT_APPS.find((a) => a.value === id)?.label ?? '其他';
export const NO_SUBJECT = '未分学科';

/** The KPI cards and the per-bucket totals of pages and uses, which 总体 draws. */
export interface Totals {
  kpis: Kpis;
  pages: number[];
  uses: number[];
}

/**
 * KPI cards of a set of rollup rows (`where` narrows them further, e.g. to one school). One scan
 * per rollup: GROUPING SETS give per-bucket totals (the chart) and per-school totals (the sums
 * and the active schools) together.
 */
export async function totals(db: Db, scope: PartnerScope, range: BoardRange, userKind: number | undefined, where: SQL = sql`TRUE`, deviceWhere: SQL = sql`TRUE`): Promise<Totals> {
  const mine = inSubtree(scope, sql`partner_id`);
  const grouped = (table: SQL, a: SQL, b: SQL) => sql`
    SELECT b, school_id, sum(x)::bigint AS x, sum(y)::bigint AS y
      FROM (SELECT ${bucketOf(range.bucket)} AS b, school_id, ${a} AS x, ${b} AS y FROM ${table}
             WHERE ${mine} AND ${inRange(range)} AND ${ofKind(userKind)} AND ${where}) r
     GROUP BY GROUPING SETS ((b), (school_id))`;
  type Row = { b: string | null; school_id: number | null; x: unknown; y: unknown };
  const printed = await rows<Row>(db, grouped(sql`print_daily`, sql`pages`, sql`jobs`));
  const used = await rows<Row>(db, grouped(sql`usage_daily`, sql`uses`, sql`users`));
  const [devices] = await rows<{ active: unknown; total: unknown; online: unknown }>(db, sql`
    -- Active: probes of device_daily's (device, day) key per terminal, not a scan of the year.
    SELECT (SELECT count(*) FROM devices d WHERE ${inSubtree(scope, sql`d.partner_id`)}
              AND EXISTS (SELECT 1 FROM device_daily dd WHERE dd.device_id = d.id AND ${inRange(range, sql`dd.day`)}
                             AND ${inSubtree(scope, sql`dd.partner_id`)} AND ${where} AND (dd.jobs > 0 OR dd.sign_ins > 0))) AS active,
           (SELECT count(*) FROM devices d WHERE ${inSubtree(scope, sql`d.partner_id`)} AND ${deviceWhere}) AS total,
           (SELECT count(*) FROM devices d WHERE ${inSubtree(scope, sql`d.partner_id`)} AND ${deviceWhere} AND ${isOnline()}) AS online`);
  const bySchool = (list: Row[]) => list.filter((r) => r.school_id !== null);
  const byBucket = (list: Row[]) => fill(range, new Map(list.filter((r) => r.b !== null).map((r) => [r.b!, n(r.x)])));
  const sum = (list: Row[], key: 'x' | 'y') => bySchool(list).reduce((a, r) => a + n(r[key]), 0);
  const active = new Set([...bySchool(printed).filter((r) => n(r.y) > 0), ...bySchool(used).filter((r) => n(r.x) > 0)].map((r) => r.school_id));
  return {
    kpis: {
      pages: sum(printed, 'x'),
      jobs: sum(printed, 'y'),
      uses: sum(used, 'x'),
      users: sum(used, 'y'),
      activeSchools: active.size,
      activeDevices: n(devices.active),
      devices: n(devices.total),
      onlineDevices: n(devices.online),
    },
    pages: byBucket(printed),
    uses: byBucket(used),
  };
}

/**
 * One line per app or subject (按应用 / 按学科). A sign-in belongs to no app or subject, so there
 * 使用次数 counts print jobs.
 */
export async function breakdown(db: Db, scope: PartnerScope, range: BoardRange, q: OverviewQuery, where: SQL = sql`TRUE`): Promise<Series[]> {
  const group = q.statistics === 'app' ? sql`app` : sql`subject_id`;
  const column = q.metric === 'pages' ? sql`pages` : sql`jobs`;
  const found = await rows<{ b: string; g: number; v: unknown }>(db, sql`
    SELECT ${bucketOf(range.bucket)} AS b, ${group} AS g, sum(${column}) AS v FROM print_daily
     WHERE ${inSubtree(scope, sql`partner_id`)} AND ${inRange(range)} AND ${ofKind(q.userKind)} AND ${where} GROUP BY 1, 2`);
  const ids = [...new Set(found.map((r) => r.g))];
  const names = q.statistics === 'app' ? new Map(ids.map((id) => [id, appName(id)])) : await subjectNames(db, ids);
  const lines = ids.map((id) => line(id, names.get(id) ?? NO_SUBJECT, fill(range, new Map(found.filter((r) => r.g === id).map((r) => [r.b, n(r.v)])))));
  return lines.sort((a, b) => b.total - a.total || a.id - b.id);
}

export const line = (id: number, name: string, values: number[]): Series => ({ id, name, values, total: values.reduce((a, b) => a + b, 0) });

export async function subjectNames(db: Db, ids: number[]): Promise<Map<number, string>> {
  const known = ids.filter((id) => id > 0);
  const found = known.length
    ? await rows<{ id: number; name: string }>(db, sql`SELECT id, name FROM subjects WHERE id IN (${sql.join(known.map((id) => sql`${id}`), sql`, `)})`)
    : [];
  return new Map(found.map((s) => [s.id, s.name]));
}

/** 数据看板: the KPI cards, and 总体 from the same scan, or one line per app or subject. */
export async function overview(db: Db, scope: PartnerScope, range: BoardRange, q: OverviewQuery) {
  const t = await totals(db, scope, range, q.userKind);
  const series =
    q.statistics === 'overall'
      ? [q.metric === 'pages' ? line(0, '打印量', t.pages) : line(0, '使用次数', t.uses)]
      : await breakdown(db, scope, range, q);
  return { range, kpis: t.kpis, series };
}
