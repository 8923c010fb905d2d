// Exports that follow the list's visible columns: the web app sends the sources of the columns
// the user shows, in order (`fields=a,b,c`); the export writes those it knows, in that order,
// and every column when none is named (or none it knows).
import { Type } from 'typebox';

export interface ExportColumn<T> {
  /** The list field's source. */
  key: string;
  header: string;
  width?: number;
  /** A number column's Excel format (see YUAN_FORMAT); text otherwise. */
  numFmt?: string;
  value: (row: T) => string | number | null;
}

/** A list has a few dozen columns at most; names are field sources. */
export const ColumnsQuery = Type.Optional(Type.String({ maxLength: 600, pattern: '^[A-Za-z0-9_,]*$' }));

export function pickColumns<T>(all: readonly ExportColumn<T>[], requested: string | undefined): readonly ExportColumn<T>[] {
  const keys = (requested ?? '').split(',').filter(Boolean);
  const chosen = keys.flatMap((key) => all.filter((c) => c.key === key));
  return chosen.length ? chosen : all;
}

/** Headers and rows for streamWorkbook. */
export function exportTable<T>(columns: readonly ExportColumn<T>[], rows: readonly T[]) {
  return {
    headers: columns.map(({ header, width, numFmt }) => ({ header, width, numFmt })),
    rows: rows.map((row) => columns.map((c) => c.value(row))),
  };
}
