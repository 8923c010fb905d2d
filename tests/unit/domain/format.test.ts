import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { badgeText, cellTime, chinaDayStart, chinaInputValue, fromChinaInput, dateOnly, dateTime, dateTimeSeconds, dayTime, DEFAULT_ZONE, EMPTY, fileStamp, exportFileName, isTimeZone, setBrowserZone, shownZone, zoneLabel, zoneOffsetMs, formatNumber, isDigits, isNumeric, isSiteLike, money, percent } from '../../../src/domain/format';

describe('number display (SPEC §5)', () => {
  it.each([
    ['', '-'],
    [null, '-'],
    [undefined, '-'],
    ['abc', '-'],
    [Number.NaN, '-'],
    [Number.POSITIVE_INFINITY, '-'],
  ])('%s → -', (value, shown) => expect(formatNumber(value)).toBe(shown));

  it('fixed decimals in the zh locale', () => {
    expect(formatNumber(3.14159)).toBe('3.14');
    expect(formatNumber('3.14159', 1)).toBe('3.1');
    expect(formatNumber(1234567.891)).toBe('1,234,567.89');
    expect(formatNumber(0, 0)).toBe('0');
  });
});

describe('rates and money', () => {
  it('a rate in percent with one decimal, always written', () => {
    expect(percent(0.6456)).toBe('64.6%');
    expect(percent(0.65)).toBe('65.0%');
    expect(percent(0)).toBe('0.0%');
    expect(percent(1)).toBe('100.0%');
    // 0.1235 × 100 is 12.3499… in floating point; the per-mille is rounded first.
    expect(percent(0.1235)).toBe('12.4%');
  });
  it.each([null, undefined, Number.NaN, '0.5'])('%s has no rate → the empty mark', (rate) => {
    expect(percent(rate)).toBe(EMPTY);
    expect(EMPTY).toBe('—');
  });
  it('a screen may name its own mark for a missing rate', () => expect(percent(null, '暂无数据')).toBe('暂无数据'));
  it('fen as yuan with two decimals and zh-CN grouping', () => {
    expect(money(123450)).toBe('¥1,234.50');
    expect(money(5)).toBe('¥0.05');
    expect(money(0)).toBe('¥0.00');
    expect(money(100_000_000)).toBe('¥1,000,000.00');
    expect(money(undefined)).toBe(EMPTY);
  });
});

describe('times in China time', () => {
  const zone = process.env.TZ;
  // Another process zone than China's: what is shown must not depend on it.
  beforeEach(() => {
    process.env.TZ = 'America/Los_Angeles';
  });
  afterEach(() => {
    // An unset TZ must stay unset: assigning undefined would store the string 'undefined'.
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it('the process really is in another zone', () => {
    expect(new Date('2026-03-14T16:05:00Z').getHours()).toBe(9);
  });
  it('a fixed UTC instant reads as the Shanghai wall time', () => {
    // 2026-03-14 16:05 UTC is already 15 March, 00:05 in China.
    expect(dateTime('2026-03-14T16:05:00Z')).toBe('2026-03-15 00:05');
    expect(dateOnly('2026-03-14T16:05:00Z')).toBe('2026-03-15');
    expect(dateTime(new Date(Date.UTC(2026, 10, 25, 6, 3)))).toBe('2026-11-25 14:03');
  });
  it('export cells, file stamps and the start of today in China time', () => {
    expect(cellTime('2026-03-14T16:05:07Z')).toBe('2026-03-15 00:05:07');
    expect(cellTime(null)).toBe('');
    expect(fileStamp(new Date('2026-03-14T16:05:07Z'))).toBe('20260315000507');
    expect(chinaDayStart(new Date('2026-03-14T16:05:07Z')).toISOString()).toBe('2026-03-14T16:00:00.000Z');
    expect(chinaDayStart(new Date('2026-03-14T15:59:00Z')).toISOString()).toBe('2026-03-13T16:00:00.000Z');
    // A China day as the filters send it.
    expect(chinaDayStart('2026-03-14').toISOString()).toBe('2026-03-13T16:00:00.000Z');
    expect(Number.isNaN(chinaDayStart('not a day').getTime())).toBe(true);
  });
  it('date-time inputs hold China time both ways', () => {
    expect(chinaInputValue('2026-11-28T14:00:00Z')).toBe('2026-11-28T22:00');
    expect(fromChinaInput('2026-11-28T22:00')).toBe('2026-11-28T14:00:00.000Z');
    expect(fromChinaInput('2026-11-29T07:30')).toBe('2026-11-28T23:30:00.000Z');
    for (const bad of ['', 'tomorrow', '2026-13-40T99:99', '2026-11-28 22:00']) expect(fromChinaInput(bad), bad).toBe('');
    expect(chinaInputValue(null)).toBe('');
  });
  it('day and time as teachers write them, with the year only when it is not this year', () => {
    const now = new Date('2026-06-01T00:00:00Z');
    expect(dayTime('2026-03-14T16:05:00Z', now)).toBe('3月15日 00:05');
    expect(dayTime('2025-12-31T16:30:00Z', now)).toBe('1月1日 00:30');
    expect(dayTime('2025-12-31T15:30:00Z', now)).toBe('2025年12月31日 23:30');
  });
  it.each([null, undefined, '', 'not a time'])('%s is no time → the empty mark', (at) => {
    expect(dateTime(at)).toBe(EMPTY);
    expect(dateOnly(at)).toBe(EMPTY);
    expect(dayTime(at)).toBe(EMPTY);
  });
});

describe("times in a school's own zone", () => {
  const zone = process.env.TZ;
  beforeEach(() => {
    process.env.TZ = 'UTC';
  });
  afterEach(() => {
    setBrowserZone(undefined);
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it('a passed zone moves every reading of one instant', () => {
    const at = '2026-03-14T16:05:07Z';
    expect(dateTime(at, 'Asia/Tokyo')).toBe('2026-03-15 01:05');
    expect(dateTimeSeconds(at, 'Asia/Urumqi')).toBe('2026-03-14 22:05:07');
    expect(cellTime(at, 'Asia/Tokyo')).toBe('2026-03-15 01:05:07');
    expect(fileStamp(new Date(at), 'Asia/Tokyo')).toBe('20260315010507');
    expect(dateOnly(at, 'Europe/London')).toBe('2026-03-14');
    expect(dayTime(at, new Date('2026-06-01T00:00:00Z'), 'Asia/Tokyo')).toBe('3月15日 01:05');
    // Without a zone: China time, as before.
    expect(dateTime(at)).toBe('2026-03-15 00:05');
  });
  it("a day starts at the school's midnight", () => {
    expect(chinaDayStart('2026-03-14', 'Asia/Tokyo').toISOString()).toBe('2026-03-13T15:00:00.000Z');
    expect(chinaDayStart(new Date('2026-03-14T14:59:00Z'), 'Asia/Tokyo').toISOString()).toBe('2026-03-13T15:00:00.000Z');
    expect(chinaDayStart(new Date('2026-03-14T15:00:00Z'), 'Asia/Tokyo').toISOString()).toBe('2026-03-14T15:00:00.000Z');
    // West of UTC the day named is still that day, not the one before.
    expect(chinaDayStart('2026-03-14', 'America/New_York').toISOString()).toBe('2026-03-14T04:00:00.000Z');
    expect(Number.isNaN(chinaDayStart('2026-13-40', 'Asia/Tokyo').getTime())).toBe(true);
  });
  it('date-time inputs read and write the zone, across a daylight-saving change too', () => {
    expect(chinaInputValue('2026-11-28T14:00:00Z', 'Asia/Tokyo')).toBe('2026-11-28T23:00');
    expect(fromChinaInput('2026-11-28T23:00', 'Asia/Tokyo')).toBe('2026-11-28T14:00:00.000Z');
    // New York: EST (-5) before 8 March 2026, EDT (-4) after.
    expect(fromChinaInput('2026-03-07T22:00', 'America/New_York')).toBe('2026-03-08T03:00:00.000Z');
    expect(fromChinaInput('2026-03-09T22:00', 'America/New_York')).toBe('2026-03-10T02:00:00.000Z');
    expect(zoneOffsetMs(new Date('2026-07-01T00:00:00Z'), 'America/New_York')).toBe(-4 * 3600_000);
    expect(zoneOffsetMs(new Date('2026-07-01T00:00:00Z'), 'Asia/Shanghai')).toBe(8 * 3600_000);
    for (const bad of ['', '2026-13-40T99:99', '2026-11-28 22:00']) expect(fromChinaInput(bad, 'Asia/Tokyo'), bad).toBe('');
  });
  it('only zones the runtime knows are zones', () => {
    expect(isTimeZone('Asia/Tokyo')).toBe(true);
    expect(isTimeZone(DEFAULT_ZONE)).toBe(true);
    for (const bad of ['Mars/Base', '', 'asia/tokyo', 'Asia/Tokyo ', 'x'.repeat(100), 8, null]) expect(isTimeZone(bad), String(bad)).toBe(false);
  });
  it("the browser's default is the signed-in user's school's zone, China time when it has none", () => {
    setBrowserZone('Asia/Tokyo');
    expect(shownZone()).toBe('Asia/Tokyo');
    expect(dateTime('2026-03-14T16:05:00Z')).toBe('2026-03-15 01:05');
    setBrowserZone('Mars/Base');
    expect(shownZone()).toBe(DEFAULT_ZONE);
    setBrowserZone(null);
    expect(dateTime('2026-03-14T16:05:00Z')).toBe('2026-03-15 00:05');
  });
  it('zones are offered with a Chinese name and their offset', () => {
    expect(zoneLabel('Asia/Tokyo', new Date('2026-03-14T00:00:00Z'))).toBe('日本标准时间（Asia/Tokyo，GMT+9）');
    expect(zoneLabel('Asia/Shanghai', new Date('2026-03-14T00:00:00Z'))).toBe('中国标准时间（Asia/Shanghai，GMT+8）');
  });
});

describe('validation helpers', () => {
  it('numeric means non-empty and finite', () => {
    expect(isNumeric('12')).toBe(true);
    expect(isNumeric(0)).toBe(true);
    expect(isNumeric(' ')).toBe(false);
    expect(isNumeric('1e400')).toBe(false);
  });
  it('digits only', () => {
    expect(isDigits('0123')).toBe(true);
    expect(isDigits('12a')).toBe(false);
    expect(isDigits('')).toBe(false);
  });
  it('site-like text', () => {
    expect(isSiteLike('school.edu.cn')).toBe(true);
    expect(isSiteLike('www.example.com')).toBe(true);
    expect(isSiteLike('localhost')).toBe(false);
    expect(isSiteLike('my site.com')).toBe(false);
    expect(isSiteLike('.com')).toBe(false);
  });
});

describe('badges', () => {
  it('caps at 99+', () => {
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
    expect(badgeText(1)).toBe('1');
    expect(badgeText(0)).toBe('');
    expect(badgeText(undefined)).toBe('');
  });
});

describe('export file names', () => {
  it('{name}_{suffix}.{ext}, xls by default', () => {
    expect(exportFileName('学生名单', '20261122')).toBe('学生名单_20261122.xls');
    expect(exportFileName('学生名单', '20261122', 'xlsx')).toBe('学生名单_20261122.xlsx');
  });
});
