// The platform admin's school → class → course picker on 班级错题本 (/without/common). The admin
// has no classes of its own, so the header's class filter has nothing to offer; this picker reads
// the platform lists (any school) instead. The course starts at the school's first one.
import { useEffect } from 'react';
import { useDataProvider } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import type { AppDataProvider } from '../../dataProvider';
import { classLabel } from '../../domain/school';
import { academicYearOptions } from '../../domain/semester';
import { FilterSelect } from '../../filters/FilterSelect';
import { useSelection } from '../../filters/SelectionProvider';

export interface PlatformPick {
  schoolId: string;
  schoolName: string;
  classId: string;
  courseId: string;
  gradeName: string;
  className: string;
  courseName: string;
}
export const NO_PICK: PlatformPick = { schoolId: '', schoolName: '', classId: '', courseId: '', gradeName: '', className: '', courseName: '' };

export function PlatformClassPicker({ value, onChange }: { value: PlatformPick; onChange: (next: PlatformPick) => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const { selection, set } = useSelection();
  const { schoolId } = value;
  const schools = useQuery({ queryKey: ['platformSchools'], queryFn: () => dataProvider.platformSchools() }).data ?? [];
  const classes = useQuery({ queryKey: ['platformClasses', schoolId], queryFn: () => dataProvider.platformClasses(schoolId), enabled: Boolean(schoolId) }).data ?? [];
  const courses = useQuery({ queryKey: ['platformCourses', schoolId], queryFn: () => dataProvider.platformCourses(schoolId), enabled: Boolean(schoolId) }).data ?? [];

  // A chosen class reads its school's first course until another is chosen.
  useEffect(() => {
    if (value.classId && !value.courseId && courses.length > 0) onChange({ ...value, courseId: String(courses[0].courseId), courseName: courses[0].courseName });
  }, [value, courses, onChange]);

  const pickSchool = (id: string) => onChange({ ...NO_PICK, schoolId: id, schoolName: schools.find((s) => String(s.id) === id)?.name ?? '' });
  const pickClass = (id: string) => {
    const c = classes.find((x) => String(x.id) === id);
    onChange({ ...value, classId: id, gradeName: c?.gradeName ?? '', className: c?.className ?? '' });
  };
  const pickCourse = (id: string) => onChange({ ...value, courseId: id, courseName: courses.find((x) => String(x.courseId) === id)?.courseName ?? '' });

  return (
    // On a phone: the school on its own line, class and course side by side, then the year.
    <Box
      role="group"
      aria-label="选择班级"
      sx={(theme) => ({
        mt: 2,
        gap: 1.5,
        display: 'flex',
        flexWrap: 'wrap',
        [theme.breakpoints.down('sm')]: {
          display: 'grid',
          gridTemplateColumns: '1fr 1fr',
          '& .MuiTextField-root': { width: '100%' },
          '& > :first-of-type, & > :last-of-type': { gridColumn: '1 / -1' },
        },
      })}
    >
      <FilterSelect label="学校" value={schoolId} options={schools.map((s) => ({ value: String(s.id), label: s.name }))} onChange={pickSchool} width={220} />
      <FilterSelect
        label="班级"
        value={value.classId}
        options={classes.map((c) => ({ value: String(c.id), label: classLabel(c.gradeName, c.className) }))}
        onChange={pickClass}
        width={170}
      />
      <FilterSelect label="学科" value={value.courseId} options={courses.map((c) => ({ value: String(c.courseId), label: c.courseName }))} onChange={pickCourse} width={130} />
      <FilterSelect
        label="学年"
        value={selection.learningYear}
        options={academicYearOptions().map((o) => ({ value: o.value, label: o.label }))}
        onChange={(v) => set('learningYear', v)}
        width={170}
      />
    </Box>
  );
}
