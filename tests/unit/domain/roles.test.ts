import { describe, expect, it } from 'vitest';
import { chooseActiveRole, partnerLevel, roleFromKey, switchableRoles, usableRoles } from '../../../src/domain/roles';

describe('startup role rules (SPEC §4)', () => {
  it('takes the part after the prefix of a role key', () => {
    expect(roleFromKey('xz:teacher')).toBe('teacher');
    expect(roleFromKey('teacher')).toBe('teacher');
  });

  it('maps teacher → mpTeacher and schoolAdmin → mpSchoolAdmin and drops unknown roles', () => {
    expect(usableRoles(['teacher', 'teaching', 'student'])).toEqual(['mpTeacher', 'teaching']);
    expect(usableRoles(['schoolAdmin'])).toEqual(['mpSchoolAdmin']);
    expect(usableRoles(['partner', 'psychologyteacher'])).toEqual(['partner', 'psychologyteacher']);
    expect(usableRoles([])).toEqual([]);
  });

  it('keeps teacher and schoolAdmin under the classic-web flags', () => {
    expect(usableRoles(['teacher', 'schoolAdmin'], { classicTeacher: true })).toEqual(['teacher', 'mpSchoolAdmin']);
    expect(usableRoles(['teacher', 'schoolAdmin'], { classicAdmin: true })).toEqual(['mpTeacher', 'schoolAdmin']);
  });

  it('keeps leaders (DESIGN extension) and reads the subjectLeader spelling', () => {
    expect(usableRoles(['subjectLeader', 'gradeLeader', 'regionResearcher', 'schoolMaster'])).toEqual([
      'subjectleader',
      'gradeLeader',
      'regionResearcher',
      'schoolMaster',
    ]);
  });

  it('keeps the stored role when still usable, else the first', () => {
    expect(chooseActiveRole(['mpTeacher', 'teaching'], 'teaching')).toBe('teaching');
    expect(chooseActiveRole(['mpTeacher', 'teaching'], 'teacher')).toBe('mpTeacher');
    expect(chooseActiveRole(['partner'], null)).toBe('partner');
    expect(chooseActiveRole([], null)).toBeUndefined();
  });

  it('skips a leading teaching role when there are exactly two', () => {
    expect(chooseActiveRole(['teaching', 'mpTeacher'])).toBe('mpTeacher');
    expect(chooseActiveRole(['teaching', 'mpTeacher', 'psychologyteacher'])).toBe('teaching');
    expect(chooseActiveRole(['teaching'])).toBe('teaching');
  });
});

describe('role switch list (SPEC §2.1)', () => {
  it('excludes the active role and teaching', () => {
    expect(switchableRoles(['psychologyteacher', 'teaching', 'partner'], 'partner')).toEqual(['psychologyteacher']);
  });

  it('offers mpTeacher only to users who also hold teaching', () => {
    expect(switchableRoles(['mpTeacher', 'psychologyteacher'], 'psychologyteacher')).toEqual([]);
    expect(switchableRoles(['mpTeacher', 'teaching', 'psychologyteacher'], 'psychologyteacher')).toEqual(['mpTeacher']);
  });
});

describe('partner level (SPEC §9)', () => {
  it('counts ancestor ids with a minimum of 1', () => {
    expect(partnerLevel('')).toBe(1);
    expect(partnerLevel(null)).toBe(1);
    expect(partnerLevel(undefined)).toBe(1);
    expect(partnerLevel('0')).toBe(1);
    expect(partnerLevel('0,12')).toBe(2);
    expect(partnerLevel('0,12,34')).toBe(3);
    expect(partnerLevel(' 0 , 12 ,')).toBe(2);
  });
});
