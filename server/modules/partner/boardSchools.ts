// 直营学校: the schools a subtree serves (run directly by one of its partners, or with one of its
// terminals deployed there), each with its terminals, students and the range's usage on the
// subtree's terminals. Paper orders join this list once orders exist (docs/api-partner-boards.md).
import { sql, type SQL } from 'drizzle-orm';
import type { BoardRange } from '../../../src/domain/boardRange';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { page } from '../../http/paging';
import { isOnline, ofKind, rollupRows, USAGE } from './boardQuery';
import { inSubtree, type PartnerScope } from './scope';

export interface SchoolListQuery {
  /** Schools run by this partner of the subtree or with its terminals. */
  partnerId?: number;
  keyword?: string;
  userKind?: number;
  current: number;
  size: number;
  offset: number;
}

export interface SchoolRow {
  schoolId: number;
  schoolName: string;
  region: string;
  partnerId: number | null;
  partnerName: string | null;
  devices: number;
  onlineDevices: number;
  students: number;
  pages: number;
  jobs: number;
  uses: number;
  users: number;
}

/** The schools of a scope: run by one of its partners or with one of its terminals. */
export const servedSchools = (scope: PartnerScope, alias: SQL = sql`s`): SQL =>
  sql`(${inSubtree(scope, sql`${alias}.partner_id`)} OR EXISTS (SELECT 1 FROM devices dv WHERE dv.school_id = ${alias}.id AND ${inSubtree(scope, sql`dv.partner_id`)}))`;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function schoolList(db: Db, scope: PartnerScope, range: BoardRange, q: SchoolListQuery) {
  const mine = (column: SQL) => inSubtree(scope, column);
  const byPartner = q.partnerId
    ? sql`(s.partner_id = ${q.partnerId} OR EXISTS (SELECT 1 FROM devices dp WHERE dp.school_id = s.id AND dp.partner_id = ${q.partnerId}))`
    : sql`TRUE`;
  const byName = q.keyword ? sql`s.name ILIKE ${`%${escapeLike(q.keyword)}%`}` : sql`TRUE`;
  const listed = sql`SELECT s.id FROM schools s WHERE ${servedSchools(scope)} AND ${byPartner} AND ${byName}`;
  const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM (${listed}) x`);
  const records = await rows<SchoolRow>(db, sql`
    WITH listed AS (${listed}),
    -- Sums only, no chart: whole months of the range come from usage_monthly.
    used AS (SELECT school_id, sum(pages)::int AS pages, sum(jobs)::int AS jobs, sum(uses)::int AS uses, sum(users)::int AS users
               FROM (${rollupRows(range, USAGE, sql`school_id, pages, jobs, uses, users`, sql`${mine(sql`partner_id`)} AND ${ofKind(q.userKind)} AND school_id IN (SELECT id FROM listed)`, true)}) r
              GROUP BY 1),
    terminals AS (SELECT d.school_id, count(*)::int AS devices, count(*) FILTER (WHERE ${isOnline()})::int AS online FROM devices d
                   WHERE ${mine(sql`d.partner_id`)} AND d.school_id IN (SELECT id FROM listed) GROUP BY 1),
    enrolled AS (SELECT school_id, count(*)::int AS n FROM students WHERE status = 0 AND school_id IN (SELECT id FROM listed) GROUP BY 1)
    SELECT s.id AS "schoolId", s.name AS "schoolName", s.region,
           runner.id AS "partnerId", runner.name AS "partnerName",
           coalesce(terminals.devices, 0) AS devices, coalesce(terminals.online, 0) AS "onlineDevices",
           coalesce(enrolled.n, 0) AS students,
           coalesce(used.pages, 0) AS pages, coalesce(used.jobs, 0) AS jobs,
           coalesce(used.uses, 0) AS uses, coalesce(used.users, 0) AS users
      FROM schools s
      JOIN listed ON listed.id = s.id
      LEFT JOIN used ON used.school_id = s.id
      LEFT JOIN terminals ON terminals.school_id = s.id
      LEFT JOIN enrolled ON enrolled.school_id = s.id
      -- The partner shown: the subtree partner running the school, else the owner of its first terminal.
      LEFT JOIN LATERAL (
        SELECT p.id, p.name FROM partners p
         WHERE (p.id = s.partner_id AND ${mine(sql`p.id`)})
            OR p.id = (SELECT min(d2.partner_id) FROM devices d2 WHERE d2.school_id = s.id AND ${mine(sql`d2.partner_id`)})
         ORDER BY (p.id = s.partner_id) DESC LIMIT 1) runner ON TRUE
     ORDER BY coalesce(used.pages, 0) DESC, s.name, s.id
     LIMIT ${q.size} OFFSET ${q.offset}`);
  return page(records, total, q.current, q.size);
}
