// 教室: the school's rooms, a declared CRUD resource (server/modules/crud/rooms.ts) in react-admin's
// simple REST dialect; docs/adding-a-resource.md walks through how it was added.
import { ROOM_KIND_OPTIONS, ROOM_LABELS, ROOM_LIMITS } from '../../domain/roomFields';
import { defineResource } from '../define';

export default defineResource({
  name: 'rooms',
  label: '教室',
  endpoints: { kind: 'rest' },
  fields: [
    { type: 'text', source: 'name', label: ROOM_LABELS.name, required: true, maxLength: ROOM_LIMITS.name, sortable: true, helperText: '例如：物理实验室' },
    { type: 'text', source: 'building', label: ROOM_LABELS.building, maxLength: ROOM_LIMITS.building, sortable: true },
    { type: 'number', source: 'floor', label: ROOM_LABELS.floor, min: ROOM_LIMITS.floorMin, max: ROOM_LIMITS.floorMax, sortable: true },
    { type: 'number', source: 'capacity', label: ROOM_LABELS.capacity, min: 0, max: ROOM_LIMITS.capacityMax, sortable: true },
    { type: 'select', source: 'kind', label: ROOM_LABELS.kind, required: true, choices: ROOM_KIND_OPTIONS, sortable: true },
    { type: 'text', source: 'remark', label: ROOM_LABELS.remark, maxLength: ROOM_LIMITS.remark, width: 200 },
    { type: 'date', source: 'createdAt', label: ROOM_LABELS.createdAt, form: false, sortable: true },
  ],
  filters: [
    { type: 'search', source: 'q', label: '搜索', placeholder: '名称、教学楼或备注' },
    { type: 'select', source: 'kind', label: ROOM_LABELS.kind, choices: ROOM_KIND_OPTIONS },
  ],
  sort: { field: 'name', order: 'ASC' },
  recordRepresentation: 'name',
  operations: { create: true, edit: true, delete: true, bulkDelete: true, show: false },
  transfer: { export: { url: '/api/rooms/export', name: '教室列表' } },
});
