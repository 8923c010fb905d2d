// Small display and validation helpers of SPEC §5 and §9.
import { yuan } from './partner';

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

/** What a screen shows where a rate, an amount or a time is missing. */
export const EMPTY = '—';

/** 0.6456 → '64.6%': one decimal, always written. */
export function percent(rate: unknown, empty = EMPTY): string {
  // Rounded on the per-mille first: toFixed alone turns 12.35 (stored as 12.3499…) into 12.3.
  return typeof rate === 'number' && Number.isFinite(rate) ? `${(Math.round(rate * 1000) / 10).toFixed(1)}%` : empty;
}

/** Integer fen → '¥1,234.50'. */
export function money(fen: unknown): string {
  return typeof fen === 'number' && Number.isFinite(fen) ? `¥${yuan(fen)}` : EMPTY;
}

// Every time is shown in China time, whatever zone the browser is in: the school day is a China day.
const CHINA_TIME = new Intl.DateTimeFormat('en-US', {
  timeZone: 'Asia/Shanghai',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

type Moment = string | number | Date | null | undefined;

const CHINA_SECONDS = new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Shanghai', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });

function chinaParts(at: Moment): Record<'year' | 'month' | 'day' | 'hour' | 'minute', string> | undefined {
  if (at === null || at === undefined || at === '') return undefined;
  const date = at instanceof Date ? at : new Date(at);
  if (Number.isNaN(date.getTime())) return undefined;
  const parts = Object.fromEntries(CHINA_TIME.formatToParts(date).map((p) => [p.type, p.value]));
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute };
}

/** 2026-11-25 14:03 */
export function dateTime(at: Moment): string {
  const p = chinaParts(at);
  return p ? `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}` : EMPTY;
}

/** 2026-11-25 14:03:07: to the second, where the order of events matters (操作日志). */
export function dateTimeSeconds(at: Moment): string {
  const p = chinaParts(at);
  if (!p) return EMPTY;
  const second = CHINA_SECONDS.formatToParts(at instanceof Date ? at : new Date(at!)).find((part) => part.type === 'second')?.value ?? '00';
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${second}`;
}

/**
 * 20261125140307: the China time an export file is named by, so repeated exports do not overwrite
 * each other and the name says the same time the teacher's clock did (not the server's zone).
 */
export function fileStamp(at: Date = new Date()): string {
  return dateTimeSeconds(at).replace(/\D/g, '');
}

/** Midnight of the China day `at` falls on (or of a 'YYYY-MM-DD' China day): where a school's day begins. */
export function chinaDayStart(at: Date | string = new Date()): Date {
  return new Date(`${dateOnly(at)}T00:00:00+08:00`);
}

/** A time in a spreadsheet cell: China time to the second, an empty cell where there is none. */
export function cellTime(at: Moment): string {
  const text = dateTimeSeconds(at);
  return text === EMPTY ? '' : text;
}

/**
 * A moment as a date-time input's value (2026-11-28T22:00), in China time: the school's clock, not
 * the browser's, so a teacher's laptop set to another zone still sets 22:00 Beijing time.
 */
export function chinaInputValue(at: Moment): string {
  const p = chinaParts(at);
  return p ? `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}` : '';
}

/** A date-time input's value read as China time, as the ISO instant the server takes; '' if unreadable. */
export function fromChinaInput(value: string): string {
  const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value) ? new Date(`${value}:00+08:00`) : new Date(NaN);
  return Number.isNaN(at.getTime()) ? '' : at.toISOString();
}

/** 2026-11-25 */
export function dateOnly(at: Moment): string {
  const p = chinaParts(at);
  return p ? `${p.year}-${p.month}-${p.day}` : EMPTY;
}

/** 11月24日 22:00, as teachers write it; the year only when it is not this year's. */
export function dayTime(at: Moment, now: Date = new Date()): string {
  const p = chinaParts(at);
  if (!p) return EMPTY;
  const year = p.year === chinaParts(now)?.year ? '' : `${p.year}年`;
  return `${year}${Number(p.month)}月${Number(p.day)}日 ${p.hour}:${p.minute}`;
}

/** 11月24日 22时: a time known to the hour only (an anonymous 学生心声's). */
export function dayHour(at: Moment, now: Date = new Date()): string {
  const p = chinaParts(at);
  if (!p) return EMPTY;
  const year = p.year === chinaParts(now)?.year ? '' : `${p.year}年`;
  return `${year}${Number(p.month)}月${Number(p.day)}日 ${p.hour}时`;
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
