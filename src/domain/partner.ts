// The partner back office's rules and enumerations (SPEC §3, §9), shared by the screens and the
// server: partner subtrees, print terminals, their usage and the data board's modes.
import type { Option } from './semester';

/**
 * The partner ids in a chain: `ancestors` is '0' for a level-1 partner, '0,<l1>' for level 2,
 * '0,<l1>,<l2>' for level 3. 0 is the platform, not a partner.
 */
export function ancestorIds(ancestors: string | null | undefined): number[] {
  return (ancestors ?? '')
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
}

/** The ancestors string of a child of `parent`. */
export const childAncestors = (parent: { id: number; ancestors: string }) => `${parent.ancestors},${parent.id}`;

/** Who signed in on a terminal. */
export const USER_KINDS: Option<number>[] = [
  { label: '学生', value: 1 },
  { label: '教师', value: 2 },
];
export const UserKind = { student: 1, teacher: 2 } as const;

/** What a print job printed: the terminal's apps. */
export const PRINT_APPS: Option<number>[] = [
  { label: '错题本', value: 1 },
  { label: '试卷', value: 2 },
  { label: '作业', value: 3 },
  { label: '学情报告', value: 4 },
];

/** Terminal models on sale. */
export const DEVICE_MODELS: Option<string>[] = [
  { label: 'XZ-P100 错题打印终端', value: 'XZ-P100' },
  { label: 'XZ-P200 双面打印终端', value: 'XZ-P200' },
];

/** Deployment: SPEC §9 (已部署 1, 未部署 2, 全部 0 in filters). A device is deployed when bound to a school. */
export const Deployment = { deployed: 1, notDeployed: 2 } as const;

/** Terminals beat every minute; one is offline only after three missed beats, so a late beat does not flap it. */
export const HEARTBEAT_SECONDS = 60;
export const OFFLINE_AFTER_SECONDS = HEARTBEAT_SECONDS * 3 + 30;
/** Sheets left at or below which a terminal asks for paper. */
export const LOW_PAPER_SHEETS = 50;
/**
 * A rise of at least this many sheets between two beats is a refill (已补纸). Smaller rises are not:
 * a tray sensor's count wobbles by a few sheets, and clearing a jam puts a handful back; whoever
 * refills loads a stack, and the smallest pack sold holds far more than this.
 */
export const REFILL_MIN_SHEETS = 50;

export const ONLINE_FILTERS: Option<number>[] = [
  { label: '在线', value: 1 },
  { label: '离线', value: 2 },
];

/** The data board (SPEC §9): query modes, statistics modes, role filter, metric. */
export const QUERY_MODES: Option<string>[] = [
  { label: '按年月', value: 'month' },
  { label: '按学期', value: 'term' },
  { label: '自定义', value: 'custom' },
];
export const STATISTICS_MODES: Option<string>[] = [
  { label: '总体', value: 'overall' },
  { label: '按应用', value: 'app' },
  { label: '按学科', value: 'subject' },
];
export const ROLE_FILTERS: Option<number>[] = [
  { label: '全部', value: 0 },
  { label: '学生', value: 1 },
  { label: '教师', value: 2 },
];
/** SPEC §9 print statistics: print volume 3, users 4. */
export const PRINT_STATISTICS: Option<number>[] = [
  { label: '打印量', value: 3 },
  { label: '用户数', value: 4 },
];
export const METRICS: Option<string>[] = [
  { label: '打印量', value: 'pages' },
  { label: '使用次数', value: 'uses' },
];

/** Money is kept in integer fen; this is only for display. */
export function yuan(fen: number): string {
  return (fen / 100).toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** 合作商状态 (partners.status): 停用 closes the partner's accounts (sign-in, orders) until 启用. */
export const PartnerStatus = { active: 0, suspended: 1 } as const;
export const PARTNER_STATUSES: Option<number>[] = [
  { label: '启用', value: PartnerStatus.active },
  { label: '停用', value: PartnerStatus.suspended },
];
/** Bounds of a child partner's record (下级合作商). */
export const CHILD_PARTNER_LIMITS = { name: 40, contactName: 20, region: 40, username: 64 } as const;
