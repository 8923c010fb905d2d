// 操作日志 through the real API on a listening server: every covered kind of administrative write
// leaves one entry with its operator and a Chinese summary (and a refused write leaves none); a
// school admin reads their own school's entries only, a partner its subtree's, the platform admin
// everything, a teacher nothing; the export carries the filtered rows; a year-old entry is pruned;
// hostile paging and filters are Chinese 400s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/testApp';
import { XLSX, client, multipart, readRows, workbook } from '../support/school';
import { rows } from '../../server/db/query';
import { pruneAuditLog } from '../../server/modules/audit/retention';
import { NOTIFY_PATH } from '../../server/modules/mercury/payment/notifyRoutes';
import type { SandboxGateway } from '../../server/modules/mercury/payment/sandbox';
import type { AuditRecord } from '../../src/domain/audit';
import { cancelOrder, placeOrder, requestRefund } from '../../server/modules/mercury/orders';
import { placeRecharge } from '../../server/modules/partner/recharges';

let t: TestApp;
let c: ReturnType<typeof client>;
const LOGS = '/api/audit/v1/logs';
const q = <T>(query: ReturnType<typeof sql>) => rows<T>(t.database.db, query);

let partnerIds: Record<'p1' | 'p2' | 'p3', number>;
let school1: number;

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const ps = await q<{ id: number; name: string }>(sql`SELECT id, name FROM partners`);
  const id = (prefix: string) => ps.find((p) => p.name.startsWith(prefix))!.id;
  partnerIds = { p1: id('浙江智学'), p2: id('杭州学联'), p3: id('西湖区晨光') };
  school1 = (await c.data('schooladmin', '/api/juno/personal/info')).schoolId;
}, 120_000);
afterAll(() => t?.close());

/** Every entry the platform admin reads, newest first (the whole log of this test database). */
const everything = async (query = ''): Promise<AuditRecord[]> => (await c.data('admin', `${LOGS}?size=500${query}`)).records;
const total = async () => (await q<{ n: number }>(sql`SELECT count(*)::int AS n FROM audit_logs`))[0].n;
/** The newest entry, after one write. */
const latest = async () => (await everything())[0];

describe('each covered action leaves an entry with its operator and summary', () => {
  it('students: add, update, remove, import; a refused add leaves nothing', async () => {
    const tree = await c.data('schooladmin', '/api/vesta/class/treeClassBySchool');
    const cls = tree[0].children[0];
    const added = await c.done('schooladmin', '/api/vesta/student/add', { name: '审计张三', studentNo: 'AUD-001', gender: 1, classId: cls.classId, parentPhone: '13900001111' });
    const entry = await latest();
    expect(entry).toMatchObject({
      userName: '赵校务',
      role: 'mpSchoolAdmin',
      roleName: '学校管理员',
      orgName: '杭州市西湖区实验中学',
      action: 'create',
      kind: 'student',
      recordId: String(added.studentId),
      summary: `新增学生 审计张三（AUD-001）到 ${cls.gradeName}${cls.className}`,
      ip: '127.0.0.1',
    });
    expect(new Date(entry.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);

    const before = await total();
    const duplicate = await c.post('schooladmin', '/api/vesta/student/add', { name: '审计李四', studentNo: 'AUD-001', classId: cls.classId });
    expect(duplicate.statusCode).toBe(409);
    expect(await total()).toBe(before);

    await c.done('schooladmin', '/api/vesta/student/update', { studentId: added.studentId, name: '审计张三丰', parentPhone: '13900002222' });
    const updated = await latest();
    expect(updated).toMatchObject({ action: 'update', kind: 'student', summary: '修改学生 审计张三（AUD-001）的姓名、家长手机号' });
    // A phone number is personal data: the summary names the field, not the value.
    expect(JSON.stringify(updated)).not.toContain('13900002222');

    await c.done('schooladmin', '/api/vesta/student/remove', { studentId: added.studentId });
    expect(await latest()).toMatchObject({ action: 'delete', kind: 'student', summary: '删除学生 审计张三丰（AUD-001）' });

    const bytes = await workbook(['姓名', '学号', '性别', '年级', '班级'], [
      ['导入甲', 'AUD-101', '男', cls.gradeName, cls.className],
      ['导入乙', 'AUD-102', '女', cls.gradeName, cls.className],
    ]);
    const imported = await c.upload('schooladmin', '/api/vesta/student/importData', multipart({}, { name: 'students.xlsx', content: bytes, type: XLSX }));
    expect(imported.statusCode, imported.body).toBe(200);
    expect(await latest()).toMatchObject({ action: 'import', kind: 'student', recordId: null, summary: '导入学生 2 名（新增 2 名，更新 0 名，跳过 0 名）' });
  });

  it('teachers and their roles: add, job change, bind and unbind, password reset (no password), remove', async () => {
    const tree = await c.data('schooladmin', '/api/vesta/class/treeClassBySchool');
    const cls = tree[0].children[0];
    const courses = await c.data('schooladmin', '/api/vesta/teaching/getSubjectInSchool');
    const math = courses.find((x: { courseName: string }) => x.courseName === '数学');
    const added = await c.done('schooladmin', '/api/vesta/teacher/add', { name: '审计李四', phone: '13712345678', job: '任课教师' });
    expect(await latest()).toMatchObject({ userName: '赵校务', action: 'create', kind: 'teacher', recordId: String(added.teacherId), summary: '新增教师 审计李四（任课教师）' });
    expect(JSON.stringify(await latest())).not.toContain(added.password);

    await c.done('schooladmin', '/api/vesta/teacher/update', { teacherId: added.teacherId, job: '班主任' });
    expect(await latest()).toMatchObject({ action: 'update', kind: 'teacher', summary: '修改教师 审计李四 的职务（任课教师 → 班主任）' });

    await c.done('schooladmin', '/api/vesta/teaching/bindClassCourse', { teacherId: added.teacherId, classId: cls.classId, courseId: math.courseId });
    expect(await latest()).toMatchObject({ action: 'assign', kind: 'role', summary: `为教师 审计李四 分配任教 ${cls.gradeName}${cls.className} 数学` });
    await c.done('schooladmin', '/api/vesta/teaching/removeTeacherFromClass', { teacherId: added.teacherId, classId: cls.classId });
    expect(await latest()).toMatchObject({ action: 'unassign', kind: 'role', summary: `将教师 审计李四 移出 ${cls.gradeName}${cls.className} 的任教` });

    const reset = await c.done('schooladmin', '/api/vesta/teacher/resetPassword', { teacherId: added.teacherId });
    const resetEntry = await latest();
    expect(resetEntry).toMatchObject({ action: 'resetPassword', kind: 'teacher', summary: '重置教师 审计李四 的密码' });
    expect(JSON.stringify(resetEntry)).not.toContain(reset.password);

    await c.done('schooladmin', '/api/vesta/teacher/remove', { teacherId: added.teacherId });
    expect(await latest()).toMatchObject({ action: 'delete', kind: 'teacher', summary: '删除教师 审计李四' });

    const bytes = await workbook(['姓名', '手机号'], [['导入教师甲', '13712340001']]);
    const imported = await c.upload('schooladmin', '/api/vesta/teacher/importData', multipart({}, { name: 'teachers.xlsx', content: bytes, type: XLSX }));
    expect(imported.statusCode, imported.body).toBe(200);
    expect(await latest()).toMatchObject({ action: 'import', kind: 'teacher', summary: '导入教师 1 名（新增 1 名，更新 0 名）' });
  });

  it('classes, rooms and the school setting; a refused class delete leaves nothing', async () => {
    const tree = await c.data('schooladmin', '/api/vesta/class/treeClassBySchool');
    const grade = tree[0];
    const created = await c.done('schooladmin', '/api/vesta/class/add', { gradeId: grade.gradeId, className: '审计班' });
    expect(await latest()).toMatchObject({ action: 'create', kind: 'class', recordId: String(created.classId), summary: `新增班级 ${grade.gradeName}审计班` });
    await c.done('schooladmin', '/api/vesta/class/update', { classId: created.classId, className: '审计二班' });
    expect(await latest()).toMatchObject({ action: 'update', kind: 'class', summary: `修改班级 ${grade.gradeName}审计班 为 ${grade.gradeName}审计二班` });
    const before = await total();
    const full = await c.post('schooladmin', '/api/vesta/class/remove', { classId: grade.children[0].classId });
    expect(full.statusCode).toBe(409);
    expect(await total()).toBe(before);
    await c.done('schooladmin', '/api/vesta/class/remove', { classId: created.classId });
    expect(await latest()).toMatchObject({ action: 'delete', kind: 'class', summary: `删除班级 ${grade.gradeName}审计二班` });

    const token = await c.token('schooladmin');
    const room = await t.call(token, { method: 'POST', url: '/api/rooms', payload: { name: '审计实验室', kind: '实验室' } });
    expect(room.statusCode, room.body).toBe(200);
    const roomId = room.json().data.id;
    expect(await latest()).toMatchObject({ action: 'create', kind: 'room', recordId: String(roomId), summary: '新增教室 审计实验室' });
    await t.call(token, { method: 'PUT', url: `/api/rooms/${roomId}`, payload: { name: '审计实验室', kind: '实验室', capacity: 40 } });
    expect(await latest()).toMatchObject({ action: 'update', kind: 'room', summary: '修改教室 审计实验室的座位数' });
    await t.call(token, { method: 'DELETE', url: `/api/rooms/${roomId}` });
    expect(await latest()).toMatchObject({ action: 'delete', kind: 'room', summary: '删除教室 审计实验室' });

    const settings = await t.call(token, { method: 'PUT', url: '/api/vesta/school/settings', payload: { scoreDisclosure: 2 } });
    expect(settings.statusCode).toBe(200);
    expect(await latest()).toMatchObject({ action: 'update', kind: 'setting', summary: '修改成绩公开范围为“显示名次（不显示分数）”' });
  });

  it('orders: placed, cancelled, refunded; recharges', async () => {
    const packs = await c.data('partner2', '/api/wrongbook/v1.0/partner/getPartnerPaperConfig');
    const order = await c.done('partner2', '/api/wrongbook/v1.0/partner/addPaperOrder', { items: [{ packId: packs[0].packId, quantity: 2 }] });
    expect(await latest()).toMatchObject({ userName: '吴芳', role: 'partner', roleName: '合作伙伴', orgName: expect.stringMatching(/^杭州学联/), action: 'create', kind: 'order', recordId: order.orderNo });
    expect((await latest()).summary).toMatch(new RegExp(`^提交纸张订单 ${order.orderNo}（¥[\\d,.]+）$`));
    await c.done('partner2', '/api/mercury/v1/order/cancelByOrderNo', { orderNo: order.orderNo });
    expect(await latest()).toMatchObject({ action: 'cancel', kind: 'order', recordId: order.orderNo, summary: `取消订单 ${order.orderNo}` });

    // Paid through the sandbox gateway's signed notice, then refunded.
    const paidOrder = await c.done('partner2', '/api/wrongbook/v1.0/partner/addPaperOrder', { items: [{ packId: packs[0].packId, quantity: 1 }] });
    const { body, headers } = (t.app.payments as SandboxGateway).signed({ kind: 'paid', outTradeNo: paidOrder.orderNo, transactionId: `SBXAUDIT${paidOrder.orderNo}`, amountFen: paidOrder.amountFen, paidAt: new Date() });
    expect((await t.app.inject({ method: 'POST', url: NOTIFY_PATH, payload: body, headers })).statusCode).toBe(200);
    const refund = await c.done('partner2', '/api/mercury/v1/order/applyRefund', { orderNo: paidOrder.orderNo, reason: '纸张规格订错了' });
    const refundEntry = (await everything('&kind=order&action=refund'))[0];
    expect(refundEntry).toMatchObject({ userName: '吴芳', recordId: paidOrder.orderNo });
    expect(refundEntry.summary).toContain(`申请订单 ${paidOrder.orderNo} 退款（退款单 ${refund.refundNo}`);

    const recharge = await c.done('partner1', '/api/wrongbook/v1.0/partner/addPartnerRecharge', { amountFen: 100_000 });
    expect((await everything('&kind=recharge'))[0]).toMatchObject({ userName: '周明', action: 'create', recordId: recharge.rechargeNo, summary: `提交充值单 ${recharge.rechargeNo}（¥1,000.00）` });
  });

  it('an order, a cancellation, a refund or a recharge whose entry cannot be written is not made either', async () => {
    const db = t.database.db;
    const payments = t.app.payments;
    const failing = async () => {
      throw new Error('操作日志写入失败');
    };
    const counts = async () =>
      (await q<{ orders: number; cancelled: number; refunds: number; recharges: number }>(sql`
        SELECT (SELECT count(*)::int FROM partner_orders) AS orders, (SELECT count(*)::int FROM partner_orders WHERE status = 3) AS cancelled,
               (SELECT count(*)::int FROM order_refunds) AS refunds, (SELECT count(*)::int FROM partner_recharges) AS recharges`))[0];
    const [buyer] = await q<{ id: number; ancestors: string; parentId: number | null }>(sql`SELECT id, ancestors, parent_id AS "parentId" FROM partners WHERE id = ${partnerIds.p2}`);
    const [pack] = await q<{ id: number }>(sql`SELECT id FROM paper_packs ORDER BY id LIMIT 1`);
    const before = await counts();
    await expect(placeOrder(db, payments, buyer, { items: [{ packId: pack.id, quantity: 1 }] }, null, new Date(), failing)).rejects.toThrow('操作日志写入失败');
    await expect(placeRecharge(db, payments, partnerIds.p1, 100_000, null, new Date(), failing)).rejects.toThrow('操作日志写入失败');
    const open = await placeOrder(db, payments, buyer, { items: [{ packId: pack.id, quantity: 1 }] }, null);
    await expect(cancelOrder(db, payments, open.orderNo, new Date(), failing)).rejects.toThrow('操作日志写入失败');
    // A refund is asked before dispatch: partner3's newest paid order is still 待发货.
    const [paid] = await q<{ orderNo: string }>(sql`
      SELECT order_no AS "orderNo" FROM partner_orders WHERE buyer_id = ${partnerIds.p3} AND status = 2 AND refund_status = 0 AND fulfil_status = 1 AND paid_at > now() - interval '6 days' ORDER BY id DESC LIMIT 1`);
    await expect(requestRefund(db, payments, paid.orderNo, partnerIds.p3, '规格订错', null, new Date(), failing)).rejects.toThrow('操作日志写入失败');
    // Only the order placed without a failing entry is there, still open.
    expect(await counts()).toEqual({ ...before, orders: before.orders + 1 });
  });

  it('statements: confirmed by the earning partner, settled by its payer; a refused move leaves nothing', async () => {
    const [pending] = await q<{ statementNo: string }>(sql`
      SELECT statement_no AS "statementNo" FROM settlement_statements WHERE partner_id = ${partnerIds.p2} AND status = 1 ORDER BY id LIMIT 1`);
    expect(pending).toBeDefined();
    const before = await total();
    // Only the earner confirms: the payer's try is a 409 and no entry.
    expect((await c.post('partner1', '/api/wrongbook/v1.0/partner/channel/confirmStatement', { statementNo: pending.statementNo })).statusCode).toBe(409);
    expect(await total()).toBe(before);
    await c.done('partner2', '/api/wrongbook/v1.0/partner/channel/confirmStatement', { statementNo: pending.statementNo });
    const confirmed = await latest();
    expect(confirmed).toMatchObject({ userName: '吴芳', action: 'confirm', kind: 'statement', recordId: pending.statementNo });
    expect(confirmed.summary).toMatch(new RegExp(`^确认结算单 ${pending.statementNo}（杭州学联.*，\\d{4}-\\d{2}，¥[\\d,.]+）$`));
    await c.done('partner1', '/api/wrongbook/v1.0/partner/channel/settleStatement', { statementNo: pending.statementNo });
    expect(await latest()).toMatchObject({ userName: '周明', action: 'settle', kind: 'statement', recordId: pending.statementNo });
  });

  it('terminals: deployed to a school and unbound', async () => {
    const [device] = await q<{ id: number; serial: string }>(sql`SELECT id, serial FROM devices WHERE partner_id = ${partnerIds.p3} AND school_id IS NULL ORDER BY id LIMIT 1`);
    const [school] = await q<{ id: number; name: string }>(sql`SELECT id, name FROM schools WHERE partner_id = ${partnerIds.p3} ORDER BY id LIMIT 1`);
    expect(device && school).toBeTruthy();
    await c.done('partner3', '/api/wrongbook/v1.0/partner/devices/bind', { deviceIds: [device.id], schoolId: school.id });
    expect(await latest()).toMatchObject({ userName: '郑凯', action: 'deploy', kind: 'terminal', recordId: device.serial, summary: `部署终端 ${device.serial} 到 ${school.name}` });
    await c.done('partner3', '/api/wrongbook/v1.0/partner/devices/unbind', { deviceIds: [device.id] });
    expect(await latest()).toMatchObject({ userName: '郑凯', action: 'undeploy', kind: 'terminal', summary: `解绑终端 ${device.serial}（${school.name}）` });
  });

  it('a heart voice reveal names the teacher and the message, never its words, reason or writer', async () => {
    const [student] = await q<{ id: number; name: string; tenantId: number }>(sql`SELECT id, name, tenant_id AS "tenantId" FROM students WHERE school_id = ${school1} ORDER BY id LIMIT 1`);
    const words = '审计测试心声内容不应出现在日志';
    const [voice] = await q<{ id: number }>(sql`
      INSERT INTO heart_voices (tenant_id, school_id, student_id, anonymous, category, content, suggested_level, confirmed_level, status)
      VALUES (${student.tenantId}, ${school1}, ${student.id}, true, 1, ${words}, 3, 3, 1) RETURNING id`);
    const reason = '学生表达了明确的轻生念头，需要立即联系监护人';
    await c.done('psych', `/api/heart/v1/voices/${voice.id}/reveal`, { reason });
    const entry = await latest();
    expect(entry).toMatchObject({ userName: '宋心语', roleName: '心理教师', orgName: '杭州市西湖区实验中学', action: 'reveal', kind: 'heartVoice', recordId: String(voice.id) });
    expect(entry.summary).toBe(`查看确认为高危的匿名心声（编号${voice.id}）的写信人身份`);
    for (const secret of [words, reason, student.name]) expect(JSON.stringify(entry)).not.toContain(secret);
    // The school admin of that school sees who revealed.
    expect((await c.data('schooladmin', `${LOGS}?kind=heartVoice`)).records[0]).toMatchObject({ userName: '宋心语', recordId: String(voice.id) });
  });

  it('a guardian consent', async () => {
    const [student] = await q<{ id: number; name: string; studentNo: string }>(sql`SELECT id, name, student_no AS "studentNo" FROM students WHERE school_id = ${school1} ORDER BY id DESC LIMIT 1`);
    await c.done('schooladmin', '/api/heart/v1/consents', { studentId: student.id, guardianName: '审计家长', consentedOn: '2025-09-01' });
    expect(await latest()).toMatchObject({ action: 'update', kind: 'consent', recordId: String(student.id), summary: `登记学生 ${student.name}（${student.studentNo}）的监护人同意（2025-09-01）` });
  });
});

describe('who reads what', () => {
  it('a school admin reads their own school only; another school reads its own', async () => {
    await c.done('schooladmin2', '/api/vesta/class/add', { gradeId: (await c.data('schooladmin2', '/api/vesta/class/treeClassBySchool'))[0].gradeId, className: '二校审计班' });
    const mine = (await c.data('schooladmin', `${LOGS}?size=500`)).records as AuditRecord[];
    expect(mine.length).toBeGreaterThan(10);
    expect(new Set(mine.map((e) => e.orgName))).toEqual(new Set(['杭州市西湖区实验中学']));
    const theirs = (await c.data('schooladmin2', `${LOGS}?size=500`)).records as AuditRecord[];
    // The demo's own term of entries for that school, and the class just added, newest first.
    const [{ seeded }] = await q<{ seeded: number }>(sql`SELECT count(*)::int AS seeded FROM audit_logs a JOIN schools s ON s.id = a.school_id WHERE s.name = '宁波市海曙区育才中学'`);
    expect(theirs.length).toBe(seeded);
    expect(new Set(theirs.map((e) => e.orgName))).toEqual(new Set(['宁波市海曙区育才中学']));
    expect(theirs[0]).toMatchObject({ summary: '新增班级 七年级二校审计班', userName: '钟校务', orgName: '宁波市海曙区育才中学' });
  });

  it('refuses a forged tenant or school filter', async () => {
    for (const forged of ['tenantId=1', 'schoolId=1', 'tenant_id=1', 'partnerId=1']) {
      const res = await c.get('schooladmin2', `${LOGS}?${forged}`);
      expect(res.statusCode, forged).toBe(400);
      expect(res.json().msg).toBe('请求包含不支持的参数');
      expect((await c.get('schooladmin2', `${LOGS}/export?${forged}`)).statusCode).toBe(400);
    }
  });

  it('a teacher, a principal and a psychology teacher get 403', async () => {
    for (const user of ['teacher', 'principal', 'psych']) {
      const res = await c.get(user, LOGS);
      expect(res.statusCode, user).toBe(403);
      expect(res.json().msg).toMatch(/[\u4e00-\u9fff]/);
      expect((await c.get(user, `${LOGS}/export`)).statusCode).toBe(403);
    }
  });

  it('the platform admin reads everything', async () => {
    const all = await everything();
    expect(all.length).toBe(await total());
    const orgs = new Set(all.map((e) => e.orgName));
    for (const org of ['杭州市西湖区实验中学', '宁波市海曙区育才中学']) expect(orgs).toContain(org);
    expect([...orgs].some((o) => o.startsWith('杭州学联'))).toBe(true);
  });

  it('a partner reads its own and its sub-partners’ entries', async () => {
    const names = async (user: string) => new Set(((await c.data(user, `${LOGS}?size=500`)).records as AuditRecord[]).map((e) => e.userName));
    expect(await names('partner1')).toEqual(new Set(['周明', '吴芳', '郑凯']));
    expect(await names('partner2')).toEqual(new Set(['吴芳', '郑凯']));
    expect(await names('partner3')).toEqual(new Set(['郑凯']));
  });
});

describe('filters, paging and export', () => {
  it('filters by action, kind, operator and day (China time), and pages', async () => {
    const all = await everything();
    const students = (await c.data('schooladmin', `${LOGS}?kind=student&size=500`)).records as AuditRecord[];
    expect(students.length).toBe(all.filter((e) => e.kind === 'student' && e.orgName === '杭州市西湖区实验中学').length);
    expect(students.every((e) => e.kind === 'student')).toBe(true);
    const deletes = (await c.data('schooladmin', `${LOGS}?action=delete&size=500`)).records as AuditRecord[];
    expect(deletes.length).toBeGreaterThan(0);
    expect(deletes.every((e) => e.action === 'delete')).toBe(true);
    expect((await c.data('admin', `${LOGS}?operator=${encodeURIComponent('吴')}&size=500`)).records.every((e: AuditRecord) => e.userName === '吴芳')).toBe(true);
    const chinaDay = (iso: string) => new Date(new Date(iso).getTime() + 8 * 3600_000).toISOString().slice(0, 10);
    const today = chinaDay(new Date().toISOString());
    const madeToday = all.filter((e) => chinaDay(e.createdAt) === today).length;
    expect(madeToday).toBeGreaterThan(10);
    expect(madeToday).toBeLessThan(all.length);
    expect((await c.data('admin', `${LOGS}?dateFrom=${today}&dateTo=${today}`)).total).toBe(madeToday);
    expect((await c.data('admin', `${LOGS}?dateTo=2020-01-01`)).total).toBe(0);
    const first = await c.data('admin', `${LOGS}?size=3&current=1`);
    const second = await c.data('admin', `${LOGS}?size=3&current=2`);
    expect(first).toMatchObject({ total: all.length, size: 3, current: 1 });
    expect([...first.records, ...second.records].map((e: AuditRecord) => e.id)).toEqual(all.slice(0, 6).map((e) => e.id));
    const oldest = await c.data('admin', `${LOGS}?size=1&orderBy=createdAt&order=asc`);
    expect(oldest.records[0].id).toBe(all.at(-1)!.id);
  });

  it('exports the filtered rows as xlsx, in China time', async () => {
    const shown = (await c.data('schooladmin', `${LOGS}?kind=teacher&size=500`)).records as AuditRecord[];
    const res = await c.get('schooladmin', `${LOGS}/export?kind=teacher`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX);
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toMatch(/操作日志_\d{14}\.xlsx/);
    const sheet = await readRows(res.rawPayload);
    expect(sheet[0]).toEqual(['时间', '操作人', '角色', '所属单位', '操作', '对象类型', '对象编号', '内容', 'IP 地址']);
    expect(sheet.slice(1).map((r) => r[7])).toEqual(shown.map((e) => e.summary));
    expect(new Set(sheet.slice(1).map((r) => r[5]))).toEqual(new Set(['教师']));
    const china = new Date(new Date(shown[0].createdAt).getTime() + 8 * 3600_000).toISOString().replace('T', ' ').slice(0, 19);
    expect(sheet[1][0]).toBe(china);
    expect(sheet[1].slice(1, 4)).toEqual(['赵校务', '学校管理员', '杭州市西湖区实验中学']);
    // Another school's export holds its own rows only.
    const other = await readRows((await c.get('schooladmin2', `${LOGS}/export`)).rawPayload);
    const theirs = (await c.data('schooladmin2', `${LOGS}?size=500`)).records as AuditRecord[];
    expect(other.slice(1).map((r) => r[7])).toEqual(theirs.map((e) => e.summary));
    expect(new Set(other.slice(1).map((r) => r[3]))).toEqual(new Set(['宁波市海曙区育才中学']));
  });

  it('refuses hostile paging and filters with a Chinese 400', async () => {
    const cases: [string, string][] = [
      ['size=0', '每页条数取值不正确'],
      ['size=100000', '每页条数取值不正确'],
      ['current=0', '页码取值不正确'],
      ['current=abc', '页码格式不正确'],
      ['current=1e400', '页码取值不正确'],
      ['dateFrom=2026-13-01', '开始日期格式不正确'],
      ['dateFrom=2026-02-31', '日期格式不正确'],
      ['dateFrom=2026-05-02&dateTo=2026-05-01', '开始日期不能晚于结束日期'],
      ['action=drop', '操作类型取值不正确'],
      ['kind=users', '对象类型取值不正确'],
      [`operator=${'赵'.repeat(51)}`, '操作人长度不能超过50个字符'],
      ['operator=%00', '包含不支持的字符'],
      ['orderBy=summary', '排序字段取值不正确'],
    ];
    for (const [query, msg] of cases) {
      const res = await c.get('admin', `${LOGS}?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().msg, query).toContain(msg);
    }
  });
});

describe('kept a year', () => {
  it('prunes entries older than 365 days only', async () => {
    const day = 24 * 3600 * 1000;
    const now = new Date();
    const insert = (ageDays: number, summary: string) =>
      q(sql`INSERT INTO audit_logs (user_name, role, action, kind, summary, created_at) VALUES ('旧操作人', 'admin', 'update', 'student', ${summary}, ${new Date(now.getTime() - ageDays * day).toISOString()})`);
    await insert(400, '四百天前');
    await insert(366, '三百六十六天前');
    await insert(364, '三百六十四天前');
    const before = await total();
    expect(await pruneAuditLog(t.database.db, now)).toBe(2);
    expect(await total()).toBe(before - 2);
    const left = await q<{ summary: string }>(sql`SELECT summary FROM audit_logs WHERE user_name = '旧操作人'`);
    expect(left.map((r) => r.summary)).toEqual(['三百六十四天前']);
    // Two days later by the injected clock, that one goes too; today's entries stay.
    expect(await pruneAuditLog(t.database.db, new Date(now.getTime() + 2 * day))).toBe(1);
    expect(await total()).toBe(before - 3);
  });
});
