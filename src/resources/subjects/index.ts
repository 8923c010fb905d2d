// 学科: the school's courses with their subjects; feeds the subject pickers of the resource library.
import { defineResource } from '../define';

export default defineResource({
  name: 'subjects',
  label: '学科',
  endpoints: { kind: 'list', list: '/api/vesta/teaching/getSubjectInSchool', idField: 'subjectId' },
  fields: [{ type: 'text', source: 'subjectName', label: '学科' }],
  recordRepresentation: 'subjectName',
  operations: { create: false, edit: false, delete: false, bulkDelete: false },
});
