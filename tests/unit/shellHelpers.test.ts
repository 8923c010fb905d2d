import { describe, expect, it } from 'vitest';
import { hashRouteUrl } from '../../src/layout/openInNewWindow';
import { pageTitle } from '../../src/layout/brand';
import { currentAcademicYear, academicYearOptions } from '../../src/domain/semester';
import { classLabel } from '../../src/filters/widgets';

describe('shell helpers', () => {
  it('builds a hash route URL with query parameters for a new window', () => {
    expect(hashRouteUrl('/printer', { paperId: 12, title: '期中 试卷', skip: undefined }, 'https://x.cn/')).toBe(
      'https://x.cn/#/printer?paperId=12&title=%E6%9C%9F%E4%B8%AD%20%E8%AF%95%E5%8D%B7',
    );
    expect(hashRouteUrl('examReport', {}, 'https://x.cn/')).toBe('https://x.cn/#/examReport');
  });

  it('titles the tab AI教学助手-<page>', () => {
    expect(pageTitle('作业')).toBe('AI教学助手-作业');
  });

  it('defaults the learning year to an offered academic year', () => {
    for (const date of [new Date(2026, 0, 5), new Date(2026, 6, 31), new Date(2026, 7, 1), new Date(2026, 11, 31)]) {
      expect(academicYearOptions(date).map((o) => o.value)).toContain(currentAcademicYear(date));
    }
    expect(currentAcademicYear(new Date(2026, 2, 1))).toBe('202503');
    expect(currentAcademicYear(new Date(2026, 8, 1))).toBe('202603');
  });

  it('shows the grade with a class only when the class name lacks it', () => {
    expect(classLabel('七年级', '七(1)班')).toBe('七(1)班');
    expect(classLabel('七年级', '七年级1班')).toBe('七年级1班');
    expect(classLabel('八年级', '1班')).toBe('八年级 1班');
  });
});
