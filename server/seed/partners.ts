// The reseller side of the demo: the partner chain gets a sibling at levels 2 and 3, each partner
// runs schools directly (smaller schools with a roster but no term of homework), and 30 print
// terminals stand in those schools or in the partners' stock. Usage is not written here: the
// device simulator makes it through the device API once the server answers (server/devices).
import type { Db } from '../db';
import * as t from '../db/schema';
import { childAncestors, DEVICE_MODELS } from '../../src/domain/partner';
import { newDeviceSecret } from '../modules/devices/signature';
import { random } from './draft';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

interface Partner {
  id: number;
  ancestors: string;
}

/** The light schools partners run directly: name, region, and which partner of the chain runs it. */
const DIRECT_SCHOOLS = [
  { name: '杭州市拱墅区文澜中学', region: '杭州市拱墅区', runBy: 'p2' },
  { name: '杭州市拱墅区大关实验学校', region: '杭州市拱墅区', runBy: 'p3b' },
  { name: '宁波市鄞州区东湖中学', region: '宁波市鄞州区', runBy: 'p2b' },
] as const;

/** Terminals per school (by name) and in each partner's stock, not deployed. */
const PLACEMENT: { owner: string; school: string | null; count: number }[] = [
  { owner: 'p3', school: '杭州市西湖区实验中学', count: 6 },
  { owner: 'p3', school: null, count: 1 },
  { owner: 'p2', school: '杭州市拱墅区文澜中学', count: 5 },
  { owner: 'p2', school: null, count: 2 },
  { owner: 'p3b', school: '杭州市拱墅区大关实验学校', count: 4 },
  { owner: 'p2b', school: '宁波市鄞州区东湖中学', count: 5 },
  { owner: 'p2b', school: null, count: 1 },
  { owner: 'p1', school: '宁波市海曙区育才中学', count: 5 },
  { owner: 'p1', school: null, count: 1 },
];

/** The demo terminals' serials, 1 … DEMO_DEVICE_COUNT, in placement order (the simulator drives them). */
export const DEMO_DEVICE_COUNT = PLACEMENT.reduce((sum, p) => sum + p.count, 0);
export const demoSerial = (no: number) => `XZP${String(2025000 + no * 37).padStart(8, '0')}`;

const GRADES = [
  { name: '七年级', level: 7, short: '七' },
  { name: '八年级', level: 8, short: '八' },
  { name: '九年级', level: 9, short: '九' },
];
const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐许韩冯邓曹彭曾萧田董潘袁蔡蒋'.split('');
const GIVEN = '雨泽思琪浩然佳怡梓萱宇轩一鸣诗雨俊熙欣妍子墨若曦铭轩语嫣天翊安琪博远沐辰'.split('');

export interface SeededPartners {
  /** Partner ids by their key in the chain (p1, p2, p3, p2b, p3b). */
  ids: Record<string, number>;
}

/**
 * Adds siblings to the chain p1 → p2 → p3, the directly-run schools and the terminals.
 * `schoolsByName` holds the schools the main seed made (their tenant and id).
 */
export async function seedPartners(
  tx: Tx,
  chain: { p1: Partner; p2: Partner; p3: Partner },
  passwordHash: string,
  now = new Date(),
): Promise<SeededPartners> {
  const next = random(20261125);
  const pick = (list: string[]) => list[Math.floor(next() * list.length)];
  const [p2b] = await tx
    .insert(t.partners)
    .values({ parentId: chain.p1.id, ancestors: childAncestors(chain.p1), name: '宁波甬智教育科技有限公司', contactName: '孔磊', phone: '13900000004', region: '宁波市' })
    .returning();
  const [p3b] = await tx
    .insert(t.partners)
    .values({ parentId: chain.p2.id, ancestors: childAncestors(chain.p2), name: '拱墅区启明教育服务部', contactName: '施雯', phone: '13900000005', region: '杭州市拱墅区' })
    .returning();
  const ids: Record<string, number> = { p1: chain.p1.id, p2: chain.p2.id, p3: chain.p3.id, p2b: p2b.id, p3b: p3b.id };

  for (const [si, s] of DIRECT_SCHOOLS.entries()) {
    const [tenant] = await tx.insert(t.tenants).values({ name: s.name }).returning();
    const [school] = await tx.insert(t.schools).values({ tenantId: tenant.id, name: s.name, region: s.region, partnerId: ids[s.runBy] }).returning();
    const base = { tenantId: tenant.id, schoolId: school.id };
    for (const g of GRADES) {
      const [grade] = await tx.insert(t.grades).values({ ...base, name: g.name, level: g.level }).returning();
      const classes = await tx
        .insert(t.classes)
        .values([1, 2].map((no) => ({ ...base, gradeId: grade.id, name: `${g.short}(${no})班` })))
        .returning();
      for (const [ci, c] of classes.entries()) {
        await tx.insert(t.students).values(
          // 27–33 students a class, not all alike, as a school's roll reads.
          Array.from({ length: [31, 28, 33, 29, 30, 27][(si * 2 + ci + g.level) % 6] }, (_, i) => ({
            ...base,
            classId: c.id,
            name: pick(SURNAMES) + pick(GIVEN) + (next() < 0.6 ? pick(GIVEN) : ''),
            studentNo: `${2026 - (g.level - 7)}${si + 3}${String(ci + 1).padStart(2, '0')}${String(i + 1).padStart(2, '0')}`,
            gender: next() < 0.5 ? 1 : 2,
            bindingStatus: 1,
          })),
        );
      }
    }
    // A few teachers, who print papers on the terminals too.
    for (let k = 1; k <= 4; k++) {
      const name = pick(SURNAMES) + pick(GIVEN) + pick(GIVEN);
      const [u] = await tx
        .insert(t.users)
        .values({ ...base, username: `s${si + 3}t${String(k).padStart(2, '0')}`, name, passwordHash, phone: `1371${si + 3}00${String(k).padStart(4, '0')}` })
        .returning();
      await tx.insert(t.userRoles).values({ userId: u.id, tenantId: tenant.id, roleKey: 'xz:teacher' });
      await tx.insert(t.teachers).values({ ...base, userId: u.id, name, phone: u.phone, job: '任课教师' });
    }
  }

  const schools = await tx.select({ id: t.schools.id, name: t.schools.name, tenantId: t.schools.tenantId }).from(t.schools);
  const DAY = 24 * 3600 * 1000;
  let no = 0;
  for (const place of PLACEMENT) {
    const school = place.school ? schools.find((s) => s.name === place.school)! : undefined;
    for (let k = 0; k < place.count; k++) {
      no++;
      const serial = demoSerial(no);
      const model = no % 3 === 0 ? DEVICE_MODELS[1].value : DEVICE_MODELS[0].value;
      const capacity = model === 'XZ-P200' ? 1000 : 500;
      // Deployed between four and eight months ago; the stock arrived last month.
      const boundAt = new Date(now.getTime() - (120 + Math.floor(next() * 120)) * DAY);
      const [device] = await tx
        .insert(t.devices)
        .values({
          serial,
          model,
          partnerId: ids[place.owner],
          schoolId: school?.id ?? null,
          tenantId: school?.tenantId ?? null,
          // Random like every terminal's: the simulator reads them from the database, or from the
          // file the server writes next to it (server/devices/demoSecrets.ts).
          secret: newDeviceSecret(),
          firmware: no % 4 === 0 ? '2.3.1' : '2.4.0',
          paperCapacity: capacity,
          paperLeft: school ? Math.floor(capacity * (0.2 + next() * 0.7)) : capacity,
          boundAt: school ? boundAt : null,
          createdAt: new Date(now.getTime() - (school ? 250 : 30) * DAY),
        })
        .returning();
      if (school) {
        // The second terminal of 文澜中学 stood in 大关实验学校 first, then was moved.
        if (place.school === '杭州市拱墅区文澜中学' && k === 1) {
          const first = schools.find((s) => s.name === '杭州市拱墅区大关实验学校')!;
          const movedAt = new Date(boundAt.getTime() - 1000);
          await tx.insert(t.deviceBindings).values({ deviceId: device.id, schoolId: first.id, boundAt: new Date(boundAt.getTime() - 60 * DAY), unboundAt: movedAt });
          await tx.insert(t.deviceEvents).values([
            { deviceId: device.id, at: new Date(boundAt.getTime() - 60 * DAY), kind: 'bound', detail: { schoolId: first.id, schoolName: first.name } },
            { deviceId: device.id, at: movedAt, kind: 'unbound', detail: { schoolId: first.id, schoolName: first.name } },
          ]);
        }
        await tx.insert(t.deviceBindings).values({ deviceId: device.id, schoolId: school.id, boundAt });
        await tx.insert(t.deviceEvents).values({ deviceId: device.id, at: boundAt, kind: 'bound', detail: { schoolId: school.id, schoolName: school.name } });
      }
    }
  }
  return { ids };
}
