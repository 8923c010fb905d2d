// Reading an uploaded import workbook without letting its size decide ours. A 5 MB xlsx can hold
// 50 MB of XML and millions of cells; loaded whole by exceljs that is gigabytes. So, before any
// parsing: the zip's central directory (declared sizes), then every entry inflated as a stream and
// counted (declared sizes can lie), with the worksheets' rows and cells counted on the way, each
// check stopping at the first byte past its limit. Only then does exceljs read the first sheet as
// a stream, row by row, keeping the text of the header's columns. Runs in a worker thread.
import ExcelJS from 'exceljs';
import { open, readFile } from 'node:fs/promises';
import { PassThrough, Readable } from 'node:stream';
import { crc32, createInflateRaw } from 'node:zlib';
import { ApiError, badRequest } from '../http/envelope';

/** Unpacked size a legitimate import never reaches (5,000 rows of a dozen columns are a few MB). */
const MAX_UNPACKED_BYTES = 32 * 1024 * 1024;
/** Cells (`<c>` elements) across the worksheets: 5,000 rows of 40 columns. */
const MAX_CELLS = 200_000;
/** Row elements, filled or not (formatting-only rows count here, not against the import limit). */
const MAX_ROW_ELEMENTS = 100_000;
const MAX_ENTRIES = 2000;

const NOT_XLSX = '请上传 Excel 文件（.xlsx）';
/** Sizes that do not add up: a damaged file or a zip bomb. */
const BOMB = '文件内容异常，请使用导入模板重新填写后上传';
const TOO_BIG = `表格过大：解压后超过${MAX_UNPACKED_BYTES / 1024 / 1024}MB，请删除多余的内容或分批导入`;
const TOO_MANY_CELLS = `表格过大：单元格超过${MAX_CELLS / 10_000}万个，请删除多余的行列或分批导入`;
const TOO_MANY_ROW_ELEMENTS = `表格过大：超过${MAX_ROW_ELEMENTS / 10_000}万行，请删除多余的空行或分批导入`;
const tooManyRows = (maxRows: number) => `单次最多导入${maxRows}条数据，请分批导入`;

interface ZipEntry {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/**
 * The zip's entries, from its central directory: the end record in the last 22 + 65535 bytes
 * points to it. Only those bytes are read, so a file whose declared sizes are refused is never
 * read whole.
 */
async function centralDirectory(path: string): Promise<ZipEntry[]> {
  const file = await open(path);
  try {
    const { size } = await file.stat();
    const read = async (length: number, position: number) => {
      const out = Buffer.alloc(length);
      const { bytesRead } = await file.read(out, 0, length, position);
      return out.subarray(0, bytesRead);
    };
    const head = await read(4, 0);
    if (head.length < 4 || head.readUInt32LE(0) !== 0x04034b50) throw badRequest(NOT_XLSX);
    const tailStart = Math.max(0, size - 22 - 0xffff);
    const tail = await read(size - tailStart, tailStart);
    let eocd = -1;
    for (let i = tail.length - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === 0x06054b50) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw badRequest(NOT_XLSX);
    const count = tail.readUInt16LE(eocd + 10);
    const cdSize = tail.readUInt32LE(eocd + 12);
    // A workbook's directory is a few KB: names and extras of 2,000 entries fit in 4 MB.
    if (count > MAX_ENTRIES || cdSize > 4 * 1024 * 1024) throw badRequest(BOMB);
    const cd = await read(cdSize, tail.readUInt32LE(eocd + 16));
    const entries: ZipEntry[] = [];
    let at = 0;
    for (let i = 0; i < count; i++) {
      if (at + 46 > cd.length || cd.readUInt32LE(at) !== 0x02014b50) throw badRequest(BOMB);
      const nameLength = cd.readUInt16LE(at + 28);
      entries.push({
        method: cd.readUInt16LE(at + 10),
        crc: cd.readUInt32LE(at + 16),
        compressedSize: cd.readUInt32LE(at + 20),
        size: cd.readUInt32LE(at + 24),
        localOffset: cd.readUInt32LE(at + 42),
        name: cd.subarray(at + 46, at + 46 + nameLength).toString('utf8'),
      });
      at += 46 + nameLength + cd.readUInt16LE(at + 30) + cd.readUInt16LE(at + 32);
    }
    return entries;
  } finally {
    await file.close();
  }
}

/** The compressed bytes of an entry, found through its local header. */
function entryData(buf: Buffer, e: ZipEntry): Buffer {
  const local = e.localOffset;
  if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50) throw badRequest(BOMB);
  const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
  if (start + e.compressedSize > buf.length) throw badRequest(BOMB);
  return buf.subarray(start, start + e.compressedSize);
}

/**
 * Counts rows, filled rows and cells of worksheet XML as it streams by, without parsing it:
 * the opening tags are enough, and a tag split between two chunks is caught by carrying the tail.
 */
class SheetCounter {
  cells = 0;
  rowElements = 0;
  filledRows = 0;
  private filled = false;
  private carry = '';

  constructor(private readonly maxRows: number) {}

  push(chunk: Buffer): void {
    const text = this.carry + chunk.toString('latin1');
    for (const m of text.matchAll(/<(row|c|v|is)[\s>/]|<\/row>/g)) {
      if (m.index + m[0].length <= this.carry.length) continue; // counted with the previous chunk
      if (m[0] === '</row>') this.endRow();
      else if (m[1] === 'row') {
        this.endRow();
        if (++this.rowElements > MAX_ROW_ELEMENTS) throw badRequest(TOO_MANY_ROW_ELEMENTS);
      } else if (m[1] === 'c') {
        if (++this.cells > MAX_CELLS) throw badRequest(TOO_MANY_CELLS);
      } else this.filled = true;
    }
    this.carry = text.slice(-5);
  }

  endRow(): void {
    // The header row is not data: one more filled row than the import limit is allowed.
    if (this.filled && ++this.filledRows > this.maxRows + 1) throw badRequest(tooManyRows(this.maxRows));
    this.filled = false;
  }
}

/** Inflates one entry as a stream, refusing it at the first byte past `limit`, passing each chunk to `onChunk`. */
function inflateEntry(data: Buffer, limit: number, onChunk: (chunk: Buffer) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    const inflater = createInflateRaw({ chunkSize: 64 * 1024 });
    let size = 0;
    const stop = (error: unknown) => {
      inflater.destroy();
      reject(error);
    };
    inflater.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return stop(badRequest(BOMB));
      try {
        onChunk(chunk);
      } catch (error) {
        stop(error);
      }
    });
    inflater.on('error', () => stop(badRequest(BOMB)));
    inflater.on('end', () => resolve(size));
    inflater.end(data);
  });
}

const isSheet = (name: string) => /^xl\/worksheets\/[^/]+\.xml$/.test(name);
const SMALL_PARTS = ['xl/workbook.xml', 'xl/_rels/workbook.xml.rels'];

/**
 * Every entry's true size within its declared one, the worksheets within the row and cell limits.
 * Returns the workbook's sheet list and its relationships, to find the first sheet.
 */
async function checkEntries(buf: Buffer, entries: ZipEntry[], maxRows: number): Promise<Map<string, string>> {
  const smallParts = new Map<string, string>();
  for (const e of entries) {
    const data = entryData(buf, e);
    const counter = isSheet(e.name) ? new SheetCounter(maxRows) : undefined;
    const keep = SMALL_PARTS.includes(e.name);
    const kept: Buffer[] = [];
    const onChunk = (chunk: Buffer) => {
      counter?.push(chunk);
      if (keep) kept.push(chunk);
    };
    let size: number;
    if (e.method === 0) {
      if (data.length !== e.size) throw badRequest(BOMB);
      onChunk(data);
      size = data.length;
    } else if (e.method === 8) size = await inflateEntry(data, e.size, onChunk);
    else throw badRequest(BOMB);
    if (size !== e.size) throw badRequest(BOMB);
    counter?.endRow();
    if (keep) smallParts.set(e.name, Buffer.concat(kept).toString('utf8'));
  }
  return smallParts;
}

/** The first sheet in the workbook's own order, else the lowest-numbered one. */
function firstSheet(entries: ZipEntry[], smallParts: Map<string, string>): ZipEntry | undefined {
  const sheets = entries.filter((e) => isSheet(e.name));
  const rId = /<sheet\b[^>]*\br:id="([^"]+)"/.exec(smallParts.get('xl/workbook.xml') ?? '')?.[1];
  const rels = smallParts.get('xl/_rels/workbook.xml.rels') ?? '';
  for (const rel of rels.matchAll(/<Relationship\b[^>]*>/g)) {
    if (/\bId="([^"]+)"/.exec(rel[0])?.[1] !== rId) continue;
    const target = /\bTarget="([^"]+)"/.exec(rel[0])?.[1]?.replace(/^\/?(xl\/)?/, 'xl/');
    const found = sheets.find((s) => s.name === target);
    if (found) return found;
  }
  const number = (e: ZipEntry) => Number(/(\d+)\.xml$/.exec(e.name)?.[1] ?? Infinity);
  return sheets.sort((a, b) => number(a) - number(b))[0];
}

function localHeader(name: string, method: number, crc: number, compressedSize: number, size: number): Buffer {
  const nameBytes = Buffer.from(name);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(method, 8);
  header.writeUInt32LE(crc, 14);
  header.writeUInt32LE(compressedSize, 18);
  header.writeUInt32LE(size, 22);
  header.writeUInt16LE(nameBytes.length, 26);
  return Buffer.concat([header, nameBytes]);
}

/**
 * A zip of just what exceljs needs, in the order that lets it read the sheet as it streams:
 * relationships, workbook, styles and shared strings before the sheet (otherwise it parks the
 * sheet in a temporary file until the strings arrive). Missing parts are given as empty ones, and
 * the sheet goes by the name exceljs's streaming reader looks for.
 */
function readingOrder(buf: Buffer, entries: ZipEntry[], sheet: ZipEntry): Buffer {
  const byName = new Map(entries.map((e) => [e.name, e]));
  const parts: Buffer[] = [];
  const copy = (e: ZipEntry, name = e.name) => parts.push(localHeader(name, e.method, e.crc, e.compressedSize, e.size), entryData(buf, e));
  const empty = (name: string, xml: string) => {
    const data = Buffer.from(xml);
    parts.push(localHeader(name, 0, crc32(data), data.length, data.length), data);
  };
  const rels = byName.get('xl/_rels/workbook.xml.rels');
  if (rels) copy(rels);
  else empty('xl/_rels/workbook.xml.rels', '<Relationships/>');
  copy(byName.get('xl/workbook.xml')!);
  const styles = byName.get('xl/styles.xml');
  if (styles) copy(styles);
  const strings = byName.get('xl/sharedStrings.xml');
  if (strings) copy(strings);
  else empty('xl/sharedStrings.xml', '<sst/>');
  copy(sheet, 'xl/worksheets/sheet1.xml');
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  parts.push(end);
  return Buffer.concat(parts);
}

/** Plain text of an exceljs cell value (rich text, hyperlinks, formulas and dates included). */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('').trim();
    if ('text' in value) return String(value.text).trim();
    if ('result' in value) return value.result === undefined ? '' : cellText(value.result as ExcelJS.CellValue);
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

export interface ImportRows {
  rows: SheetRow[];
  /** Last column in use, so a reason column can go after it. */
  lastColumn: number;
}

const headerName = (text: string) => text.replace(/[*＊\s]/g, '');

/** The first sheet's rows as a stream, once the whole file has passed the checks above. */
async function firstSheetRows(path: string, maxRows: number): Promise<ExcelJS.stream.xlsx.WorkbookReader> {
  const entries = await centralDirectory(path);
  if (!entries.some((e) => e.name === 'xl/workbook.xml')) throw badRequest(NOT_XLSX);
  if (entries.some((e) => e.size === 0xffffffff) || entries.reduce((sum, e) => sum + e.size, 0) > MAX_UNPACKED_BYTES) throw badRequest(TOO_BIG);
  const buf = await readFile(path);
  const smallParts = await checkEntries(buf, entries, maxRows);
  const sheetEntry = firstSheet(entries, smallParts);
  if (!sheetEntry) throw badRequest('Excel 文件中没有工作表');
  return new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([readingOrder(buf, entries, sheetEntry)]), {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
}

/**
 * The data rows of the first sheet by its header (row 1); `required` columns must be there.
 * Refusals are Chinese 400s, thrown as soon as the file has shown enough to refuse it.
 */
export async function readImportRows({ path, required, maxRows }: { path: string; required: readonly string[]; maxRows: number }): Promise<ImportRows> {
  const reader = await firstSheetRows(path, maxRows);
  const columns = new Map<number, string>();
  const rows: SheetRow[] = [];
  let lastColumn = 0;
  let sawSheet = false;
  try {
    for await (const sheet of reader) {
      sawSheet = true;
      for await (const row of sheet) {
        lastColumn = Math.max(lastColumn, row.cellCount);
        if (!columns.size) {
          if (row.number === 1) {
            row.eachCell((cell, col) => {
              const name = headerName(cellText(cell.value));
              if (name) columns.set(col, name);
            });
          }
          const present = new Set(columns.values());
          const missing = required.filter((r) => !present.has(r));
          if (missing.length) throw badRequest(`导入模板不正确，缺少列：${missing.join('、')}`);
          if (row.number === 1) continue;
        }
        const values: Record<string, string> = {};
        let filled = false;
        for (const [col, name] of columns) {
          const text = cellText(row.getCell(col).value);
          values[name] = text;
          if (text) filled = true;
        }
        if (!filled) continue;
        rows.push({ rowNumber: row.number, values });
        if (rows.length > maxRows) throw badRequest(tooManyRows(maxRows));
      }
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw badRequest('无法读取 Excel 文件，请使用导入模板');
  }
  if (!sawSheet) throw badRequest('Excel 文件中没有工作表');
  if (!columns.size) throw badRequest(`导入模板不正确，缺少列：${required.join('、')}`);
  if (!rows.length) throw badRequest('Excel 文件中没有数据');
  return { rows, lastColumn: Math.max(lastColumn, ...columns.keys()) };
}

/**
 * The first sheet of the uploaded workbook, cell values as they were, with a '错误原因' column
 * after the last one filled on each bad row. Read and written as streams, like the import itself:
 * loading the user's workbook whole would undo the limits (formatting is not carried over).
 */
export async function markImportErrors({ path, errors, lastColumn, maxRows }: { path: string; errors: [number, string][]; lastColumn: number; maxRows: number }): Promise<Uint8Array> {
  const reasons = new Map(errors);
  const reader = await firstSheetRows(path, maxRows);
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const target = workbook.addWorksheet('导入结果');
  // Codes and phone numbers stay text when the admin corrects them in Excel.
  target.columns = Array.from({ length: lastColumn + 1 }, (_, i) => ({ width: i === lastColumn ? 40 : 16, style: { numFmt: '@' } }));
  const col = lastColumn + 1;
  const red = { color: { argb: 'FFC00000' } };
  for await (const sheet of reader) {
    for await (const row of sheet) {
      const copy = target.getRow(row.number);
      row.eachCell((cell, c) => {
        if (c <= lastColumn) copy.getCell(c).value = cell.value;
      });
      if (row.number === 1) {
        copy.font = { bold: true };
        copy.getCell(col).value = '错误原因';
        copy.getCell(col).font = { bold: true, ...red };
      } else if (reasons.has(row.number)) {
        copy.getCell(col).value = reasons.get(row.number)!;
        copy.getCell(col).font = red;
      }
      copy.commit();
    }
  }
  target.commit();
  await workbook.commit();
  return new Uint8Array(Buffer.concat(chunks));
}
