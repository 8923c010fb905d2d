// 练习册: the exercise books an editor (admin, part-timer) may open; the questions of one book are
// edited on the custom screen /workbook/:bookId (src/pages/WorkbookDetail.tsx). The platform's
// shared books are edited by the platform administrator only; a school's part-timer reads them.
import { defineResource, lazyNamed } from '../define';

const OpenBookButton = lazyNamed(() => import('./OpenBook'), 'OpenBookButton');

export default defineResource({
  name: 'workbooks',
  label: '练习册',
  endpoints: { kind: 'paged', list: '/api/minerva/v1.0/exercisebooks', idField: 'id' },
  fields: [
    { type: 'text', source: 'title', label: '书名' },
    { type: 'text', source: 'edition', label: '版本' },
    { type: 'select', source: 'term', label: '册次', choices: [{ label: '上册', value: 1 }, { label: '下册', value: 2 }] },
    { type: 'number', source: 'pageCount', label: '页数' },
    { type: 'number', source: 'questionCount', label: '题数' },
    { type: 'computed', source: 'editable', label: '编辑权限', render: (r) => (r.editable ? '可编辑' : '仅查看（平台共享）') },
  ],
  filters: [{ type: 'search', source: 'keyword', label: '书名', placeholder: '输入书名关键字' }],
  recordRepresentation: 'title',
  operations: { create: false, edit: false, delete: false, bulkDelete: false },
  rowActions: [OpenBookButton],
});
