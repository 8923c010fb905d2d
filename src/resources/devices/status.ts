// How a terminal's state reads in the list and on its page: label and colour.
import type { RaRecord } from 'ra-core';
import { alarmKindLabel } from '../../domain/alarms';

export function paperStatus(record: RaRecord) {
  return record.lowPaper
    ? { label: `纸张不足 · ${record.paperLeft} 张`, tone: 'warning' as const }
    : { label: `${record.paperLeft} / ${record.paperCapacity} 张`, tone: 'default' as const };
}
export const onlineStatus = (record: RaRecord) => (record.online === 1 ? { label: '在线', tone: 'success' as const } : { label: '离线', tone: 'default' as const });
export const jamStatus = (record: RaRecord) => (record.jammed ? { label: '卡纸', tone: 'error' as const } : { label: '正常', tone: 'default' as const });
/** The terminal's open alarms (告警通知), or 无. */
export const alarmStatus = (record: RaRecord) => {
  const kinds = (record.openAlarms ?? []) as string[];
  return kinds.length ? { label: kinds.map(alarmKindLabel).join('、'), tone: 'error' as const } : { label: '无', tone: 'default' as const };
};
