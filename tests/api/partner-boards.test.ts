// The partner data boards: every figure equals a recount from the raw usage (print_jobs,
// device_sign_ins) of the caller's subtree, at each level and in each mode; another subtree's
// school or student is 404, other roles 403, hostile ranges and enums a Chinese 400.
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../server/db/query';
import { addDays, boardRange, chinaToday, type BoardKpis, type BoardRange } from '../../src/domain/boardRange';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';
import { generateUsage } from '../support/usage';

let t: TestApp;
let c: ReturnType<typeof client>;
/** Partner ids by seed key, schools by name. */
const ids: Record<string, number> = {};
const schools: Record<string, number> = {};
const BASE = '/api/wrongbook/v1.0/partner/board';
const today = chinaToday();

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
  const usage = await generateUsage(t.database.db, { days: 45 });
  expect(usage.jobs).toBeGreaterThan(100);
  for (const p of await rows<{ id: number; name: string }>(t.database.db, sql`SELECT id, name FROM partners`)) ids[p.name] = p.id;
  for (const s of await rows<{ id: number; name: string }>(t.database.db, sql`SELECT id, name FROM schools`)) schools[s.name] = s.id;
}, 180_000);
afterAll(() => t?.close());

/** Each demo partner's subtree as the seed built it (by partner name). */
const SUBTREES: Record<string, string[]> = {
  partner1: ['浙江智学教育科技有限公司', '杭州学联教育服务有限公司', '西湖区晨光教育咨询工作室', '宁波甬智教育科技有限公司', '拱墅区启明教育服务部'],
  partner2: ['杭州学联教育服务有限公司', '西湖区晨光教育咨询工作室', '拱墅区启明教育服务部'],
  partner3: ['西湖区晨光教育咨询工作室'],
};

const subtree = (user: string) => SUBTREES[user].map((name) => ids[name]);
const list = (values: number[]) => sql.join(values.map((v) => sql`${v}`), sql`, `);
const chinaDay = (column: SQL) => sql`((${column} AT TIME ZONE 'UTC') + interval '8 hours')::date`;

/** The KPI cards a recount can check (设备总数 and 在线设备 are the devices table now). */
type Recount = Omit<BoardKpis, 'devices' | 'onlineDevices'>;

/** The board's figures counted again from the raw rows, with the documented definitions. */
async function recount(partners: number[], range: BoardRange, userKind = 0, schoolId?: number): Promise<Recount> {
  const where = (alias: string, time: string, kind = userKind) =>
    sql.raw(
      `${alias}.partner_id IN (${partners.join(',')}) AND ((${alias}.${time} AT TIME ZONE 'UTC') + interval '8 hours')::date BETWEEN '${range.from}' AND '${range.to}'` +
        (kind ? ` AND ${alias}.user_kind = ${kind}` : '') +
        (schoolId ? ` AND ${alias}.school_id = ${schoolId}` : ''),
    );
  const jobs = where('pj', 'printed_at');
  const signIns = where('si', 'at');
  const [r] = await rows<Record<keyof Recount, string>>(t.database.db, sql`
    SELECT (SELECT coalesce(sum(pages), 0) FROM print_jobs pj WHERE ${jobs}) AS pages,
           (SELECT count(*) FROM print_jobs pj WHERE ${jobs}) AS jobs,
           (SELECT count(*) FROM device_sign_ins si WHERE ${signIns}) AS uses,
           (SELECT count(*) FROM (SELECT ${chinaDay(sql`pj.printed_at`)}, pj.tenant_id, pj.user_kind, pj.user_id FROM print_jobs pj WHERE ${jobs}
                                  UNION SELECT ${chinaDay(sql`si.at`)}, si.tenant_id, si.user_kind, si.user_id FROM device_sign_ins si WHERE ${signIns}) u) AS users,
           (SELECT count(*) FROM (SELECT school_id FROM print_jobs pj WHERE ${jobs} UNION SELECT school_id FROM device_sign_ins si WHERE ${signIns}) s) AS "activeSchools",
           (SELECT count(*) FROM (SELECT device_id FROM print_jobs pj WHERE ${where('pj', 'printed_at', 0)}
                                  UNION SELECT device_id FROM device_sign_ins si WHERE ${where('si', 'at', 0)}) d) AS "activeDevices"`);
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)])) as unknown as Recount;
}

/** Pages (or jobs) per bucket and group, recounted. */
async function recountSeries(partners: number[], range: BoardRange, group: 'app' | 'subject' | null, column: 'pages' | 'jobs' | 'uses', userKind = 0) {
  const bucket = range.bucket === 'day' ? sql`d::text` : sql`date_trunc(${range.bucket}, d)::date::text`;
  const kind = userKind ? sql`AND user_kind = ${userKind}` : sql``;
  const found =
    column === 'uses'
      ? await rows<{ b: string; g: number; v: string }>(t.database.db, sql`
          SELECT ${bucket} AS b, 0 AS g, count(*) AS v FROM (SELECT ${chinaDay(sql`at`)} AS d FROM device_sign_ins WHERE partner_id IN (${list(partners)}) ${kind}) x
           WHERE d BETWEEN ${range.from}::date AND ${range.to}::date GROUP BY 1, 2`)
      : await rows<{ b: string; g: number; v: string }>(t.database.db, sql`
          SELECT ${bucket} AS b, g, ${column === 'pages' ? sql`sum(pages)` : sql`count(*)`} AS v
            FROM (SELECT ${chinaDay(sql`printed_at`)} AS d, ${group === 'app' ? sql`app` : group === 'subject' ? sql`coalesce(subject_id, 0)` : sql`0`} AS g, pages
                    FROM print_jobs WHERE partner_id IN (${list(partners)}) ${kind}) x
           WHERE d BETWEEN ${range.from}::date AND ${range.to}::date GROUP BY 1, 2`);
  const out = new Map<number, number[]>();
  for (const r of found) {
    const values = out.get(r.g) ?? range.buckets.map(() => 0);
    values[range.buckets.indexOf(r.b)] = Number(r.v);
    out.set(r.g, values);
  }
  return out;
}

const query = (params: Record<string, string | number | undefined>) =>
  new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)])).toString();

const thisMonth = today.slice(0, 7);
const lastMonth = addDays(`${thisMonth}-01`, -1).slice(0, 7);
const MODES = [
  { name: '按年月（本月）', params: { queryMode: 'month', month: thisMonth } },
  { name: '按年月（上月）', params: { queryMode: 'month', month: lastMonth } },
  { name: '按学期', params: { queryMode: 'term' } },
  { name: '自定义', params: { queryMode: 'custom', startDate: addDays(today, -20), endDate: addDays(today, -3) } },
  // Month buckets: whole months read the monthly rollups, the days at both ends the daily ones.
  { name: '自定义（跨月，按月）', params: { queryMode: 'custom', startDate: addDays(today, -215), endDate: addDays(today, -9) } },
] as const;

interface Overview {
  range: BoardRange;
  kpis: Recount & { devices: number; onlineDevices: number };
  series: { id: number; name: string; values: number[]; total: number }[];
}

describe('数据看板 equals a recount from the raw usage', () => {
  for (const user of ['partner1', 'partner2', 'partner3']) {
    for (const mode of MODES) {
      it(`${user} · ${mode.name}: KPI cards, each role`, async () => {
        for (const userKind of [0, 1, 2]) {
          const o: Overview = await c.data(user, `${BASE}/overview?${query({ ...mode.params, userKind })}`);
          expect(o.range).toEqual(boardRange(mode.params, today));
          const expected = await recount(subtree(user), o.range, userKind);
          // Active terminals do not depend on the role filter (device_daily has no user kind).
          const { activeDevices, ...byRole } = expected;
          expect(o.kpis).toMatchObject(byRole);
          if (userKind === 0) expect(o.kpis.activeDevices).toBe(activeDevices);
        }
      });
    }
    it(`${user}: 设备总数 and 在线设备 are the subtree's terminals`, async () => {
      const o: Overview = await c.data(user, `${BASE}/overview`);
      const [d] = await rows<{ total: string }>(t.database.db, sql`SELECT count(*) AS total FROM devices WHERE partner_id IN (${list(subtree(user))})`);
      expect(o.kpis.devices).toBe(Number(d.total));
      expect(o.kpis.onlineDevices).toBeLessThanOrEqual(o.kpis.devices);
    });
  }

  it('the series per metric and statistics mode, per bucket, for partner2', async () => {
    for (const mode of MODES) {
      for (const [statistics, group] of [['overall', null], ['app', 'app'], ['subject', 'subject']] as const) {
        for (const metric of ['pages', 'uses'] as const) {
          const o: Overview = await c.data('partner2', `${BASE}/overview?${query({ ...mode.params, statistics, metric, userKind: 1 })}`);
          const column = metric === 'pages' ? 'pages' : group ? 'jobs' : 'uses';
          const expected = await recountSeries(subtree('partner2'), o.range, group, column, 1);
          expect(expected.size).toBeGreaterThan(0);
          expect(new Map(o.series.filter((s) => s.total > 0).map((s) => [s.id, s.values]))).toEqual(expected);
          if (group === 'app') expect(o.series.every((s) => ['错题本', '试卷', '作业', '学情报告'].includes(s.name))).toBe(true);
        }
      }
    }
  });

  it('a month has a point per day; a term one per week; a custom year one per month', async () => {
    const month: Overview = await c.data('partner1', `${BASE}/overview?queryMode=month&month=${lastMonth}`);
    expect(month.range.bucket).toBe('day');
    expect(month.series[0].values).toHaveLength(new Date(Date.UTC(Number(lastMonth.slice(0, 4)), Number(lastMonth.slice(5)), 0)).getUTCDate());
    const term: Overview = await c.data('partner1', `${BASE}/overview?queryMode=term`);
    expect(term.range.bucket).toBe('week');
    const year: Overview = await c.data('partner1', `${BASE}/overview?queryMode=custom&startDate=${addDays(today, -365)}&endDate=${today}`);
    expect(year.range.bucket).toBe('month');
    expect(year.kpis.pages).toBe((await recount(subtree('partner1'), year.range)).pages);
  });

  it('进货额, 退款 and 渠道收入 equal a recount from the orders, refunds and ledger, per bucket', async () => {
    const params = { queryMode: 'custom', startDate: addDays(today, -200), endDate: today };
    for (const user of ['partner1', 'partner2', 'partner3']) {
      const o: Overview & { revenue: { boughtFen: number; refundedFen: number; marginFen: number; net: number[]; margin: number[] } } = await c.data(
        user,
        `${BASE}/overview?${query({ ...params, userKind: 1 })}`,
      );
      const partners = list(subtree(user));
      const inRange = (column: SQL) => sql`${chinaDay(column)} BETWEEN ${o.range.from}::date AND ${o.range.to}::date`;
      const bucket = (column: SQL) => sql`date_trunc('month', ${chinaDay(column)})::date::text`;
      const found = await rows<{ b: string; bought: string; refunded: string; margin: string }>(t.database.db, sql`
        SELECT b, sum(bought) AS bought, sum(refunded) AS refunded, sum(margin) AS margin FROM (
          SELECT ${bucket(sql`paid_at`)} AS b, amount_fen AS bought, 0 AS refunded, 0 AS margin FROM partner_orders
           WHERE buyer_id IN (${partners}) AND status = 2 AND ${inRange(sql`paid_at`)}
          UNION ALL SELECT ${bucket(sql`r.refunded_at`)}, 0, r.amount_fen, 0 FROM order_refunds r JOIN partner_orders o ON o.id = r.order_id
           WHERE o.buyer_id IN (${partners}) AND o.status = 2 AND r.status = 2 AND ${inRange(sql`r.refunded_at`)}
          UNION ALL SELECT ${bucket(sql`occurred_at`)}, 0, 0, amount_fen FROM settlement_entries WHERE partner_id IN (${partners}) AND ${inRange(sql`occurred_at`)}) x
         GROUP BY b`);
      const total = (key: 'bought' | 'refunded' | 'margin') => found.reduce((a, r) => a + Number(r[key]), 0);
      expect(o.revenue.boughtFen).toBe(total('bought'));
      expect(o.revenue.refundedFen).toBe(total('refunded'));
      expect(o.revenue.marginFen).toBe(total('margin'));
      const perBucket = (f: (r: (typeof found)[number]) => number) => o.range.buckets.map((b) => found.filter((r) => r.b === b).reduce((a, r) => a + f(r), 0));
      expect(o.revenue.net).toEqual(perBucket((r) => Number(r.bought) - Number(r.refunded)));
      expect(o.revenue.margin).toEqual(perBucket((r) => Number(r.margin)));
      // The demo has paid orders at every level; only the channel levels earn.
      expect(o.revenue.boughtFen).toBeGreaterThan(0);
      if (user === 'partner3') expect(o.revenue.marginFen).toBe(0);
      else expect(o.revenue.marginFen).toBeGreaterThan(0);
    }
  });

  it('a child partner narrows the board to its subtree; a partner outside is 404', async () => {
    const p3b = ids['拱墅区启明教育服务部'];
    const o: Overview = await c.data('partner2', `${BASE}/overview?partnerId=${p3b}`);
    expect(o.kpis.pages).toBe((await recount([p3b], o.range)).pages);
    expect(o.kpis.pages).toBeGreaterThan(0);
    const res = await c.get('partner2', `${BASE}/overview?partnerId=${ids['宁波甬智教育科技有限公司']}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().msg).toBe('合作伙伴不存在');
    expect((await c.get('partner3', `${BASE}/overview?partnerId=${ids['浙江智学教育科技有限公司']}`)).statusCode).toBe(404);
  });
});

describe('直营学校', () => {
  it('lists exactly the schools each level serves, with recounted usage', async () => {
    const expected: Record<string, string[]> = {
      partner1: ['杭州市西湖区实验中学', '宁波市海曙区育才中学', '杭州市拱墅区文澜中学', '杭州市拱墅区大关实验学校', '宁波市鄞州区东湖中学'],
      partner2: ['杭州市西湖区实验中学', '杭州市拱墅区文澜中学', '杭州市拱墅区大关实验学校'],
      partner3: ['杭州市西湖区实验中学'],
    };
    for (const user of Object.keys(expected)) {
      const page = await c.data(user, `${BASE}/schools?queryMode=month&month=${thisMonth}&size=50`);
      expect(page.records.map((r: { schoolName: string }) => r.schoolName).sort()).toEqual([...expected[user]].sort());
      const range = boardRange({ queryMode: 'month', month: thisMonth }, today) as BoardRange;
      for (const r of page.records) {
        const again = await recount(subtree(user), range, 0, r.schoolId);
        expect({ pages: r.pages, uses: r.uses, users: r.users }, r.schoolName).toEqual({ pages: again.pages, uses: again.uses, users: again.users });
        const [s] = await rows<{ n: string }>(t.database.db, sql`SELECT count(*) AS n FROM students WHERE school_id = ${r.schoolId} AND status = 0`);
        expect(r.students).toBe(Number(s.n));
      }
    }
  });

  it('filters by partner and keyword', async () => {
    const byPartner = await c.data('partner2', `${BASE}/schools?partnerId=${ids['拱墅区启明教育服务部']}`);
    expect(byPartner.records.map((r: { schoolName: string }) => r.schoolName)).toEqual(['杭州市拱墅区大关实验学校']);
    const byName = await c.data('partner1', `${BASE}/schools?keyword=${encodeURIComponent('宁波')}`);
    expect(byName.records.map((r: { schoolName: string }) => r.schoolName).sort()).toEqual(['宁波市海曙区育才中学', '宁波市鄞州区东湖中学']);
    expect((await c.data('partner1', `${BASE}/schools?keyword=${encodeURIComponent('%')}`)).total).toBe(0);
    expect((await c.get('partner3', `${BASE}/schools?partnerId=${ids['杭州学联教育服务有限公司']}`)).statusCode).toBe(404);
  });
});

describe('学校看板 and 学生详情', () => {
  it("a school's board equals the recount of its usage, classes and top students", async () => {
    const schoolId = schools['杭州市拱墅区文澜中学'];
    const b = await c.data('partner2', `${BASE}/school?schoolId=${schoolId}&queryMode=custom&startDate=${addDays(today, -44)}&endDate=${today}`);
    const again = await recount(subtree('partner2'), b.range, 0, schoolId);
    expect(b.kpis).toMatchObject(again);
    expect(b.trend.pages.reduce((a: number, v: number) => a + v, 0)).toBe(again.pages);
    expect(b.trend.uses.reduce((a: number, v: number) => a + v, 0)).toBe(again.uses);
    expect(b.byApp.reduce((a: number, s: { total: number }) => a + s.total, 0)).toBe(again.pages);
    expect(b.devices).toHaveLength(5);
    const students = await recount(subtree('partner2'), b.range, 1, schoolId);
    expect(b.byClass.reduce((a: number, s: { pages: number }) => a + s.pages, 0)).toBe(students.pages);
    expect(b.byClass).toHaveLength(6);
    expect(b.topStudents.length).toBeGreaterThan(0);
    const top = b.topStudents[0];
    const [mine] = await rows<{ pages: string }>(t.database.db, sql`
      SELECT coalesce(sum(pages), 0) AS pages FROM print_jobs WHERE school_id = ${schoolId} AND user_kind = 1 AND user_id = ${top.studentId}`);
    expect(top.pages).toBe(Number(mine.pages));
    expect(JSON.stringify(b)).not.toMatch(/phone|score/i);

    const range = `queryMode=custom&startDate=${addDays(today, -44)}&endDate=${today}`;
    const s = await c.data('partner2', `${BASE}/student?schoolId=${schoolId}&studentId=${top.studentId}&${range}`);
    expect(s.student).toEqual({ id: top.studentId, name: top.name, className: top.className, gradeName: expect.any(String) });
    expect(s.kpis.pages).toBe(top.pages);
    expect(s.bySubject.reduce((a: number, x: { total: number }) => a + x.total, 0)).toBe(top.pages);
    const jobs = await c.data('partner2', `${BASE}/student/printJobs?schoolId=${schoolId}&studentId=${top.studentId}&${range}&size=2`);
    expect(jobs.total).toBe(s.kpis.jobs);
    expect(jobs.records.length).toBe(Math.min(2, s.kpis.jobs));
    // Sign-ins by day (no times: docs/api-partner-boards.md): the days add up to the KPI.
    const signIns = await c.data('partner2', `${BASE}/student/signIns?schoolId=${schoolId}&studentId=${top.studentId}&${range}&size=100`);
    expect(signIns.records.reduce((a: number, d: { signIns: number }) => a + d.signIns, 0)).toBe(s.kpis.signIns);
    expect(signIns.total).toBe(signIns.records.length);
    expect(signIns.total).toBeLessThanOrEqual(s.kpis.activeDays);
    expect(JSON.stringify([s, jobs, signIns])).not.toMatch(/phone|score|studentNo/i);
    expect(JSON.stringify([jobs, signIns])).not.toMatch(/T\d\d:\d\d/);
  });

  it("another subtree's school or student is 404", async () => {
    const east = schools['宁波市鄞州区东湖中学'];
    for (const url of [`${BASE}/school?schoolId=${east}`, `${BASE}/student?schoolId=${east}&studentId=1`, `${BASE}/student/printJobs?schoolId=${east}&studentId=1`]) {
      const res = await c.get('partner2', url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().msg).toBe('学校不存在');
    }
    expect((await c.get('partner3', `${BASE}/school?schoolId=${schools['杭州市拱墅区文澜中学']}`)).statusCode).toBe(404);
    // A student of another school, asked through a school the partner does see.
    const [other] = await rows<{ id: number }>(t.database.db, sql`SELECT id FROM students WHERE school_id = ${east} LIMIT 1`);
    const res = await c.get('partner2', `${BASE}/student/signIns?schoolId=${schools['杭州市拱墅区文澜中学']}&studentId=${other.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().msg).toBe('学生不存在');
  });
});

describe('refusals', () => {
  it('other roles are 403', async () => {
    for (const user of ['schooladmin', 'teacher', 'admin']) {
      for (const path of ['overview', 'schools', 'partners', `school?schoolId=${schools['杭州市西湖区实验中学']}`]) {
        const res = await c.get(user, `${BASE}/${path}`);
        expect(res.statusCode, `${user} ${path}`).toBe(403);
        expect(res.json().msg).toBe('无权访问');
      }
    }
  });

  it('hostile ranges and enums are a Chinese 400', async () => {
    const cases: [string, string][] = [
      ['queryMode=custom&startDate=2026-03-10&endDate=2026-03-01', '开始日期不能晚于结束日期'],
      ['queryMode=custom&startDate=2024-01-01&endDate=2025-12-31', '查询时间跨度不能超过366天'],
      ['queryMode=custom&startDate=2026-02-30&endDate=2026-03-01', '日期格式不正确'],
      ['queryMode=custom&startDate=1600-30-72&endDate=8828-77-29', '日期格式不正确'],
      ['queryMode=custom&startDate=2026-01-01', '请选择开始日期和结束日期'],
      [`queryMode=custom&startDate=${addDays(today, 1)}&endDate=${addDays(today, 5)}`, '所选时间尚未开始'],
      ['queryMode=month&month=2026-13', '月份格式不正确'],
      ['queryMode=month&month=1999-01', '只能查询2024-01-01以后的数据'],
      ['queryMode=month&month=0388-04', '只能查询2024-01-01以后的数据'],
      ['queryMode=term&term=209901', '所选时间尚未开始'],
      ['queryMode=week', '查询方式取值不正确'],
      ['statistics=grade', '统计方式取值不正确'],
      ['metric=money', '统计指标取值不正确'],
      ['userKind=3', '用户类型取值不正确'],
      ['startDate=2026%2F01%2F01&queryMode=custom&endDate=2026-01-02', '开始日期格式不正确'],
      ['startDate=2026-01-01%27--&queryMode=custom&endDate=2026-01-02', '开始日期长度不能超过10个字符'],
      ['partnerId=1e300', '合作伙伴取值不正确'],
    ];
    for (const [q, msg] of cases) {
      const res = await c.get('partner1', `${BASE}/overview?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().msg, q).toBe(msg);
    }
    const res = await c.get('partner1', `${BASE}/schools?keyword=${'校'.repeat(51)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('关键字长度不能超过50个字符');
  });
});
