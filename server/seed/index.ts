// Deterministic demo data for an empty database (README lists the accounts).
// The same seed always gives the same schools, classes, names and ids.
import { sql } from 'drizzle-orm';
import type { Db } from '../db';
import * as t from '../db/schema';
import { hashPassword } from '../auth/passwords';
import { seedContent } from './content';
import { seedSchoolWork } from './schoolWork';
import { seedPartners } from './partners';
import { seedStudentPins } from './pins';
import { seedOrders } from './orders';
import { seedBirthDatesAndConsents } from './heartVoices';
import { seedAuditLog } from './auditLog';
import { seedRooms } from './rooms';
import { seedFamily } from './family';
import { seedRegion } from './region';
// The seeded PRNG, so demo names are the same on every machine.
import { random } from './draft';
import { ensureAnswerPartitions } from '../modules/minerva/answerPartitions';

import { DEMO_PASSWORD, isEmpty } from './presence';

// What every start asks (is there a demo?) lives apart, so a start on a seeded database does not
// load the seed's modules.
export { DEMO_PASSWORD, demoAccountsPresent, isEmpty } from './presence';

const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐许韩冯邓曹彭曾萧田董潘袁蔡蒋余于杜叶程魏苏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方邹熊白孟秦邱侯江尹薛闫段雷龙黎史陶贺顾毛郝龚邵万钱严覃武戴莫孔向汤'.split('');
// Given-name characters, including rare ones that real rosters contain (喆, 堃, 昇, 玥).
const GIVEN = '子涵梓轩浩宇欣怡雨桐一诺思远佳琪俊杰嘉怡博文雅婷宇航诗涵泽宇梦瑶晨曦若汐沐阳语桐锦程皓轩可馨明哲静怡天佑书瑶昊然睿喆堃昇玥'.split('');
const SUBJECTS = ['语文', '数学', '英语', '物理', '化学', '道德与法治', '历史', '地理', '生物'];
const GRADES = [
  { name: '七年级', level: 7, short: '七' },
  { name: '八年级', level: 8, short: '八' },
  { name: '九年级', level: 9, short: '九' },
];
const CLASSES_PER_GRADE = 4;
/**
 * Class sizes per school and grade (七, 八, 九), as a real school's roll reads: 36–45, never all
 * alike. Each grade still holds 160 students, so the school's and the grades' totals stay round.
 */
const CLASS_SIZES = [
  [[42, 39, 41, 38], [40, 43, 37, 40], [44, 38, 39, 39]],
  [[41, 40, 36, 43], [39, 42, 41, 38], [45, 37, 40, 38]],
];

function chineseName(next: () => number): string {
  const pick = (list: string[]) => list[Math.floor(next() * list.length)];
  const given = next() < 0.7 ? pick(GIVEN) + pick(GIVEN) : pick(GIVEN);
  return pick(SURNAMES) + given;
}


export interface SeedOptions {
  /** The server's terminal PIN key (AppConfig.pinKey): the demo students' PINs are hashed with it. */
  pinKey: Uint8Array;
}

/** Seeds the demo when the database has no users; returns whether it did. */
export async function seedDemo(db: Db, { pinKey }: SeedOptions): Promise<boolean> {
  if (!(await isEmpty(db))) return false;
  // The answer records' term partitions first, so the demo's rows go straight to theirs.
  await ensureAnswerPartitions(db);
  // One hash for every demo account: argon2 is slow on purpose, and they share the password.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const next = random(20260901);
  let phoneNo = 0;

  await db.transaction(async (tx) => {
    const [p1] = await tx.insert(t.partners).values({ name: '浙江智学教育科技有限公司', ancestors: '0', contactName: '周明', phone: '13900000001', region: '浙江省' }).returning();
    const [p2] = await tx.insert(t.partners).values({ parentId: p1.id, ancestors: `0,${p1.id}`, name: '杭州学联教育服务有限公司', contactName: '吴芳', phone: '13900000002', region: '杭州市' }).returning();
    const [p3] = await tx.insert(t.partners).values({ parentId: p2.id, ancestors: `0,${p1.id},${p2.id}`, name: '西湖区晨光教育咨询工作室', contactName: '郑凯', phone: '13900000003', region: '杭州市西湖区' }).returning();

    const subjectRows = await tx.insert(t.subjects).values(SUBJECTS.map((name) => ({ name }))).returning();
    const subjectId = (name: string) => subjectRows.find((s) => s.name === name)!.id;

    const user = async (values: Omit<typeof t.users.$inferInsert, 'passwordHash'>, roles: string[]) => {
      const [u] = await tx.insert(t.users).values({ ...values, passwordHash }).returning();
      await tx.insert(t.userRoles).values(roles.map((role) => ({ userId: u.id, tenantId: u.tenantId, roleKey: `xz:${role}` })));
      return u;
    };

    const schoolsSeed = [
      { tenant: '杭州市西湖区实验中学', name: '杭州市西湖区实验中学', region: '杭州市西湖区', partnerId: p3.id, suffix: '' },
      { tenant: '宁波市海曙区育才中学', name: '宁波市海曙区育才中学', region: '宁波市海曙区', partnerId: p1.id, suffix: '2' },
    ];
    for (const [si, s] of schoolsSeed.entries()) {
      const [tenant] = await tx.insert(t.tenants).values({ name: s.tenant }).returning();
      const tenantId = tenant.id;
      const [school] = await tx.insert(t.schools).values({ tenantId, name: s.name, region: s.region, partnerId: s.partnerId }).returning();
      const base = { tenantId, schoolId: school.id };
      const courseRows = await tx.insert(t.courses).values(SUBJECTS.map((name) => ({ ...base, subjectId: subjectId(name), name }))).returning();
      const course = (name: string) => courseRows.find((c) => c.name === name)!;

      const classRows: (typeof t.classes.$inferSelect & { level: number })[] = [];
      for (const g of GRADES) {
        const [grade] = await tx.insert(t.grades).values({ ...base, name: g.name, level: g.level }).returning();
        const created = await tx
          .insert(t.classes)
          .values(Array.from({ length: CLASSES_PER_GRADE }, (_, i) => ({ ...base, gradeId: grade.id, name: `${g.short}(${i + 1})班` })))
          .returning();
        classRows.push(...created.map((c) => ({ ...c, level: g.level })));
      }
      const entryYear = (level: number) => 2026 - (level - 7);
      for (const c of classRows) {
        const classNo = classRows.filter((x) => x.level === c.level).indexOf(c) + 1;
        await tx.insert(t.students).values(
          Array.from({ length: CLASS_SIZES[si][c.level - 7][classNo - 1] }, (_, i) => ({
            ...base,
            classId: c.id,
            name: chineseName(next),
            studentNo: `${entryYear(c.level)}${si + 1}${String(classNo).padStart(2, '0')}${String(i + 1).padStart(2, '0')}`,
            gender: next() < 0.5 ? 1 : 2,
            parentPhone: `13${Math.floor(100000000 + next() * 899999999)}`,
            bindingStatus: next() < 0.6 ? 1 : 0,
          })),
        );
      }
      const cls = (level: number, no: number) => classRows.filter((c) => c.level === level)[no - 1];

      const teacher = async (username: string, name: string, roles: string[], teach: [number, number, string][], job = '任课教师') => {
        const u = await user({ ...base, username, name, phone: `1380000${String(++phoneNo).padStart(4, '0')}` }, roles);
        const [row] = await tx.insert(t.teachers).values({ ...base, userId: u.id, name, phone: u.phone, job }).returning();
        if (teach.length) {
          await tx.insert(t.teachingAssignments).values(teach.map(([level, no, courseName]) => ({ tenantId, teacherId: row.id, classId: cls(level, no).id, courseId: course(courseName).id })));
        }
        return u;
      };

      if (si === 0) {
        await teacher('teacher', '陈静', ['teacher', 'teaching'], [[7, 1, '数学'], [7, 2, '数学'], [8, 1, '物理'], [8, 2, '物理']], '数学教师');
        await teacher('teacher2', '林晓', ['teacher'], [[7, 1, '语文'], [8, 1, '语文']], '语文教师');
        const classic = await teacher('classic', '黄蕾', ['teacher'], [[8, 2, '英语'], [8, 3, '英语']], '英语教师');
        await user({ ...base, username: 'schooladmin', name: '赵校务' }, ['schoolAdmin']);
        await user({ ...base, username: 'principal', name: '孙校长' }, ['schoolMaster']);
        const sl = await user({ ...base, username: 'subjectleader', name: '钱组长' }, ['subjectleader']);
        await tx.insert(t.leaderScopes).values({ tenantId, userId: sl.id, role: 'subjectleader', subjectId: subjectId('数学') });
        // A grade leader who also teaches: the account that can switch roles (SPEC §2.1).
        const gl = await teacher('gradeleader', '冯主任', ['gradeLeader', 'teacher', 'teaching'], [[9, 1, '历史']], '年级组长');
        await tx.insert(t.leaderScopes).values({ tenantId, userId: gl.id, role: 'gradeLeader', gradeId: cls(7, 1).gradeId });
        await user({ tenantId, username: 'researcher', name: '何教研', region: s.region }, ['regionResearcher']);
        await user({ ...base, username: 'psych', name: '宋心语' }, ['psychologyteacher']);
        await user({ ...base, username: 'parttime', name: '韩助教' }, ['parttime']);
        // Colleagues so that every class has its main subjects taught (what leaders analyse).
        let n = 1;
        const colleagues: Record<string, typeof classic> = {};
        for (const level of [7, 8, 9]) {
          for (const subject of ['语文', '数学', '英语']) {
            const classesTaken = [1, 2, 3, 4].filter(
              (no) => !(level === 7 && no <= 2 && subject === '数学') && !(subject === '语文' && ((level === 7 && no === 1) || (level === 8 && no === 1))) && !(level === 8 && subject === '英语' && (no === 2 || no === 3)),
            );
            const username = `t${String(n++).padStart(3, '0')}`;
            colleagues[username] = await teacher(username, chineseName(next), ['teacher'], classesTaken.map((no) => [level, no, subject]));
          }
        }
        // A second 数学 teacher of 七(1)班, so 网上阅卷 can split a question between two markers.
        // Seeded last, so every id and name above stays as it was.
        await teacher('teacher4', '方远', ['teacher'], [[7, 1, '数学']], '数学教师');
        // 班主任 of a few classes (角色任命), each a teacher of that class; seeded last for the same reason.
        const heads: [typeof classic, number, number][] = [[colleagues.t001, 7, 3], [classic, 8, 3], [colleagues.t007, 9, 1]];
        await tx.insert(t.leaderScopes).values(heads.map(([u, level, no]) => ({ tenantId, userId: u.id, role: 'headTeacher', classId: cls(level, no).id })));
      } else {
        await user({ ...base, username: 'schooladmin2', name: '钟校务' }, ['schoolAdmin']);
        await teacher('teacher3', '许文', ['teacher', 'teaching'], [[7, 1, '数学'], [7, 2, '数学']], '数学教师');
      }
    }

    await user({ username: 'admin', name: '平台管理员' }, ['admin']);
    await user({ username: 'partner1', name: '周明', partnerId: p1.id }, ['partner']);
    await user({ username: 'partner2', name: '吴芳', partnerId: p2.id }, ['partner']);
    await user({ username: 'partner3', name: '郑凯', partnerId: p3.id }, ['partner']);

    // Teaching content (books, bank) and a term of homework and exams with every student's answers.
    const books = await seedContent(tx, subjectId);
    await seedSchoolWork(tx, books);
    // The reseller side: the rest of the partner chain, directly-run schools and terminals.
    const { ids } = await seedPartners(tx, { p1, p2, p3 }, passwordHash);
    await seedOrders(tx, ids);
    // Birth dates and guardian consents for 学生心声 (PIPL art. 31).
    await seedBirthDatesAndConsents(tx);
    // 教室 of every school.
    await seedRooms(tx);
    // Terminal PINs, so the simulator's named 学生心声 are proved by the student.
    await seedStudentPins(tx, pinKey);
    // 家长查看 links and 复核申请 of the demo school.
    await seedFamily(tx);
    // 操作日志 entries for what the records above say was done.
    await seedAuditLog(tx);
    // The region's other schools and its 联考 (last, so every id above stays as it was).
    await seedRegion(tx, passwordHash);
  });
  // Planner statistics and visibility for what was just written: PGlite has no autovacuum, a
  // planner that takes every table for empty picks slow plans, and index-only scans need the
  // pages marked all-visible (server/db/statistics.ts).
  await db.execute(sql`VACUUM (ANALYZE)`);
  return true;
}
