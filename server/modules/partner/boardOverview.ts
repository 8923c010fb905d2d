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

/** KPI cards of a set of rollup rows (`where` narrows them further, e.g. to one school). */
export async function kpis(db: Db, scope: PartnerScope, range: BoardRange, userKind: number | undefined, where: SQL = sql`TRUE`, deviceWhere: SQL = sql`TRUE`): Promise<Kpis> {
  const mine = inSubtree(scope, sql`partner_id`);
  const [row] = await rows<Record<keyof Kpis, unknown>>(db, sql`
    SELECT
      (SELECT coalesce(sum(pages), 0) FROM print_daily WHERE ${mine} AND ${inRange(range)} AND ${ofKind(userKind)} AND ${where}) AS pages,
      (SELECT coalesce(sum(jobs), 0) FROM print_daily WHERE ${mine} AND ${inRange(range)} AND ${ofKind(userKind)} AND ${where}) AS jobs,
      (SELECT coalesce(sum(uses), 0) FROM usage_daily WHERE ${mine} AND ${inRange(range)} AND ${ofKind(userKind)} AND ${where}) AS uses,
      (SELECT coalesce(sum(users), 0) FROM usage_daily WHERE ${mine} AND ${inRange(range)} AND ${ofKind(userKind)} AND ${where}) AS users,
      (SELECT count(*) FROM (
         SELECT school_id FROM print_daily WHERE ${mine} AND ${inRange(range)} AND ${ofKind(userKind)} AND ${where} AND jobs > 0
         UNION
         SELECT school_id FROM usage_daily WHERE ${mine} AND ${inRange(range)} AND ${ofKind(userKind)} AND ${where} AND uses > 0) s) AS "activeSchools",
      (SELECT count(DISTINCT device_id) FROM device_daily WHERE ${mine} AND ${inRange(range)} AND ${where} AND (jobs > 0 OR sign_ins > 0)) AS "activeDevices",
      (SELECT count(*) FROM devices d WHERE ${inSubtree(scope, sql`d.partner_id`)} AND ${deviceWhere}) AS devices,
      (SELECT count(*) FROM devices d WHERE ${inSubtree(scope, sql`d.partner_id`)} AND ${deviceWhere} AND ${isOnline()}) AS "onlineDevices"`);
  return {
    pages: n(row.pages),
    jobs: n(row.jobs),
    uses: n(row.uses),
    users: n(row.users),
    activeSchools: n(row.activeSchools),
    activeDevices: n(row.activeDevices),
    devices: n(row.devices),
    onlineDevices: n(row.onlineDevices),
  };
}

/**
 * The chart: 总体 is one line of the metric; 按应用 / 按学科 one line per app or subject. A sign-in
 * belongs to no app or subject, so there 使用次数 counts print jobs.
 */
export async function series(db: Db, scope: PartnerScope, range: BoardRange, q: OverviewQuery, where: SQL = sql`TRUE`): Promise<Series[]> {
  const mine = inSubtree(scope, sql`partner_id`);
  const bucket = bucketOf(range.bucket);
  if (q.statistics === 'overall') {
    const [table, column, name] = q.metric === 'pages' ? [sql`print_daily`, sql`pages`, '打印量'] : [sql`usage_daily`, sql`uses`, '使用次数'];
    const found = await rows<{ b: string; v: unknown }>(db, sql`
      SELECT ${bucket} AS b, sum(${column}) AS v FROM ${table} WHERE ${mine} AND ${inRange(range)} AND ${ofKind(q.userKind)} AND ${where} GROUP BY 1`);
    const values = fill(range, new Map(found.map((r) => [r.b, n(r.v)])));
    return [{ id: 0, name, values, total: values.reduce((a, b) => a + b, 0) }];
  }
  const group = q.statistics === 'app' ? sql`app` : sql`subject_id`;
  const column = q.metric === 'pages' ? sql`pages` : sql`jobs`;
  const found = await rows<{ b: string; g: number; v: unknown }>(db, sql`
    SELECT ${bucket} AS b, ${group} AS g, sum(${column}) AS v FROM print_daily
     WHERE ${mine} AND ${inRange(range)} AND ${ofKind(q.userKind)} AND ${where} GROUP BY 1, 2`);
  const ids = [...new Set(found.map((r) => r.g))];
  const names = q.statistics === 'app' ? new Map(ids.map((id) => [id, appName(id)])) : await subjectNames(db, ids);
  const lines = ids.map((id) => {
    const values = fill(range, new Map(found.filter((r) => r.g === id).map((r) => [r.b, n(r.v)])));
    return { id, name: names.get(id) ?? NO_SUBJECT, values, total: values.reduce((a, b) => a + b, 0) };
  });
  return lines.sort((a, b) => b.total - a.total || a.id - b.id);
}

export async function subjectNames(db: Db, ids: number[]): Promise<Map<number, string>> {
  const known = ids.filter((id) => id > 0);
  const found = known.length
    ? await rows<{ id: number; name: string }>(db, sql`SELECT id, name FROM subjects WHERE id IN (${sql.join(known.map((id) => sql`${id}`), sql`, `)})`)
    : [];
  return new Map(found.map((s) => [s.id, s.name]));
}

export async function overview(db: Db, scope: PartnerScope, range: BoardRange, q: OverviewQuery) {
  return {
    range,
    kpis: await kpis(db, scope, range, q.userKind),
    series: await series(db, scope, range, q),
  };
}
