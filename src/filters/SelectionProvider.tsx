// The teacher selection store (SPEC §3, §4): a React context over the pure rules in selection.ts,
// persisted to sessionStorage on every change, with the class and course lists loaded per role.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { ShellApi } from '../dataProvider/api';
import type { SchoolYearApi } from '../dataProvider/schoolYear';
import { LEADER_TYPES, type Role } from '../domain/roles';
import { SESSION_KEYS } from '../authProvider/session';
import {
  clearedSelection,
  dropCourses,
  receiveClasses,
  receiveCourses,
  hasStoredTerm,
  restoreSelection,
  selectClass,
  selectCourse,
  selectGrade,
  selectSchoolClass,
  selectSchoolGrade,
  type TeacherSelection,
} from './selection';
import type { CourseItem } from '../dataProvider/api';

/** Roles that pick one of their own classes (the class-grade filter). */
export const CLASS_ROLES: readonly Role[] = ['teacher', 'mpTeacher'];
/**
 * Roles whose course list follows the chosen class and grade. The principal (schoolMaster) has no
 * leader type (SPEC §6 lists none) and asks without one: the server scopes it to the whole school.
 */
export const COURSE_ROLES: readonly Role[] = ['teacher', 'mpTeacher', 'subjectleader', 'gradeLeader', 'schoolMaster', 'regionResearcher'];

export type SelectionApi = Pick<
  ShellApi,
  'teachClasses' | 'courseList' | 'gradesInSchool' | 'coursesByGrade' | 'classesInSchool' | 'exerciseBooks'
> &
  Partial<Pick<SchoolYearApi, 'currentTerm'>>;

/** Fields set as they are, from plain dropdowns. */
export type SimpleField = 'dateType' | 'homeworkDateType' | 'mistakeType' | 'bookId' | 'term' | 'learningTerm' | 'learningYear' | 'allGrades' | 'allCourses';

export interface SelectionContextValue {
  selection: TeacherSelection;
  role: Role | undefined;
  schoolId: string | number | undefined;
  api: SelectionApi;
  selectClass(classId: string): void;
  selectCourse(courseId: string, list?: readonly CourseItem[]): void;
  selectGrade(gradeId: string, gradeName: string): void;
  selectSchoolGrade(gradeId: string, gradeName: string): void;
  selectSchoolClass(classId: string, className: string): void;
  set<K extends SimpleField>(field: K, value: TeacherSelection[K]): void;
  clear(): void;
}

const SelectionContext = createContext<SelectionContextValue | undefined>(undefined);

export function useSelection(): SelectionContextValue {
  const value = useContext(SelectionContext);
  if (!value) throw new Error('useSelection must be used inside <SelectionProvider>');
  return value;
}

export function SelectionProvider(props: {
  api: SelectionApi;
  role: Role | undefined;
  schoolId?: string | number;
  storage?: Storage;
  children: ReactNode;
}) {
  const { api, role, schoolId, children } = props;
  const storage = props.storage ?? window.sessionStorage;
  const [selection, setSelection] = useState(() => restoreSelection(storage.getItem(SESSION_KEYS.selection)));
  // Whether this session already holds a term (chosen, or the school's from an earlier load).
  const termKept = useRef(hasStoredTerm(storage.getItem(SESSION_KEYS.selection)));

  useEffect(() => {
    storage.setItem(SESSION_KEYS.selection, JSON.stringify(selection));
  }, [selection, storage]);

  const leaderType = role ? LEADER_TYPES[role] : undefined;

  // A new session's learning term is the school's current term (学年/学期 settings), not the calendar's.
  useEffect(() => {
    if (termKept.current || !role || !CLASS_ROLES.includes(role) || !api.currentTerm) return;
    let current = true;
    api.currentTerm().then(
      (t) => {
        if (!current) return;
        termKept.current = true;
        setSelection((s) => ({ ...s, learningTerm: t.term }));
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [api, role]);

  useEffect(() => {
    if (!role || !CLASS_ROLES.includes(role) || leaderType === undefined) return;
    let current = true;
    api.teachClasses(leaderType).then(
      (classes) => current && setSelection((s) => receiveClasses(s, classes)),
      // The http client has shown the error; the stored choice stays until a load succeeds.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [api, role, leaderType]);

  // SPEC §4: the course list reloads at start and whenever the class or grade changes.
  const { classId, allGrades } = selection;
  // 全部年级 (学情分析): the courses of every grade in scope.
  const gradeId = allGrades ? '' : selection.gradeId;
  const courseRequest = useRef(0);
  useEffect(() => {
    if (!role || !COURSE_ROLES.includes(role)) return;
    const ticket = ++courseRequest.current;
    api.courseList({ classId: allGrades ? '' : classId, gradeId, leaderType }).then(
      (courses) => ticket === courseRequest.current && setSelection((s) => receiveCourses(s, courses)),
      () => ticket === courseRequest.current && setSelection(dropCourses),
    );
  }, [api, role, leaderType, classId, gradeId, allGrades]);

  const set = useCallback(<K extends SimpleField>(field: K, value: TeacherSelection[K]) => {
    setSelection((s) => ({ ...s, [field]: value }));
  }, []);

  const value = useMemo<SelectionContextValue>(
    () => ({
      selection,
      role,
      schoolId,
      api,
      selectClass: (id) => setSelection((s) => selectClass(s, id)),
      selectCourse: (id, list) => setSelection((s) => selectCourse(s, id, list)),
      selectGrade: (id, name) => setSelection((s) => selectGrade(s, id, name)),
      selectSchoolGrade: (id, name) => setSelection((s) => selectSchoolGrade(s, id, name)),
      selectSchoolClass: (id, name) => setSelection((s) => selectSchoolClass(s, id, name)),
      set,
      clear: () => setSelection(clearedSelection()),
    }),
    [selection, role, schoolId, api, set],
  );

  return <SelectionContext.Provider value={value}>{children}</SelectionContext.Provider>;
}
