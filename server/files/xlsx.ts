// Import workbooks: refuse what is not an xlsx, or what would blow up when unpacked, before
// exceljs sees it; then read the first sheet by its (Chinese) header names, and write a
// failed import back with a reason on each bad row.
import ExcelJS from 'exceljs';
import { PassThrough, type Readable } from 'node:stream';
import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';
import { IMPORT_MAX_ROWS } from '../../src/domain/school';
import type { FastifyReply } from 'fastify';
import { badRequest } from '../http/envelope';
import { sendWorkbook } from '../http/download';

const inflateRawAsync = promisify(inflateRaw);

/** Unpacked size a legitimate import never reaches (5,000 rows are a few MB of XML). */
export const MAX_UNPACKED_BYTES = 64 * 1024 * 1024;
const MAX_ENTRIES = 2000;

const BOMB = '文件内容异常，请使用导入模板重新填写后上传';

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

function centralDirectory(buf: Buffer): ZipEntry[] {
  // The end-of-central-directory record sits in the last 22 + 65535 bytes.
  const from = Math.max(0, buf.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = buf.length - 22; i >= from; i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw badRequest(BOMB);
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  if (count > MAX_ENTRIES) throw badRequest(BOMB);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50) throw badRequest(BOMB);
    const nameLength = buf.readUInt16LE(at + 28);
    entries.push({
      method: buf.readUInt16LE(at + 10),
      compressedSize: buf.readUInt32LE(at + 20),
      size: buf.readUInt32LE(at + 24),
      localOffset: buf.readUInt32LE(at + 42),
      name: buf.subarray(at + 46, at + 46 + nameLength).toString('utf8'),
    });
    at += 46 + nameLength + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
  }
  return entries;
}

/** Rows of a sheet's XML that hold at least one value (formatting-only rows do not count). */
function countFilledRows(xml: string): number {
  let n = 0;
  for (const m of xml.matchAll(/<row\b[^>]*?(?:\/>|>([\s\S]*?)<\/row>)/g)) {
    if (m[1] && /<v>|<is>/.test(m[1])) n++;
  }
  return n;
}

/**
 * Checks an uploaded workbook: zip magic, declared and actual unpacked sizes (inflating each
 * entry with a hard output cap, since declared sizes can lie), and the number of data rows.
 */
export async function inspectWorkbook(buf: Buffer, maxRows = IMPORT_MAX_ROWS): Promise<void> {
  if (buf.length < 4 || buf.readUInt32LE(0) !== 0x04034b50) throw badRequest('请上传 Excel 文件（.xlsx）');
  const entries = centralDirectory(buf);
  if (!entries.some((e) => e.name === 'xl/workbook.xml')) throw badRequest('请上传 Excel 文件（.xlsx）');
  const declared = entries.reduce((sum, e) => sum + e.size, 0);
  if (declared > MAX_UNPACKED_BYTES) throw badRequest(BOMB);
  let budget = MAX_UNPACKED_BYTES;
  for (const e of entries) {
    const local = e.localOffset;
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50) throw badRequest(BOMB);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + e.compressedSize);
    let unpacked: Buffer;
    if (e.method === 0) unpacked = data;
    else if (e.method === 8) {
      try {
        unpacked = await inflateRawAsync(data, { maxOutputLength: Math.max(1, budget) });
      } catch {
        throw badRequest(BOMB);
      }
    } else throw badRequest(BOMB);
    budget -= unpacked.length;
    if (budget < 0) throw badRequest(BOMB);
    if (/^xl\/worksheets\/[^/]+\.xml$/.test(e.name) && countFilledRows(unpacked.toString('utf8')) - 1 > maxRows) {
      throw badRequest(`单次最多导入${maxRows}条数据，请分批导入`);
    }
  }
}

/** Plain text of an exceljs cell value (rich text, hyperlinks, formulas and dates included). */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('').trim();
    if ('text' in value) return String(value.text).trim();
    if ('result' in value) return value.result === undefined ? '' : cellText(value.result as ExcelJS.CellValue);
    if ('error' in value) return '';
    return '';
  }
  return String(value).trim();
}

export interface SheetRow {
  /** 1-based row number in the sheet. */
  rowNumber: number;
  /** Cell text by column header (without the required-field asterisk). */
  values: Record<string, string>;
}

export interface ImportSheet {
  workbook: ExcelJS.Workbook;
  sheet: ExcelJS.Worksheet;
  rows: SheetRow[];
  /** Last column in use, so a reason column can go after it. */
  lastColumn: number;
}

const headerName = (text: string) => text.replace(/[*＊\s]/g, '');

/** Reads the first sheet; `required` columns must be present in the header row. */
export async function readImportSheet(buf: Buffer, required: readonly string[]): Promise<ImportSheet> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(buf as unknown as ArrayBuffer);
  } catch {
    throw badRequest('无法读取 Excel 文件，请使用导入模板');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw badRequest('Excel 文件中没有工作表');
  const columns = new Map<number, string>();
  sheet.getRow(1).eachCell((cell, col) => {
    const name = headerName(cellText(cell.value));
    if (name) columns.set(col, name);
  });
  const present = new Set(columns.values());
  const missing = required.filter((r) => !present.has(r));
  if (missing.length) throw badRequest(`导入模板不正确，缺少列：${missing.join('、')}`);
  const rows: SheetRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (rowNumber === 1) return;
    const values: Record<string, string> = {};
    let filled = false;
    for (const [col, name] of columns) {
      const text = cellText(row.getCell(col).value);
      values[name] = text;
      if (text) filled = true;
    }
    if (filled) rows.push({ rowNumber, values });
  });
  if (rows.length > IMPORT_MAX_ROWS) throw badRequest(`单次最多导入${IMPORT_MAX_ROWS}条数据，请分批导入`);
  if (!rows.length) throw badRequest('Excel 文件中没有数据');
  return { workbook, sheet, rows, lastColumn: Math.max(sheet.columnCount, ...columns.keys()) };
}

/** The uploaded workbook with a '错误原因' column filled on each bad row. */
export async function errorWorkbook(imported: ImportSheet, errors: Map<number, string>): Promise<Buffer> {
  const { sheet, workbook } = imported;
  const col = imported.lastColumn + 1;
  const header = sheet.getRow(1).getCell(col);
  header.value = '错误原因';
  header.font = { bold: true, color: { argb: 'FFC00000' } };
  sheet.getColumn(col).width = 40;
  for (const [rowNumber, reason] of errors) {
    const cell = sheet.getRow(rowNumber).getCell(col);
    cell.value = reason;
    cell.font = { color: { argb: 'FFC00000' } };
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A template or export: one sheet, bold Chinese headers, sensible widths. */
export async function buildWorkbook(sheetName: string, headers: { header: string; width?: number }[], data: (string | number | null)[][], note?: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = '学助';
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = headers.map((h) => ({ header: h.header, width: h.width ?? 16 }));
  sheet.getRow(1).font = { bold: true };
  // Student numbers and phones are text: keep Excel from turning them into numbers.
  headers.forEach((_, i) => (sheet.getColumn(i + 1).numFmt = '@'));
  for (const row of data) sheet.addRow(row);
  if (note) {
    const notes = workbook.addWorksheet('填写说明');
    note.split('\n').forEach((line) => notes.addRow([line]));
    notes.getColumn(1).width = 80;
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/**
 * An export as a stream: rows are written and flushed as they go, so a 100,000-student school
 * does not hold a whole workbook model in memory.
 */
export function streamWorkbook(sheetName: string, headers: { header: string; width?: number }[], data: Iterable<(string | number | null)[]>): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  workbook.creator = '学助';
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = headers.map((h) => ({ header: h.header, width: h.width ?? 16, style: { numFmt: '@' } }));
  sheet.getRow(1).font = { bold: true };
  (async () => {
    for (const row of data) sheet.addRow(row).commit();
    sheet.commit();
    await workbook.commit();
  })().catch((err: Error) => out.destroy(err));
  return out;
}

/** A refused import: nothing was written; the admin gets the workbook back with each bad row's reason. */
export async function sendImportErrors(reply: FastifyReply, imported: ImportSheet, errors: Map<number, string>, fileName: string) {
  const bytes = await errorWorkbook(imported, errors);
  reply.header('x-import-result', 'failed').header('x-import-error-count', String(errors.size));
  return sendWorkbook(reply, bytes, fileName, 422);
}
