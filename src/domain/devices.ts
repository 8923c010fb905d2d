// Print terminals as the device API and the device management screen see them: what a terminal's
// history records, and the bounds of what a terminal may report.
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope';
import type { Option } from './semester';
import { LOW_PAPER_SHEETS, OFFLINE_AFTER_SECONDS } from './partner';

/** Kinds of device_events, with what the history says. */
export const DEVICE_EVENT_KINDS: Option<string>[] = [
  { label: '恢复在线', value: 'online' },
  { label: '纸张不足', value: 'paperLow' },
  { label: '已补纸', value: 'paperRefilled' },
  { label: '卡纸', value: 'jammed' },
  { label: '卡纸已排除', value: 'jamCleared' },
  { label: '固件升级', value: 'firmware' },
  { label: '绑定学校', value: 'bound' },
  { label: '解除绑定', value: 'unbound' },
  { label: '登记入库', value: 'registered' },
  { label: '重置密钥', value: 'secretRotated' },
];

export const eventLabel = (kind: string) => DEVICE_EVENT_KINDS.find((k) => k.value === kind)?.label ?? kind;

/** Deployment filter of the device list (全部 0, 已部署 1, 未部署 2). */
export const DEPLOYMENT_FILTERS: Option<number>[] = [
  { label: '全部', value: 0 },
  { label: '已部署', value: 1 },
  { label: '未部署', value: 2 },
];

/** A signed request's timestamp may differ from the server's clock by this much. */
export const CLOCK_SKEW_SECONDS = 5 * 60;
/** Print jobs (and sign-ins) a terminal buffered offline are accepted this many days back. */
export const BACKFILL_DAYS = 100;
/** Records per upload call. */
export const MAX_UPLOAD_RECORDS = 500;

/** Beats one relayed batch (POST /api/device/v1/heartbeats) may carry. */
export const MAX_RELAYED_BEATS = 500;

/** A request limit: at most `max` in a window of `seconds`. */
export interface RateLimit {
  max: number;
  seconds: number;
}

/**
 * Per-terminal limits of the device API (docs/api-devices.md), counted after the signature is
 * checked. Far above what a terminal does (a heartbeat a minute, a student at a time, a message
 * takes minutes to write), far below what a stolen secret could otherwise send.
 */
export const DEVICE_RATE_LIMITS = {
  heartbeat: { max: 30, seconds: 60 },
  /** Batches a terminal relays for its partner's terminals (each beat in one also counts as that terminal's heartbeat). */
  heartbeats: { max: 30, seconds: 60 },
  signIn: { max: 30, seconds: 60 },
  roster: { max: 10, seconds: 60 },
  signIns: { max: 20, seconds: 60 },
  printJobs: { max: 20, seconds: 60 },
  heartVoice: { max: 20, seconds: 600 },
} as const satisfies Record<string, RateLimit>;

export type DeviceLimitName = keyof typeof DEVICE_RATE_LIMITS;

/** 学生心声 per student, whatever the terminal: named and anonymous together. */
export const STUDENT_VOICE_LIMIT: RateLimit = { max: 3, seconds: 600 };

/** What each limit is about, in the refusal: 本终端{noun}过于频繁. */
export const DEVICE_LIMIT_NOUNS: Record<DeviceLimitName, string> = {
  heartbeat: '发送心跳',
  heartbeats: '转发心跳',
  signIn: '登录',
  roster: '获取名单',
  signIns: '上传登录记录',
  printJobs: '上传打印记录',
  heartVoice: '提交心声',
};

/** Online: a heartbeat within OFFLINE_AFTER_SECONDS, so one late beat does not flap the state. */
export function isOnline(lastHeartbeatAt: string | Date | null | undefined, now = Date.now()): boolean {
  if (!lastHeartbeatAt) return false;
  return now - new Date(lastHeartbeatAt).getTime() <= OFFLINE_AFTER_SECONDS * 1000;
}

export const isLowPaper = (paperLeft: number) => paperLeft <= LOW_PAPER_SHEETS;

/** A terminal as the device list and its page answer it (docs/api-devices.md). */
export interface DeviceRecord {
  id: number;
  deviceId: number;
  serial: string;
  model: string;
  partnerId: number;
  partnerName: string;
  schoolId: number | null;
  schoolName: string | null;
  /** 1 已部署, 2 未部署. */
  deployment: number;
  /** 1 在线, 2 离线. */
  online: number;
  paperLeft: number;
  paperCapacity: number;
  lowPaper: boolean;
  jammed: boolean;
  firmware: string;
  lastHeartbeatAt: string | null;
  lastSeenAt: string | null;
  boundAt: string | null;
  /** Kinds of the terminal's open alarms (src/domain/alarms.ts), e.g. ['offline']. */
  openAlarms: string[];
}

/** A terminal's school bindings, newest first. */
export interface DeviceBinding {
  schoolName: string;
  boundAt: string;
  unboundAt: string | null;
  boundBy: string | null;
  unboundBy: string | null;
}

/** A terminal serial as printed on it: letters, digits and '-', at most 32 (as the device API reads it). */
export const DEVICE_SERIAL_PATTERN = /^[A-Za-z0-9-]{1,32}$/;

/**
 * A terminal's secret, answered once: when a partner registers the terminal and when it rotates
 * the secret (重置密钥). No other reply carries it.
 */
export const DeviceSecretSchema = Type.Object({
  deviceId: Type.Integer(),
  serial: Type.String(),
  secret: Type.String(),
});
export type DeviceSecret = Static<typeof DeviceSecretSchema>;

/*
 * What partners see of students' use of the terminals. The psychology teacher sees an anonymous
 * 学生心声's class and hour (docs/api-heart-voices.md); a list of who was at that terminal at what
 * minute would name the writer. So partner replies carry no student's name with an exact time:
 * a terminal's jobs show a student's job without the name, and one student's page lists days.
 */

/** A terminal's print job (设备管理 → 打印记录): a teacher's name, never a student's. */
export const DevicePrintJobSchema = Type.Object({
  id: Type.Integer(),
  printedAt: Type.String(),
  userKind: Type.Integer(),
  /** The teacher's name; null for a student. */
  userName: Nullable(Type.String()),
  app: Type.Integer(),
  subjectName: Nullable(Type.String()),
  pages: Type.Integer(),
  schoolName: Type.String(),
});
export type DevicePrintJob = Static<typeof DevicePrintJobSchema>;

/** One student's print job on a partner's board: the China day (YYYY-MM-DD), not the time. */
export const StudentPrintJobSchema = Type.Object({
  id: Type.Integer(),
  day: Type.String(),
  app: Type.Integer(),
  appName: Type.String(),
  subjectName: Type.String(),
  pages: Type.Integer(),
  deviceSerial: Type.String(),
});
export type StudentPrintJob = Static<typeof StudentPrintJobSchema>;

/** One student's sign-ins of a China day on a partner's board: how many, on which terminals. */
export const StudentSignInDaySchema = Type.Object({
  day: Type.String(),
  signIns: Type.Integer(),
  deviceSerials: Type.Array(Type.String()),
});
export type StudentSignInDay = Static<typeof StudentSignInDaySchema>;
