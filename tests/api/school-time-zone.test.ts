// The school's time zone (学校设置 → 时区): China time by default; the school admin may choose another
// IANA zone, and every date the server makes for that school (export cells, export file names) is
// then on that clock, whatever the server's own zone. Other schools keep theirs; other roles and
// names the runtime does not know are refused in Chinese.
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';

let t: TestApp;
let c: ReturnType<typeof client>;
const processZone = process.env.TZ;

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
});
afterAll(() => t.close());
// The server runs in UTC: a time right in the export cannot come from the process's own zone.
beforeEach(() => {
  process.env.TZ = 'UTC';
});
afterEach(() => {
  if (processZone === undefined) delete process.env.TZ;
  else process.env.TZ = processZone;
});

const URL = '/api/vesta/school/settings';
const put = async (user: string, payload: unknown) => t.call(await c.token(user), { method: 'PUT', url: URL, payload: payload as object });

/** Written with another formatter than the product's: Sweden's locale reads 2026-11-22 08:00:00. */
const wall = (at: string | number, zone: string) => new Date(at).toLocaleString('sv-SE', { timeZone: zone });

/** The teacher's first homework exported: its 布置时间 cell, the time it was due to show, and the file's stamp. */
async function exportOnce() {
  const [own] = (await c.data('teacher', '/api/minerva/v1.0/homeworks?size=1')).records;
  const detail: { assignedAt: string } = await c.data('teacher', `/api/minerva/v1.0/homeworks/${own.id}`);
  const before = Date.now();
  const res = await c.get('teacher', `/api/minerva/v1.0/homeworks/${own.id}/export`);
  const after = Date.now();
  expect(res.statusCode).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.getWorksheet('概况')!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  const assigned = rows.find(([k]) => k === '布置时间')?.[1];
  const stamp = String(res.headers['content-disposition']).match(/_(\d{14})\.xlsx/)![1];
  return { assigned, assignedAt: detail.assignedAt, stamp, before, after };
}

/** The stamp names a minute between the request and its answer, on `zone`'s clock. */
const stampMinutes = (e: { before: number; after: number }, zone: string) => [wall(e.before, zone), wall(e.after, zone)].map((s) => s.replace(/\D/g, '').slice(0, 12));

describe("a school's time zone", () => {
  it('is China time until the school admin chooses another; users of the school are told', async () => {
    expect((await c.data('schooladmin', URL)).timeZone).toBe('Asia/Shanghai');
    expect((await c.data('teacher', '/api/juno/personal/info')).timeZone).toBe('Asia/Shanghai');
    const e = await exportOnce();
    expect(e.assigned).toBe(wall(e.assignedAt, 'Asia/Shanghai').slice(0, 16));
    expect(stampMinutes(e, 'Asia/Shanghai')).toContain(e.stamp.slice(0, 12));
  });

  it("puts the export's times and its file name on the chosen clock (Tokyo, UTC+9), then back on China time", async () => {
    const res = await put('schooladmin', { timeZone: 'Asia/Tokyo' });
    expect([res.statusCode, res.json().msg]).toEqual([200, '设置已保存']);
    expect((await c.data('schooladmin', URL)).timeZone).toBe('Asia/Tokyo');
    // The other setting is untouched by a change of zone alone.
    expect((await c.data('schooladmin', URL)).scoreDisclosure).toBe(1);
    expect((await c.data('teacher', '/api/juno/personal/info')).timeZone).toBe('Asia/Tokyo');

    const tokyo = await exportOnce();
    expect(tokyo.assigned).toBe(wall(tokyo.assignedAt, 'Asia/Tokyo').slice(0, 16));
    // An hour ahead of China: the same instant reads differently, so the cell cannot be China time.
    expect(tokyo.assigned).not.toBe(wall(tokyo.assignedAt, 'Asia/Shanghai').slice(0, 16));
    expect(stampMinutes(tokyo, 'Asia/Tokyo')).toContain(tokyo.stamp.slice(0, 12));
    expect(stampMinutes(tokyo, 'Asia/Shanghai')).not.toContain(tokyo.stamp.slice(0, 12));

    // Another school keeps China time.
    expect((await c.data('schooladmin2', URL)).timeZone).toBe('Asia/Shanghai');

    expect((await put('schooladmin', { timeZone: 'Asia/Shanghai' })).statusCode).toBe(200);
    const china = await exportOnce();
    expect(china.assigned).toBe(wall(china.assignedAt, 'Asia/Shanghai').slice(0, 16));
    expect(stampMinutes(china, 'Asia/Shanghai')).toContain(china.stamp.slice(0, 12));
  });

  it('writes each change to 操作日志', async () => {
    const log = await c.data('schooladmin', '/api/audit/v1/logs?kind=setting&size=20');
    const summaries = (log.records as { summary: string }[]).map((r) => r.summary);
    expect(summaries).toContain('修改学校时区为“日本标准时间（Asia/Tokyo，GMT+9）”');
    expect(summaries).toContain('修改学校时区为“中国标准时间（Asia/Shanghai，GMT+8）”');
  });

  it('refuses a zone the runtime does not know, and hostile input, in Chinese; nothing changes', async () => {
    const mars = await put('schooladmin', { timeZone: 'Mars/Base' });
    expect([mars.statusCode, mars.json().msg]).toEqual([400, '时区无效，请从列表中选择']);
    for (const payload of [{ timeZone: 'x'.repeat(500) }, { timeZone: '' }, { timeZone: 9 }, { timeZone: ['Asia/Tokyo'] }, {}, { timeZone: 'Asia/Tokyo', schoolId: 2 }]) {
      const res = await put('schooladmin', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().msg, JSON.stringify(payload)).toMatch(/[\u4e00-\u9fa5]/);
    }
    expect((await c.data('schooladmin', URL)).timeZone).toBe('Asia/Shanghai');
  });

  it('cannot be changed or read by other roles (403), and leaves the school as it was', async () => {
    for (const user of ['teacher', 'principal', 'gradeleader', 'partner1', 'admin']) {
      const res = await put(user, { timeZone: 'Asia/Tokyo' });
      expect([res.statusCode, res.json().msg], user).toEqual([403, '无权访问']);
    }
    expect((await c.get('teacher', URL)).statusCode).toBe(403);
    expect((await c.data('schooladmin', URL)).timeZone).toBe('Asia/Shanghai');
  });
});
