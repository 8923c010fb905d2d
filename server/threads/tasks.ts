// What the heavy-work threads can do. Inputs and outputs cross a thread boundary, so they are
// plain data (an upload goes by the path of its spooled file); a refusal meant for the user comes
// back as a value, since an error's class and status do not survive the crossing.
import { ApiError } from '../http/envelope';
import { markImportErrors, readImportRows } from '../files/workbookReader';
import { checkScan, readGradingFile, renderSheet, scoreSheetPages } from '../modules/correct/reading';
import { renderPaper } from '../modules/minerva/paperPdf';
import { renderVolumePaper } from '../modules/wrongbook/volumePdf';

export const tasks = {
  readImport: (input: { path: string; required: string[]; maxRows: number }) => readImportRows(input.path, input.required, input.maxRows),
  markImportErrors: (input: { path: string; errors: [number, string][]; lastColumn: number; maxRows: number }) => markImportErrors(input.path, input.errors, input.lastColumn, input.maxRows),
  checkScan,
  renderSheet,
  renderPaper,
  renderVolumePaper,
  readGradingFile,
  scoreSheetPages,
};

export type TaskName = keyof typeof tasks;
export type TaskInput<N extends TaskName> = Parameters<(typeof tasks)[N]>[0];
export type TaskOutput<N extends TaskName> = Awaited<ReturnType<(typeof tasks)[N]>>;
export type Settled<T> = { ok: T } | { refused: { code: number; msg: string } };

export async function runTask<N extends TaskName>({ name, input }: { name: N; input: TaskInput<N> }): Promise<Settled<TaskOutput<N>>> {
  try {
    return { ok: (await (tasks[name] as (input: TaskInput<N>) => Promise<TaskOutput<N>>)(input)) };
  } catch (error) {
    if (error instanceof ApiError) return { refused: { code: error.code, msg: error.message } };
    throw error;
  }
}
