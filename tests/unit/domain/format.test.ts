import { describe, expect, it } from 'vitest';
import { badgeText, exportFileName, formatNumber, isDigits, isNumeric, isSiteLike } from '../../../src/domain/format';

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
