// 教室's fields as plain data: Chinese names, kinds and limits. The screen's config reads them
// here, without TypeBox in the first-load bundle; src/domain/rooms.ts builds the schema from them.
import { NAME_MAX_LENGTH } from './school';
import type { Option } from './semester';

export const ROOM_KINDS = ['普通教室', '实验室', '机房', '功能室', '多媒体教室'] as const;
export type RoomKind = (typeof ROOM_KINDS)[number];
export const ROOM_KIND_OPTIONS: readonly Option<string>[] = ROOM_KINDS.map((kind) => ({ label: kind, value: kind }));

export const ROOM_LIMITS = { name: NAME_MAX_LENGTH, building: 50, remark: 200, floorMin: -3, floorMax: 60, capacityMax: 500 } as const;

export const ROOM_LABELS = { name: '名称', building: '教学楼', floor: '楼层', capacity: '座位数', kind: '类型', remark: '备注', createdAt: '创建时间' } as const;
