// AI correction end to end through HTTP and the real engine: print a roster answer sheet, scan
// filled copies, upload, submit, let a queue worker read and score them, review a result.
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../server/db/query';
import { createWorker } from '../../server/workers';
import { makeScan, type Filling } from '../../server/grading/corpus/generate';
import { homeworkPhoto } from '../../server/grading/corpus/homeworkPhoto';
import type { SheetLayout } from '../../server/grading';
import { classSize } from '../support/content';
import { createTestApp, type TestApp } from '../support/testApp';
import { multipart, tempDataDir } from '../support/school';

const BASE = '/api/wrongbook/v1.0/correct';
let t: TestApp;
let teacher: string;
let classId: number;
let sheetId: string;
let layout: SheetLayout;

beforeAll(async () => {
  t = await createTestApp({ dataDir: tempDataDir() });
  teacher = await t.login('teacher');
  const classes = (await t.call(teacher, { url: '/api/vesta/teaching/getTeachClass?leaderType=1' })).json().data;
  classId = classes[0].id;
});
afterAll(() => t.close());

const post = (token: string, url: string, payload: object) => t.call(token, { method: 'POST', url: `${BASE}${url}`, payload });
const get = (token: string, url: string) => t.call(token, { url: `${BASE}${url}` });
const upload = (token: string, taskId: number, name: string, content: Buffer, studentId?: number) => {
  const body = multipart({ taskId, ...(studentId ? { studentId } : {}) }, { name, content });
  return t.call(token, { method: 'POST', url: `${BASE}/task/upload`, payload: body.payload, headers: body.headers });
};
/** Runs the queue until it is empty, as the in-process worker would. */
async function drain() {
  const worker = createWorker(t.database.db, t.app.config);
  while (await worker.runOnce());
}

const SECTIONS = [
  {
    kind: 'objective',
    title: '一、选择题',
    items: [1, 2, 3, 4, 5].map((no) => ({ no, type: 'single', options: 4 })).concat([{ no: 6, type: 'multiple', options: 4 }]),
  },
];
const KEY = {
  multipleRule: { missing: 0.5, wrong: 0 },
  items: { '1': { answer: 'A', points: 2 }, '2': { answer: 'B', points: 2 }, '3': { answer: 'C', points: 2 }, '4': { answer: 'D', points: 2 }, '5': { answer: 'A', points: 2 }, '6': { answer: 'AC', points: 4 } },
};

function filling(studentKey: string, answers: Record<number, string>): Filling {
  const objective: Filling['objective'] = {};
  for (const [no, labels] of Object.entries(answers)) objective[Number(no)] = [...labels].map((label) => ({ label, style: 'full' as const }));
  return { copy: { sheetId, page: 1, studentId: studentKey }, objective };
}

describe('answer sheets', () => {
  it('prints a roster sheet for a class the teacher teaches, and keeps its layout as the template', async () => {
    const res = await post(teacher, '/sheet/create', { title: '七年级数学周测', paper: 'A4', identity: 'roster', classId, sections: SECTIONS });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ title: '七年级数学周测', pages: 1, copies: await classSize(t, classId) });
    sheetId = res.json().data.sheetId;
    const [row] = await rows<{ layout: SheetLayout }>(t.database.db, sql`SELECT layout FROM answer_sheets WHERE id = ${sheetId}`);
    layout = row.layout;
    expect(layout.identity.mode).toBe('roster');

    const pdf = await get(teacher, `/sheet/pdf?sheetId=${sheetId}`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('refuses a roster sheet without a class, and a class of another tenant', async () => {
    expect((await post(teacher, '/sheet/create', { title: '周测', paper: 'A4', identity: 'roster', sections: SECTIONS })).json().msg).toBe('按名单打印需要选择班级');
    const other = await t.login('teacher3');
    const [foreign] = (await t.call(other, { url: '/api/vesta/teaching/getTeachClass?leaderType=1' })).json().data;
    expect((await post(teacher, '/sheet/create', { title: '周测', paper: 'A4', identity: 'roster', classId: foreign.id, sections: SECTIONS })).statusCode).toBe(404);
  });

  it('grades uploaded scans: reads each student, scores against the key, and takes the teacher review', async () => {
    const task = (await post(teacher, '/task/create', { type: 3, title: '数学周测批改', classId, sheetId, answerKey: KEY })).json().data;
    expect(task.status).toBe(1);
    const roster = layout.identity.mode === 'roster' ? layout.identity.students : [];
    const [first, second] = roster;
    const scans = [
      await makeScan(layout, filling(first.id, { 1: 'A', 2: 'B', 3: 'C', 4: 'D', 5: 'A', 6: 'AC' }), { rotateDeg: 3, noise: 4 }, 1),
      await makeScan(layout, filling(second.id, { 1: 'A', 2: 'C', 3: 'C', 4: 'A', 5: 'A', 6: 'A' }), { rotateDeg: -2, jpegQuality: 70 }, 2),
    ];
    for (const [i, scan] of scans.entries()) expect((await upload(teacher, task.id, `扫描${i + 1}.jpg`, scan)).statusCode).toBe(200);

    // A file that is not an image or PDF is refused by its bytes, whatever its name.
    const exe = await upload(teacher, task.id, '答题卡.jpg', Buffer.from('MZ\x90\x00 not really an image'));
    expect(exe.statusCode).toBe(415);
    expect(exe.json().msg).toBe('只支持 JPG、PNG 图片或 PDF 文件');

    const submitted = await post(teacher, '/task/submit', { taskId: task.id });
    expect(submitted.json().data.status).toBe(3);
    expect((await upload(teacher, task.id, '晚交.jpg', scans[0])).statusCode).toBe(409);

    await drain();
    const detail = (await get(teacher, `/task/detail?taskId=${task.id}`)).json().data;
    expect(detail.task.status).toBe(4);
    expect(detail.progress).toEqual({ files: 2, done: 2 });
    expect(detail.files.map((f: { recognitionStatus: number }) => f.recognitionStatus)).toEqual([3, 3]);
    const byName = Object.fromEntries(detail.results.map((r: { studentName: string }) => [r.studentName, r]));
    expect(byName[first.name]).toMatchObject({ score: 14, maxScore: 14, needsReview: false });
    // Item 2 and 4 wrong, item 6 one of two correct options: half of 4 points.
    expect(byName[second.name]).toMatchObject({ score: 8, maxScore: 14 });

    // The teacher gives full marks on item 6 after all.
    const review = await post(teacher, '/result/review', { resultId: byName[second.name].id, items: [{ no: 6, score: 4 }] });
    expect(review.statusCode).toBe(200);
    expect(review.json().data).toMatchObject({ score: 10, maxScore: 14 });
    const tooMuch = await post(teacher, '/result/review', { resultId: byName[second.name].id, items: [{ no: 6, score: 5 }] });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().msg).toBe('第 6 题得分不能超过满分 4 分');

    // The menu badge no longer counts the finished task.
    expect((await t.call(teacher, { url: '/api/wrongbook/v1.0/web/nav/getMenuBadge?dateType=0' })).json().data.correctCount).toBe(0);
  });

  it('anonymous sheets find the student by the bubbled student number', async () => {
    const sheet = (await post(teacher, '/sheet/create', { title: '随堂小测', paper: 'A4', identity: 'anonymous', digits: 9, sections: SECTIONS })).json().data;
    const [row] = await rows<{ layout: SheetLayout }>(t.database.db, sql`SELECT layout FROM answer_sheets WHERE id = ${sheet.sheetId}`);
    const [student] = await rows<{ id: number; name: string; student_no: string }>(t.database.db, sql`
      SELECT id, name, student_no FROM students WHERE class_id = ${classId} ORDER BY student_no LIMIT 1 OFFSET 5`);
    const task = (await post(teacher, '/task/create', { type: 3, title: '随堂小测批改', classId, sheetId: sheet.sheetId, answerKey: KEY })).json().data;
    const marks: Filling = {
      copy: { sheetId: sheet.sheetId, page: 1 },
      studentNumber: student.student_no,
      objective: Object.fromEntries([1, 2, 3, 4, 5].map((no) => [no, [{ label: 'A', style: 'full' as const }]])),
    };
    await upload(teacher, task.id, '小测.jpg', await makeScan(row.layout, marks, { noise: 3 }, 11));
    await post(teacher, '/task/submit', { taskId: task.id });
    await drain();
    const detail = (await get(teacher, `/task/detail?taskId=${task.id}`)).json().data;
    expect(detail.task.status).toBe(4);
    // Items 1 and 5 are A; item 6 was left blank.
    expect(detail.results).toEqual([expect.objectContaining({ studentId: student.id, studentName: student.name, score: 4, maxScore: 14 })]);
  });

  it('a student number from a class the task is not for stays unmatched: the raw number, never a name', async () => {
    const sheet = (await post(teacher, '/sheet/create', { title: '随堂小测二', paper: 'A4', identity: 'anonymous', digits: 9, sections: SECTIONS })).json().data;
    const [row] = await rows<{ layout: SheetLayout }>(t.database.db, sql`SELECT layout FROM answer_sheets WHERE id = ${sheet.sheetId}`);
    // A student of the same school in a class this teacher does not teach.
    const [stranger] = await rows<{ id: number; name: string; student_no: string }>(t.database.db, sql`
      SELECT s.id, s.name, s.student_no FROM students s
       WHERE s.school_id = (SELECT school_id FROM classes WHERE id = ${classId})
         AND s.class_id NOT IN (SELECT ta.class_id FROM teaching_assignments ta JOIN teachers te ON te.id = ta.teacher_id
                                 JOIN users u ON u.id = te.user_id WHERE u.username = 'teacher')
       ORDER BY s.student_no LIMIT 1`);
    expect(stranger).toBeDefined();
    const marks: Filling = {
      copy: { sheetId: sheet.sheetId, page: 1 },
      studentNumber: stranger.student_no,
      objective: Object.fromEntries([1, 2, 3, 4, 5].map((no) => [no, [{ label: 'A', style: 'full' as const }]])),
    };
    const scan = await makeScan(row.layout, marks, { noise: 3 }, 12);
    // With the task's class, and without a class (then the classes the teacher teaches count).
    for (const title of ['别班学号', '别班学号（无班级）']) {
      const task = (await post(teacher, '/task/create', { type: 3, title, ...(title.includes('无班级') ? {} : { classId }), sheetId: sheet.sheetId, answerKey: KEY })).json().data;
      await upload(teacher, task.id, '小测.jpg', scan);
      await post(teacher, '/task/submit', { taskId: task.id });
      await drain();
      const res = await get(teacher, `/task/detail?taskId=${task.id}`);
      const detail = res.json().data;
      expect(detail.task.status).toBe(4);
      expect(detail.results).toEqual([expect.objectContaining({ studentId: null, score: 4 })]);
      expect(res.body).not.toContain(stranger.name);
      expect(res.body).toContain(stranger.student_no);
    }
  });

  it('a page that is not our sheet fails with a reason, and the task fails when nothing could be read', async () => {
    const task = (await post(teacher, '/task/create', { type: 3, title: '拍糊了', classId, sheetId, answerKey: KEY })).json().data;
    const blank = await sharp({ create: { width: 800, height: 1100, channels: 3, background: '#ffffff' } }).png().toBuffer();
    await upload(teacher, task.id, '白纸.png', blank);
    await post(teacher, '/task/submit', { taskId: task.id });
    await drain();
    const detail = (await get(teacher, `/task/detail?taskId=${task.id}`)).json().data;
    expect(detail.files[0].recognitionStatus).toBe(4);
    expect(detail.files[0].error).toMatch(/[\u4e00-\u9fa5]/);
    expect(detail.task).toMatchObject({ status: 7, failReason: '所有文件都无法识别，请检查照片或扫描件后重新上传' });
  });
});

describe('essays', () => {
  it('reads an essay photo and scores it with the rubric, flagged for the teacher to confirm', async () => {
    const task = (await post(teacher, '/task/create', { type: 2, title: '作文：我的家乡', classId, essayBrief: { title: '我的家乡', fullMarks: 50 } })).json().data;
    const photo = await homeworkPhoto(
      ['我的家乡在江南水乡', '春天河边的柳树发芽了', '夏天荷花开满池塘', '我爱我的家乡'].map((text) => ({ text, hand: true })),
      7,
    );
    const [student] = await rows<{ id: number }>(t.database.db, sql`SELECT id FROM students WHERE class_id = ${classId} ORDER BY student_no LIMIT 1`);
    expect((await upload(teacher, task.id, '作文.jpg', photo, student.id)).statusCode).toBe(200);
    await post(teacher, '/task/submit', { taskId: task.id });
    await drain();
    const detail = (await get(teacher, `/task/detail?taskId=${task.id}`)).json().data;
    expect(detail.task.status).toBe(4);
    const [result] = detail.results;
    expect(result).toMatchObject({ studentId: student.id, maxScore: 50, needsReview: true });
    expect(result.score).toBeGreaterThan(0);
    const full = (await get(teacher, `/result/detail?resultId=${result.id}`)).json().data;
    expect(full.result.kind).toBe('essay');
    expect(full.result.detail.text).toContain('家乡');
    expect(full.result.detail.essay.rubric.dimensions.map((d: { name: string }) => d.name)).toEqual(['内容', '结构', '语言', '字数']);
    // The photo it was read from, to show beside the text.
    expect((await get(teacher, `/file/view?fileId=${full.result.fileId}`)).statusCode).toBe(200);

    // The teacher's points and comment; only the owner may give them, and the comment is bounded.
    const review = await post(teacher, '/result/review', { resultId: result.id, items: [{ no: 1, score: 41 }], comment: '  中心突出，结尾再点题。 ' });
    expect(review.json().data).toMatchObject({ score: 41, needsReview: false, teacherComment: '中心突出，结尾再点题。' });
    const after = (await get(teacher, `/result/detail?resultId=${result.id}`)).json().data;
    expect(after.result.teacherComment).toBe('中心突出，结尾再点题。');
    expect(after.result.detail.text).toContain('家乡');
    // Points alone keep the comment; an empty comment removes it.
    await post(teacher, '/result/review', { resultId: result.id, items: [{ no: 1, score: 40 }] });
    expect((await get(teacher, `/result/detail?resultId=${result.id}`)).json().data.result.teacherComment).toBe('中心突出，结尾再点题。');
    await post(teacher, '/result/review', { resultId: result.id, items: [{ no: 1, score: 40 }], comment: '' });
    expect((await get(teacher, `/result/detail?resultId=${result.id}`)).json().data.result.teacherComment).toBeUndefined();
    const long = await post(teacher, '/result/review', { resultId: result.id, items: [{ no: 1, score: 40 }], comment: '好'.repeat(1001) });
    expect(long.statusCode).toBe(400);
    expect(long.json().msg).toMatch(/^评语/);
    const stranger = await post(await t.login('teacher2'), '/result/review', { resultId: result.id, items: [{ no: 1, score: 50 }], comment: '改别人的' });
    expect(stranger.statusCode).toBe(404);
    expect((await get(teacher, `/task/report?taskId=${task.id}`)).json().data.students[0].score).toBe(40);
  });
});

describe('who may see what', () => {
  it("another teacher, another tenant and a school admin cannot reach a teacher's task", async () => {
    const task = (await post(teacher, '/task/create', { type: 2, title: '私有任务' })).json().data;
    const teacher2 = await t.login('teacher2');
    expect((await get(teacher2, `/task/detail?taskId=${task.id}`)).statusCode).toBe(404);
    expect((await post(teacher2, '/task/submit', { taskId: task.id })).statusCode).toBe(404);
    expect((await get(await t.login('teacher3'), `/task/detail?taskId=${task.id}`)).statusCode).toBe(404);
    expect((await get(await t.login('schooladmin'), `/task/detail?taskId=${task.id}`)).statusCode).toBe(403);
    expect((await get(teacher2, `/sheet/pdf?sheetId=${sheetId}`)).statusCode).toBe(404);
  });

  it('lists only my tasks, newest first, with progress counts', async () => {
    const page = (await get(teacher, '/task/page?current=1&size=10')).json().data;
    expect(page.total).toBeGreaterThanOrEqual(4);
    expect(page.records[0].title).toBe('私有任务');
    const graded = page.records.find((r: { title: string }) => r.title === '数学周测批改');
    expect(graded).toMatchObject({ status: 4, fileCount: 2, doneCount: 2, className: '七(1)班' });
    expect((await get(await t.login('teacher2'), '/task/page')).json().data.total).toBe(0);
  });

  it('validates task input in Chinese', async () => {
    const res = await post(teacher, '/task/create', { type: 3, title: '没有答题卡' });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('答题卡批改需要选择答题卡');
    const empty = (await post(teacher, '/task/create', { type: 1, title: '空任务' })).json().data;
    expect((await post(teacher, '/task/submit', { taskId: empty.id })).json().msg).toBe('请先上传要批改的图片或扫描件');
  });
});
