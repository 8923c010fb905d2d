// 家长查看链接 and 复核申请 through the real app: a link opens one student's page and nothing else
// (no query, body or path widens it to another student, class or course), every result on the page
// carries only the fields the school's 成绩公开范围 allows, views are logged, an expired, revoked or
// made-up link answers a Chinese page with a 4xx and no data, a family files a regrade request that
// the teacher reads on the work and answers, and the answer shows on the page. Staff routes refuse
// other schools, wrong roles and hostile input in Chinese.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsQR from 'jsqr';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../server/db/query';
import { DISCLOSED_FIELDS, FAMILY_LIMITS } from '../../src/domain/family';
import { ScoreDisclosure } from '../../src/domain/content';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';

const BASE = '/api/family/v1.0';
let t: TestApp;
let c: ReturnType<typeof client>;
let student: { id: number; name: string; classId: number };
/** A student of a class 陈静 teaches 物理 in (物理 starts in 八年级, her 数学 classes are 七年级). */
let physicsStudent: { id: number; name: string; classId: number };
let classmates: string[];
let mathCourse: number;
let physicsCourse: number;
/** A course the student takes from another teacher, with work the student answered. */
let otherCourse: number;
let foreignStudent: number;
let address = 0;
/** Each call from its own address, so the per-address limits stay out of the way unless tested. */
const open = (url: string) => t.app.inject({ url, remoteAddress: `10.1.${Math.floor(++address / 250)}.${address % 250}` });
const tokenOf = (path: string) => path.slice('/f/'.length);

async function issue(user: string, body: object) {
  return c.done(user, `${BASE}/links`, body);
}

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
  const classes: { id: number; gradeId: number }[] = await c.data('teacher', '/api/vesta/teaching/getTeachClass?leaderType=1');
  const coursesOf = async (cls: { id: number; gradeId: number }) =>
    (await c.data('teacher', `/api/vesta/teaching/getCourseList?classId=${cls.id}&gradeId=${cls.gradeId}&leaderType=1`)) as { courseId: number; courseName: string }[];
  const taught = await Promise.all(classes.map(async (cls) => ({ cls, courses: await coursesOf(cls) })));
  const mathClass = taught.find((x) => x.courses.some((co) => co.courseName === '数学'))!;
  const physicsClass = taught.find((x) => x.courses.some((co) => co.courseName === '物理'))!;
  mathCourse = mathClass.courses.find((x) => x.courseName === '数学')!.courseId;
  physicsCourse = physicsClass.courses.find((x) => x.courseName === '物理')!.courseId;
  const firstOf = async (classId: number) =>
    (await rows<typeof student>(t.database.db, sql`
      SELECT id, name, class_id AS "classId" FROM students WHERE class_id = ${classId} AND status = 0 ORDER BY student_no LIMIT 1`))[0];
  student = await firstOf(mathClass.cls.id);
  physicsStudent = await firstOf(physicsClass.cls.id);
  [{ courseId: otherCourse }] = await rows<{ courseId: number }>(t.database.db, sql`
    SELECT h.course_id AS "courseId" FROM answer_records r JOIN homeworks h ON h.id = r.source_id AND r.source_type <> 2
     WHERE r.student_id = ${student.id} AND h.course_id <> ${mathCourse} ORDER BY h.course_id LIMIT 1`);
  classmates = (await rows<{ name: string }>(t.database.db, sql`SELECT name FROM students WHERE class_id = ${student.classId} AND id <> ${student.id}`))
    .map((r) => r.name)
    // A classmate who shares the student's name could not be told apart in the page anyway.
    .filter((n) => n !== student.name);
  const other = await c.data('teacher3', '/api/vesta/teaching/getTeachClass?leaderType=1');
  [{ id: foreignStudent }] = await rows<{ id: number }>(t.database.db, sql`SELECT id FROM students WHERE class_id = ${other[0].id} LIMIT 1`);
});
afterAll(() => t.close());

describe('issuing, listing and revoking links', () => {
  it('answers the token once and keeps only its digest; the list shows scope, views and state', async () => {
    const link = await issue('teacher', { studentId: student.id, courseId: mathCourse, label: '妈妈', days: 7 });
    expect(link.path).toMatch(/^\/f\/[A-Za-z0-9_-]{43}$/);
    expect(link.scopeName).toBe('数学');
    expect(link.state).toBe('live');
    const days = (Date.parse(link.expiresAt) - Date.parse(link.createdAt)) / 86_400_000;
    expect(days).toBeCloseTo(7, 3);
    const stored = await rows<Record<string, unknown>>(t.database.db, sql`SELECT * FROM family_links WHERE id = ${link.id}`);
    expect(JSON.stringify(stored)).not.toContain(tokenOf(link.path));
    const list = await c.data('teacher', `${BASE}/links?studentId=${student.id}`);
    expect(list.links.map((l: { id: number }) => l.id)).toContain(link.id);
    expect(JSON.stringify(list)).not.toContain(tokenOf(link.path));
    expect(list.allCourses).toBe(false);
    // A teacher is offered exactly the courses she teaches in the student's class.
    expect(list.courses.map((x: { courseName: string }) => x.courseName)).toEqual(['数学']);
    const physicsList = await c.data('teacher', `${BASE}/links?studentId=${physicsStudent.id}`);
    expect(physicsList.courses.map((x: { courseName: string }) => x.courseName)).toEqual(['物理']);
    expect(physicsList.allCourses).toBe(false);
    // The default lifetime is 30 days.
    const plain = await issue('schooladmin', { studentId: student.id });
    expect(plain.scopeName).toBe('全部课程');
    expect((Date.parse(plain.expiresAt) - Date.parse(plain.createdAt)) / 86_400_000).toBeCloseTo(30, 3);
  });

  it('writes issuing and revoking to 操作日志', async () => {
    const link = await issue('schooladmin', { studentId: physicsStudent.id, courseId: physicsCourse });
    const revoked = await c.done('schooladmin', `${BASE}/links/${link.id}/revoke`, {});
    expect(revoked.state).toBe('revoked');
    const entries = await rows<{ action: string; summary: string }>(t.database.db, sql`
      SELECT action, summary FROM audit_logs WHERE kind = 'familyLink' AND record_id = ${String(link.id)} ORDER BY id`);
    expect(entries.map((e) => e.action)).toEqual(['issue', 'revoke']);
    expect(entries[0].summary).toContain(physicsStudent.name);
    expect(entries[0].summary).toContain('物理');
  });

  it('refuses other schools, students and courses not taught, wrong roles and hostile input, in Chinese', async () => {
    const cases: [string, object, number][] = [
      ['teacher', { studentId: student.id }, 403], // a teacher's link names one of their courses
      ['teacher', { studentId: student.id, courseId: physicsCourse }, 403], // 陈静 teaches 物理, but not in this class
      ['teacher2', { studentId: student.id, courseId: mathCourse }, 403], // 林晓 teaches 语文 there
      ['classic', { studentId: student.id, courseId: mathCourse }, 403], // teaches no class of the student
      ['teacher3', { studentId: student.id, courseId: mathCourse }, 404], // another school
      ['schooladmin', { studentId: foreignStudent }, 404],
      ['principal', { studentId: student.id }, 403],
      ['partner1', { studentId: student.id }, 403],
      ['schooladmin', { studentId: student.id, days: 0 }, 400],
      ['schooladmin', { studentId: student.id, days: 366 }, 400],
      ['schooladmin', { studentId: student.id, label: '长'.repeat(21) }, 400],
      ['schooladmin', { studentId: student.id, classId: 1 }, 400],
      ['schooladmin', { studentId: 'x' }, 400],
      ['schooladmin', { studentId: 2 ** 31 }, 400],
    ];
    for (const [user, body, status] of cases) {
      const res = await c.post(user, `${BASE}/links`, body);
      expect(res.statusCode, `${user} ${JSON.stringify(body)}: ${res.body}`).toBe(status);
      expect(res.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    expect((await c.get('teacher3', `${BASE}/links?studentId=${student.id}`)).statusCode).toBe(404);
    const mine = await issue('teacher', { studentId: student.id, courseId: mathCourse });
    expect((await c.post('teacher3', `${BASE}/links/${mine.id}/revoke`, {})).statusCode).toBe(404);
    // 林晓 teaches the student 语文: a 数学 link is not hers to see.
    expect((await c.post('teacher2', `${BASE}/links/${mine.id}/revoke`, {})).statusCode).toBe(404);
    expect((await c.post('schooladmin', `${BASE}/links/99999999/revoke`, {})).statusCode).toBe(404);
  });
});

describe('the page', () => {
  const results = (page: { works: { result: object }[]; essays: { result: object }[] }) => [...page.works, ...page.essays].map((w) => w.result);

  it('shows per result exactly what each 成绩公开范围 allows, and never a score', async () => {
    const link = await issue('schooladmin', { studentId: student.id });
    for (const disclosure of [ScoreDisclosure.none, ScoreDisclosure.band, ScoreDisclosure.rank]) {
      expect((await c.post('schooladmin', '/api/vesta/school/settings', {})).statusCode).toBe(404);
      const put = await t.call(await c.token('schooladmin'), { method: 'PUT', url: '/api/vesta/school/settings', payload: { scoreDisclosure: disclosure } });
      expect(put.statusCode).toBe(200);
      const res = await open(`${BASE}/view/${tokenOf(link.path)}`);
      expect(res.statusCode).toBe(200);
      const page = res.json().data;
      const submitted = page.works.filter((w: { submitted: boolean }) => w.submitted);
      expect(submitted.length).toBeGreaterThan(0);
      const allowed = new Set(DISCLOSED_FIELDS[disclosure]);
      for (const r of results(page)) for (const key of Object.keys(r)) expect(allowed.has(key as never), `${disclosure}: ${key}`).toBe(true);
      const shown = results(page).filter((r) => Object.keys(r).length > 0);
      if (disclosure === ScoreDisclosure.none) expect(shown).toHaveLength(0);
      else expect(shown.length).toBe(submitted.length);
      // No score or full marks anywhere in the reply, under any setting.
      expect(JSON.stringify(page)).not.toMatch(/"(score|maxScore|fullMarks)"/);
      const html = (await open(link.path)).body;
      expect(html.includes('班级第')).toBe(disclosure === ScoreDisclosure.rank);
      expect(html.includes('等级：')).toBe(disclosure === ScoreDisclosure.band);
    }
    // The demo's setting back.
    await t.call(await c.token('schooladmin'), { method: 'PUT', url: '/api/vesta/school/settings', payload: { scoreDisclosure: ScoreDisclosure.band } });
  });

  it('carries the student’s own wrong questions with answer and 解析, and no other student', async () => {
    const link = await issue('schooladmin', { studentId: student.id });
    const res = await open(`${BASE}/view/${tokenOf(link.path)}`);
    const page = res.json().data;
    expect(page.student.name).toBe(student.name);
    const wrong = page.works.flatMap((w: { wrong: unknown[] }) => w.wrong);
    const [{ n }] = await rows<{ n: number }>(t.database.db, sql`
      SELECT count(*)::int AS n FROM answer_records WHERE student_id = ${student.id} AND NOT is_correct
         AND (source_type, source_id) IN (${sql.join(page.works.map((w: { sourceType: number; sourceId: number }) => sql`(${w.sourceType}, ${w.sourceId})`), sql`, `)})`);
    expect(wrong).toHaveLength(n);
    expect(n).toBeGreaterThan(0);
    for (const q of wrong) expect(q).toMatchObject({ correctAnswer: expect.any(String), analysis: expect.any(String), stem: expect.any(String) });
    expect(page.redo.length).toBeGreaterThan(0);
    const body = res.body + (await open(link.path)).body;
    for (const name of classmates) expect(body, name).not.toContain(name);
    expect(body).not.toContain('studentId');
  });

  it('cannot be widened to another student, class or course', async () => {
    const link = await issue('teacher', { studentId: student.id, courseId: mathCourse });
    const token = tokenOf(link.path);
    const plain = (await open(`${BASE}/view/${token}`)).json().data;
    expect(new Set(plain.works.map((w: { courseName: string }) => w.courseName))).toEqual(new Set(['数学']));
    const widened = await open(`${BASE}/view/${token}?studentId=${foreignStudent}&classId=1&courseId=${otherCourse}`);
    expect(widened.statusCode).toBe(200);
    expect(widened.json().data.student).toEqual(plain.student);
    expect(widened.json().data.works.map((w: { sourceId: number }) => w.sourceId)).toEqual(plain.works.map((w: { sourceId: number }) => w.sourceId));
    // A regrade request for a question of another course, or of another student's work, is unknown.
    const [other] = await rows<{ sourceType: number; sourceId: number; questionId: number }>(t.database.db, sql`
      SELECT r.source_type::int AS "sourceType", r.source_id AS "sourceId", r.question_id AS "questionId"
        FROM answer_records r JOIN homeworks h ON h.id = r.source_id AND r.source_type <> 2
       WHERE r.student_id = ${student.id} AND h.course_id = ${otherCourse} LIMIT 1`);
    const [foreign] = await rows<{ sourceType: number; sourceId: number; questionId: number }>(t.database.db, sql`
      SELECT source_type::int AS "sourceType", source_id AS "sourceId", question_id AS "questionId" FROM answer_records WHERE student_id = ${foreignStudent} LIMIT 1`);
    for (const target of [other, foreign]) {
      expect(target).toBeTruthy();
      const res = await t.app.inject({ method: 'POST', url: `${BASE}/view/${token}/regrades`, payload: { ...target, reason: '请老师再看看' }, remoteAddress: '10.9.0.1' });
      expect(res.statusCode).toBe(404);
      expect(res.json().msg).toBe('没有找到这道题的作答');
    }
    const extra = await t.app.inject({ method: 'POST', url: `${BASE}/view/${token}/regrades`, payload: { ...other, reason: 'x', studentId: foreignStudent }, remoteAddress: '10.9.0.2' });
    expect(extra.statusCode).toBe(400);
  });

  it('lists upcoming homework once it is published, not while it is scheduled', async () => {
    const link = await issue('schooladmin', { studentId: student.id });
    const [hw] = await rows<{ id: number }>(t.database.db, sql`
      INSERT INTO homeworks (tenant_id, teacher_id, class_id, course_id, title, assigned_at, due_at, start_at, source_type, items, term)
      SELECT tenant_id, teacher_id, class_id, course_id, '周末预习：一元一次方程的应用', now(), now() + interval '3 days', now() + interval '1 day', 0, '[]'::jsonb, term
        FROM homeworks WHERE class_id = ${student.classId} ORDER BY id DESC LIMIT 1
      RETURNING id`);
    const titles = async () => {
      const page = (await open(`${BASE}/view/${tokenOf(link.path)}`)).json().data;
      return [...page.upcoming, ...page.works].map((w: { title: string }) => w.title);
    };
    expect(await titles()).not.toContain('周末预习：一元一次方程的应用');
    await t.database.db.execute(sql`UPDATE homeworks SET start_at = now() - interval '1 minute' WHERE id = ${hw.id}`);
    expect(await titles()).toContain('周末预习：一元一次方程的应用');
    await t.database.db.execute(sql`DELETE FROM homeworks WHERE id = ${hw.id}`);
    // Tidy: the student's live links are bounded (10), and the tests below issue more.
    await c.done('schooladmin', `${BASE}/links/${link.id}/revoke`, {});
  });

  it('logs every view, and says noindex and no-referrer', async () => {
    const link = await issue('schooladmin', { studentId: student.id });
    for (let i = 0; i < 3; i++) await open(i % 2 ? link.path : `${BASE}/view/${tokenOf(link.path)}`);
    const [{ n }] = await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM family_link_views WHERE link_id = ${link.id}`);
    expect(n).toBe(3);
    const listed = (await c.data('schooladmin', `${BASE}/links?studentId=${student.id}`)).links.find((l: { id: number }) => l.id === link.id);
    expect(listed.views).toBe(3);
    const html = await open(link.path);
    expect(html.headers['x-robots-tag']).toContain('noindex');
    expect(html.headers['referrer-policy']).toBe('no-referrer');
    expect(html.headers['cache-control']).toBe('no-store');
    expect(html.body).toContain('<meta name="robots" content="noindex');
  });

  it('answers a Chinese page and a 4xx, with no data, for an expired, revoked or made-up link', async () => {
    const expired = await issue('schooladmin', { studentId: student.id });
    await t.database.db.execute(sql`UPDATE family_links SET expires_at = now() - interval '1 minute' WHERE id = ${expired.id}`);
    const revoked = await issue('schooladmin', { studentId: student.id });
    await c.done('schooladmin', `${BASE}/links/${revoked.id}/revoke`, {});
    const cases: [string, number, string][] = [
      [expired.path, 410, '链接已过期，请联系老师重新获取'],
      [revoked.path, 410, '请联系老师重新获取'],
      [`/f/${'A'.repeat(43)}`, 404, '链接无效'],
      ['/f/short', 404, '链接无效'],
    ];
    for (const [path, status, text] of cases) {
      const html = await open(path);
      expect(html.statusCode, path).toBe(status);
      expect(html.headers['content-type']).toContain('text/html');
      expect(html.body).toContain(text);
      expect(html.body).not.toContain(student.name);
      expect(html.headers['x-robots-tag']).toContain('noindex');
      const json = await open(`${BASE}/view/${tokenOf(path)}`);
      expect(json.statusCode).toBe(status);
      expect(json.json().data ?? null).toBeNull();
      expect(json.body).not.toContain(student.name);
    }
  });

  it('limits made-up tokens per address', async () => {
    let last = 0;
    for (let i = 0; i < 25; i++) last = (await t.app.inject({ url: `/f/${String(i).padStart(43, 'B')}`, remoteAddress: '10.200.0.1' })).statusCode;
    expect(last).toBe(429);
  });
});

describe('regrade requests', () => {
  it('a family asks about one question, the teacher reads it on the homework and answers, the page shows it', async () => {
    const link = await issue('teacher', { studentId: student.id, courseId: mathCourse });
    const token = tokenOf(link.path);
    const page = (await open(`${BASE}/view/${token}`)).json().data;
    // A homework 陈静 assigned (七(1)班 has a second 数学 teacher).
    const hers = new Set(
      (await rows<{ id: number }>(t.database.db, sql`
        SELECT h.id FROM homeworks h JOIN teachers te ON te.id = h.teacher_id JOIN users u ON u.id = te.user_id WHERE u.username = 'teacher'`)).map((r) => r.id),
    );
    type Wrong = { questionId: number; no: string; regrade: unknown };
    const work = page.works.find((w: { kind: string; sourceId: number; wrong: Wrong[] }) => w.kind === '作业' && hers.has(w.sourceId) && w.wrong.some((q) => !q.regrade));
    const question = work.wrong.find((q: Wrong) => !q.regrade);
    const post = (payload: object, ip = '10.8.0.1') => t.app.inject({ method: 'POST', url: `${BASE}/view/${token}/regrades`, payload, remoteAddress: ip });
    const target = { sourceType: work.sourceType, sourceId: work.sourceId, questionId: question.questionId };
    expect((await post({ ...target, reason: '   ' })).statusCode).toBe(400);
    expect((await post({ ...target, reason: '字'.repeat(201) })).statusCode).toBe(400);
    const filed = await post({ ...target, reason: '孩子的列式和答案一致，是不是判错了？' });
    expect(filed.statusCode, filed.body).toBe(200);
    const again = await post({ ...target, reason: '再问一次' });
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toContain('已经申请过复核');

    // 陈静 assigned the homework: she reads the request there; 林晓 and another school do not.
    const list = await c.data('teacher', `${BASE}/regrades?homeworkId=${work.sourceId}`);
    const request = list.records.find((r: { questionId: number }) => r.questionId === question.questionId);
    expect(request).toMatchObject({ studentName: student.name, reason: '孩子的列式和答案一致，是不是判错了？', status: 0, questionNo: question.no, workTitle: work.title });
    expect(list.open).toBeGreaterThan(0);
    expect((await c.get('teacher2', `${BASE}/regrades?homeworkId=${work.sourceId}`)).statusCode).toBe(404);
    expect((await c.get('teacher3', `${BASE}/regrades?homeworkId=${work.sourceId}`)).statusCode).toBe(404);
    expect((await c.get('teacher', `${BASE}/regrades`)).statusCode).toBe(400);
    expect((await c.get('schooladmin', `${BASE}/regrades?homeworkId=${work.sourceId}`)).statusCode).toBe(403);
    expect((await c.post('teacher2', `${BASE}/regrades/${request.id}/answer`, { answer: '好的' })).statusCode).toBe(404);
    expect((await c.post('teacher', `${BASE}/regrades/${request.id}/answer`, { answer: ' ' })).statusCode).toBe(400);
    expect((await c.post('teacher', `${BASE}/regrades/${request.id}/answer`, { answer: '答'.repeat(301) })).statusCode).toBe(400);
    // The AI批改 task grading that homework shows the same requests; a task tied to nothing, none.
    const task = await c.done('teacher', '/api/wrongbook/v1.0/correct/task/create', { type: 1, title: '作业拍照批改', classId: student.classId, homeworkId: work.sourceId });
    const onTask = await c.data('teacher', `${BASE}/regrades?taskId=${task.id}`);
    expect(onTask.records.map((r: { id: number }) => r.id)).toContain(request.id);
    expect((await c.get('teacher2', `${BASE}/regrades?taskId=${task.id}`)).statusCode).toBe(404);
    const loose = await c.done('teacher', '/api/wrongbook/v1.0/correct/task/create', { type: 1, title: '随堂练习批改', classId: student.classId });
    expect(await c.data('teacher', `${BASE}/regrades?taskId=${loose.id}`)).toEqual({ records: [], open: 0 });

    const answered = await c.done('teacher', `${BASE}/regrades/${request.id}/answer`, { answer: '已重新查看，第二步列式有误，维持原判。' });
    expect(answered).toMatchObject({ status: 1, answeredByName: '陈静' });

    const after = (await open(`${BASE}/view/${token}`)).json().data;
    const shown = after.works.find((w: { sourceId: number }) => w.sourceId === work.sourceId).wrong.find((q: { questionId: number }) => q.questionId === question.questionId);
    expect(shown.regrade).toMatchObject({ status: 1, answer: '已重新查看，第二步列式有误，维持原判。' });
    expect((await open(link.path)).body).toContain('已重新查看，第二步列式有误，维持原判。');
    // Answered, the question may be asked about again.
    expect((await post({ ...target, reason: '我们还是有疑问' }, '10.8.0.2')).statusCode).toBe(200);
  });

  it('files from the page’s plain form and comes back to the page with a notice', async () => {
    const link = await issue('schooladmin', { studentId: student.id });
    const page = (await open(`${BASE}/view/${tokenOf(link.path)}`)).json().data;
    const work = page.works.find((w: { wrong: { regrade: unknown }[] }) => w.wrong.some((q) => !q.regrade));
    const question = work.wrong.find((q: { regrade: unknown }) => !q.regrade);
    const form = new URLSearchParams({ sourceType: String(work.sourceType), sourceId: String(work.sourceId), questionId: String(question.questionId), reason: '答案写对了' });
    const res = await t.app.inject({ method: 'POST', url: `${link.path}/regrade`, payload: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' }, remoteAddress: '10.7.0.1' });
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe(`${link.path}?sent=1#q-${work.sourceType}-${work.sourceId}-${question.questionId}`);
    const back = await open(res.headers.location as string);
    expect(back.body).toContain('复核申请已提交');
    expect(back.body).toContain('已申请复核');
    const twice = await t.app.inject({ method: 'POST', url: `${link.path}/regrade`, payload: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' }, remoteAddress: '10.7.0.2' });
    expect(twice.statusCode).toBe(409);
    expect(twice.headers['content-type']).toContain('text/html');
    expect(twice.body).toContain('已经申请过复核');
  });
});

describe('the QR code on a personalised 错题卷', () => {
  it('issues each student a link for the course, printed as a QR code that opens that student’s page', async () => {
    const VOLUME = '/api/wrongbook/v1.0/web/volumePaper';
    const { list } = await c.data('teacher', `${VOLUME}/candidates?classId=${student.classId}&courseId=${mathCourse}`);
    const body = { classId: student.classId, courseId: mathCourse, questionIds: list.slice(0, 3).map((q: { id: number }) => q.id), mode: 'personal', variants: 0 };
    const preview = await c.done('teacher', `${VOLUME}/preview`, body);
    // A student of the paper at the live-link limit: printing for the class is refused whole.
    const [{ live }] = await rows<{ live: number }>(t.database.db, sql`
      SELECT count(*)::int AS live FROM family_links WHERE student_id = ${student.id} AND revoked_at IS NULL AND expires_at > now()`);
    for (let i = live; i < FAMILY_LIMITS.livePerStudent; i++) await issue('schooladmin', { studentId: student.id });
    const full = await c.post('teacher', `${VOLUME}/pdf`, { ...body, familyQr: true });
    expect(full.statusCode).toBe(409);
    expect(full.json().msg).toBe(`学生 ${student.name} 已有 ${FAMILY_LIMITS.livePerStudent} 个有效链接，请先撤销不用的链接`);
    await t.database.db.execute(sql`UPDATE family_links SET revoked_at = now() WHERE student_id = ${student.id}`);
    const before = await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM family_links WHERE label = '错题卷二维码'`);
    const res = await c.post('teacher', `${VOLUME}/pdf`, { ...body, familyQr: true });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const links = await rows<{ studentId: number; courseId: number; days: number }>(t.database.db, sql`
      SELECT student_id AS "studentId", course_id AS "courseId", round(extract(epoch FROM expires_at - created_at) / 86400)::int AS days
        FROM family_links WHERE label = '错题卷二维码'`);
    expect(links.length - before[0].n).toBe(preview.students.length);
    for (const l of links) expect(l).toMatchObject({ courseId: mathCourse, days: 30 });
    const [entry] = await rows<{ summary: string }>(t.database.db, sql`SELECT summary FROM audit_logs WHERE kind = 'familyLink' ORDER BY id DESC LIMIT 1`);
    expect(entry.summary).toContain(`为学生 ${preview.students.length} 名生成家长查看链接（数学，30 天有效，错题卷二维码）`);

    // The first section's QR code, read back from the printed page, opens its student's page.
    const dir = mkdtempSync(join(tmpdir(), 'xz-family-qr-'));
    try {
      writeFileSync(join(dir, 'v.pdf'), res.rawPayload);
      expect(execFileSync('pdftotext', [join(dir, 'v.pdf'), '-']).toString()).toContain('家长扫码查看学习情况');
      // The first student's section: their sheet and questions, a few pages at most.
      execFileSync('pdftoppm', ['-r', '110', '-f', '1', '-l', '3', '-png', join(dir, 'v.pdf'), join(dir, 'p')]);
      let url: string | undefined;
      // Read in overlapping tiles: a page also carries the answer sheet's own codes (sheet and
      // page, not an address), and a reader answers one code per image.
      const TILE = 360;
      pages: for (const file of readdirSync(dir).filter((f) => f.endsWith('.png')).sort()) {
        const image = sharp(readFileSync(join(dir, file)));
        const { width = 0, height = 0 } = await image.metadata();
        for (let top = 0; top < height; top += TILE / 2) {
          for (let left = 0; left < width; left += TILE / 2) {
            const w = Math.min(TILE, width - left);
            const h = Math.min(TILE, height - top);
            const { data } = await image.clone().extract({ left, top, width: w, height: h }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
            const found = jsQR(new Uint8ClampedArray(data), w, h);
            if (found?.data.includes('/f/')) {
              url = found.data;
              break pages;
            }
          }
        }
      }
      expect(url).toMatch(/^http:\/\/localhost(:\d+)?\/f\/[A-Za-z0-9_-]{43}$/);
      const page = await open(`${BASE}/view/${url!.split('/f/')[1]}`);
      expect(page.statusCode).toBe(200);
      expect(page.json().data.student.name).toBe(preview.students[0].name);
      expect(page.json().data.scopeName).toBe('数学');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
