// Print terminals as the device API and the device management screen see them: what a terminal's
// history records, and the bounds of what a terminal may report.
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
}

/** A terminal's school bindings, newest first. */
export interface DeviceBinding {
  schoolName: string;
  boundAt: string;
  unboundAt: string | null;
  boundBy: string | null;
  unboundBy: string | null;
}
