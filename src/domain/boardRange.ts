// The time range of the partner data boards (SPEC §9 query modes 按年月 / 按学期 / 自定义), shared by
// the screens (pickers, axis labels) and the server (validation, buckets). Days are China days
// ('YYYY-MM-DD'), the same days the usage rollups are kept in.
import type { Option } from './semester';

export type QueryMode = 'month' | 'term' | 'custom';
export type Bucket = 'day' | 'week' | 'month';

export interface RangeQuery {
  queryMode?: QueryMode;
  /** 'YYYY-MM' for 按年月. */
  month?: string;
  /** 'YYYY01' (first term, August–January) or 'YYYY02' (second term, February–July) for 按学期. */
  term?: string;
  /** 'YYYY-MM-DD' … 'YYYY-MM-DD' for 自定义. */
  startDate?: string;
  endDate?: string;
}

export interface BoardRange {
  from: string;
  to: string;
  bucket: Bucket;
  /** Every bucket's first day, in order, so a series has a point for each even without usage. */
  buckets: string[];
}

/** A custom range may span at most this many days (a year, leap day included). */
export const MAX_RANGE_DAYS = 366;
/** Usage before this day does not exist: terminals were first sold in 2024. */
export const EARLIEST_DAY = '2024-01-01';

const DAY_MS = 86_400_000;

/** Today in China, whatever the server's or browser's zone. */
export function chinaToday(now: Date = new Date()): string {
  return new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 10);
}

const toMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
const toDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const addDays = (day: string, n: number) => toDay(toMs(day) + n * DAY_MS);
export const daysBetween = (from: string, to: string) => Math.round((toMs(to) - toMs(from)) / DAY_MS) + 1;

/** A real calendar day: 2026-02-30 and 1600-30-72 are not (the latter is not even a Date). */
export const validDay = (day: string) => {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(day) ? toMs(day) : NaN;
  return Number.isFinite(ms) && toDay(ms) === day;
};

/** The first and last day of a term value. */
export function termDays(term: string): { from: string; to: string } {
  const year = Number(term.slice(0, 4));
  return term.endsWith('01') ? { from: `${year}-08-01`, to: `${year + 1}-01-31` } : { from: `${year + 1}-02-01`, to: `${year + 1}-07-31` };
}

/** The term a day belongs to (August–January first, February–July second). */
export function termOf(day: string): string {
  const [y, m] = day.split('-').map(Number);
  if (m >= 8) return `${y}01`;
  if (m === 1) return `${y - 1}01`;
  return `${y - 1}02`;
}

export function termLabel(term: string): string {
  const year = Number(term.slice(0, 4));
  return `${year}-${year + 1}学年${term.endsWith('01') ? '上' : '下'}学期`;
}

/** The running term and the three before it, newest first. */
export function boardTermOptions(today: string = chinaToday()): Option[] {
  const out: string[] = [termOf(today)];
  while (out.length < 4) {
    const last = out[out.length - 1];
    const year = Number(last.slice(0, 4));
    out.push(last.endsWith('02') ? `${year}01` : `${year - 1}02`);
  }
  return out.map((value) => ({ value, label: termLabel(value) }));
}

/** The months a board offers: this one and the 23 before it (none before the first terminal), newest first. */
export function boardMonthOptions(today: string = chinaToday()): Option[] {
  const out: Option[] = [];
  let [y, m] = today.split('-').map(Number);
  while (out.length < 24 && `${y}-${String(m).padStart(2, '0')}` >= EARLIEST_DAY.slice(0, 7)) {
    out.push({ value: `${y}-${String(m).padStart(2, '0')}`, label: `${y}年${m}月` });
    [y, m] = m === 1 ? [y - 1, 12] : [y, m - 1];
  }
  return out;
}

function weekStart(day: string): string {
  const weekday = (new Date(toMs(day)).getUTCDay() + 6) % 7; // Monday 0
  return addDays(day, -weekday);
}

const bucketStart = (day: string, bucket: Bucket) => (bucket === 'day' ? day : bucket === 'week' ? weekStart(day) : `${day.slice(0, 7)}-01`);

function bucketsOf(from: string, to: string, bucket: Bucket): string[] {
  const out: string[] = [];
  for (let day = bucketStart(from, bucket); day <= to; ) {
    out.push(day);
    if (bucket === 'day') day = addDays(day, 1);
    else if (bucket === 'week') day = addDays(day, 7);
    else {
      const [y, m] = day.split('-').map(Number);
      // Years keep four digits (a year like 0388 must stay a date the database reads).
      day = m === 12 ? `${String(y + 1).padStart(4, '0')}-01-01` : `${String(y).padStart(4, '0')}-${String(m + 1).padStart(2, '0')}-01`;
    }
  }
  return out;
}

/** A month → days; a term → weeks; a custom range → days up to two months, weeks up to half a year, else months. */
function bucketFor(mode: QueryMode, days: number): Bucket {
  if (mode === 'month') return 'day';
  if (mode === 'term') return 'week';
  return days <= 62 ? 'day' : days <= 190 ? 'week' : 'month';
}

/**
 * The days a query covers, cut at today; or the Chinese reason it is refused. A range that starts
 * in the future or before the first terminal, or a custom range wider than a year, is refused
 * rather than answered with a silent empty board.
 */
export function boardRange(q: RangeQuery, today: string = chinaToday()): BoardRange | string {
  // Dates alone (a list's date filters) mean a custom range.
  const mode = q.queryMode ?? (q.startDate || q.endDate ? 'custom' : 'month');
  let from: string;
  let to: string;
  if (mode === 'month') {
    const month = q.month ?? today.slice(0, 7);
    if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) return '月份格式不正确';
    from = `${month}-01`;
    to = addDays(bucketsOf(from, addDays(from, 31), 'month')[1], -1);
  } else if (mode === 'term') {
    const term = q.term ?? termOf(today);
    if (!/^\d{4}0[12]$/.test(term)) return '学期格式不正确';
    ({ from, to } = termDays(term));
  } else {
    if (!q.startDate || !q.endDate) return '请选择开始日期和结束日期';
    if (!validDay(q.startDate) || !validDay(q.endDate)) return '日期格式不正确';
    from = q.startDate;
    to = q.endDate;
    if (from > to) return '开始日期不能晚于结束日期';
    if (daysBetween(from, to) > MAX_RANGE_DAYS) return `查询时间跨度不能超过${MAX_RANGE_DAYS}天`;
  }
  if (from > today) return '所选时间尚未开始';
  if (to < EARLIEST_DAY) return `只能查询${EARLIEST_DAY}以后的数据`;
  if (from < EARLIEST_DAY) from = EARLIEST_DAY;
  if (to > today) to = today;
  const bucket = bucketFor(mode, daysBetween(from, to));
  return { from, to, bucket, buckets: bucketsOf(from, to, bucket) };
}

/** The first day of a bucket → its axis label: '9/7' for a day or a week's Monday, '2026年9月' for a month. */
export function bucketLabel(day: string, bucket: Bucket): string {
  const [y, m, d] = day.split('-').map(Number);
  return bucket === 'month' ? `${y}年${m}月` : `${m}/${d}`;
}

// The figures of the boards as the API answers them (docs/api-partner-boards.md).

/** 统计方式 and 统计指标 of 数据看板. */
export type Statistics = 'overall' | 'app' | 'subject';
export type Metric = 'pages' | 'uses';

export interface BoardKpis {
  pages: number;
  jobs: number;
  uses: number;
  users: number;
  activeSchools: number;
  activeDevices: number;
  devices: number;
  onlineDevices: number;
}

/** One line of a chart: a name and a value per bucket. */
export interface BoardSeries {
  id: number;
  name: string;
  values: number[];
  total: number;
}

/** 数据看板's money, in fen: paid paper orders, their refunds, the channel margin; per bucket net and margin. */
/** 数据看板's money: the whole subtree's (every level below included) and, in `own`, the partner's own. */
export interface BoardRevenue {
  boughtFen: number;
  refundedFen: number;
  marginFen: number;
  /** The partner's own purchases, their refunds and its own margin (渠道结算's 期间渠道收入 for the same days). */
  own: { boughtFen: number; refundedFen: number; marginFen: number };
  net: number[];
  margin: number[];
}
