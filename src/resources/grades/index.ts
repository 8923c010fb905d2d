// 年级: the school's grades with their class and student counts, graduated ones included.
// Written as docs/adding-a-resource.md describes: this file, and the server route it reads
// (GET /api/vesta/school/overview). It also feeds every grade picker of the other resources.
import { defineResource } from '../define';

export default defineResource({
  name: 'grades',
  label: '年级',
  endpoints: {
    kind: 'list',
    list: '/api/vesta/school/overview',
    idField: 'gradeId',
    rows: (data) => ((data as { grades?: Record<string, unknown>[] } | null)?.grades ?? []).map((g) => ({ ...g, state: g.graduatedYear ? 1 : 0 })),
  },
  fields: [
    { type: 'text', source: 'gradeName', label: '年级', sortable: true },
    { type: 'number', source: 'classCount', label: '班级数', sortable: true },
    { type: 'number', source: 'studentCount', label: '学生数', sortable: true },
    { type: 'number', source: 'boundCount', label: '已绑定', sortable: true },
    { type: 'number', source: 'unboundCount', label: '未绑定', sortable: true },
    { type: 'select', source: 'state', label: '状态', choices: [{ label: '在读', value: 0 }, { label: '已毕业', value: 1 }], sortable: true },
    { type: 'number', source: 'graduatedYear', label: '毕业年份', sortable: true },
  ],
  filters: [{ type: 'select', source: 'state', label: '状态', choices: [{ label: '在读', value: 0 }, { label: '已毕业', value: 1 }] }],
  sort: { field: 'level', order: 'ASC' },
  recordRepresentation: 'gradeName',
  operations: { create: false, edit: false, delete: false, bulkDelete: false },
});
