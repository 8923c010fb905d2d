// 数据看板 figures of a subtree: KPI cards and one chart, from the rollups only (usage_daily and
// print_partner_daily with their monthly twins, device_daily) and the devices table, so a level-1
// partner's year reads a few thousand rows. Definitions: docs/api-partner-boards.md.
import { sql, type SQL } from 'drizzle-orm';
import type { BoardKpis, BoardRange, BoardSeries, Metric, Statistics } from '../../../src/domain/boardRange';
import { PRINT_APPS } from '../../../src/domain/partner';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { bucketOf, fill, inRange, isOnline, ofKind, PARTNER_PRINTS, rollupRows, USAGE } from './boardQuery';
import { revenue } from './boardRevenue';
import { inSubtree, type PartnerScope } from './scope';

export interface OverviewQuery {
  userKind?: number;
  statistics: Statistics;
  metric: Metric;
}

const n = (v: unknown) => Number(v ?? 0);

/** App names by id; subjects are read from the subjects table, 0 being a job without one. */
export const appName = (id: number) => PRINT_APPS.find((a) => a.value === id)?.label ?? '其他';
export const NO_SUBJECT = '未分学科';

/** The KPI cards and the per-bucket totals of pages and uses, which 总体 draws. */
export interface Totals {
  kpis: BoardKpis;
  pages: number[];
  uses: number[];
}

/**
 * KPI cards of a set of rollup rows (`where` narrows them further, e.g. to one school). One scan of
 * usage_daily (whole months from usage_monthly when the chart is by month): GROUPING SETS give
 * per-bucket totals (the chart) and per-school totals (the sums and the active schools) together.
 */
export async function totals(db: Db, scope: PartnerScope, range: BoardRange, userKind: number | undefined, where: SQL = sql`TRUE`, deviceWhere: SQL = sql`TRUE`): Promise<Totals> {
  const usage = rollupRows(range, USAGE, sql`school_id, pages, jobs, uses, users`, sql`${inSubtree(scope, sql`partner_id`)} AND ${ofKind(userKind)} AND ${where}`, range.bucket === 'month');
  type Row = { b: string | null; school_id: number | null; pages: unknown; jobs: unknown; uses: unknown; users: unknown };
  const grouped = await rows<Row>(db, sql`
    SELECT b, school_id, sum(pages)::bigint AS pages, sum(jobs)::bigint AS jobs, sum(uses)::bigint AS uses, sum(users)::bigint AS users
      FROM (SELECT ${bucketOf(range.bucket)} AS b, school_id, pages, jobs, uses, users FROM (${usage}) u) r
     GROUP BY GROUPING SETS ((b), (school_id))`);
  const [devices] = await rows<{ active: unknown; total: unknown; online: unknown }>(db, sql`
    -- Active: probes of device_daily's (device, day) key per terminal, not a scan of the year.
    SELECT (SELECT count(*) FROM devices d WHERE ${inSubtree(scope, sql`d.partner_id`)}
              AND EXISTS (SELECT 1 FROM device_daily dd WHERE dd.device_id = d.id AND ${inRange(range, sql`dd.day`)}
                             AND ${inSubtree(scope, sql`dd.partner_id`)} AND ${where} AND (dd.jobs > 0 OR dd.sign_ins > 0))) AS active,
           (SELECT count(*) FROM devices d WHERE ${inSubtree(scope, sql`d.partner_id`)} AND ${deviceWhere}) AS total,
           (SELECT count(*) FROM devices d WHERE ${inSubtree(scope, sql`d.partner_id`)} AND ${deviceWhere} AND ${isOnline()}) AS online`);
  const bySchool = grouped.filter((r) => r.school_id !== null);
  const byBucket = (key: 'pages' | 'uses') => fill(range, new Map(grouped.filter((r) => r.b !== null).map((r) => [r.b!, n(r[key])])));
  const sum = (key: 'pages' | 'jobs' | 'uses' | 'users') => bySchool.reduce((a, r) => a + n(r[key]), 0);
  return {
    kpis: {
      pages: sum('pages'),
      jobs: sum('jobs'),
      uses: sum('uses'),
      users: sum('users'),
      activeSchools: bySchool.filter((r) => n(r.jobs) > 0 || n(r.uses) > 0).length,
      activeDevices: n(devices.active),
      devices: n(devices.total),
      onlineDevices: n(devices.online),
    },
    pages: byBucket('pages'),
    uses: byBucket('uses'),
  };
}

/**
 * One line per app or subject (按应用 / 按学科). A sign-in belongs to no app or subject, so there
 * 使用次数 counts print jobs. A subtree's lines come from print_partner_daily (and _monthly), one
 * row per partner whatever its schools; `school` narrows to one school's print_daily rows.
 */
export async function breakdown(db: Db, scope: PartnerScope, range: BoardRange, q: OverviewQuery, school?: number): Promise<BoardSeries[]> {
  const group = q.statistics === 'app' ? sql`app` : sql`subject_id`;
  const column = q.metric === 'pages' ? sql`pages` : sql`jobs`;
  const mine = sql`${inSubtree(scope, sql`partner_id`)} AND ${ofKind(q.userKind)}`;
  const source =
    school === undefined
      ? rollupRows(range, PARTNER_PRINTS, sql`app, subject_id, jobs, pages`, mine, range.bucket === 'month')
      : sql`SELECT day, app, subject_id, jobs, pages FROM print_daily WHERE school_id = ${school} AND ${mine} AND ${inRange(range)}`;
  const found = await rows<{ b: string; g: number; v: unknown }>(db, sql`
    SELECT ${bucketOf(range.bucket)} AS b, ${group} AS g, sum(${column}) AS v FROM (${source}) r GROUP BY 1, 2`);
  const ids = [...new Set(found.map((r) => r.g))];
  const names = q.statistics === 'app' ? new Map(ids.map((id) => [id, appName(id)])) : await subjectNames(db, ids);
  const lines = ids.map((id) => line(id, names.get(id) ?? NO_SUBJECT, fill(range, new Map(found.filter((r) => r.g === id).map((r) => [r.b, n(r.v)])))));
  return lines.sort((a, b) => b.total - a.total || a.id - b.id);
}

export const line = (id: number, name: string, values: number[]): BoardSeries => ({ id, name, values, total: values.reduce((a, b) => a + b, 0) });

export async function subjectNames(db: Db, ids: number[]): Promise<Map<number, string>> {
  const known = ids.filter((id) => id > 0);
  const found = known.length
    ? await rows<{ id: number; name: string }>(db, sql`SELECT id, name FROM subjects WHERE id IN (${sql.join(known.map((id) => sql`${id}`), sql`, `)})`)
    : [];
  return new Map(found.map((s) => [s.id, s.name]));
}

/** 数据看板: the KPI cards, 总体 from the same scan or one line per app or subject, and the money. */
export async function overview(db: Db, scope: PartnerScope, range: BoardRange, q: OverviewQuery) {
  const t = await totals(db, scope, range, q.userKind);
  const series =
    q.statistics === 'overall'
      ? [q.metric === 'pages' ? line(0, '打印量', t.pages) : line(0, '使用次数', t.uses)]
      : await breakdown(db, scope, range, q);
  return { range, kpis: t.kpis, series, revenue: await revenue(db, scope, range) };
}
