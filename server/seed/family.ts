// 家长查看's part of the demo seed: a few links of the demo school's students with their openings,
// and 复核申请 — open ones on 陈静's (teacher) and 黄蕾's (classic) latest homework, so their work
// screens show the panel, and an answered one. Tokens are random and thrown away: a family page is
// opened from a link the demo user issues (学生 → 家长查看), as in a real school.
import { randomBytes, createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db';
import { rows } from '../db/query';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const DAY = 24 * 3600 * 1000;
const hash = () => createHash('sha256').update(randomBytes(32).toString('base64url')).digest('hex');

/**
 * A wrong answer on `username`'s latest homework that has one, of its first student by number, or
 * of `studentId` on an earlier homework than `before`.
 */
async function wrongOnLatest(tx: Tx, username: string, earlier?: { studentId: number; before: number }) {
  const [found] = await rows<{ tenantId: number; schoolId: number; studentId: number; studentName: string; sourceType: number; sourceId: number; questionId: number; assignedAt: string; courseId: number; userId: number; teacherName: string }>(tx as unknown as Db, sql`
    SELECT h.tenant_id AS "tenantId", s.school_id AS "schoolId", r.student_id AS "studentId", s.name AS "studentName", h.source_type::int AS "sourceType",
           h.id AS "sourceId", r.question_id AS "questionId", h.assigned_at AS "assignedAt", h.course_id AS "courseId", u.id AS "userId", u.name AS "teacherName"
      FROM homeworks h JOIN teachers te ON te.id = h.teacher_id JOIN users u ON u.id = te.user_id
      JOIN answer_records r ON r.tenant_id = h.tenant_id AND r.source_type = h.source_type AND r.source_id = h.id AND NOT r.is_correct
      JOIN students s ON s.id = r.student_id
     WHERE u.username = ${username} ${earlier ? sql`AND r.student_id = ${earlier.studentId} AND h.id <> ${earlier.before}` : sql``}
     ORDER BY h.assigned_at DESC, s.student_no, r.question_id
     LIMIT 1`);
  return found;
}

export async function seedFamily(tx: Tx) {
  const db = tx as unknown as Db;
  const now = Date.now();
  const at = (daysAgo: number, hour: number) => new Date(now - daysAgo * DAY - ((now % DAY) - (hour - 8) * 3600 * 1000)).toISOString();
  const recent = await wrongOnLatest(tx, 'teacher');
  const classic = await wrongOnLatest(tx, 'classic');
  if (!recent || !classic) return;
  const older = await wrongOnLatest(tx, 'teacher', { studentId: recent.studentId, before: recent.sourceId });
  if (!older) return;
  const [admin] = await rows<{ id: number; name: string }>(db, sql`SELECT id, name FROM users WHERE username = 'schooladmin'`);

  // A guardian's link for all courses, opened a few evenings; and an expired 数学 link of 陈静's.
  const [live] = await rows<{ id: number }>(db, sql`
    INSERT INTO family_links (tenant_id, school_id, student_id, course_id, label, token_hash, created_by, created_by_name, created_at, expires_at)
    VALUES (${recent.tenantId}, ${recent.schoolId}, ${recent.studentId}, NULL, '妈妈', ${hash()}, ${admin.id}, ${admin.name}, ${at(6, 10)}, ${at(-24, 10)})
    RETURNING id`);
  await db.execute(sql`
    INSERT INTO family_links (tenant_id, school_id, student_id, course_id, label, token_hash, created_by, created_by_name, created_at, expires_at)
    VALUES (${recent.tenantId}, ${recent.schoolId}, ${recent.studentId}, ${recent.courseId}, '爸爸', ${hash()}, ${recent.userId}, ${recent.teacherName}, ${at(45, 17)}, ${at(15, 17)})`);
  for (const [days, hour] of [[5, 20], [3, 21], [1, 19]]) {
    await db.execute(sql`INSERT INTO family_link_views (link_id, ip, viewed_at) VALUES (${live.id}, '183.157.40.26', ${at(days, hour)})`);
  }

  const request = (w: NonNullable<typeof recent>, linkId: number | null, reason: string, createdAt: string, answer?: { text: string; at: string }) =>
    db.execute(sql`
      INSERT INTO regrade_requests (tenant_id, school_id, student_id, link_id, source_type, source_id, question_id, reason, status, answer, answered_by, answered_by_name, answered_at, created_at)
      VALUES (${w.tenantId}, ${w.schoolId}, ${w.studentId}, ${linkId}, ${w.sourceType}, ${w.sourceId}, ${w.questionId}, ${reason}, ${answer ? 1 : 0},
              ${answer?.text ?? null}, ${answer ? w.userId : null}, ${answer ? w.teacherName : null}, ${answer?.at ?? null}, ${createdAt})`);
  await request(recent, live.id, '孩子说这题是按课堂上讲的方法列的式子，结果也对，麻烦老师再看一下。', at(1, 20));
  await request(older, live.id, '孩子觉得自己这道题做对了，想请老师再确认一下。', at(5, 21), {
    text: '已查看原卷：第二步计算有误，结果不对，维持原判。请孩子对照解析把这道题再订正一遍。',
    at: at(4, 12),
  });
  await request(classic, null, '孩子的拼写和课本上一致，想确认一下是不是判错了。', at(2, 19));
}
