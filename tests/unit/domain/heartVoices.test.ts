// The consent age of 学生心声 (PIPL art. 31): whole years in China time, the birthday counting from its day.
import { describe, expect, it } from 'vitest';
import { ageOn, CONSENT_AGE } from '../../../src/domain/heartVoices';

describe('ageOn', () => {
  it('turns 14 on the birthday itself, in China time', () => {
    // 2026-03-14 16:00 UTC is already 3月15日 in China.
    expect(ageOn('2012-03-15', new Date('2026-03-14T15:59:00Z'))).toBe(CONSENT_AGE - 1);
    expect(ageOn('2012-03-15', new Date('2026-03-14T16:00:00Z'))).toBe(CONSENT_AGE);
  });

  it('counts a 七年级 student born in autumn 2013 as 13 in November 2026', () => {
    expect(ageOn('2013-10-02', new Date('2026-11-25T08:00:00Z'))).toBe(13);
    expect(ageOn('2012-02-29', new Date('2026-02-28T08:00:00Z'))).toBe(13);
    expect(ageOn('2012-02-29', new Date('2026-03-01T08:00:00Z'))).toBe(14);
  });
});
