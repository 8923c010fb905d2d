// 学生心声 through the real API: a terminal posts messages (enrolled students only, under-14s only
// with a guardian's consent), the lexicon flags and alerts, only the school's psychology teachers
// read (each read logged, the log shown to the school admin), an anonymous writer never appears
// in any payload or export, break-glass needs a confirmed 高危 and a reason and tells the
// principal, and the retention sweep deletes words but keeps counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/testApp';
import { client, readRows } from '../support/school';
import { demoDevice } from '../support/devices';
import { rows } from '../../server/db/query';
import { sweepExpiredVoices } from '../../server/modules/heartVoices/retention';
import { remindUnconfirmed } from '../../server/modules/heartVoices/reminders';
import { MOOD_WEEKS } from '../../server/modules/heartVoices/stats';
import type { DeviceClient } from '../../server/devices/client';
import { RETENTION_DAYS } from '../../src/domain/heartVoices';
import { demoStudentPin } from '../../server/auth/terminalPins';

let t: TestApp;
let c: ReturnType<typeof client>;
let west: DeviceClient;
let ningbo: DeviceClient;
const API = '/api/heart/v1';
const q = <T>(query: ReturnType<typeof sql>) => rows<T>(t.database.db, query);

interface Student {
  id: number;
  name: string;
  studentNo: string;
  classId: number;
  gradeId: number;
}

/** An enrolled student of the demo school: of a grade level, with or without a guardian's consent. */
async function student(level: number, consented: boolean, offset = 0): Promise<Student> {
  const [s] = await q<Student>(sql`
    SELECT s.id, s.name, s.student_no AS "studentNo", s.class_id AS "classId", c.grade_id AS "gradeId"
      FROM students s JOIN classes c ON c.id = s.class_id JOIN grades g ON g.id = c.grade_id JOIN schools sc ON sc.id = s.school_id
     WHERE sc.name = '杭州市西湖区实验中学' AND g.level = ${level} AND s.status = 0
       AND ${consented ? sql`` : sql`NOT`} EXISTS (SELECT 1 FROM guardian_consents gc WHERE gc.student_id = s.id)
       -- A name no other student of the school shares, so a payload scan for it means this one.
       AND (SELECT count(*) FROM students o WHERE o.school_id = s.school_id AND o.name = s.name) = 1
     ORDER BY s.id OFFSET ${offset} LIMIT 1`);
  return s;
}

/** A named message carries the student's terminal PIN (the demo's, from the number) unless the body says otherwise. */
async function post(device: DeviceClient, body: Record<string, unknown>) {
  const named = !body.anonymous && !('pin' in body);
  const [s] = named ? await q<{ studentNo: string }>(sql`SELECT student_no AS "studentNo" FROM students WHERE id = ${body.studentId as number}`) : [];
  return device.send('POST', '/api/device/v1/heartVoices', { category: 4, mood: 3, anonymous: false, ...(s ? { pin: demoStudentPin(s.studentNo) } : {}), ...body });
}

async function posted(device: DeviceClient, body: Record<string, unknown>): Promise<number> {
  const reply = await post(device, body);
  expect(reply.status, reply.body.msg).toBe(200);
  return (reply.body.data as { id: number }).id;
}

let older: Student; // 九年级: 14 or older
let young: Student; // 七年级 with consent
let unconsented: Student; // 七年级, last class: no consent
let writer: Student; // the anonymous writer whose identity must never leave
let named: Student;
let crisisId: number;
let namedId: number;

/** A user of a school with one role, sharing the demo password (copied from psych). */
async function addUser(username: string, schoolName: string, role: string) {
  const [school] = await q<{ id: number; tenantId: number }>(sql`SELECT id, tenant_id AS "tenantId" FROM schools WHERE name = ${schoolName}`);
  const [u] = await q<{ id: number }>(sql`
    INSERT INTO users (tenant_id, username, password_hash, name, school_id)
    SELECT ${school.tenantId}, ${username}, password_hash, '外校老师', ${school.id} FROM users WHERE username = 'psych' RETURNING id`);
  await t.database.db.execute(sql`INSERT INTO user_roles (tenant_id, user_id, role_key) VALUES (${school.tenantId}, ${u.id}, ${`xz:${role}`})`);
}

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
  west = await demoDevice(t.app, 1);
  ningbo = await demoDevice(t.app, 25);
  older = await student(9, true);
  young = await student(7, true);
  unconsented = await student(7, false);
  writer = await student(8, true, 3);
  named = await student(9, true, 5);
  // Another school in the same tenant, and the Ningbo school (another tenant), each with a psychology teacher.
  await t.database.db.execute(sql`INSERT INTO schools (tenant_id, name, region) SELECT tenant_id, '西湖区实验中学分校', region FROM schools WHERE name = '杭州市西湖区实验中学'`);
  await addUser('psych_branch', '西湖区实验中学分校', 'psychologyteacher');
  await addUser('psych_nb', '宁波市海曙区育才中学', 'psychologyteacher');
  crisisId = await posted(west, { studentId: writer.id, anonymous: true, mood: 1, category: 4, content: '最近真的不想活了，每天都好累，没有人在乎我。' });
  namedId = await posted(west, { studentId: named.id, anonymous: false, mood: 5, category: 5, content: '今天体育课八百米跑进了3分40，累死了但是好开心！' });
}, 180_000);
afterAll(() => t.close());

describe('device API', () => {
  it('flags a crisis message, answers the hotline, and alerts the psychology teacher at once', async () => {
    const reply = await post(west, { studentId: older.id, anonymous: true, content: '晚上又用刀片划了手臂' });
    expect(reply.status).toBe(200);
    expect((reply.body.data as { message: string }).message).toContain('12355');
    const [v] = await q<{ suggested: number; types: string[] }>(sql`SELECT suggested_level AS suggested, risk_types AS types FROM heart_voices WHERE id = ${(reply.body.data as { id: number }).id}`);
    expect(v).toEqual({ suggested: 3, types: ['selfHarm'] });
    const notices = await c.data('psych', `${API}/notices`);
    expect(notices.records.some((n: { voiceId: number; text: string }) => n.voiceId === crisisId && n.text.includes('疑似高危'))).toBe(true);
    const ordinary = await post(west, { studentId: older.id, content: '我家小狗今天学会握手了' });
    expect((ordinary.body.data as { message: string }).message).not.toContain('12355');
  });

  it('refuses a student of another school and bad input in Chinese', async () => {
    const [other] = await q<{ id: number }>(sql`SELECT s.id FROM students s JOIN schools sc ON sc.id = s.school_id WHERE sc.name = '宁波市海曙区育才中学' LIMIT 1`);
    expect((await post(west, { studentId: other.id, content: '你好' })).body).toMatchObject({ code: 403, msg: '该学生不是本校在读学生，不能提交心声' });
    expect((await post(west, { studentId: older.id, content: '好'.repeat(501) })).body).toMatchObject({ code: 400, msg: '心声内容长度不能超过500个字符' });
    expect((await post(west, { studentId: older.id, content: '好', mood: 6 })).status).toBe(400);
    expect((await post(west, { studentId: older.id, content: '好', category: 9 })).status).toBe(400);
    const future = await post(west, { studentId: older.id, content: '好', writtenAt: new Date(Date.now() + 3600_000).toISOString() });
    expect(future.body).toMatchObject({ code: 400, msg: '写下时间不能晚于当前时间' });
  });

  it('refuses an under-14 student without a guardian consent, until the school admin records one', async () => {
    const refused = await post(west, { studentId: unconsented.id, content: '想和心理老师聊聊' });
    expect(refused.body).toMatchObject({ code: 403, msg: '未满14周岁的学生需监护人同意后才能提交心声，请联系学校登记监护人同意书' });
    expect((await post(west, { studentId: young.id, content: '数学考了98分，开心' })).status).toBe(200);
    await c.done('schooladmin', `${API}/consents`, { studentId: unconsented.id, guardianName: '王女士', consentedOn: '2026-11-20' });
    expect((await post(west, { studentId: unconsented.id, content: '想和心理老师聊聊' })).status).toBe(200);
    const list = await c.data('schooladmin', `${API}/consents?keyword=${encodeURIComponent(unconsented.studentNo)}`);
    expect(list.records[0]).toMatchObject({ studentId: unconsented.id, guardianName: '王女士', consentedOn: '2026-11-20', underAge: true });
  });

  it("answers another school's class with a Chinese 404, not an empty list", async () => {
    const [foreign] = await q<{ id: number }>(sql`
      SELECT c.id FROM classes c WHERE c.school_id <> (SELECT school_id FROM users WHERE username = 'schooladmin') ORDER BY c.id LIMIT 1`);
    const res = await c.get('schooladmin', `${API}/consents?classId=${foreign.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().msg).toBe('班级不存在');
  });
});

describe('who reads', () => {
  it('refuses every other role in Chinese', async () => {
    for (const [user, role] of [['teacher', 'teacher'], ['schooladmin', undefined], ['principal', undefined], ['partner1', undefined], ['teacher', 'mpTeacher']] as const) {
      for (const url of [`${API}/voices`, `${API}/voices/${crisisId}`, `${API}/mood`, `${API}/export`]) {
        const res = await c.get(user, url, role);
        expect(res.statusCode, `${user} ${url}`).toBe(403);
        expect(res.json().msg).toMatch(/[\u4e00-\u9fff]/);
      }
    }
    expect((await c.get('psych', `${API}/reads`)).statusCode).toBe(403);
  });

  it('hides another school’s and another tenant’s messages (404), and their grades and classes', async () => {
    for (const user of ['psych_branch', 'psych_nb']) {
      expect((await c.get(user, `${API}/voices/${crisisId}`)).json()).toMatchObject({ code: 404, msg: '该心声不存在' });
      expect((await c.post(user, `${API}/voices/${crisisId}/level`, { level: 3 })).statusCode).toBe(404);
      expect((await c.data(user, `${API}/voices`)).total).toBe(0);
      expect((await c.get(user, `${API}/voices?classId=${young.classId}`)).json()).toMatchObject({ code: 404, msg: '班级不存在' });
    }
    const nbVoice = await posted(ningbo, {
      studentId: (await q<{ id: number }>(sql`SELECT s.id FROM students s JOIN schools sc ON sc.id = s.school_id WHERE sc.name = '宁波市海曙区育才中学' AND s.birth_date < '2011-12-01' LIMIT 1`))[0].id,
      content: '宁波的心声',
    });
    expect((await c.get('psych', `${API}/voices/${nbVoice}`)).statusCode).toBe(404);
    expect((await c.data('psych_nb', `${API}/voices`)).total).toBe(1);
  });
});

describe('the psychology teacher’s list', () => {
  it('pins the unhandled suspected 高危 messages on top and counts them on the badge', async () => {
    const list = await c.data('psych', `${API}/voices?size=50`);
    const pinned = list.records.filter((r: { pinned: boolean }) => r.pinned);
    expect(pinned.length).toBeGreaterThanOrEqual(2);
    expect(list.records.slice(0, pinned.length).every((r: { pinned: boolean }) => r.pinned)).toBe(true);
    expect(list.records[0]).not.toHaveProperty('content');
    const badge = await c.data('psych', '/api/wrongbook/v1.0/web/nav/getMenuBadge');
    expect(badge.heartCount).toBe(pinned.length);
    // Small pages across the pinned/unpinned boundary read the same order as one big page.
    const paged: number[] = [];
    for (let current = 1; current <= Math.ceil(list.total / 3); current++) {
      paged.push(...(await c.data('psych', `${API}/voices?size=3&current=${current}`)).records.map((r: { id: number }) => r.id));
    }
    expect(paged).toEqual(list.records.map((r: { id: number }) => r.id));
  });

  it('filters by the header’s grade and class, and searches', async () => {
    const inClass = await c.data('psych', `${API}/voices?classId=${young.classId}`);
    expect(inClass.records.length).toBeGreaterThan(0);
    const [{ className }] = await q<{ className: string }>(sql`SELECT name AS "className" FROM classes WHERE id = ${young.classId}`);
    expect(inClass.records.every((r: { className: string }) => r.className === className)).toBe(true);
    const grade = await c.data('psych', `${API}/voices?gradeId=${older.gradeId}`);
    expect(grade.records.every((r: { gradeName: string }) => r.gradeName === '九年级')).toBe(true);
    expect((await c.data('psych', `${API}/voices?keyword=${encodeURIComponent('八百米')}`)).records.map((r: { id: number }) => r.id)).toEqual([namedId]);
    // An anonymous writer's name finds nothing.
    expect((await c.data('psych', `${API}/voices?keyword=${encodeURIComponent(writer.name)}`)).total).toBe(0);
  });
});

describe('reading, follow-up and the read log', () => {
  it('records every read; the school admin sees who read when, without the words', async () => {
    const before = await q<{ n: number }>(sql`SELECT count(*)::int AS n FROM heart_voice_reads WHERE voice_id = ${namedId}`);
    const voice = await c.data('psych', `${API}/voices/${namedId}`);
    expect(voice.content).toContain('八百米');
    expect(voice.studentName).toBe(named.name);
    await c.data('psych', `${API}/voices/${namedId}`);
    const after = await q<{ n: number }>(sql`SELECT count(*)::int AS n FROM heart_voice_reads WHERE voice_id = ${namedId}`);
    expect(after[0].n).toBe(before[0].n + 2);
    // One visit of the page (its reloads after an action share the page's visit id) is one row.
    for (let i = 0; i < 3; i++) await c.data('psych', `${API}/voices/${namedId}?visit=3f2a9c1e7b5d4e60`);
    await c.data('psych', `${API}/voices/${namedId}?visit=another-visit-01`);
    const visits = await q<{ n: number }>(sql`SELECT count(*)::int AS n FROM heart_voice_reads WHERE voice_id = ${namedId}`);
    expect(visits[0].n).toBe(after[0].n + 2);
    for (const bad of ['short', 'x'.repeat(65), '%27%3Bdrop']) {
      const res = await c.get('psych', `${API}/voices/${namedId}?visit=${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().msg).toContain('访问');
    }
    const log = await c.data('schooladmin', `${API}/reads?size=5`);
    expect(log.records[0]).toMatchObject({ readerName: '宋心语', action: 1, voiceId: namedId });
    expect(JSON.stringify(log)).not.toContain('八百米');
    expect((await c.data('schooladmin2', `${API}/reads`)).total).toBe(0);
  });

  it('confirms a level and keeps the follow-up log until the outcome closes it', async () => {
    await c.done('psych', `${API}/voices/${namedId}/level`, { level: 1 });
    await c.done('psych', `${API}/voices/${namedId}/followUps`, { kind: 2, note: '已与班主任沟通，学生状态良好。' });
    let voice = await c.data('psych', `${API}/voices/${namedId}`);
    expect(voice).toMatchObject({ confirmedLevel: 1, status: 1 });
    expect(voice.followUps.map((f: { kind: number; note: string; userName: string }) => [f.kind, f.note, f.userName])).toEqual([
      [0, '确认为一般', '宋心语'],
      [2, '已与班主任沟通，学生状态良好。', '宋心语'],
    ]);
    await c.done('psych', `${API}/voices/${namedId}/followUps`, { kind: 4, note: '无需进一步干预。' });
    voice = await c.data('psych', `${API}/voices/${namedId}`);
    expect(voice.status).toBe(2);
    expect(voice.handledAt).toBeTruthy();
    expect((await c.post('psych', `${API}/voices/${namedId}/followUps`, { kind: 9, note: 'x' })).statusCode).toBe(400);
  });
});

describe('anonymity and break-glass', () => {
  it('keeps the anonymous writer out of every payload and export', async () => {
    const payloads = [
      (await c.get('psych', `${API}/voices?size=100`)).body,
      (await c.get('psych', `${API}/voices?classId=${writer.classId}`)).body,
      (await c.get('psych', `${API}/voices/${crisisId}`)).body,
      (await c.get('psych', `${API}/mood`)).body,
      (await c.get('psych', `${API}/notices`)).body,
      (await c.get('psych', '/api/wrongbook/v1.0/web/nav/getMenuBadge')).body,
      (await c.get('schooladmin', `${API}/reads?size=100`)).body,
      (await c.get('principal', `${API}/notices`)).body,
    ];
    const exported = await c.get('psych', `${API}/export`);
    expect(exported.statusCode).toBe(200);
    const sheet = await readRows(exported.rawPayload);
    expect(sheet[0]).toEqual(['周（起始日）', '年级', '班级', '分类', '确认等级', '条数']);
    payloads.push(JSON.stringify(sheet));
    for (const body of payloads) {
      expect(body).not.toContain(writer.name);
      expect(body).not.toContain(writer.studentNo);
      expect(body).not.toMatch(new RegExp(`"(studentId|userId)":${writer.id}\\b`));
      expect(body).not.toContain('"studentId"');
    }
    // The export is counts only: no words of any message.
    expect(JSON.stringify(sheet)).not.toContain('不想活');
  });

  it('reveals the writer only for a confirmed 高危 with a reason, logs it and tells the principal', async () => {
    const reveal = (payload: object, user = 'psych') => c.post(user, `${API}/voices/${crisisId}/reveal`, payload);
    expect((await reveal({ reason: '学生有明确的轻生表达，需要立即联系监护人' })).json()).toMatchObject({ code: 403, msg: '只有确认为高危的匿名心声才能查看写信人身份' });
    await c.done('psych', `${API}/voices/${crisisId}/level`, { level: 2 });
    expect((await reveal({ reason: '学生有明确的轻生表达，需要立即联系监护人' })).statusCode).toBe(403);
    await c.done('psych', `${API}/voices/${crisisId}/level`, { level: 3 });
    expect((await reveal({ reason: '紧急' })).json()).toMatchObject({ code: 400, msg: '请填写查看身份的理由（至少10个字）' });
    expect((await reveal({ reason: '学生有明确的轻生表达' }, 'schooladmin')).statusCode).toBe(403);
    expect((await c.post('psych', `${API}/voices/${namedId}/reveal`, { reason: '学生有明确的轻生表达，需要联系' })).statusCode).toBe(400);
    const principalBefore = (await c.data('principal', `${API}/notices`)).total;

    const reason = '学生有明确的轻生表达，需要立即联系监护人';
    const res = await reveal({ reason });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ studentName: writer.name, studentNo: writer.studentNo });

    const log = await c.data('schooladmin', `${API}/reads?size=5`);
    expect(log.records[0]).toMatchObject({ readerName: '宋心语', action: 2, voiceId: crisisId, reason });
    const notices = await c.data('principal', `${API}/notices`);
    expect(notices.total).toBe(principalBefore + 1);
    expect(notices.records[0].text).toContain(reason);
    expect(notices.records[0].text).not.toContain(writer.name);
    // Opening the message again does not show the identity: a reveal is one answer, logged.
    const voice = await c.get('psych', `${API}/voices/${crisisId}`);
    expect(voice.body).not.toContain(writer.name);
    expect(JSON.parse(voice.body).data.followUps.at(-1).note).toContain('查看了写信人身份');
    // Notices are marked seen by their reader only.
    await c.done('principal', `${API}/notices/seen`, { ids: [notices.records[0].id] });
    expect((await c.data('principal', `${API}/notices`)).total).toBe(principalBefore);
  });
});

describe('retention', () => {
  it(`deletes the words ${RETENTION_DAYS} days after handling and keeps the counts`, async () => {
    const counts = async () => (await readRows((await c.get('psych', `${API}/export`)).rawPayload)).slice(1);
    const before = await counts();
    // namedId was handled just now: a day short of the period nothing goes; past it, its words go.
    const now = Date.now();
    expect(await sweepExpiredVoices(t.database.db, new Date(now + (RETENTION_DAYS - 1) * 86_400_000))).toBe(0);
    expect(await sweepExpiredVoices(t.database.db, new Date(now + (RETENTION_DAYS + 1) * 86_400_000))).toBe(1);
    const [v] = await q<{ content: string | null; studentId: number | null; purged: boolean }>(
      sql`SELECT content, student_id AS "studentId", purged_at IS NOT NULL AS purged FROM heart_voices WHERE id = ${namedId}`,
    );
    expect(v).toEqual({ content: null, studentId: null, purged: true });
    const notes = await q<{ note: string | null }>(sql`SELECT note FROM heart_voice_follow_ups WHERE voice_id = ${namedId}`);
    expect(notes.every((n) => n.note === null)).toBe(true);
    expect(await counts()).toEqual(before);
    const voice = await c.data('psych', `${API}/voices/${namedId}`);
    // Past retention even a named message no longer links to its writer.
    expect(voice).toMatchObject({ content: null, studentName: null });
    expect(voice.purgedAt).toBeTruthy();
    // Unhandled messages are kept however old.
    const [open] = await q<{ content: string }>(sql`SELECT content FROM heart_voices WHERE id = ${crisisId}`);
    expect(open.content).toContain('不想活');
  });
});

describe('心情变化 and unconfirmed 高危 messages', () => {
  it('the mood chart has every week of the window, empty weeks empty, and the number of messages behind each point', async () => {
    const mood = await c.data('psych', `${API}/mood`);
    expect(mood.weeks.length).toBe(MOOD_WEEKS);
    expect(mood.weeks).toEqual([...mood.weeks].sort());
    const [counted] = await q<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM heart_voices v JOIN schools s ON s.id = v.school_id
       WHERE s.name = '杭州市西湖区实验中学' AND v.mood IS NOT NULL
         AND v.created_at >= (${mood.weeks[0]}::date)::timestamp AT TIME ZONE 'Asia/Shanghai'`);
    let total = 0;
    for (const line of mood.series) {
      expect(line.counts.length).toBe(MOOD_WEEKS);
      line.values.forEach((v: number | null, i: number) => expect(v === null, `${line.name} ${mood.weeks[i]}`).toBe(line.counts[i] === 0));
      total += line.counts.reduce((a: number, b: number) => a + b, 0);
    }
    expect(total).toBe(counted.n);
  });

  it('reminds the psychology teachers after 24 h, tells the principal after 48 h, once each, and shows open cases to principal and admin', async () => {
    const open = async (user: string) => c.data(user, `${API}/openHighRisk`);
    const before = await open('principal');
    expect(await open('schooladmin')).toEqual(before);
    const id = await posted(west, { studentId: older.id, anonymous: true, mood: 1, category: 4, content: '我不想活了，真的撑不下去了' });
    expect((await open('principal')).open).toBe(before.open + 1);
    const noticesOf = async (user: string, kind: number) =>
      (await c.data(user, `${API}/notices`)).records.filter((n: { voiceId: number | null; kind: number }) => n.voiceId === id && n.kind === kind);
    // Fresh: no reminder yet.
    expect(await noticesOf('psych', 3)).toEqual([]);
    await t.database.db.execute(sql`UPDATE heart_voices SET created_at = now() - interval '25 hours' WHERE id = ${id}`);
    const reminders = await noticesOf('psych', 3);
    expect(reminders.length).toBe(1);
    expect(reminders[0].text).toContain('超过 24 小时仍未确认等级');
    expect(await noticesOf('principal', 4)).toEqual([]);
    // A timer and a read racing (or a restart) send nothing twice.
    expect(await remindUnconfirmed(t.database.db)).toEqual({ reminded: 0, escalated: 0 });
    await t.database.db.execute(sql`UPDATE heart_voices SET created_at = now() - interval '49 hours' WHERE id = ${id}`);
    expect(await remindUnconfirmed(t.database.db)).toEqual({ reminded: 0, escalated: 1 });
    const told = await noticesOf('principal', 4);
    expect(told.length).toBe(1);
    expect(told[0].text).toContain('超过 48 小时仍未确认等级');
    expect(JSON.stringify(told)).not.toContain(older.name);
    // The anonymous message's notices are dated to the hour, like the message.
    expect(new Date(told[0].createdAt).getUTCMinutes()).toBe(0);
    expect((await noticesOf('psych', 3)).length).toBe(1);
    const overdue = await open('principal');
    expect(overdue.overdue).toBeGreaterThan(before.overdue);
    expect(overdue.open).toBe(before.open + 1);
    // Confirmed and closed, it is no longer open, and no reminder follows.
    await c.done('psych', `${API}/voices/${id}/level`, { level: 3 });
    await c.done('psych', `${API}/voices/${id}/followUps`, { kind: 4, note: '已联系监护人并转介专业机构，持续关注' });
    expect((await open('principal')).open).toBe(before.open);
    expect(await remindUnconfirmed(t.database.db)).toEqual({ reminded: 0, escalated: 0 });
    // Counts are for the school's overseers only; another school's admin sees their own school.
    for (const user of ['teacher', 'partner1']) expect((await c.get(user, `${API}/openHighRisk`)).statusCode, user).toBe(403);
    const [theirs] = await q<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM heart_voices WHERE school_id = (SELECT school_id FROM users WHERE username = 'schooladmin2')
         AND coalesce(confirmed_level, suggested_level) = 3 AND status <> 2 AND purged_at IS NULL`);
    expect((await open('schooladmin2')).open).toBe(theirs.n);
  });
});
