// Shared fakes for the shell's component tests.
import { vi } from 'vitest';
import type { ClassItem, CourseItem, GradeItem, SchoolClassItem } from '../../src/dataProvider/api';
import type { SelectionApi } from '../../src/filters/SelectionProvider';
import type { CurrentTerm } from '../../src/dataProvider/schoolYear';
import { homePath, menuRoutes, permittedRoutes } from '../../src/domain/permissions';
import { ROUTES } from '../../src/menu/routes';
import type { Role } from '../../src/domain/roles';
import type { Permissions } from '../../src/authProvider';

export const CLASSES: ClassItem[] = [
  { id: 1, gradeId: 1, className: '七(1)班', gradeName: '七年级' },
  { id: 2, gradeId: 1, className: '七(2)班', gradeName: '七年级' },
  { id: 5, gradeId: 2, className: '八(1)班', gradeName: '八年级' },
];
export const COURSES: CourseItem[] = [
  { courseId: 2, courseName: '数学', subjectId: 2 },
  { courseId: 4, courseName: '物理', subjectId: 4 },
];
export const GRADES: GradeItem[] = [
  { id: 1, name: '七年级' },
  { id: 2, name: '八年级' },
];
export const SCHOOL_CLASSES: Record<string, SchoolClassItem[]> = {
  '1': [
    { id: 1, className: '七(1)班' },
    { id: 2, className: '七(2)班' },
  ],
  '2': [{ id: 5, className: '八(1)班' }],
};

export function fakeSelectionApi(overrides: Partial<SelectionApi> = {}) {
  return {
    teachClasses: vi.fn(async () => CLASSES),
    courseList: vi.fn(async () => COURSES),
    gradesInSchool: vi.fn(async () => GRADES),
    coursesByGrade: vi.fn(async () => COURSES),
    classesInSchool: vi.fn(async ({ gradeId }: { gradeId: string }) => SCHOOL_CLASSES[gradeId] ?? []),
    exerciseBooks: vi.fn(async () => []),
    // No 学年/学期 settings: the school's current term is unknown, so the calendar's stays.
    currentTerm: vi.fn(async (): Promise<CurrentTerm> => {
      throw new Error('no school term');
    }),
    ...overrides,
  };
}

export function permissionsFor(activeRole: Role, extra: Partial<Permissions> = {}): Permissions {
  const routes = permittedRoutes(ROUTES, { activeRole, partnerLevel: extra.partnerLevel, subjectIds: ['2'] });
  return {
    roles: [activeRole],
    activeRole,
    subjectIds: ['2'],
    routes,
    menu: menuRoutes(routes),
    home: homePath(routes),
    profile: { displayName: '陈静', schoolId: 1, schoolName: '杭州市西湖区实验中学', courses: [] },
    ...extra,
  };
}
