// 家长查看: the records and limits of a student's read-only page for the student and the family
// (server/modules/family, docs/api-family.md), shared by the server and the staff screens.
import { ScoreDisclosure } from './content';

export const FAMILY_LIMITS = {
  /** A link lives this many days unless the issuer chooses otherwise (1–90). */
  defaultDays: 30,
  maxDays: 90,
  /** Who the link is for (e.g. 妈妈), characters. */
  labelMax: 20,
  /** A regrade request's reason and a teacher's answer, characters. */
  reasonMax: 200,
  answerMax: 300,
  /** Open requests one link may have at once. */
  openPerLink: 10,
  /** Works (homework and exams) the page lists, newest first. */
  works: 20,
  /** 错题 to redo the page lists. */
  redo: 30,
  /** Links of one student that may be live at once. */
  livePerStudent: 10,
} as const;

/** Public page rate limits, per client address and per link, in fixed windows. */
export const FAMILY_RATE_LIMITS = {
  viewsPerAddress: { max: 60, seconds: 60 },
  badTokensPerAddress: { max: 20, seconds: 600 },
  requestsPerLink: { max: 5, seconds: 3600 },
} as const;

export const RegradeStatus = { open: 0, answered: 1 } as const;
export const REGRADE_STATUS_LABELS: Record<number, string> = { 0: '待答复', 1: '已答复' };

/** One result as the school lets the family see it: nothing, a band, or a rank (never a score). */
export interface DisclosedResult {
  band?: string;
  rank?: number;
  /** Students ranked with the student (the rank's denominator). */
  ranked?: number;
}

/** The fields each 成绩公开范围 lets the page carry for a result (tests check the page against it). */
export const DISCLOSED_FIELDS: Record<number, readonly (keyof DisclosedResult)[]> = {
  [ScoreDisclosure.none]: [],
  [ScoreDisclosure.band]: ['band'],
  [ScoreDisclosure.rank]: ['rank', 'ranked'],
};

export interface FamilyLinkRow {
  id: number;
  studentId: number;
  courseId: number | null;
  /** 全部课程 or the course's name. */
  scopeName: string;
  label: string;
  createdByName: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  /** 有效 / 已过期 / 已撤销. */
  state: 'live' | 'expired' | 'revoked';
  views: number;
  lastViewedAt: string | null;
}

export interface IssuedFamilyLink extends FamilyLinkRow {
  /** The page's path with the token; answered this once. */
  path: string;
}

/** GET /links: a student's links and what the caller may issue for them. */
export interface FamilyLinkOptions {
  student: { name: string; studentNo: string };
  courses: { courseId: number; courseName: string }[];
  /** Whether the caller may issue a link for all the child's courses (a school admin). */
  allCourses: boolean;
  defaultDays: number;
  links: FamilyLinkRow[];
}

/**
 * 复核申请 on an AI批改 essay (作文) the family page shows: source type 3, the grading task's id,
 * and "question" 1 (the essay, item 1 of its result). Homework and exams keep the answer-record
 * source types (0/1 homework, 2 exam).
 */
export const REGRADE_ESSAY = { sourceType: 3, questionId: 1 } as const;

export interface RegradeRow {
  id: number;
  studentId: number;
  studentName: string;
  studentNo: string;
  sourceType: number;
  sourceId: number;
  workTitle: string;
  questionId: number;
  /** The printed number in the work (e.g. "3"). */
  questionNo: string;
  reason: string;
  status: number;
  answer: string | null;
  answeredByName: string | null;
  answeredAt: string | null;
  createdAt: string;
  statusLabel?: string;
}
