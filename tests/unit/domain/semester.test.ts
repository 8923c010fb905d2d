import { describe, expect, it } from 'vitest';
import {
  academicYearOptions,
  currentSemester,
  notebookTerm,
  rangeStart,
  recentYears,
  termOptions,
  termStart,
} from '../../../src/domain/semester';

const d = (y: number, m: number, day = 15) => new Date(y, m - 1, day);

describe('current semester (SPEC §9)', () => {
  it.each([
    [d(2026, 1), '202502'],
    [d(2026, 7, 31), '202502'],
    [d(2026, 8, 1), '202601'],
    [d(2026, 12, 31), '202601'],
  ])('%s → %s', (date, value) => expect(currentSemester(date)).toBe(value));
});

describe('term options', () => {
  it('before August: last year upper and lower terms', () => {
    expect(termOptions(d(2026, 7))).toEqual([
      { label: '2025-2026学年上学期', value: '202501' },
      { label: '2025-2026学年下学期', value: '202502' },
    ]);
    expect(termOptions(d(2026, 1)).map((o) => o.value)).toEqual(['202501', '202502']);
  });

  it('from August: this year upper term only', () => {
    expect(termOptions(d(2026, 8))).toEqual([{ label: '2026-2027学年上学期', value: '202601' }]);
    expect(termOptions(d(2026, 12)).map((o) => o.value)).toEqual(['202601']);
  });
});

describe('academic years (suffix 03)', () => {
  it('three years ending last year before August', () => {
    expect(academicYearOptions(d(2026, 7)).map((o) => o.value)).toEqual(['202303', '202403', '202503']);
  });
  it('three years ending this year from August', () => {
    expect(academicYearOptions(d(2026, 8))).toEqual([
      { label: '2024-2025学年', value: '202403' },
      { label: '2025-2026学年', value: '202503' },
      { label: '2026-2027学年', value: '202603' },
    ]);
  });
  it('years offered elsewhere: this year and two before', () => {
    expect(recentYears(d(2026, 3))).toEqual([2026, 2025, 2024]);
  });
});

describe('wrong-notebook term', () => {
  it('first term from August, second term before', () => {
    expect(notebookTerm(d(2026, 8))).toBe('LAST');
    expect(notebookTerm(d(2026, 12))).toBe('LAST');
    expect(notebookTerm(d(2026, 1))).toBe('NEXT');
    expect(notebookTerm(d(2026, 7))).toBe('NEXT');
  });
});

describe('time ranges', () => {
  it('the running term starts 1 August or 1 February', () => {
    expect(termStart(d(2026, 1))).toEqual(new Date(2025, 7, 1));
    expect(termStart(d(2026, 3))).toEqual(new Date(2026, 1, 1));
    expect(termStart(d(2026, 9))).toEqual(new Date(2026, 7, 1));
  });
  it('week and month go back 7 and 30 days', () => {
    const now = d(2026, 11, 22);
    expect(now.getTime() - rangeStart(1, now).getTime()).toBe(7 * 86400_000);
    expect(now.getTime() - rangeStart(2, now).getTime()).toBe(30 * 86400_000);
    expect(rangeStart(0, now)).toEqual(new Date(2026, 7, 1));
  });
});
