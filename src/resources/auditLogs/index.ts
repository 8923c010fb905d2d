// 操作日志 (/audit-log): who did what to which record, read-only. The list, its filters (time range,
// action, record kind, operator name), paging and export are config over GET /api/audit/v1/logs;
// what a reader sees (their school, their partner subtree, or everything for the platform) is the
// server's decision (docs/api-audit.md).
import type { RaRecord } from 'ra-core';
import { AUDIT_ACTION_OPTIONS, AUDIT_KIND_OPTIONS, AUDIT_LABELS, AUDIT_LIMITS } from '../../domain/auditFields';
import { dateTimeSeconds } from '../../domain/format';
import { defineResource } from '../define';

const L = AUDIT_LABELS;

export default defineResource({
  name: 'auditLogs',
  label: '操作日志',
  endpoints: { kind: 'paged', list: '/api/audit/v1/logs' },
  fields: [
    { type: 'computed', source: 'createdAt', label: L.createdAt, render: (r: RaRecord) => dateTimeSeconds(r.createdAt), sortable: true, nowrap: true },
    { type: 'text', source: 'userName', label: L.userName, nowrap: true },
    { type: 'text', source: 'roleName', label: L.roleName, nowrap: true },
    { type: 'text', source: 'orgName', label: L.orgName, minWidth: 150 },
    { type: 'select', source: 'action', label: L.action, choices: AUDIT_ACTION_OPTIONS, nowrap: true },
    { type: 'select', source: 'kind', label: L.kind, choices: AUDIT_KIND_OPTIONS, nowrap: true },
    { type: 'text', source: 'summary', label: L.summary, minWidth: 220 },
    { type: 'text', source: 'recordId', label: L.recordId, nowrap: true },
    { type: 'text', source: 'ip', label: L.ip, nowrap: true },
  ],
  filters: [
    { type: 'search', source: 'operator', label: L.userName, placeholder: `输入操作人姓名（最多${AUDIT_LIMITS.operator}字）` },
    { type: 'date', source: 'dateFrom', label: '开始日期' },
    { type: 'date', source: 'dateTo', label: '结束日期' },
    { type: 'select', source: 'action', label: L.action, choices: AUDIT_ACTION_OPTIONS },
    { type: 'select', source: 'kind', label: L.kind, choices: AUDIT_KIND_OPTIONS },
  ],
  sort: { field: 'createdAt', order: 'DESC' },
  perPage: 20,
  recordRepresentation: (record) => String(record.summary ?? ''),
  operations: { create: false, edit: false, delete: false, bulkDelete: false, show: false },
  transfer: { export: { url: '/api/audit/v1/logs/export', name: '操作日志' } },
  description: `学生、教师、班级、角色、订单、结算单、终端和学生心声查看身份等管理操作的记录，保留${AUDIT_LIMITS.retentionDays}天；时间按学校设置的时区显示（默认北京时间）。`,
});
