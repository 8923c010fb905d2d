// Import workbooks are read in a worker thread, streaming and within limits (workbookReader.ts):
// the first sheet by its (Chinese) header names, and a failed import written back with a reason
// on each bad row. Templates and exports are written here.
import type ExcelJS from 'exceljs';
import { PassThrough, type Readable } from 'node:stream';
import { IMPORT_MAX_ROWS } from '../../src/domain/school';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendWorkbook } from '../http/download';
import { heavyTasks } from '../threads/pool';
import { spoolUpload } from './plugin';
import type * as workbookReader from './workbookReader';
import type { SheetRow } from './workbookReader';

/** exceljs (some 20 MB once loaded) comes in with the first export, not with the server's start. */
export const loadExcel = async (): Promise<typeof ExcelJS> => (await import('exceljs')).default;

const runHeavy = heavyTasks<Pick<typeof workbookReader, 'readImportRows' | 'markImportErrors'>>(new URL('./workbookReader.ts', import.meta.url));

export interface ImportSheet {
  /** The upload, spooled to disk until the reply is done (see spoolUpload). */
  path: string;
  rows: SheetRow[];
  /** Last column in use, so a reason column can go after it. */
  lastColumn: number;
}

/** Reads the uploaded workbook's first sheet; `required` columns must be present in its header row. */
export async function readImport(request: FastifyRequest, required: readonly string[]): Promise<ImportSheet> {
  const { path } = await spoolUpload(request);
  const read = await runHeavy('requests', 'readImportRows', { path, required: [...required], maxRows: IMPORT_MAX_ROWS });
  return { path, ...read };
}

/**
 * A column; `numFmt` makes it a number column in that Excel format (amounts: YUAN_FORMAT), which
 * a SUM adds up. Columns without one are text ('@'): student numbers and phones stay as typed.
 */
type SheetHeaders = { header: string; width?: number; numFmt?: string }[];

/** Yuan with thousands separators and two decimals, as a number an accountant's SUM adds. */
export const YUAN_FORMAT = '#,##0.00';

/** Integer fen → yuan as a cell's number (exact for any amount the app keeps: fen / 100 is the nearest double). */
export const cellYuan = (fen: number | null | undefined): number | null => (typeof fen === 'number' && Number.isFinite(fen) ? fen / 100 : null);

/** A template or export: one sheet, bold Chinese headers, sensible widths; `note` adds a 填写说明 sheet. */
export async function buildWorkbook(sheetName: string, headers: SheetHeaders, data: (string | number | null)[][], note?: string): Promise<Buffer> {
  return buildWorkbookSheets([{ name: sheetName, headers, data }], note);
}

/** A report with a sheet per view, each as buildWorkbook's. */
export async function buildWorkbookSheets(sheets: { name: string; headers: SheetHeaders; data: (string | number | null)[][] }[], note?: string): Promise<Buffer> {
  const workbook = new (await loadExcel()).Workbook();
  workbook.creator = '学助';
  for (const s of sheets) {
    const sheet = workbook.addWorksheet(s.name);
    sheet.columns = s.headers.map((h) => ({ header: h.header, width: h.width ?? 16 }));
    sheet.getRow(1).font = { bold: true };
    // Student numbers and phones are text: keep Excel from turning them into numbers.
    s.headers.forEach((h, i) => (sheet.getColumn(i + 1).numFmt = h.numFmt ?? '@'));
    for (const row of s.data) sheet.addRow(row);
  }
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
export function streamWorkbook(sheetName: string, headers: SheetHeaders, data: Iterable<(string | number | null)[]>): Readable {
  const out = new PassThrough();
  (async () => {
    const Excel = await loadExcel();
    const workbook = new Excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    workbook.creator = '学助';
    const sheet = workbook.addWorksheet(sheetName);
    sheet.columns = headers.map((h) => ({ header: h.header, width: h.width ?? 16, style: { numFmt: h.numFmt ?? '@' } }));
    sheet.getRow(1).font = { bold: true };
    for (const row of data) sheet.addRow(row).commit();
    sheet.commit();
    await workbook.commit();
  })().catch((err: Error) => out.destroy(err));
  return out;
}

/** Bad rows named in the x-import-errors header; the returned workbook marks every one. */
export const IMPORT_ERRORS_LISTED = 20;

/** A refused import: nothing was written; the admin gets the workbook back with each bad row's reason. */
export async function sendImportErrors(reply: FastifyReply, imported: ImportSheet, errors: Map<number, string>, fileName: string) {
  const marked = await runHeavy('requests', 'markImportErrors', { path: imported.path, errors: [...errors], lastColumn: imported.lastColumn, maxRows: IMPORT_MAX_ROWS });
  // The first bad rows also travel in a header, so the import dialog can list them without
  // opening the workbook: [[row, reason], …], JSON, percent-encoded (headers are ASCII).
  const firstRows = [...errors].sort((a, b) => a[0] - b[0]).slice(0, IMPORT_ERRORS_LISTED).map(([row, reason]) => [row, reason.slice(0, 100)]);
  reply.header('x-import-result', 'failed').header('x-import-error-count', String(errors.size)).header('x-import-errors', encodeURIComponent(JSON.stringify(firstRows)));
  return sendWorkbook(reply, Buffer.from(marked.buffer, marked.byteOffset, marked.byteLength), fileName, 422);
}
