// Alarms (告警) about a partner's print terminals, the live event stream of the fleet, and paper
// consumption (docs/api-alarms.md). An alarm opens when a deployed terminal has been offline too
// long, runs low on paper or jams; it closes by itself when the condition clears (back online,
// refilled, jam cleared), or when a partner marks it 处理完成.
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope';
import type { Option } from './semester';
import { LOW_PAPER_SHEETS } from './partner';

/** An offline terminal raises an alarm after this many minutes without a beat (a short network cut or a restart does not). */
export const ALARM_OFFLINE_MINUTES = 30;
/** Sheets left at or below which a terminal's 纸张不足 alarm opens: the same line as the list's 纸张不足. */
export const ALARM_PAPER_SHEETS = LOW_PAPER_SHEETS;
/** The server looks for terminals that stopped beating this often (seconds); DEVICE_SWEEP_SECONDS overrides it. */
export const SWEEP_SECONDS = 60;

export const ALARM_KINDS: Option<string>[] = [
  { label: '设备离线', value: 'offline' },
  { label: '纸张不足', value: 'paperLow' },
  { label: '卡纸', value: 'jammed' },
];
export const alarmKindLabel = (kind: string) => ALARM_KINDS.find((k) => k.value === kind)?.label ?? kind;

/** The list's status filter: 未读 (open, nobody confirmed), 未处理 (open), 已处理, 全部. */
export const ALARM_STATUSES: Option<string>[] = [
  { label: '未处理', value: 'open' },
  { label: '未读', value: 'unread' },
  { label: '已处理', value: 'resolved' },
  { label: '全部', value: 'all' },
];

/** A note on 处理完成. */
export const ALARM_NOTE_MAX_LENGTH = 200;
/** Alarms per 标为已读 call. */
export const ALARM_MAX_BULK = 200;

export const AlarmRecord = Type.Object({
  alarmId: Type.Integer(),
  deviceId: Type.Integer(),
  serial: Type.String(),
  partnerName: Type.String(),
  schoolName: Nullable(Type.String()),
  kind: Type.String(),
  /** What the terminal said when the alarm opened: `{lastHeartbeatAt}`, `{paperLeft}`. */
  detail: Type.Unknown(),
  openedAt: Type.String(),
  acknowledgedAt: Nullable(Type.String()),
  acknowledgedByName: Nullable(Type.String()),
  resolvedAt: Nullable(Type.String()),
  /** Null when the condition cleared by itself (autoResolved). */
  resolvedByName: Nullable(Type.String()),
  autoResolved: Type.Boolean(),
  note: Nullable(Type.String()),
});
export type AlarmRecord = Static<typeof AlarmRecord>;

export interface AlarmSummary {
  /** Open and not yet confirmed by anyone of the subtree: the header's count. */
  unread: number;
  open: number;
  /** The subtree's terminals standing in a school, and how many of them beat lately (在线). */
  deployed: number;
  online: number;
}

/** Live events: one process-wide stream per signed-in partner page (docs/api-alarms.md). */
export const LIVE_STREAM_PATH = '/api/wrongbook/v1.0/partner/events/stream';
/** Open streams per user: a few tabs, not a leak. */
export const MAX_STREAMS_PER_USER = 5;
/** A comment line this often keeps proxies from closing an idle stream. */
export const STREAM_PING_SECONDS = 20;
/** A stream ends after this long and the page opens a new one, so a revoked session or a changed subtree is noticed. */
export const STREAM_MAX_SECONDS = 5 * 60;

/**
 * What a stream carries. `beat`: a terminal reported its state (no transition); `change`: a
 * heartbeat transition or a sweep's offline (kinds as in device_events); `alarm`: opened, confirmed
 * or resolved.
 */
export type LiveEvent =
  | { type: 'beat'; deviceId: number; partnerId: number; at: string; paperLeft: number; jammed: boolean }
  | { type: 'change'; deviceId: number; partnerId: number; at: string; kinds: string[] }
  | { type: 'alarm'; deviceId: number; partnerId: number; at: string; alarmId: number; kind: string; action: 'opened' | 'acknowledged' | 'resolved' };

/** Paper left per school is measured against the last this many days' printing. */
export const CONSUMPTION_DAYS = 14;
/** 补货建议: a school with fewer days of paper than this needs paper ... */
export const REORDER_BELOW_DAYS = 14;
/** ... enough for this many days. */
export const REORDER_COVER_DAYS = 30;
