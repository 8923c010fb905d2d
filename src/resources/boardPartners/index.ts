// The partners of the caller's subtree (itself and those below): the partner pickers of the data
// boards. No screen of its own.
import { defineResource } from '../define';

export default defineResource({
  name: 'boardPartners',
  label: '合作伙伴',
  endpoints: { kind: 'list', list: '/api/wrongbook/v1.0/partner/board/partners' },
  fields: [{ type: 'text', source: 'name', label: '合作伙伴' }],
  recordRepresentation: 'name',
  operations: { create: false, edit: false, delete: false, bulkDelete: false },
});
