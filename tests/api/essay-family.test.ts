// An AI批改 essay (作文) and the family (demo `teacher`'s class): printing the feedback page with
// 附家长查看二维码 issues a fresh family link per student at print time (30 days, audited) that opens
// the family page with the essay; the family asks for a regrade (复核申请) on the essay itself, the
// teacher sees it on the essay task and answers, and the page shows the answer. Another teacher,
// another tenant, a wrong role and hostile input are refused in Chinese.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../server/db/query';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';

const CORRECT = '/api/wrongbook/v1.0/correct';
const FAMILY = '/api/family/v1.0';
let t: TestApp;
let c: ReturnType<typeof client>;
let taskId: number;
let resultId: number;
let otherResultId: number;
let student: { id: number; name: string };
let ip = 0;
const open = (url: string) => t.app.inject({ url, remoteAddress: `10.31.0.${++ip % 250}` });

/** An essay task of the teacher's class with a result the teacher has reviewed (as POST /result/review leaves it). */
async function essayTask(username: string, title: string, classId: number, studentId: number): Promise<{ taskId: number; resultId: number }> {
  const db = t.database.db;
  const [task] = await rows<{ id: number }>(db, sql`
    INSERT INTO grading_tasks (tenant_id, teacher_id, class_id, type, status, title, essay_brief, submitted_at)
    SELECT te.tenant_id, te.id, ${classId}, 2, 4, ${title}, '{"fullMarks":50}'::jsonb, now()
      FROM teachers te JOIN users u ON u.id = te.user_id WHERE u.username = ${username} RETURNING id`);
  const work = { kind: 'essay', items: [{ no: 1, given: '612 字', score: 42, max: 50, needsReview: false, reasons: [] }], detail: {}, teacherComment: '中心突出，结尾再点题。' };
  const [result] = await rows<{ id: number }>(db, sql`
    INSERT INTO grading_results (tenant_id, task_id, student_id, result, score, max_score, needs_review, reviewed_at)
    SELECT tenant_id, ${task.id}, ${studentId}, ${JSON.stringify(work)}::jsonb, 42, 50, false, now() FROM grading_tasks WHERE id = ${task.id} RETURNING id`);
  return { taskId: task.id, resultId: result.id };
}

beforeAll(async () => {
  c = client((t = await createTestApp()));
  const classes: { id: number }[] = await c.data('teacher', '/api/vesta/teaching/getTeachClass?leaderType=1');
  [student] = await rows<{ id: number; name: string }>(t.database.db, sql`SELECT id, name FROM students WHERE class_id = ${classes[0].id} AND status = 0 ORDER BY student_no LIMIT 1`);
  ({ taskId, resultId } = await essayTask('teacher', '作文：我的老师', classes[0].id, student.id));
  // Another task of hers, for a result that is not this task's.
  ({ resultId: otherResultId } = await essayTask('teacher', '作文：春天', classes[0].id, student.id));
}, 600_000);
afterAll(() => t.close());

describe('附家长查看二维码 on the printed feedback of an AI批改 task', () => {
  it('issues a fresh 30-day link per student at print time, audited, that opens the family page with the essay', async () => {
    const first = await c.done('teacher', `${CORRECT}/task/familyLinks`, { taskId, resultIds: [resultId] });
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ resultId, studentId: student.id, days: 30 });
    expect(first[0].url).toMatch(/^https?:\/\/[^/]+\/f\/[A-Za-z0-9_-]{43}$/);
    // Printed again: a new link (only hashes are kept, the first cannot be shown twice).
    const second = await c.done('teacher', `${CORRECT}/task/familyLinks`, { taskId, resultIds: [resultId, resultId] });
    expect(second).toHaveLength(1);
    expect(second[0].url).not.toBe(first[0].url);

    const path = new URL(first[0].url).pathname;
    const page = await open(path);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`${student.name}的学习情况`);
    expect(page.body).toContain('作文：我的老师');
    const [link] = await rows<{ days: number; label: string }>(t.database.db, sql`
      SELECT round(extract(epoch FROM expires_at - created_at) / 86400)::int AS days, label FROM family_links WHERE student_id = ${student.id} ORDER BY id DESC LIMIT 1`);
    expect(link).toEqual({ days: 30, label: '批改反馈：作文：我的老师' });
    const audits = await rows<{ summary: string }>(t.database.db, sql`SELECT summary FROM audit_logs WHERE kind = 'familyLink' AND action = 'issue' AND summary LIKE ${`%${student.name}%批改反馈%`}`);
    expect(audits).toHaveLength(2);
  });

  it("refuses another teacher's or tenant's task, other roles and hostile input in Chinese", async () => {
    for (const user of ['teacher2', 'teacher3']) {
      expect((await c.post(user, `${CORRECT}/task/familyLinks`, { taskId, resultIds: [resultId] })).json()).toMatchObject({ code: 404, msg: '批改任务不存在' });
    }
    for (const user of ['schooladmin', 'partner1']) {
      const res = await c.post(user, `${CORRECT}/task/familyLinks`, { taskId, resultIds: [resultId] });
      expect(res.statusCode).toBe(403);
      expect(res.json().msg).toMatch(/\p{Script=Han}/u);
    }
    for (const body of [{ taskId, resultIds: [] }, { taskId, resultIds: Array.from({ length: 201 }, (_, i) => i + 1) }, { taskId, resultIds: [resultId], days: 0 }, { taskId, resultIds: [resultId], days: 10_000 }, { taskId: 'abc', resultIds: [resultId] }, { taskId, resultIds: ['1;DROP'] }, { taskId, resultIds: [resultId], extra: 1 }]) {
      const res = await c.post('teacher', `${CORRECT}/task/familyLinks`, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json().msg).toMatch(/\p{Script=Han}/u);
    }
    // A result of another task is not this task's student.
    expect((await c.post('teacher', `${CORRECT}/task/familyLinks`, { taskId, resultIds: [otherResultId] })).json()).toMatchObject({
      code: 400,
      msg: '所选结果没有对应本班的学生，无法生成家长查看二维码',
    });
  });
});

describe('复核申请 on an essay', () => {
  it('the family asks about the essay, the teacher reads it on the essay task and answers, the page shows it', async () => {
    const [link] = await c.done('teacher', `${CORRECT}/task/familyLinks`, { taskId, resultIds: [resultId] });
    const token = new URL(link.url).pathname.slice('/f/'.length);
    const view = (await open(`${FAMILY}/view/${token}`)).json().data;
    const essay = view.essays.find((e: { title: string }) => e.title === '作文：我的老师');
    expect(essay).toMatchObject({ sourceType: 3, sourceId: taskId, questionId: 1, regrade: null, comment: '中心突出，结尾再点题。' });
    const html = (await open(`/f/${token}`)).body;
    expect(html).toContain('对这篇作文的评分有疑问？');

    const post = (payload: object) => t.app.inject({ method: 'POST', url: `${FAMILY}/view/${token}/regrades`, payload, remoteAddress: `10.32.0.${++ip % 250}` });
    const target = { sourceType: 3, sourceId: taskId, questionId: 1 };
    // Not the essay's item, a task that is not on the page, a source type that does not exist.
    expect((await post({ ...target, questionId: 2, reason: '请复核' })).json()).toMatchObject({ code: 404, msg: '没有找到这道题的作答' });
    expect((await post({ ...target, sourceId: 2147483000, reason: '请复核' })).json()).toMatchObject({ code: 404 });
    expect((await post({ ...target, sourceType: 4, reason: '请复核' })).statusCode).toBe(400);
    const filed = await post({ ...target, reason: '字数够了，内容分是不是给低了？' });
    expect(filed.statusCode, filed.body).toBe(200);
    expect((await post({ ...target, reason: '再问一次' })).json()).toMatchObject({ code: 409, msg: '这道题已经申请过复核，请等待老师答复' });

    // The teacher reads it on the essay task; another teacher, another tenant or role do not.
    const list = await c.data('teacher', `${FAMILY}/regrades?taskId=${taskId}`);
    expect(list.open).toBe(1);
    expect(list.records[0]).toMatchObject({ studentId: student.id, sourceType: 3, sourceId: taskId, workTitle: '作文：我的老师', questionNo: '作文', reason: '字数够了，内容分是不是给低了？', status: 0 });
    const id = list.records[0].id as number;
    for (const user of ['teacher2', 'teacher3']) expect((await c.get(user, `${FAMILY}/regrades?taskId=${taskId}`)).statusCode).toBe(404);
    expect((await c.get('schooladmin', `${FAMILY}/regrades?taskId=${taskId}`)).statusCode).toBe(403);
    expect((await c.post('teacher2', `${FAMILY}/regrades/${id}/answer`, { answer: '好的' })).json()).toMatchObject({ code: 404, msg: '复核申请不存在' });
    expect((await c.post('teacher3', `${FAMILY}/regrades/${id}/answer`, { answer: '好的' })).statusCode).toBe(404);
    expect((await c.post('teacher', `${FAMILY}/regrades/${id}/answer`, { answer: '答'.repeat(301) })).statusCode).toBe(400);

    const answered = await c.done('teacher', `${FAMILY}/regrades/${id}/answer`, { answer: '已重新阅读，内容分维持，结构分加 2 分。' });
    expect(answered).toMatchObject({ status: 1, questionNo: '作文', answer: '已重新阅读，内容分维持，结构分加 2 分。' });
    const after = (await open(`${FAMILY}/view/${token}`)).json().data;
    expect(after.essays.find((e: { sourceId: number }) => e.sourceId === taskId).regrade).toMatchObject({ status: 1, answer: '已重新阅读，内容分维持，结构分加 2 分。' });
    expect(after.regrades.find((r: { sourceType: number }) => r.sourceType === 3)).toMatchObject({ workTitle: '作文：我的老师', statusLabel: '已答复' });
    const page = (await open(`/f/${token}`)).body;
    expect(page).toContain('作文：我的老师 作文');
    expect(page).toContain('已重新阅读，内容分维持，结构分加 2 分。');
  });
});
