// 操作日志's part of the demo seed: the entries the demo's own history would have left, so a school
// admin or a partner opening 操作日志 sees a term of real work instead of an empty list. Each entry
// is read off a seeded record (an order and its cancellation or refund request, a recharge, a
// statement confirmed or settled, a terminal deployed, a guardian consent, the term's imports), at
// that record's own time and by its own operator, in the words the live routes write.
import { sql } from 'drizzle-orm';
import type { Db } from '../db';
import { rows } from '../db/query';
import * as t from '../db/schema';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Entry = typeof t.auditLogs.$inferInsert;

const DAY = 24 * 3600 * 1000;
/** ¥1,234.50, as the routes write money. */
const yuan = sql`'¥' || to_char(amount_fen / 100.0, 'FM999,999,990.00')`;

/** The partners' side: orders, refunds, recharges, statements and deployments. */
async function partnerEntries(tx: Tx) {
  // The office address of a partner's staff (documentation addresses, one per partner).
  const ip = (partner: ReturnType<typeof sql>) => sql`'198.51.100.' || (10 + ${partner} % 200)`;
  const fromPartner = (partner: ReturnType<typeof sql>) => sql`(SELECT id FROM users WHERE partner_id = ${partner} ORDER BY id LIMIT 1)`;
  await tx.execute(sql`
    INSERT INTO audit_logs (partner_id, user_id, user_name, role, action, kind, record_id, summary, ip, created_at)
    SELECT o.buyer_id, u.id, u.name, 'partner', 'create', 'order', o.order_no, '提交纸张订单 ' || o.order_no || '（' || ${yuan} || '）', ${ip(sql`o.buyer_id`)}, o.created_at
      FROM partner_orders o JOIN users u ON u.id = o.created_by
    UNION ALL
    SELECT o.buyer_id, u.id, u.name, 'partner', 'cancel', 'order', o.order_no, '取消订单 ' || o.order_no, ${ip(sql`o.buyer_id`)}, o.cancelled_at
      FROM partner_orders o JOIN users u ON u.id = o.created_by WHERE o.cancelled_at IS NOT NULL
    UNION ALL
    SELECT o.buyer_id, u.id, u.name, 'partner', 'refund', 'order', o.order_no,
           '申请订单 ' || o.order_no || ' 退款（退款单 ' || r.refund_no || '，' || '¥' || to_char(r.amount_fen / 100.0, 'FM999,999,990.00') || '）', ${ip(sql`o.buyer_id`)}, r.created_at
      FROM order_refunds r JOIN partner_orders o ON o.id = r.order_id JOIN users u ON u.id = r.requested_by
    UNION ALL
    SELECT r.partner_id, u.id, u.name, 'partner', 'create', 'recharge', r.recharge_no, '提交充值单 ' || r.recharge_no || '（' || ${yuan} || '）', ${ip(sql`r.partner_id`)}, r.created_at
      FROM partner_recharges r JOIN users u ON u.id = r.created_by`);
  // A statement is confirmed by the partner that earns it and marked settled by the one that pays.
  for (const [action, column, by] of [
    ['confirm', 'confirmed_at', 'partner_id'],
    ['settle', 'settled_at', 'payer_id'],
  ] as const) {
    const verb = action === 'confirm' ? '确认' : '标记结算';
    await tx.execute(sql`
      INSERT INTO audit_logs (partner_id, user_id, user_name, role, action, kind, record_id, summary, ip, created_at)
      SELECT s.${sql.raw(by)}, u.id, u.name, 'partner', ${action}::text, 'statement', s.statement_no,
             ${verb}::text || '结算单 ' || s.statement_no || '（' || p.name || '，' || s.period || '，' || '¥' || to_char(s.amount_fen / 100.0, 'FM999,999,990.00') || '）',
             ${ip(sql.raw(`s.${by}`))}, s.${sql.raw(column)}
        FROM settlement_statements s JOIN partners p ON p.id = s.partner_id
        JOIN users u ON u.id = ${fromPartner(sql.raw(`s.${by}`))}
       WHERE s.${sql.raw(column)} IS NOT NULL`);
  }
  await tx.execute(sql`
    INSERT INTO audit_logs (partner_id, user_id, user_name, role, action, kind, record_id, summary, ip, created_at)
    SELECT d.partner_id, u.id, u.name, 'partner', 'deploy', 'terminal', d.serial, '部署终端 ' || d.serial || ' 到 ' || s.name, ${ip(sql`d.partner_id`)}, d.bound_at
      FROM devices d JOIN schools s ON s.id = d.school_id JOIN users u ON u.id = ${fromPartner(sql`d.partner_id`)}
     WHERE d.bound_at IS NOT NULL`);
}

/** A school admin's term: the imports at its start, the score setting, a few edits since. */
async function schoolEntries(tx: Tx, now: Date) {
  const admins = await rows<{ userId: number; name: string; tenantId: number; schoolId: number }>(tx as unknown as Db, sql`
    SELECT DISTINCT ON (u.school_id) u.id AS "userId", u.name, u.tenant_id AS "tenantId", u.school_id AS "schoolId"
      FROM users u JOIN user_roles r ON r.user_id = u.id AND r.role_key = 'xz:schoolAdmin'
     WHERE u.school_id IS NOT NULL ORDER BY u.school_id, u.id`);
  // Midnight in China, 88 days back: the school's working hours are China's.
  const termStart = new Date(`${new Date(now.getTime() + 8 * 3600_000 - 88 * DAY).toISOString().slice(0, 10)}T00:00:00+08:00`);
  const at = (days: number, hour: number, minute: number) => new Date(termStart.getTime() + days * DAY + hour * 3600_000 + minute * 60_000);
  const entries: Entry[] = [];
  for (const [i, admin] of admins.entries()) {
    const base = { tenantId: admin.tenantId, schoolId: admin.schoolId, userId: admin.userId, userName: admin.name, role: 'schoolAdmin', ip: `203.0.113.${20 + i}` };
    const [{ teachers }] = await rows<{ teachers: number }>(tx as unknown as Db, sql`
      SELECT count(DISTINCT u.id)::int AS teachers FROM users u JOIN user_roles r ON r.user_id = u.id AND r.role_key = 'xz:teacher' WHERE u.school_id = ${admin.schoolId}`);
    entries.push({ ...base, action: 'import', kind: 'teacher', summary: `导入教师 ${teachers} 名（新增 ${teachers} 名，更新 0 名）`, createdAt: at(0, 9, 12) });
    const grades = await rows<{ gradeName: string; students: number }>(tx as unknown as Db, sql`
      SELECT g.name AS "gradeName", count(s.id)::int AS students FROM grades g JOIN classes c ON c.grade_id = g.id JOIN students s ON s.class_id = c.id
       WHERE g.school_id = ${admin.schoolId} GROUP BY g.id, g.name, g.level ORDER BY g.level`);
    grades.forEach((g, k) => entries.push({ ...base, action: 'import', kind: 'student', summary: `导入学生 ${g.students} 名（新增 ${g.students} 名，更新 0 名）`, createdAt: at(1, 10 + k, 5 + 7 * k) }));
    entries.push({ ...base, action: 'update', kind: 'setting', summary: '修改成绩公开范围为“只显示等级（优秀、良好、及格、不及格）”', createdAt: at(3, 15, 40) });
    // Edits through the term: a parent's new phone, a name corrected.
    const edited = await rows<{ id: number; name: string; studentNo: string }>(tx as unknown as Db, sql`
      SELECT id, name, student_no AS "studentNo" FROM students WHERE school_id = ${admin.schoolId} ORDER BY (id * 7919) % 613 LIMIT 6`);
    edited.forEach((s, k) =>
      entries.push({ ...base, action: 'update', kind: 'student', recordId: s.studentNo, summary: `修改学生 ${s.name}（${s.studentNo}）的${k % 3 === 2 ? '性别' : '家长手机号'}`, createdAt: at(9 + k * 12, 16, 10 + k * 5) }),
    );
    const [teacher] = await rows<{ name: string }>(tx as unknown as Db, sql`
      SELECT u.name FROM users u JOIN user_roles r ON r.user_id = u.id AND r.role_key = 'xz:teacher' WHERE u.school_id = ${admin.schoolId} ORDER BY u.id DESC LIMIT 1`);
    if (teacher) entries.push({ ...base, action: 'resetPassword', kind: 'teacher', summary: `重置教师 ${teacher.name} 的密码`, createdAt: at(47, 8, 20) });
  }
  if (entries.length) await tx.insert(t.auditLogs).values(entries);
}

export async function seedAuditLog(tx: Tx, now = new Date()) {
  await partnerEntries(tx);
  await schoolEntries(tx, now);
}
