// 教室: a school's rooms, declared once for the server's CRUD routes (server/modules/crud/rooms.ts),
// the screen's config (src/resources/rooms) and the tests. Each field's `title` is its Chinese
// name: validation messages and export headers are read from it.
import { Type, type Static } from 'typebox';
import { NAME_MAX_LENGTH } from './school';
import type { Option } from './semester';

export const ROOM_KINDS = ['普通教室', '实验室', '机房', '功能室', '多媒体教室'] as const;
export type RoomKind = (typeof ROOM_KINDS)[number];
export const ROOM_KIND_OPTIONS: readonly Option<string>[] = ROOM_KINDS.map((kind) => ({ label: kind, value: kind }));

export const ROOM_LIMITS = { name: NAME_MAX_LENGTH, building: 50, remark: 200, floorMin: -3, floorMax: 60, capacityMax: 500 } as const;

/** An optional field a form may clear (react-admin sends null for an emptied input). */
const nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(schema: T, title: string) =>
  Type.Optional(Type.Union([schema, Type.Null()], { title }));

/** What a school admin writes: the body of add and update. */
export const RoomInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: ROOM_LIMITS.name, title: '名称' }),
    building: nullable(Type.String({ maxLength: ROOM_LIMITS.building }), '教学楼'),
    floor: nullable(Type.Integer({ minimum: ROOM_LIMITS.floorMin, maximum: ROOM_LIMITS.floorMax }), '楼层'),
    capacity: nullable(Type.Integer({ minimum: 0, maximum: ROOM_LIMITS.capacityMax }), '座位数'),
    kind: Type.Enum([...ROOM_KINDS], { title: '类型' }),
    remark: nullable(Type.String({ maxLength: ROOM_LIMITS.remark }), '备注'),
  },
  { additionalProperties: false },
);
export type RoomInput = Static<typeof RoomInput>;

/** A room as listed: the input plus its id and when it was added (ISO time). */
export interface Room {
  id: number;
  name: string;
  building: string | null;
  floor: number | null;
  capacity: number | null;
  kind: RoomKind;
  remark: string | null;
  createdAt: string;
}
