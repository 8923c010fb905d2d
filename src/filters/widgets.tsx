// One widget per FilterKey of the route table (SPEC §2.2). Each reads and writes the selection store.
import { useEffect, useState, type ComponentType } from 'react';
import MenuBookOutlined from '@mui/icons-material/MenuBookOutlined';
import type { FilterKey } from '../menu/routes';
import { HOMEWORK_DATE_RANGES, MISTAKE_TYPES, TIME_RANGES } from '../domain/enums';
import { LEADER_TYPES } from '../domain/roles';
import { classLabel } from '../domain/school';
import { academicYearOptions, NOTEBOOK_TERMS, termOptions, type Option } from '../domain/semester';
import { FilterSelect, type FilterOption } from './FilterSelect';
import { useSelection } from './SelectionProvider';

// Kept here too: the screens import it with the other filter helpers.
export { classLabel };

const asOptions = <V extends string | number>(list: readonly Option<V>[]): FilterOption[] =>
  list.map((o) => ({ value: String(o.value), label: o.label }));

/** Loads a list for a dropdown; a failed load (already toasted by the http client) is an empty list. */
function useList<T>(load: (() => Promise<T[]>) | undefined, deps: readonly unknown[]): T[] {
  const [list, setList] = useState<T[]>([]);
  useEffect(() => {
    if (!load) {
      setList([]);
      return;
    }
    let current = true;
    load().then(
      (items) => current && setList(items),
      () => current && setList([]),
    );
    return () => {
      current = false;
    };
    // The loader is a fresh closure on every render; what it depends on is listed by the caller.
  }, deps);
  return list;
}

function ClassGradeFilter() {
  const { selection, selectClass } = useSelection();
  const options = selection.classList.map((c) => ({ value: String(c.id), label: classLabel(c.gradeName, c.className) }));
  return <FilterSelect label="班级" value={selection.classId} options={options} onChange={selectClass} width={170} />;
}

function CourseFilter() {
  const { selection, selectCourse } = useSelection();
  const options = selection.courseList.map((c) => ({ value: String(c.courseId), label: c.courseName }));
  return (
    <FilterSelect
      label="学科"
      value={selection.courseId}
      options={options}
      onChange={(id) => selectCourse(id)}
      icon={<MenuBookOutlined fontSize="small" color="primary" />}
    />
  );
}

function TimeRangeFilter() {
  const { selection, set } = useSelection();
  return (
    <FilterSelect label="时间" value={String(selection.dateType ?? '')} options={asOptions(TIME_RANGES)} onChange={(v) => set('dateType', Number(v))} width={120} />
  );
}

/** Grades of the school for the leader type of the active role; the first is chosen when none is. */
function GradeFilter() {
  const { selection, role, schoolId, api, selectGrade } = useSelection();
  const leaderType = role ? LEADER_TYPES[role] : undefined;
  const grades = useList(() => api.gradesInSchool({ schoolId, leaderType }), [api, schoolId, leaderType]);
  const chosen = grades.some((g) => String(g.id) === selection.gradeId);
  useEffect(() => {
    if (!chosen && grades.length > 0) selectGrade(String(grades[0].id), grades[0].name);
  }, [chosen, grades, selectGrade]);
  const options = grades.map((g) => ({ value: String(g.id), label: g.name }));
  const pick = (id: string) => selectGrade(id, grades.find((g) => String(g.id) === id)?.name ?? '');
  return <FilterSelect label="年级" value={selection.gradeId} options={options} onChange={pick} width={130} />;
}

/** The value of a 全部 option (学情分析): never an id. */
export const ALL = 'all';

/** The grade filter of 学情分析: its grades, and 全部年级 when there are two or more to sum. */
function GradeOrAllFilter() {
  const { selection, role, schoolId, api, selectGrade, set } = useSelection();
  const leaderType = role ? LEADER_TYPES[role] : undefined;
  const grades = useList(() => api.gradesInSchool({ schoolId, leaderType }), [api, schoolId, leaderType]);
  const chosen = grades.some((g) => String(g.id) === selection.gradeId);
  useEffect(() => {
    if (!chosen && grades.length > 0) selectGrade(String(grades[0].id), grades[0].name);
  }, [chosen, grades, selectGrade]);
  const options = [...grades.map((g) => ({ value: String(g.id), label: g.name })), ...(grades.length > 1 ? [{ value: ALL, label: '全部年级' }] : [])];
  const pick = (id: string) => {
    set('allGrades', id === ALL);
    if (id !== ALL) selectGrade(id, grades.find((g) => String(g.id) === id)?.name ?? '');
  };
  return <FilterSelect label="年级" value={selection.allGrades && grades.length > 1 ? ALL : selection.gradeId} options={options} onChange={pick} width={130} />;
}

/** The course filter of 学情分析: its courses, and 全部学科 when there are two or more. */
function CourseOrAllFilter() {
  const { selection, selectCourse, set } = useSelection();
  const courses = selection.courseList;
  const options = [...courses.map((c) => ({ value: String(c.courseId), label: c.courseName })), ...(courses.length > 1 ? [{ value: ALL, label: '全部学科' }] : [])];
  const pick = (id: string) => {
    set('allCourses', id === ALL);
    if (id !== ALL) selectCourse(id);
  };
  return (
    <FilterSelect
      label="学科"
      value={selection.allCourses && courses.length > 1 ? ALL : selection.courseId}
      options={options}
      onChange={pick}
      icon={<MenuBookOutlined fontSize="small" color="primary" />}
    />
  );
}

function HomeworkDateFilter() {
  const { selection, set } = useSelection();
  return (
    <FilterSelect label="作业日期" value={selection.homeworkDateType} options={asOptions(HOMEWORK_DATE_RANGES)} onChange={(v) => set('homeworkDateType', v)} width={120} />
  );
}

/** Mistake type (homework only) with the exercise book it comes from. */
function MistakeFilter() {
  const { selection, api, set } = useSelection();
  const { classId, courseId, term } = selection;
  const books = useList(classId ? () => api.exerciseBooks({ classId, courseId, term }) : undefined, [api, classId, courseId, term]);
  const chosen = books.some((b) => String(b.id) === selection.bookId);
  useEffect(() => {
    if (!chosen && books.length > 0) set('bookId', String(books[0].id));
  }, [chosen, books, set]);
  return (
    <>
      <FilterSelect label="错题类型" value={String(selection.mistakeType ?? '')} options={asOptions(MISTAKE_TYPES)} onChange={(v) => set('mistakeType', Number(v))} width={120} />
      <FilterSelect label="练习册" value={selection.bookId} options={books.map((b) => ({ value: String(b.id), label: b.title }))} onChange={(v) => set('bookId', v)} width={180} />
    </>
  );
}

function CourseInGradeFilter() {
  const { selection, api, selectCourse } = useSelection();
  const { gradeId } = selection;
  const courses = useList(gradeId ? () => api.coursesByGrade(gradeId) : undefined, [api, gradeId]);
  const options = courses.map((c) => ({ value: String(c.courseId), label: c.courseName }));
  return (
    <FilterSelect
      label="学科"
      value={selection.courseId}
      options={options}
      onChange={(id) => selectCourse(id, courses)}
      icon={<MenuBookOutlined fontSize="small" color="primary" />}
    />
  );
}

function TermFilter() {
  const { selection, set } = useSelection();
  return <FilterSelect label="学期" value={selection.term} options={asOptions(NOTEBOOK_TERMS)} onChange={(v) => set('term', v)} width={120} />;
}

function LearningTermFilter() {
  const { selection, set } = useSelection();
  return <FilterSelect label="学期" value={selection.learningTerm} options={asOptions(termOptions())} onChange={(v) => set('learningTerm', v)} width={210} />;
}

function LearningYearFilter() {
  const { selection, set } = useSelection();
  return <FilterSelect label="学年" value={selection.learningYear} options={asOptions(academicYearOptions())} onChange={(v) => set('learningYear', v)} width={170} />;
}

function SchoolGradeFilter() {
  const { selection, schoolId, api, selectSchoolGrade } = useSelection();
  const grades = useList(() => api.gradesInSchool({ schoolId }), [api, schoolId]);
  const options = grades.map((g) => ({ value: String(g.id), label: g.name }));
  const pick = (id: string) => selectSchoolGrade(id, grades.find((g) => String(g.id) === id)?.name ?? '');
  return <FilterSelect label="年级" value={selection.gradeId} options={options} onChange={pick} width={130} />;
}

function SchoolClassFilter() {
  const { selection, schoolId, api, selectSchoolClass } = useSelection();
  const { gradeId } = selection;
  const classes = useList(gradeId ? () => api.classesInSchool({ schoolId, gradeId }) : undefined, [api, schoolId, gradeId]);
  const options = classes.map((c) => ({ value: String(c.id), label: c.className }));
  const pick = (id: string) => selectSchoolClass(id, classes.find((c) => String(c.id) === id)?.className ?? '');
  return <FilterSelect label="班级" value={selection.classId} options={options} onChange={pick} width={150} />;
}

export const FILTER_WIDGETS: Record<FilterKey, ComponentType> = {
  classGrade: ClassGradeFilter,
  course: CourseFilter,
  time: TimeRangeFilter,
  grade: GradeFilter,
  gradeOrAll: GradeOrAllFilter,
  courseOrAll: CourseOrAllFilter,
  homeworkDate: HomeworkDateFilter,
  mistake: MistakeFilter,
  courseInGrade: CourseInGradeFilter,
  term: TermFilter,
  learningTerm: LearningTermFilter,
  learningYear: LearningYearFilter,
  schoolGrade: SchoolGradeFilter,
  schoolClass: SchoolClassFilter,
};
