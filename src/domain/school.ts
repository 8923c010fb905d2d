// School administration rules shared by the server (validation, imports) and the screens
// (form rules, pickers): field limits, enumerations and the import/upload limits.
import { Type, type Static } from 'typebox';
import type { Option } from './semester';

/** Mainland mobile numbers. */
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;
export const isMobilePhone = (value: string): boolean => PHONE_PATTERN.test(value);

/** Longest name of a person, class or resource title. */
export const NAME_MAX_LENGTH = 50;
/** Student numbers: letters, digits and hyphens, unique within a school. */
export const STUDENT_NO_PATTERN = /^[A-Za-z0-9-]{1,32}$/;

export const GENDERS: Option<number>[] = [
  { label: '男', value: 1 },
  { label: '女', value: 2 },
];
export const genderLabel = (value: number | null | undefined): string => GENDERS.find((g) => g.value === value)?.label ?? '';
export const genderFromLabel = (label: string): number | undefined => GENDERS.find((g) => g.label === label.trim())?.value;

/** Jobs offered for every school; a school's own jobs (from its teachers) are added to these. */
export const TEACHER_JOBS: readonly string[] = ['任课教师', '班主任', '年级组长', '教研组长', '教务主任', '副校长', '校长'];

export const RESOURCE_TYPES = ['教案', '试卷', '课件', '其他'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** Largest file a user may upload (resources and import workbooks). */
export const UPLOAD_MAX_BYTES = 50 * 1024 * 1024;
/** Most data rows one import workbook may carry. */
export const IMPORT_MAX_ROWS = 5000;

/** The grade is prefixed only when the class name does not already carry it ('七(1)班' stays, '1班' → '七年级 1班'). */
export function classLabel(gradeName: string, className: string): string {
  const carriesGrade = !gradeName || className.startsWith(gradeName) || className.startsWith(gradeName.replace(/年级$/, ''));
  return carriesGrade ? className : `${gradeName} ${className}`;
}

const Count = Type.Integer();

/** One grade of the school overview (GET /api/vesta/school/overview), graduated grades included. */
export const GradeOverviewSchema = Type.Object({
  gradeId: Type.Integer(),
  gradeName: Type.String(),
  level: Type.Integer(),
  graduatedYear: Type.Union([Type.Integer(), Type.Null()]),
  classCount: Count,
  studentCount: Count,
  boundCount: Count,
  unboundCount: Count,
});
export type GradeOverview = Static<typeof GradeOverviewSchema>;

/** The school overview: counts of the school's current grades, teachers and students, then per grade. */
export const SchoolOverviewSchema = Type.Object({
  gradeCount: Count,
  classCount: Count,
  studentCount: Count,
  teacherCount: Count,
  boundCount: Count,
  unboundCount: Count,
  graduatedCount: Count,
  grades: Type.Array(GradeOverviewSchema),
});
export type SchoolOverview = Static<typeof SchoolOverviewSchema>;

/** The school's own settings (GET /api/vesta/school/settings); PUT saves either or both of scoreDisclosure and timeZone. */
export const SchoolSettingsSchema = Type.Object({
  scoreDisclosure: Type.Integer(),
  /** IANA zone (e.g. 'Asia/Shanghai'): the clock of every date the server makes for the school. */
  timeZone: Type.String(),
  scoreDisclosureOptions: Type.Array(Type.Object({ label: Type.String(), value: Type.Integer() })),
});
export type SchoolSettings = Static<typeof SchoolSettingsSchema>;

/** A student's terminal PIN as the student list shows it (never the PIN itself). */
export const TerminalPinState = { none: 0, set: 1, locked: 2 } as const;
export const TERMINAL_PIN_STATES: Option<number>[] = [
  { label: '未设置', value: TerminalPinState.none },
  { label: '已设置', value: TerminalPinState.set },
  { label: '已锁定', value: TerminalPinState.locked },
];

/**
 * A student's terminal PIN (6 digits) as set or reset by the school admin: answered this once,
 * kept only as a keyed hash (server/auth/terminalPins.ts).
 */
export const TerminalPinSchema = Type.Object({
  studentId: Type.Integer(),
  pin: Type.String(),
});
export type TerminalPin = Static<typeof TerminalPinSchema>;

/** A reply field that may be null, as one JSON type list: the serialiser checks it inline, without a validator call per value. */
const OrNull = <T extends 'string' | 'integer'>(type: T) => Type.Unsafe<T extends 'string' ? string | null : number | null>({ type: [type, 'null'] });

/** A student of the school admin's list (`/api/vesta/student/page`, its export and the rosters). */
export const StudentRecordSchema = Type.Object({
  id: Type.Integer(),
  studentId: Type.Integer(),
  name: Type.String(),
  studentNo: Type.String(),
  gender: OrNull('integer'),
  parentPhone: OrNull('string'),
  classId: OrNull('integer'),
  className: OrNull('string'),
  gradeId: OrNull('integer'),
  gradeName: OrNull('string'),
  /** StudentStatus: 0 在读, 1 已毕业, 2 转出, 3 休学. */
  status: Type.Integer(),
  bindingStatus: Type.Integer(),
  graduatedYear: OrNull('integer'),
  /** 出生日期 'YYYY-MM-DD' (the 学生心声 consent age), and the day the student left (转出, 休学, 毕业). */
  birthDate: OrNull('string'),
  leftOn: OrNull('string'),
  /** When the record was made, as the database driver gives it (a Date becomes ISO 8601). */
  createdAt: Type.String(),
  /** 终端PIN: 0 未设置, 1 已设置, 2 已锁定 (too many wrong PINs); never the PIN or its hash. */
  terminalPin: Type.Integer(),
});
export type StudentRecord = Static<typeof StudentRecordSchema>;
