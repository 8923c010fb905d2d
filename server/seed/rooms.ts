// 教室's part of the demo seed: the same set of rooms in every demo school, so a school admin's
// 教室管理 starts with a list worth searching and filtering.
import type { Db } from '../db';
import * as t from '../db/schema';
import type { RoomKind } from '../../src/domain/rooms';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const ROOMS: [name: string, building: string, floor: number, capacity: number, kind: RoomKind, remark: string | null][] = [
  ['101教室', '明德楼', 1, 45, '普通教室', null],
  ['102教室', '明德楼', 1, 45, '普通教室', null],
  ['201教室', '明德楼', 2, 45, '普通教室', null],
  ['202教室', '明德楼', 2, 45, '普通教室', null],
  ['301教室', '明德楼', 3, 48, '普通教室', '靠近楼梯，适合大班'],
  ['物理实验室', '格致楼', 2, 50, '实验室', '配备学生实验台25组'],
  ['化学实验室', '格致楼', 3, 50, '实验室', '通风橱已年检'],
  ['生物实验室', '格致楼', 4, 48, '实验室', null],
  ['计算机教室一', '信息楼', 1, 60, '机房', null],
  ['计算机教室二', '信息楼', 1, 60, '机房', '周三下午维护'],
  ['音乐教室', '艺术楼', 2, 50, '功能室', null],
  ['美术教室', '艺术楼', 3, 40, '功能室', null],
  ['录播教室', '信息楼', 2, 80, '多媒体教室', '可录制公开课'],
  ['学术报告厅', '行政楼', -1, 300, '多媒体教室', null],
];

/** Every school seeded so far gets the rooms above. */
export async function seedRooms(tx: Tx) {
  const schools = await tx.select({ id: t.schools.id, tenantId: t.schools.tenantId }).from(t.schools).orderBy(t.schools.id);
  await tx.insert(t.rooms).values(
    schools.flatMap((s) => ROOMS.map(([name, building, floor, capacity, kind, remark]) => ({ tenantId: s.tenantId, schoolId: s.id, name, building, floor, capacity, kind, remark }))),
  );
}
