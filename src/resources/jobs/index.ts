// 职务: the jobs a teacher may hold (the standard ones plus those used in the school). No screen
// of its own: it feeds the job pickers of the teacher forms and filters.
import { defineResource } from '../define';

export default defineResource({
  name: 'jobs',
  label: '职务',
  endpoints: { kind: 'list', list: '/api/vesta/teacher/getJobInSchool' },
  fields: [{ type: 'text', source: 'name', label: '职务' }],
  recordRepresentation: 'name',
  operations: { create: false, edit: false, delete: false, bulkDelete: false },
});
