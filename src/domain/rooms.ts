// 教室: the body of add and update as a TypeBox schema, for the server's declared CRUD routes
// (server/modules/crud/rooms.ts) and the tests. Each field's `title` is its Chinese name:
// validation messages and export headers are read from it.
import { Type, type Static } from 'typebox';
import { ROOM_KINDS, ROOM_LABELS, ROOM_LIMITS } from './roomFields';

export * from './roomFields';

/** An optional field a form may clear (react-admin sends null for an emptied input). */
const nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(schema: T, title: string) =>
  Type.Optional(Type.Union([schema, Type.Null()], { title }));

export const RoomInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: ROOM_LIMITS.name, title: ROOM_LABELS.name }),
    building: nullable(Type.String({ maxLength: ROOM_LIMITS.building }), ROOM_LABELS.building),
    floor: nullable(Type.Integer({ minimum: ROOM_LIMITS.floorMin, maximum: ROOM_LIMITS.floorMax }), ROOM_LABELS.floor),
    capacity: nullable(Type.Integer({ minimum: 0, maximum: ROOM_LIMITS.capacityMax }), ROOM_LABELS.capacity),
    kind: Type.Enum([...ROOM_KINDS], { title: ROOM_LABELS.kind }),
    remark: nullable(Type.String({ maxLength: ROOM_LIMITS.remark }), ROOM_LABELS.remark),
  },
  { additionalProperties: false },
);
export type RoomInput = Static<typeof RoomInput>;
