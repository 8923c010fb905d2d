import { describe, expect, it } from 'vitest';
import {
  clearedSelection,
  dropCourses,
  emptySelection,
  receiveClasses,
  receiveCourses,
  restoreSelection,
  selectClass,
  selectCourse,
  selectGrade,
  selectSchoolGrade,
  withDefaults,
} from '../../src/filters/selection';

const MARCH_2026 = new Date(2026, 2, 10);
const OCTOBER_2026 = new Date(2026, 9, 10);
const classes = [
  { id: 1, gradeId: 7, className: '七(1)班', gradeName: '七年级' },
  { id: 2, gradeId: 7, className: '七(2)班', gradeName: '七年级' },
  { id: 5, gradeId: 8, className: '八(1)班', gradeName: '八年级' },
];
const courses = [
  { courseId: 2, courseName: '数学', subjectId: 20 },
  { courseId: 4, courseName: '物理', subjectId: 40 },
  { courseId: 2, courseName: '数学', subjectId: 20 },
];

describe('teacher selection', () => {
  it('fills defaults: term time range, all homework dates, homework mistakes, whole year, current semester', () => {
    const s = withDefaults(emptySelection(), MARCH_2026);
    expect(s).toMatchObject({ dateType: 0, homeworkDateType: 'all', mistakeType: 1, term: 'ALL', learningTerm: '202502', learningYear: '202503' });
    expect(withDefaults(emptySelection(), OCTOBER_2026)).toMatchObject({ learningTerm: '202601', learningYear: '202603' });
  });

  it('restores what was stored and survives garbage', () => {
    expect(restoreSelection(JSON.stringify({ classId: '2', dateType: 2 }), MARCH_2026)).toMatchObject({ classId: '2', dateType: 2, term: 'ALL' });
    expect(restoreSelection('{not json', MARCH_2026)).toMatchObject({ classId: '', dateType: 0 });
  });

  it('clears every field, with dateType 1 and all homework dates', () => {
    const dirty = { ...withDefaults(emptySelection()), classId: '1', courseId: '2', bookId: '9', dateType: 2, homeworkDateType: 'today' };
    const cleared = clearedSelection(MARCH_2026);
    expect(cleared).toMatchObject({ classId: '', courseId: '', bookId: '', classList: [], dateType: 1, homeworkDateType: 'all' });
    expect(cleared).not.toEqual(dirty);
  });

  it('choosing a class derives its name, grade and the classes of that grade', () => {
    const s = selectClass({ ...emptySelection(), classList: classes }, '2');
    expect(s).toMatchObject({ classId: '2', className: '七(2)班', gradeId: '7', gradeName: '七年级', classesInGrade: ['1', '2'] });
  });

  it('chooses the first class when none is chosen or the chosen one is gone', () => {
    expect(receiveClasses(emptySelection(), classes)).toMatchObject({ classId: '1', gradeId: '7' });
    expect(receiveClasses({ ...emptySelection(), classId: '99' }, classes)).toMatchObject({ classId: '1' });
    expect(receiveClasses({ ...emptySelection(), classId: '5' }, classes)).toMatchObject({ classId: '5', gradeId: '8', classesInGrade: ['5'] });
    expect(receiveClasses({ ...emptySelection(), classId: '5' }, [])).toMatchObject({ classId: '', classList: [] });
  });

  it('choosing a course sets its name and subject', () => {
    expect(selectCourse({ ...emptySelection(), courseList: courses }, '4')).toMatchObject({ courseId: '4', courseName: '物理', subjectId: '40' });
  });

  it('removes duplicate courses and keeps or replaces the chosen one', () => {
    const fresh = receiveCourses(emptySelection(), courses);
    expect(fresh.courseList.map((c) => c.courseId)).toEqual([2, 4]);
    expect(fresh).toMatchObject({ courseId: '2', courseName: '数学', subjectId: '20' });
    expect(receiveCourses({ ...emptySelection(), courseId: '4' }, courses)).toMatchObject({ courseId: '4' });
    expect(receiveCourses({ ...emptySelection(), courseId: '9' }, courses)).toMatchObject({ courseId: '2' });
    expect(receiveCourses({ ...emptySelection(), courseId: '4', courseName: '物理' }, [])).toMatchObject({ courseId: '', courseName: '', courseList: [] });
  });

  it('a failed course query empties the list and the choice', () => {
    const chosen = receiveCourses(emptySelection(), courses);
    expect(dropCourses(chosen)).toMatchObject({ courseList: [], courseId: '', courseName: '', subjectId: '' });
  });

  it('changing grade in the school filter clears the chosen class', () => {
    const s = { ...emptySelection(), classId: '12', className: '九(3)班', gradeId: '9' };
    expect(selectSchoolGrade(s, '8', '八年级')).toMatchObject({ gradeId: '8', gradeName: '八年级', classId: '', className: '' });
  });

  it('the grade filter keeps the class inside the grade', () => {
    const inSeven = selectClass({ ...emptySelection(), classList: classes }, '2');
    expect(selectGrade(inSeven, '7', '七年级')).toMatchObject({ classId: '2', gradeId: '7' });
    expect(selectGrade(inSeven, '8', '八年级')).toMatchObject({ classId: '5', gradeId: '8', gradeName: '八年级' });
    expect(selectGrade(inSeven, '9', '九年级')).toMatchObject({ classId: '', gradeId: '9', gradeName: '九年级' });
  });
});
