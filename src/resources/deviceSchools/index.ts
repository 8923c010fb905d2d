// Schools of 设备管理: the ones the partner sees (its subtree runs them or has terminals there).
// No screen of its own: it feeds the school filter and the bind dialog (`direct`: may bind there).
import { defineResource } from '../define';

export default defineResource({
  name: 'deviceSchools',
  label: '学校',
  endpoints: { kind: 'list', list: '/api/wrongbook/v1.0/partner/devices/schools', idField: 'schoolId' },
  fields: [{ type: 'text', source: 'schoolName', label: '学校' }],
  recordRepresentation: 'schoolName',
  operations: { create: false, edit: false, delete: false, bulkDelete: false },
});
