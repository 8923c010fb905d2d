// 设备管理 for each partner level: the list holds the caller's subtree's terminals only (level 3:
// its own), filters and export agree with the database, binding goes to a school the subtree runs
// directly, bulk binding is all or nothing, and another subtree's terminal is "not found".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';
import { simulateUsage } from '../support/devices';
import { rows } from '../../server/db/query';
import { OFFLINE_AFTER_SECONDS } from '../../src/domain/partner';

let t: TestApp;
let c: ReturnType<typeof client>;
const BASE = '/api/wrongbook/v1.0/partner/devices';

interface Row {
  id: number;
  serial: string;
  partnerName: string;
  schoolId: number | null;
  schoolName: string | null;
  deployment: number;
  online: number;
  lowPaper: boolean;
  jammed: boolean;
  model: string;
}

const q = <T>(query: ReturnType<typeof sql>) => rows<T>(t.database.db, query);
/** Device ids by owner key of the seed chain, via the owners' names. */
const owned = async (partnerName: string) =>
  (await q<{ id: number }>(sql`SELECT d.id FROM devices d JOIN partners p ON p.id = d.partner_id WHERE p.name = ${partnerName} ORDER BY d.id`)).map((r) => r.id);
const schoolId = async (name: string) => (await q<{ id: number }>(sql`SELECT id FROM schools WHERE name = ${name}`))[0].id;
const list = async (user: string, query = ''): Promise<{ records: Row[]; total: number }> => c.data(user, `${BASE}/page?size=100${query}`);
const serials = (records: Row[]) => records.map((r) => r.serial).sort();

let p2Name: string;
let p3Name: string;
let p3bName: string;
let p2bName: string;

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
  await simulateUsage(t.app, { days: 30 });
  const names = await q<{ id: number; name: string; ancestors: string }>(sql`SELECT id, name, ancestors FROM partners ORDER BY id`);
  const me = async (user: string) => (await c.data(user, '/api/wrongbook/v1.0/partner/getCurrentPartner')).name as string;
  p2Name = await me('partner2');
  p3Name = await me('partner3');
  p3bName = names.find((p) => p.name === '拱墅区启明教育服务部')!.name;
  p2bName = names.find((p) => p.name === '宁波甬智教育科技有限公司')!.name;
}, 300_000);
afterAll(() => t.close());

describe('each level sees its subtree', () => {
  it('level 1 all 30, level 2 its own and below (18), level 3 its own 7', async () => {
    const all = await list('partner1');
    expect(all.total).toBe(30);
    const two = await list('partner2');
    expect(two.total).toBe(18);
    expect(new Set(two.records.map((r) => r.partnerName))).toEqual(new Set([p2Name, p3Name, p3bName]));
    const three = await list('partner3');
    expect(three.total).toBe(7);
    expect(new Set(three.records.map((r) => r.partnerName))).toEqual(new Set([p3Name]));
    expect(serials(three.records)).toEqual(
      (await q<{ serial: string }>(sql`SELECT d.serial FROM devices d JOIN partners p ON p.id = d.partner_id WHERE p.name = ${p3Name}`)).map((r) => r.serial).sort(),
    );
  });

  it('filters by deployment, online status, school, model and keyword as the database says', async () => {
    const count = async (where: ReturnType<typeof sql>) =>
      (await q<{ n: number }>(sql`SELECT count(*)::int AS n FROM devices d JOIN partners p ON p.id = d.partner_id WHERE p.name = ${p3Name} AND ${where}`))[0].n;
    expect((await list('partner3', '&deployment=1')).total).toBe(await count(sql`d.school_id IS NOT NULL`));
    expect((await list('partner3', '&deployment=2')).total).toBe(1);
    expect((await list('partner3', '&deployment=0')).total).toBe(7);
    const online = await list('partner3', '&online=1');
    const fresh = sql.raw(`d.last_heartbeat_at > now() - interval '${OFFLINE_AFTER_SECONDS} seconds'`);
    expect(online.total).toBe(await count(fresh));
    expect(online.total).toBeGreaterThan(0);
    expect(online.records.every((r) => r.online === 1)).toBe(true);
    const offline = await list('partner3', '&online=2');
    expect(offline.total).toBe(7 - online.total);
    expect(offline.total).toBeGreaterThanOrEqual(2);
    const west = await schoolId('杭州市西湖区实验中学');
    expect((await list('partner3', `&schoolId=${west}`)).records.every((r) => r.schoolName === '杭州市西湖区实验中学')).toBe(true);
    expect((await list('partner3', '&model=XZ-P200')).total).toBe(await count(sql`d.model = 'XZ-P200'`));
    const one = (await list('partner3')).records[2];
    expect(serials((await list('partner3', `&keyword=${one.serial.slice(-4)}`)).records)).toContain(one.serial);
    expect((await list('partner1', `&keyword=${encodeURIComponent('东湖')}`)).total).toBe(5);
    // The simulator leaves one jammed and one low-paper terminal among p3's.
    const all = (await list('partner1')).records;
    expect(all.some((r) => r.jammed)).toBe(true);
    expect(all.some((r) => r.lowPaper && r.deployment === 1)).toBe(true);
  });

  it('exports every filtered row', async () => {
    const res = await c.get('partner2', `${BASE}/export?online=2`);
    expect(res.statusCode).toBe(200);
    expect(decodeURIComponent(res.headers['content-disposition'] as string)).toMatch(/设备列表_\d{14}\.xlsx/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0];
    const exported: string[] = [];
    sheet.eachRow((row, n) => n > 1 && exported.push(String(row.getCell(1).value)));
    expect(exported.sort()).toEqual(serials((await list('partner2', '&online=2')).records));
    expect(sheet.getRow(1).getCell(6).value).toBe('在线状态');

    // With the list's visible columns: those, in that order (剩余纸张 brings 纸张不足 along).
    const visible = await c.get('partner2', `${BASE}/export?online=2&fields=schoolName,paperLeft,serial`);
    const picked = new ExcelJS.Workbook();
    await picked.xlsx.load(visible.rawPayload as unknown as ArrayBuffer);
    const pickedSheet = picked.worksheets[0];
    expect(pickedSheet.getRow(1).values).toEqual([undefined, '部署学校', '剩余纸张', '纸张不足', '设备编号']);
    expect(pickedSheet.rowCount - 1).toBe(exported.length);
  });
});

describe('another subtree is not found', () => {
  it("a sibling's and a parent's terminals are 404 for level 3; a sibling's for level 2", async () => {
    const sibling = (await owned(p3bName))[0];
    const parent = (await owned(p2Name))[0];
    for (const id of [sibling, parent]) {
      for (const path of ['detail', 'events', 'printJobs', 'daily']) {
        const res = await c.get('partner3', `${BASE}/${path}?deviceId=${id}`);
        expect(res.json()).toMatchObject({ code: 404, msg: '设备不存在' });
      }
      expect((await c.post('partner3', `${BASE}/unbind`, { deviceIds: [id] })).json()).toMatchObject({ code: 404, msg: '设备不存在' });
    }
    const cousin = (await owned(p2bName))[0];
    expect((await c.get('partner2', `${BASE}/detail?deviceId=${cousin}`)).json()).toMatchObject({ code: 404, msg: '设备不存在' });
    expect((await c.get('partner1', `${BASE}/detail?deviceId=${cousin}`)).statusCode).toBe(200);
  });

  it('refuses other roles', async () => {
    expect((await c.get('teacher', `${BASE}/page`)).statusCode).toBe(403);
    expect((await c.get('schooladmin', `${BASE}/detail?deviceId=1`)).statusCode).toBe(403);
  });
});

describe('a terminal page', () => {
  it('shows its record, binding history, events, recent jobs and a daily chart equal to its jobs', async () => {
    const [id] = await owned(p3Name);
    const detail = await c.data('partner3', `${BASE}/detail?deviceId=${id}`);
    expect(detail).toMatchObject({ deviceId: id, deployment: 1, schoolName: '杭州市西湖区实验中学' });
    expect(detail.bindings[0]).toMatchObject({ schoolName: '杭州市西湖区实验中学', unboundAt: null });
    const events = await c.data('partner3', `${BASE}/events?deviceId=${id}&size=50`);
    expect(events.records.map((e: { kind: string }) => e.kind)).toContain('bound');
    const jobs = await c.data('partner3', `${BASE}/printJobs?deviceId=${id}&size=5`);
    const [{ n }] = await q<{ n: number }>(sql`SELECT count(*)::int AS n FROM print_jobs WHERE device_id = ${id}`);
    expect(jobs.total).toBe(n);
    // Teachers by name; students never (the minute and the terminal would say who stood there).
    const all = await c.data('partner3', `${BASE}/printJobs?deviceId=${id}&size=500`);
    const byKind = (kind: number) => all.records.filter((j: { userKind: number }) => j.userKind === kind);
    expect(byKind(1).length).toBeGreaterThan(0);
    expect(byKind(1).every((j: { userName: string | null }) => j.userName === null)).toBe(true);
    expect(byKind(2).every((j: { userName: string | null }) => !!j.userName)).toBe(true);
    expect(jobs.records[0].printedAt >= jobs.records[4].printedAt).toBe(true);
    const daily: { day: string; jobs: number }[] = await c.data('partner3', `${BASE}/daily?deviceId=${id}&days=30`);
    expect(daily).toHaveLength(30);
    expect(daily.reduce((s, d) => s + d.jobs, 0)).toBe(n);
  });
});

describe('bind and unbind', () => {
  it('binds a terminal in stock to a school the subtree runs, keeps the history, and unbinds it', async () => {
    const stock = (await list('partner3', '&deployment=2')).records[0];
    const west = await schoolId('杭州市西湖区实验中学');
    const bound = await c.post('partner3', `${BASE}/bind`, { deviceIds: [stock.id], schoolId: west });
    expect(bound.json()).toMatchObject({ code: 200, msg: '已将1台设备绑定到杭州市西湖区实验中学', data: { count: 1 } });
    expect((await list('partner3', '&deployment=2')).total).toBe(0);
    const again = await c.post('partner3', `${BASE}/bind`, { deviceIds: [stock.id], schoolId: west });
    expect(again.json()).toMatchObject({ code: 409 });
    expect(again.json().msg).toContain('已部署到学校，请先解绑');
    expect((await c.post('partner3', `${BASE}/unbind`, { deviceIds: [stock.id] })).json()).toMatchObject({ code: 200, msg: '已解绑1台设备' });
    const detail = await c.data('partner3', `${BASE}/detail?deviceId=${stock.id}`);
    expect(detail.deployment).toBe(2);
    expect(detail.bindings[0]).toMatchObject({ schoolName: '杭州市西湖区实验中学', boundBy: expect.any(String), unboundBy: expect.any(String) });
    expect(detail.bindings[0].unboundAt).not.toBeNull();
    const kinds = (await c.data('partner3', `${BASE}/events?deviceId=${stock.id}`)).records.map((e: { kind: string }) => e.kind);
    expect(kinds.slice(0, 2)).toEqual(['unbound', 'bound']);
  });

  it('binds only to schools the subtree runs directly', async () => {
    const stock = (await list('partner3', '&deployment=2')).records[0];
    // 文澜中学 is run by the parent: not even visible to level 3.
    expect((await c.post('partner3', `${BASE}/bind`, { deviceIds: [stock.id], schoolId: await schoolId('杭州市拱墅区文澜中学') })).json()).toMatchObject({ code: 404, msg: '学校不存在' });
    // Level 2 may place its terminal in a school its level 3 runs.
    const mine = (await list('partner2', `&deployment=2&keyword=`)).records.find((r) => r.partnerName === p2Name)!;
    expect((await c.post('partner2', `${BASE}/bind`, { deviceIds: [mine.id], schoolId: await schoolId('杭州市西湖区实验中学') })).statusCode).toBe(200);
    await c.done('partner2', `${BASE}/unbind`, { deviceIds: [mine.id] });
    const schools: { schoolName: string; direct: boolean }[] = await c.data('partner3', `${BASE}/schools`);
    expect(schools).toEqual([{ schoolId: expect.any(Number), schoolName: '杭州市西湖区实验中学', direct: true }]);
  });

  it('bulk binding is all or nothing', async () => {
    const p2Devices = (await list('partner2')).records.filter((r) => r.partnerName === p2Name);
    const idle = p2Devices.filter((r) => r.deployment === 2).map((r) => r.id);
    const deployed = p2Devices.find((r) => r.deployment === 1)!;
    expect(idle).toHaveLength(2);
    const wenlan = await schoolId('杭州市拱墅区文澜中学');
    const refused = await c.post('partner2', `${BASE}/bind`, { deviceIds: [...idle, deployed.id], schoolId: wenlan });
    expect(refused.json()).toMatchObject({ code: 409, msg: `设备${deployed.serial}已部署到学校，请先解绑；本次未绑定任何设备` });
    const cousin = (await owned(p2bName))[5];
    expect((await c.post('partner2', `${BASE}/bind`, { deviceIds: [...idle, cousin], schoolId: wenlan })).json()).toMatchObject({ code: 404, msg: '设备不存在' });
    expect((await list('partner2', '&deployment=2')).records.filter((r) => r.partnerName === p2Name)).toHaveLength(2);
    expect((await c.post('partner2', `${BASE}/bind`, { deviceIds: idle, schoolId: wenlan })).json()).toMatchObject({ code: 200, data: { count: 2 } });
    const unbind = await c.post('partner2', `${BASE}/unbind`, { deviceIds: [...idle, idle[0]] });
    expect(unbind.json()).toMatchObject({ code: 200, data: { count: 2 } });
    const again = await c.post('partner2', `${BASE}/unbind`, { deviceIds: idle });
    expect(again.json().code).toBe(409);
    expect(again.json().msg).toContain('未部署，无需解绑；本次未解绑任何设备');
  });

  it('refuses hostile input in Chinese', async () => {
    const cases: [string, object][] = [
      [`${BASE}/bind`, { deviceIds: [], schoolId: 1 }],
      [`${BASE}/bind`, { deviceIds: Array.from({ length: 201 }, (_, i) => i + 1), schoolId: 1 }],
      [`${BASE}/bind`, { deviceIds: [1e300], schoolId: 1 }],
      [`${BASE}/bind`, { deviceIds: ['1; DROP TABLE devices'], schoolId: 1 }],
      [`${BASE}/unbind`, { deviceIds: 'all' }],
    ];
    for (const [url, body] of cases) {
      const res = await c.post('partner1', url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    for (const query of ['deployment=3', 'online=0', 'model=X', `keyword=${'%00'}`, 'schoolId=1e300', 'current=0', 'size=501', 'sort=secret']) {
      const res = await c.get('partner1', `${BASE}/page?${query}`);
      expect(res.statusCode, query).toBe(400);
    }
    expect((await c.get('partner1', `${BASE}/daily?deviceId=1&days=1000`)).statusCode).toBe(400);
    // Wildcards in a keyword are text.
    expect((await list('partner1', '&keyword=%25')).total).toBe(0);
  });
});
