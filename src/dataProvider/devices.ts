// 设备管理 calls besides the list (docs/api-devices.md): a terminal's page (record and binding
// history, events, recent print jobs, daily chart), binding to a school, one or many at once, and
// registering a terminal or rotating its secret (the secret shown once).
import type { HttpClient } from './http';
import type { Page } from './adapters';
import type { DeviceBinding, DevicePrintJob, DeviceRecord, DeviceSecret } from '../domain/devices';
import type { AlarmRecord, AlarmSummary } from '../domain/alarms';
import type { Consumption } from '../domain/consumption';

const BASE = '/api/wrongbook/v1.0/partner/devices';

/** A terminal's page: the record and its bindings. */
export type DeviceDetail = DeviceRecord & { bindings: DeviceBinding[] };
export type { DeviceBinding };
export interface DeviceEvent {
  id: number;
  at: string;
  kind: string;
  detail: Record<string, string | number> | null;
}
export type { DevicePrintJob, DeviceSecret };
export interface DeviceDay {
  day: string;
  jobs: number;
  pages: number;
  signIns: number;
}
export interface DeviceSchool {
  schoolId: number;
  schoolName: string;
  direct: boolean;
}

const ALARMS = '/api/wrongbook/v1.0/partner/alarms';

export function createDeviceApi(http: HttpClient) {
  return {
    deviceDetail: (deviceId: number) => http.get<DeviceDetail>(`${BASE}/detail`, { deviceId }),
    deviceEvents: (deviceId: number, current: number, size: number) => http.get<Page<DeviceEvent>>(`${BASE}/events`, { deviceId, current, size }),
    devicePrintJobs: (deviceId: number, current: number, size: number) => http.get<Page<DevicePrintJob>>(`${BASE}/printJobs`, { deviceId, current, size }),
    deviceDaily: (deviceId: number, days: number) => http.get<DeviceDay[]>(`${BASE}/daily`, { deviceId, days }),
    deviceSchools: () => http.get<DeviceSchool[]>(`${BASE}/schools`),
    bindDevices: (deviceIds: (number | string)[], schoolId: number) => http.post<{ count: number }>(`${BASE}/bind`, { deviceIds, schoolId }),
    unbindDevices: (deviceIds: (number | string)[]) => http.post<{ count: number }>(`${BASE}/unbind`, { deviceIds }),
    /** The secret is in this answer only: shown once, never stored in the browser. */
    registerDevice: (serial: string, model: string) => http.post<DeviceSecret>(`${BASE}/register`, { serial, model }),
    rotateDeviceSecret: (deviceId: number | string) => http.post<DeviceSecret>(`${BASE}/rotateSecret`, { deviceId }),
    paperConsumption: () => http.get<Consumption>(`${BASE}/consumption`),
    // 告警通知 (docs/api-alarms.md).
    alarmPage: (f: { status?: string; kind?: string; deviceId?: number }, current: number, size: number) =>
      http.get<Page<AlarmRecord>>(`${ALARMS}/page`, { ...f, current, size }),
    alarmSummary: () => http.get<AlarmSummary>(`${ALARMS}/summary`, undefined, { silent: true }),
    acknowledgeAlarms: (body: { alarmIds?: number[]; all?: boolean }) => http.post<{ count: number }>(`${ALARMS}/acknowledge`, body),
    resolveAlarm: (alarmId: number, note?: string) => http.post<{ alarmId: number }>(`${ALARMS}/resolve`, { alarmId, note }),
  };
}

export type DeviceApi = ReturnType<typeof createDeviceApi>;
