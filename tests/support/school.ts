// Helpers for the school-administration API tests: multipart bodies, hand-made zips and workbooks.
import ExcelJS from 'exceljs';
import { crc32, deflateRawSync } from 'node:zlib';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { TestApp } from './testApp';

export const tempDataDir = () => mkdtempSync(join(tmpdir(), 'xz-school-'));

export interface UploadFile {
  field?: string;
  name: string;
  content: Buffer;
  type?: string;
}

/** A multipart/form-data body; fields are written before the file unless `fileFirst`. */
export function multipart(fields: Record<string, string | number>, file?: UploadFile, fileFirst = false) {
  const boundary = `----xz${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  const fieldParts = Object.entries(fields).map(([k, v]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
  );
  const fileParts = file
    ? [
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"; filename*=UTF-8''${encodeURIComponent(file.name)}\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        file.content,
        Buffer.from('\r\n'),
      ]
    : [];
  parts.push(...(fileFirst ? [...fileParts, ...fieldParts] : [...fieldParts, ...fileParts]));
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A zip written by hand, so tests can lie about sizes the way a zip bomb does. */
export function zip(entries: { name: string; data: Buffer; declaredSize?: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const packed = deflateRawSync(e.data);
    const size = e.declaredSize ?? e.data.length;
    const crc = crc32(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, packed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** A workbook with a header row and data rows, as a user would fill it in Excel. */
export async function workbook(header: string[], data: (string | number)[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Sheet1');
  sheet.addRow(header);
  for (const row of data) sheet.addRow(row);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The rows of the first sheet as text (header included). */
export async function readRows(bytes: Buffer): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const out: string[][] = [];
  wb.worksheets[0].eachRow((row) => {
    const values = (row.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v)));
    out.push(values);
  });
  return out;
}

export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Signed-in tokens per demo user, and envelope-checking shortcuts. */
export function client(t: TestApp) {
  const tokens: Record<string, string> = {};
  const token = async (user: string) => (tokens[user] ??= await t.login(user));
  const get = async (user: string, url: string, role?: string) => t.call(await token(user), { method: 'GET', url, role });
  const post = async (user: string, url: string, payload: object, role?: string) => t.call(await token(user), { method: 'POST', url, payload, role });
  const upload = async (user: string, url: string, body: ReturnType<typeof multipart>, role?: string) =>
    t.call(await token(user), { method: 'POST', url, payload: body.payload, headers: body.headers, role });
  const data = async (user: string, url: string, role?: string) => {
    const res = await get(user, url, role);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const done = async (user: string, url: string, payload: object, role?: string) => {
    const res = await post(user, url, payload, role);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  return { token, get, post, upload, data, done };
}
