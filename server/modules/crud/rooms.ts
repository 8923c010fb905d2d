// 教室管理: the school admin's rooms, a declared CRUD resource (docs/api-rooms.md).
import { RoomInput } from '../../../src/domain/rooms';
import { rooms } from '../../db/schema';
import { ADMIN_ROLES } from '../vesta/access';
import type { CrudResource } from './crudRoutes';

export const roomsResource: CrudResource = {
  name: 'rooms',
  label: '教室',
  table: rooms,
  scope: { tenant: rooms.tenantId, school: rooms.schoolId },
  roles: { read: ADMIN_ROLES, write: ADMIN_ROLES },
  input: RoomInput,
  sortable: ['name', 'building', 'floor', 'capacity', 'kind', 'createdAt'],
  sort: ['name', 'ASC'],
  filterable: ['kind', 'building', 'floor'],
  search: ['name', 'building', 'remark'],
  unique: ['name'],
  audit: { kind: 'room', name: 'name' },
};
