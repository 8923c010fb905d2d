// 直营学校: the schools the partner's subtree serves, with terminals, students and the range's usage
// (GET …/partner/board/schools, docs/api-partner-boards.md). Read-only; a row opens the school's
// full-screen board.
import { defineResource, lazyNamed } from '../define';

const OpenSchoolBoard = lazyNamed(() => import('./OpenSchoolBoard'), 'OpenSchoolBoard');

export default defineResource({
  name: 'directSchools',
  label: '学校',
  description: '所辖合作伙伴直营或部署了所辖终端的学校；打印量、使用次数、用户数为所选日期内（不选日期为本月），按打印量从高到低排列。',
  endpoints: { kind: 'paged', list: '/api/wrongbook/v1.0/partner/board/schools', idField: 'schoolId' },
  fields: [
    { type: 'text', source: 'schoolName', label: '学校', width: 220 },
    { type: 'text', source: 'region', label: '地区' },
    { type: 'text', source: 'partnerName', label: '合作伙伴', width: 200 },
    { type: 'computed', source: 'devices', label: '终端（在线/总数）', render: (r) => `${r.onlineDevices} / ${r.devices}` },
    { type: 'number', source: 'students', label: '在读学生' },
    { type: 'number', source: 'pages', label: '打印量（页）' },
    { type: 'number', source: 'uses', label: '使用次数' },
    { type: 'number', source: 'users', label: '用户数（人次）' },
  ],
  filters: [
    { type: 'reference', source: 'partnerId', label: '合作伙伴', reference: 'boardPartners', optionText: 'name' },
    { type: 'search', source: 'keyword', label: '学校名称', placeholder: '输入学校名称' },
    { type: 'date', source: 'startDate', label: '开始日期' },
    { type: 'date', source: 'endDate', label: '结束日期' },
  ],
  perPage: 20,
  recordRepresentation: 'schoolName',
  operations: { create: false, edit: false, delete: false, bulkDelete: false },
  rowActions: [OpenSchoolBoard],
});
