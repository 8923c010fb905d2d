// The school year (学年/学期, 升年级) and a student's state in it, shared by the server (rules,
// validation) and the screens (labels, pickers): docs/api-school-year.md.
import { Type, type Static } from 'typebox';
import type { Option } from './semester';

/** students.status: 0 在读, 1 已毕业, 2 转出, 3 休学. Only 在读 students are in lists and expected counts. */
export const StudentStatus = { enrolled: 0, graduated: 1, transferredOut: 2, suspended: 3 } as const;
export const STUDENT_STATUSES: Option<number>[] = [
  { label: '在读', value: StudentStatus.enrolled },
  { label: '已毕业', value: StudentStatus.graduated },
  { label: '转出', value: StudentStatus.transferredOut },
  { label: '休学', value: StudentStatus.suspended },
];

/** student_status_changes.kind: what happened on the day. */
export const StatusChangeKind = { transferIn: 1, transferOut: 2, suspend: 3, resume: 4, graduate: 5 } as const;
export type StatusChangeKindValue = (typeof StatusChangeKind)[keyof typeof StatusChangeKind];

interface ChangeRule {
  label: string;
  /** The states a student may be in for this change. */
  from: readonly number[];
  /** The state after it. */
  to: number;
  /** Leaving changes need a reason on the record. */
  reasonRequired: boolean;
}

/**
 * The changes an admin may record by hand, and from which states: 转入 a new or transferred-out
 * student, 转出/休学 someone in school, 复学 someone suspended. 毕业 comes from 升年级 or 年级毕业 only.
 */
export const STATUS_CHANGES: Record<Exclude<StatusChangeKindValue, 5>, ChangeRule> = {
  [StatusChangeKind.transferIn]: { label: '转入', from: [StudentStatus.enrolled, StudentStatus.transferredOut], to: StudentStatus.enrolled, reasonRequired: false },
  [StatusChangeKind.transferOut]: { label: '转出', from: [StudentStatus.enrolled], to: StudentStatus.transferredOut, reasonRequired: true },
  [StatusChangeKind.suspend]: { label: '休学', from: [StudentStatus.enrolled], to: StudentStatus.suspended, reasonRequired: true },
  [StatusChangeKind.resume]: { label: '复学', from: [StudentStatus.suspended], to: StudentStatus.enrolled, reasonRequired: false },
};
export const STATUS_CHANGE_KINDS: Option<number>[] = [
  ...Object.entries(STATUS_CHANGES).map(([value, rule]) => ({ label: rule.label, value: Number(value) })),
  { label: '毕业', value: StatusChangeKind.graduate },
];
export const statusChangeLabel = (kind: number): string => STATUS_CHANGE_KINDS.find((k) => k.value === kind)?.label ?? '';

/** Longest reason of a state change. */
export const REASON_MAX_LENGTH = 200;

/** How long an applied 升年级 may be undone. */
export const PROMOTION_UNDO_DAYS = 7;

const LEVEL_NAMES = ['', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
/** 七年级 for 7; 高一 … 高三 for 10–12. */
export function gradeNameOf(level: number): string {
  if (level >= 10 && level <= 12) return `高${LEVEL_NAMES[level - 9]}`;
  return `${LEVEL_NAMES[level] ?? level}年级`;
}
/** The prefix class names carry: 七 of 七(1)班, 高一 of 高一(1)班. */
export const gradeShortName = (gradeName: string): string => gradeName.replace(/年级$/, '');

/** The last grade of a level's stage (小学 6, 初中 9, 高中 12): it graduates instead of moving up. */
export const finalLevelOf = (level: number): number => (level <= 6 ? 6 : level <= 9 ? 9 : 12);

/** A class name after its grade moved up: 八(1)班 → 九(1)班; a name without the grade prefix stays. */
export function promotedClassName(className: string, fromGrade: string, toGrade: string): string {
  const from = gradeShortName(fromGrade);
  return className.startsWith(from) ? `${gradeShortName(toGrade)}${className.slice(from.length)}` : className;
}

/** A real calendar day 'YYYY-MM-DD' (2026-02-30 is not one). */
export function isDay(text: string): boolean {
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10 });
const TermValue = Type.String({ pattern: '^20\\d{2}0[12]$', maxLength: 6 });

/** One term of the school (GET/PUT /api/vesta/school/terms). */
export const SchoolTermSchema = Type.Object({ term: TermValue, startDate: Day, endDate: Day }, { additionalProperties: false });
export type SchoolTerm = Static<typeof SchoolTermSchema>;

export const SchoolTermsSchema = Type.Object({
  /** The school's current term; without a setting, the calendar's (currentSemester). */
  currentTerm: Type.String(),
  /** Whether currentTerm was chosen by the school (false: by the calendar). */
  configured: Type.Boolean(),
  terms: Type.Array(Type.Object({ term: Type.String(), label: Type.String(), startDate: Type.String(), endDate: Type.String() })),
});
export type SchoolTerms = Static<typeof SchoolTermsSchema>;

/** '202601' → '2026-2027学年上学期'. */
export function termLabel(term: string): string {
  const y = Number(term.slice(0, 4));
  return `${y}-${y + 1}学年${term.endsWith('01') ? '上学期' : '下学期'}`;
}

/** The 升年级 preview: what apply would change, grade by grade. */
export const PromotionPreviewSchema = Type.Object({
  year: Type.Integer(),
  graduating: Type.Array(Type.Object({ gradeId: Type.Integer(), gradeName: Type.String(), classCount: Type.Integer(), studentCount: Type.Integer() })),
  moving: Type.Array(
    Type.Object({
      gradeId: Type.Integer(),
      from: Type.String(),
      to: Type.String(),
      classes: Type.Array(Type.Object({ classId: Type.Integer(), from: Type.String(), to: Type.String(), studentCount: Type.Integer() })),
    }),
  ),
  /** The empty entry grades created for the new intake. */
  created: Type.Array(Type.String()),
});
export type PromotionPreview = Static<typeof PromotionPreviewSchema>;

/** The last 升年级 of the school and whether it may still be undone. */
export const PromotionRecordSchema = Type.Object({
  id: Type.Integer(),
  year: Type.Integer(),
  createdAt: Type.String(),
  undoUntil: Type.String(),
  undoneAt: Type.Union([Type.String(), Type.Null()]),
  undoable: Type.Boolean(),
  summary: Type.String(),
});
export type PromotionRecord = Static<typeof PromotionRecordSchema>;
