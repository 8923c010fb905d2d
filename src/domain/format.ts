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

// Every time is shown in the school's time zone, whatever zone the browser or the server is in: the
// school day is a day on the school's clock. A school picks its zone (schools.time_zone); without a
// school, and by default, it is China time. Every helper takes the zone as its last argument: the
// server passes the zone of the request's school; in the browser the default is the zone of the
// signed-in user's school (setBrowserZone, called once at startup), never the laptop's own.

/** The zone of a school that chose none, and of everyone without a school (partners, admins). */
export const DEFAULT_ZONE = 'Asia/Shanghai';

/** Longest IANA zone name a school may store (the longest real one has 30 characters). */
export const ZONE_MAX_LENGTH = 64;

let zoneList: Set<string> | undefined;

/** An IANA zone this runtime knows by its canonical name (Intl.supportedValuesOf), e.g. 'Asia/Tokyo'. */
export function isTimeZone(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > ZONE_MAX_LENGTH) return false;
  zoneList ??= new Set(Intl.supportedValuesOf('timeZone'));
  return zoneList.has(value);
}

// Only ever set in the browser, where one page belongs to one signed-in user. The server never
// sets it: there every export passes the zone of the school it is made for.
let browserZone = DEFAULT_ZONE;

/** The page's default zone: the signed-in user's school's (an unknown name leaves China time). */
export function setBrowserZone(zone: string | null | undefined): void {
  browserZone = isTimeZone(zone) ? zone : DEFAULT_ZONE;
}

/** The zone times are shown in when no zone is passed: China time, or the browser's user's school's. */
export function shownZone(): string {
  return browserZone;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(zone, f);
  }
  return f;
}

type Moment = string | number | Date | null | undefined;
type Parts = Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', string>;

function zoneParts(at: Moment, zone: string): Parts | undefined {
  if (at === null || at === undefined || at === '') return undefined;
  const date = at instanceof Date ? at : new Date(at);
  if (Number.isNaN(date.getTime())) return undefined;
  const parts = Object.fromEntries(formatterOf(zone).formatToParts(date).map((p) => [p.type, p.value]));
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second };
}

/** How far the zone's clock is ahead of UTC at `at`, in milliseconds (+9 h for Asia/Tokyo). */
export function zoneOffsetMs(at: Date, zone: string = shownZone()): number {
  const p = zoneParts(at, zone);
  if (!p) return NaN;
  const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant a wall-clock time ('2026-11-28T22:00' or '2026-11-28T00:00:00') reads in `zone`; NaN if unreadable. */
function fromWall(wall: string, zone: string): Date {
  const asUtc = Date.parse(`${wall}Z`);
  if (Number.isNaN(asUtc)) return new Date(NaN);
  // Twice: the second guess lands right across a daylight-saving change.
  const first = asUtc - zoneOffsetMs(new Date(asUtc), zone);
  return new Date(asUtc - zoneOffsetMs(new Date(first), zone));
}

/** 2026-11-25 14:03 */
export function dateTime(at: Moment, zone: string = shownZone()): string {
  const p = zoneParts(at, zone);
  return p ? `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}` : EMPTY;
}

/** 2026-11-25 14:03:07: to the second, where the order of events matters (操作日志). */
export function dateTimeSeconds(at: Moment, zone: string = shownZone()): string {
  const p = zoneParts(at, zone);
  return p ? `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}` : EMPTY;
}

/**
 * 20261125140307: the school's time an export file is named by, so repeated exports do not overwrite
 * each other and the name says the same time the teacher's clock did (not the server's zone).
 */
export function fileStamp(at: Date = new Date(), zone: string = shownZone()): string {
  return dateTimeSeconds(at, zone).replace(/\D/g, '');
}

/** Midnight of the school day `at` falls on (or of a 'YYYY-MM-DD' day): where a school's day begins. */
export function chinaDayStart(at: Date | string = new Date(), zone: string = shownZone()): Date {
  const day = typeof at === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(at) ? at : dateOnly(at, zone);
  return fromWall(`${day}T00:00:00`, zone);
}

/** A time in a spreadsheet cell: the school's time to the second, an empty cell where there is none. */
export function cellTime(at: Moment, zone: string = shownZone()): string {
  const text = dateTimeSeconds(at, zone);
  return text === EMPTY ? '' : text;
}

/**
 * A moment as a date-time input's value (2026-11-28T22:00), in the school's time: the school's clock,
 * not the browser's, so a teacher's laptop set to another zone still sets 22:00 Beijing time.
 */
export function chinaInputValue(at: Moment, zone: string = shownZone()): string {
  const p = zoneParts(at, zone);
  return p ? `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}` : '';
}

/** A date-time input's value read as the school's time, as the ISO instant the server takes; '' if unreadable. */
export function fromChinaInput(value: string, zone: string = shownZone()): string {
  const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value) ? fromWall(`${value}:00`, zone) : new Date(NaN);
  return Number.isNaN(at.getTime()) ? '' : at.toISOString();
}

/** 2026-11-25 */
export function dateOnly(at: Moment, zone: string = shownZone()): string {
  const p = zoneParts(at, zone);
  return p ? `${p.year}-${p.month}-${p.day}` : EMPTY;
}

/** 11月24日 22:00, as teachers write it; the year only when it is not this year's. */
export function dayTime(at: Moment, now: Date = new Date(), zone: string = shownZone()): string {
  const p = zoneParts(at, zone);
  if (!p) return EMPTY;
  const year = p.year === zoneParts(now, zone)?.year ? '' : `${p.year}年`;
  return `${year}${Number(p.month)}月${Number(p.day)}日 ${p.hour}:${p.minute}`;
}

/** 11月24日 22时: a time known to the hour only (an anonymous 学生心声's). */
export function dayHour(at: Moment, now: Date = new Date(), zone: string = shownZone()): string {
  const p = zoneParts(at, zone);
  if (!p) return EMPTY;
  const year = p.year === zoneParts(now, zone)?.year ? '' : `${p.year}年`;
  return `${year}${Number(p.month)}月${Number(p.day)}日 ${p.hour}时`;
}

/** How a page or a sheet names the clock its times are on: 北京时间, 日本标准时间, or the IANA name. */
export function zoneName(zone: string = shownZone()): string {
  if (zone === DEFAULT_ZONE) return '北京时间';
  const generic = new Intl.DateTimeFormat('zh-CN', { timeZone: zone, timeZoneName: 'longGeneric' }).formatToParts(new Date()).find((p) => p.type === 'timeZoneName')?.value;
  return generic && !generic.startsWith('GMT') ? generic : zone;
}

/** 日本标准时间（Asia/Tokyo，GMT+9）: how a zone is offered in the school settings. */
export function zoneLabel(zone: string, at: Date = new Date()): string {
  const name = (style: 'longGeneric' | 'shortOffset') =>
    new Intl.DateTimeFormat('zh-CN', { timeZone: zone, timeZoneName: style }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? '';
  const generic = name('longGeneric');
  const offset = name('shortOffset');
  return generic && generic !== offset && !generic.startsWith('GMT') ? `${generic}（${zone}，${offset}）` : `${zone}（${offset}）`;
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
