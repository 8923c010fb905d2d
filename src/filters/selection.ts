// The teacher selection store's rules (SPEC §3, §4), as pure functions over a plain object.
// The React provider (SelectionProvider) only loads lists and calls these.
import type { ClassItem, CourseItem } from '../dataProvider/api';
import { MISTAKE_TYPES, TERM_DATE_TYPE } from '../domain/enums';
import { currentAcademicYear, currentSemester } from '../domain/semester';

export interface TeacherSelection {
  classId: string;
  gradeId: string;
  courseId: string;
  classList: ClassItem[];
  courseList: CourseItem[];
  /** Time range: week 1, month 2, term 0. */
  dateType: number | null;
  /** Ids of all classes in the selected class's grade. */
  classesInGrade: string[];
  homeworkDateType: string;
  mistakeType: number | null;
  bookId: string;
  subjectId: string;
  courseName: string;
  /** Wrong-notebook term: LAST, NEXT or ALL. */
  term: string;
  learningTerm: string;
  learningYear: string;
  className: string;
  gradeName: string;
  /**
   * 学情分析's 全部年级 / 全部学科: the whole scope instead of the chosen grade or course. Kept apart
   * from gradeId and courseId, which stay real ids for every other screen that reads them.
   */
  allGrades: boolean;
  allCourses: boolean;
}

export function emptySelection(): TeacherSelection {
  return {
    classId: '',
    gradeId: '',
    courseId: '',
    classList: [],
    courseList: [],
    dateType: null,
    classesInGrade: [],
    homeworkDateType: '',
    mistakeType: null,
    bookId: '',
    subjectId: '',
    courseName: '',
    term: '',
    learningTerm: '',
    learningYear: '',
    className: '',
    gradeName: '',
    allGrades: false,
    allCourses: false,
  };
}

/** SPEC §4 defaults: dateType → term, homework dates → all, mistakeType → homework, term → all year, semesters → current. */
export function withDefaults(selection: TeacherSelection, date: Date = new Date()): TeacherSelection {
  return {
    ...selection,
    dateType: selection.dateType ?? TERM_DATE_TYPE,
    homeworkDateType: selection.homeworkDateType || 'all',
    mistakeType: selection.mistakeType ?? MISTAKE_TYPES[0].value,
    term: selection.term || 'ALL',
    learningTerm: selection.learningTerm || currentSemester(date),
    learningYear: selection.learningYear || currentAcademicYear(date),
  };
}

/** The stored selection (sessionStorage JSON) with defaults filled in; anything unreadable counts as empty. */
export function restoreSelection(stored: string | null, date: Date = new Date()): TeacherSelection {
  let saved: Partial<TeacherSelection> = {};
  try {
    const parsed: unknown = stored ? JSON.parse(stored) : {};
    if (parsed && typeof parsed === 'object') saved = parsed as Partial<TeacherSelection>;
  } catch {
    saved = {};
  }
  return withDefaults({ ...emptySelection(), ...saved }, date);
}

/** Whether the stored selection carries a learning term (else the school's current term is fetched). */
export function hasStoredTerm(stored: string | null): boolean {
  try {
    const parsed: unknown = stored ? JSON.parse(stored) : undefined;
    return Boolean(parsed && typeof parsed === 'object' && (parsed as Partial<TeacherSelection>).learningTerm);
  } catch {
    return false;
  }
}

/** SPEC §4: clearing resets every field, dateType to 1 and homeworkDateType to all. */
export function clearedSelection(date: Date = new Date()): TeacherSelection {
  return withDefaults({ ...emptySelection(), dateType: 1, homeworkDateType: 'all' }, date);
}

const sameId = (a: unknown, b: unknown) => String(a) === String(b);

/** Choosing a class derives className, gradeName, gradeId and the ids of all classes in that grade. */
export function selectClass(selection: TeacherSelection, classId: string): TeacherSelection {
  const chosen = selection.classList.find((c) => sameId(c.id, classId));
  if (!chosen) return { ...selection, classId: '', className: '', gradeName: '', gradeId: '', classesInGrade: [] };
  return {
    ...selection,
    classId: String(chosen.id),
    className: chosen.className,
    gradeName: chosen.gradeName,
    gradeId: String(chosen.gradeId),
    classesInGrade: selection.classList.filter((c) => sameId(c.gradeId, chosen.gradeId)).map((c) => String(c.id)),
  };
}

/** Choosing a course sets courseId, courseName and subjectId, from the given list (default: the store's). */
export function selectCourse(selection: TeacherSelection, courseId: string, list: readonly CourseItem[] = selection.courseList): TeacherSelection {
  const chosen = list.find((c) => sameId(c.courseId, courseId));
  if (!chosen) return { ...selection, courseId: '', courseName: '', subjectId: '' };
  return { ...selection, courseId: String(chosen.courseId), courseName: chosen.courseName, subjectId: String(chosen.subjectId) };
}

/** After classes load: keep the chosen class if it is still there, else choose the first. */
export function receiveClasses(selection: TeacherSelection, classes: readonly ClassItem[]): TeacherSelection {
  const next = { ...selection, classList: [...classes] };
  const kept = next.classList.some((c) => sameId(c.id, selection.classId));
  return selectClass(next, kept ? selection.classId : String(next.classList[0]?.id ?? ''));
}

/** After courses load: duplicates by courseId removed; keep the chosen course if present, else the first. */
export function receiveCourses(selection: TeacherSelection, courses: readonly CourseItem[]): TeacherSelection {
  const seen = new Set<string>();
  const courseList = courses.filter((c) => {
    const key = String(c.courseId);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const next = { ...selection, courseList };
  const kept = selection.courseId !== '' && courseList.some((c) => sameId(c.courseId, selection.courseId));
  return selectCourse(next, kept ? selection.courseId : String(courseList[0]?.courseId ?? ''));
}

/** SPEC §8: a failed course query empties the list and the choice, silently. */
export function dropCourses(selection: TeacherSelection): TeacherSelection {
  return { ...selection, courseList: [], courseId: '', courseName: '', subjectId: '' };
}

/** SPEC §2.2: changing grade in the school-management filter clears the chosen class. */
export function selectSchoolGrade(selection: TeacherSelection, gradeId: string, gradeName: string): TeacherSelection {
  return { ...selection, gradeId, gradeName, classId: '', className: '', classesInGrade: [] };
}

/**
 * The grade filter (leaders; teachers assembling papers): the chosen class must stay inside the
 * grade, so a class of another grade gives way to the teacher's first class of this grade, or to none.
 */
export function selectGrade(selection: TeacherSelection, gradeId: string, gradeName: string): TeacherSelection {
  const current = selection.classList.find((c) => sameId(c.id, selection.classId));
  if (current && sameId(current.gradeId, gradeId)) return { ...selection, gradeId, gradeName };
  const first = selection.classList.find((c) => sameId(c.gradeId, gradeId));
  if (first) return { ...selectClass(selection, String(first.id)), gradeName };
  return selectSchoolGrade(selection, gradeId, gradeName);
}

/** A class picked from the school structure (school-class filter): no class list to derive from. */
export function selectSchoolClass(selection: TeacherSelection, classId: string, className: string): TeacherSelection {
  return { ...selection, classId, className };
}
