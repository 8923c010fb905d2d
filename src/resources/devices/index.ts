// 设备管理: the partner's subtree's print terminals. Config for the list, filters and export; the
// terminal's history drawer, binding to a school (one or many), registering a terminal and
// rotating its secret (shown once) are the custom parts.
import { DEVICE_MODELS, LOW_PAPER_SHEETS, OFFLINE_AFTER_SECONDS, ONLINE_FILTERS } from '../../domain/partner';
import { DEPLOYMENT_FILTERS } from '../../domain/devices';
import { defineResource, lazyNamed } from '../define';
import { alarmStatus, jamStatus, onlineStatus, paperStatus } from './status';

// Custom parts load with the list, not with the shell.
const HistoryButton = lazyNamed(() => import('./DeviceHistory'), 'HistoryButton');
const BindButton = lazyNamed(() => import('./BindDevices'), 'BindButton');
const BulkBind = lazyNamed(() => import('./BindDevices'), 'BulkBind');
const BulkUnbind = lazyNamed(() => import('./BindDevices'), 'BulkUnbind');
const RegisterDeviceButton = lazyNamed(() => import('./DeviceSecrets'), 'RegisterDeviceButton');
const RotateSecretButton = lazyNamed(() => import('./DeviceSecrets'), 'RotateSecretButton');
const LiveRefresh = lazyNamed(() => import('./LiveRefresh'), 'LiveRefresh');

const DEPLOYMENTS = DEPLOYMENT_FILTERS.filter((d) => d.value !== 0);

export default defineResource({
  name: 'devices',
  label: '设备',
  endpoints: { kind: 'paged', list: '/api/wrongbook/v1.0/partner/devices/page', idField: 'deviceId', sortParam: 'sort' },
  fields: [
    { type: 'text', source: 'serial', label: '设备编号', sortable: true },
    { type: 'select', source: 'model', label: '型号', choices: DEVICE_MODELS.map((m) => ({ label: m.value.replace('-', '\u2011'), value: m.value })) },
    { type: 'text', source: 'partnerName', label: '所属合作伙伴' },
    { type: 'text', source: 'schoolName', label: '部署学校', sortable: true },
    { type: 'select', source: 'deployment', label: '部署状态', choices: DEPLOYMENTS },
    { type: 'status', source: 'online', label: '在线状态', status: onlineStatus },
    { type: 'status', source: 'paperLeft', label: '剩余纸张', status: paperStatus, sortable: true },
    { type: 'status', source: 'jammed', label: '卡纸', status: jamStatus },
    { type: 'status', source: 'openAlarms', label: '告警', status: alarmStatus },
    { type: 'text', source: 'firmware', label: '固件' },
    { type: 'date', source: 'lastSeenAt', label: '最近在线', sortable: true },
  ],
  filters: [
    { type: 'search', source: 'keyword', label: '设备编号/学校', placeholder: '输入设备编号或学校' },
    { type: 'reference', source: 'schoolId', label: '学校', reference: 'deviceSchools', optionText: 'schoolName' },
    { type: 'select', source: 'deployment', label: '部署状态', choices: DEPLOYMENTS },
    { type: 'select', source: 'online', label: '在线状态', choices: ONLINE_FILTERS },
    { type: 'select', source: 'model', label: '型号', choices: DEVICE_MODELS },
  ],
  sort: { field: 'serial', order: 'ASC' },
  perPage: 20,
  recordRepresentation: 'serial',
  operations: { create: false, edit: false, delete: false, bulkDelete: false },
  transfer: { export: { url: '/api/wrongbook/v1.0/partner/devices/export', name: '设备列表', columns: true } },
  savedFilters: true,
  rowActions: [HistoryButton, BindButton, RotateSecretButton],
  bulkActions: [BulkBind, BulkUnbind],
  toolbarActions: [LiveRefresh, RegisterDeviceButton],
  description: `在线指 ${OFFLINE_AFTER_SECONDS / 60} 分钟内收到过设备心跳；剩余纸张不超过 ${LOW_PAPER_SHEETS} 张时提示补纸。`,
});
