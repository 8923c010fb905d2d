// 学生心声: what a student writes on a terminal for the school's psychology teacher. The rules both
// sides share: categories, moods, risk levels (the graded referral of the national action plan for
// students' mental health: 一般, 关注, 高危), follow-up statuses and kinds, the consent age and the
// retention period. The risk lexicon itself is server-only (server/modules/heartVoices/lexicon.ts).
import type { Option } from './semester';

export const MAX_VOICE_CHARS = 500;

export const VOICE_CATEGORIES: readonly Option<number>[] = [
  { value: 1, label: '学习' },
  { value: 2, label: '家庭' },
  { value: 3, label: '同学关系' },
  { value: 4, label: '情绪' },
  { value: 5, label: '其他' },
];

/** Mood 1 (very low) … 5 (very good), as the terminal's five faces. */
export const MOODS: readonly Option<number>[] = [
  { value: 1, label: '很难过' },
  { value: 2, label: '有点低落' },
  { value: 3, label: '一般' },
  { value: 4, label: '还不错' },
  { value: 5, label: '很开心' },
];

export const RiskLevel = { normal: 1, attention: 2, high: 3 } as const;
export const RISK_LEVELS: readonly Option<number>[] = [
  { value: RiskLevel.normal, label: '一般' },
  { value: RiskLevel.attention, label: '关注' },
  { value: RiskLevel.high, label: '高危' },
];

export const VoiceStatus = { pending: 0, following: 1, handled: 2 } as const;
export const VOICE_STATUSES: readonly Option<number>[] = [
  { value: VoiceStatus.pending, label: '待处理' },
  { value: VoiceStatus.following, label: '跟进中' },
  { value: VoiceStatus.handled, label: '已处理' },
];

/** In-app notices: 1 a new suspected 高危 message, 2 a reveal, 3 still unconfirmed after 24 h (to the psychology teachers), 4 after 48 h (to the principals). */
export const HeartNoticeKind = { highRisk: 1, reveal: 2, reminder: 3, escalation: 4 } as const;

/** Follow-up log entries; 确认等级 is written by the level confirmation itself. */
export const FollowUpKind = { level: 0, note: 1, headTeacher: 2, guardian: 3, outcome: 4 } as const;
export const FOLLOW_UP_KINDS: readonly Option<number>[] = [
  { value: FollowUpKind.level, label: '确认等级' },
  { value: FollowUpKind.note, label: '跟进记录' },
  { value: FollowUpKind.headTeacher, label: '联系班主任' },
  { value: FollowUpKind.guardian, label: '联系监护人' },
  { value: FollowUpKind.outcome, label: '处理结果' },
];

/** Kinds of crisis signal the lexicon recognises. */
export const RISK_TYPES = {
  suicide: '轻生念头',
  selfHarm: '自伤',
  bullying: '欺凌',
  abuse: '家暴或侵害',
  runaway: '离家出走',
  distress: '情绪困扰',
} as const;
export type RiskType = keyof typeof RISK_TYPES;

/** PIPL art. 31: personal information of a child under 14 needs the guardian's consent. */
export const CONSENT_AGE = 14;

/** Text is deleted this many days after a message is handled; the counts stay. */
export const RETENTION_DAYS = 365;

/** A break-glass reveal needs a written reason of at least this many characters. */
export const MIN_REVEAL_REASON = 10;

export const labelOf = (options: readonly Option<number>[], value: number | null | undefined) => options.find((o) => o.value === value)?.label ?? '';

/** Whole years of age on `on` (a birthday counts from its day). */
export function ageOn(birthDate: string, on: Date): number {
  const [y, m, d] = birthDate.split('-').map(Number);
  const china = new Date(on.getTime() + 8 * 3600 * 1000);
  const years = china.getUTCFullYear() - y;
  const before = china.getUTCMonth() + 1 < m || (china.getUTCMonth() + 1 === m && china.getUTCDate() < d);
  return before ? years - 1 : years;
}
