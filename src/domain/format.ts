// Small display and validation helpers of SPEC §5 and §9.

/** Non-empty and finite (SPEC §5 "numeric"). */
export function isNumeric(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string' && value.trim() === '') return false;
  if (typeof value !== 'string' && typeof value !== 'number') return false;
  return Number.isFinite(Number(value));
}

/** Digits only. */
export function isDigits(value: string): boolean {
  return /^\d+$/.test(value);
}

/** Site-like text: word characters, no spaces, at least one dot segment (e.g. school.edu.cn). */
export function isSiteLike(value: string): boolean {
  return /^\w[^\s.]*(\.[^\s.]+)+$/.test(value);
}

/** '-' for non-numeric values, otherwise zh-CN grouping with a fixed number of decimals. */
export function formatNumber(value: unknown, decimals = 2): string {
  if (!isNumeric(value)) return '-';
  return Number(value).toLocaleString('zh-CN', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** A moment as the user reads it: 2026/11/25 09:30 (local time, 24-hour). */
export function dateTime(iso: string): string {
  return new Date(iso).toLocaleString('zh-CN', { hour12: false, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
}

/** Menu badges: counts above 99 show as '99+'; zero or less shows nothing. */
export function badgeText(count: number | null | undefined): string {
  if (!count || count <= 0) return '';
  return count > 99 ? '99+' : String(count);
}

/** SPEC §5 export file name: {name}_{suffix}.{ext}, ext defaulting to xls. */
export function exportFileName(name: string, suffix: string, ext = 'xls'): string {
  return `${name}_${suffix}.${ext}`;
}
