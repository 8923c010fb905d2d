// Homework given as a photo or PDF of the assignment with its own answer key (demo `teacher`):
// the upload is checked by its bytes and bounded, the key is bounded and checked item by item, the
// homework lists and details like any other, its items stay out of the bank, and an AI批改 作业
// photo task linked to it scores the photo against the key and records the answers (作业详情,
// 未提交名单). Another teacher's or tenant's file, a wrong role and hostile input are refused in Chinese.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';
import { client, multipart, tempDataDir } from '../support/school';
import { homeworkPhoto } from '../../server/grading/corpus/homeworkPhoto';
import { createWorker } from '../../server/workers';
import { rows } from '../../server/db/query';

let t: TestApp;
let c: ReturnType<typeof client>;
// A fresh seed snapshot (built once per seed change) takes minutes on a busy machine.
beforeAll(async () => void (c = client((t = await createTestApp({ dataDir: tempDataDir() })))), 600_000);
afterAll(() => t.close());

const FILES = '/api/minerva/v1.0/homework-files';
const HOMEWORKS = '/api/minerva/v1.0/homeworks';
const CORRECT = '/api/wrongbook/v1.0/correct';
const inAWeek = () => new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

async function upload(user: string, name: string, content: Buffer) {
  return c.upload(user, FILES, multipart({}, { name, content }));
}

async function mathsOf(user: string) {
  const classes = (await c.data(user, '/api/vesta/teaching/getTeachClass?leaderType=1')) as { id: number; className: string }[];
  const maths = ((await c.data(user, '/api/vesta/teaching/getTeacherCourse')) as { courseId: number; courseName: string }[]).find((x) => x.courseName === '数学')!;
  return { classes, courseId: maths.courseId };
}

const KEY = [
  { no: '1', kind: 'choice', answer: 'b', points: 2 },
  { no: '2', kind: 'choice', answer: 'C', points: 2 },
  { no: '3', kind: 'judge', answer: '√', points: 1 },
  { no: '4', kind: 'answer', points: 5 },
];

describe('homework from a photo or PDF with an answer key', () => {
  it('uploads only bounded JPG, PNG or PDF files, for teachers', async () => {
    const photo = await homeworkPhoto([{ text: '1. 计算 3+4', hand: false }], 1);
    const ok = await upload('teacher', '第三单元.jpg', photo);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ fileName: '第三单元.jpg', mime: 'image/jpeg' });
    expect((await upload('teacher', '练习.pdf', PDF)).json().data.mime).toBe('application/pdf');
    // A program named .jpg, a text file, an empty file, a file over 10 MB: refused by their bytes.
    const exe = await upload('teacher', '作业.jpg', Buffer.concat([Buffer.from('MZ\x90\x00'), Buffer.alloc(200)]));
    expect(exe.json()).toMatchObject({ code: 415, msg: '只支持 JPG、PNG 图片或 PDF 文件' });
    expect((await upload('teacher', '<script>.png', Buffer.from('<script>alert(1)</script>'))).json()).toMatchObject({ code: 415 });
    expect((await upload('teacher', '空.jpg', Buffer.alloc(0))).json()).toMatchObject({ code: 400, msg: '文件是空的，请重新选择' });
    const huge = await upload('teacher', '大.jpg', Buffer.concat([photo.subarray(0, 4), Buffer.alloc(11 * 1024 * 1024)]));
    expect(huge.json()).toMatchObject({ code: 413, msg: '文件过大，作业原件不能超过10MB' });
    // No file at all, another role.
    expect((await c.upload('teacher', FILES, multipart({ x: 1 }))).json().msg).toBe('请选择要上传的文件');
    for (const user of ['schooladmin', 'partner1']) {
      const res = await upload(user, 'a.jpg', photo);
      expect(res.statusCode).toBe(403);
      expect(res.json().msg).toMatch(/\p{Script=Han}/u);
    }
  });

  it('assigns it with a bounded key, lists and details it, and keeps its items out of the bank', async () => {
    const { classes, courseId } = await mathsOf('teacher');
    const file = (await upload('teacher', '第三单元.jpg', await homeworkPhoto([{ text: '1. 计算', hand: false }], 2))).json().data;
    const base = { courseId, classIds: [classes[0].id, classes[1].id], dueAt: inAWeek(), title: '第三单元课后练习', fileId: file.id };

    const refuse = async (body: object, msg: string | RegExp) => {
      const res = await c.post('teacher', HOMEWORKS, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(res.json().msg).toMatch(msg);
    };
    await refuse({ ...base }, '请填写答案');
    await refuse({ ...base, fileId: undefined, key: KEY }, /三选一|答案只能随作业原件填写/);
    await refuse({ ...base, title: ' ', key: KEY }, '请填写作业标题');
    await refuse({ ...base, key: [] }, /\p{Script=Han}/u);
    await refuse({ ...base, key: Array.from({ length: 101 }, (_, i) => ({ no: String(i + 1), kind: 'answer', points: 1 })) }, /\p{Script=Han}/u);
    await refuse({ ...base, key: [{ no: '1;DROP', kind: 'answer', points: 1 }] }, /\p{Script=Han}/u);
    await refuse({ ...base, key: [{ no: '1', kind: 'essay', points: 1 }] }, /\p{Script=Han}/u);
    await refuse({ ...base, key: [{ no: '1', kind: 'answer', points: 0 }] }, /\p{Script=Han}/u);
    await refuse({ ...base, key: [{ no: '1', kind: 'answer', points: 1e9 }] }, /\p{Script=Han}/u);
    await refuse({ ...base, key: [{ no: '1', kind: 'choice', answer: 'Z', points: 1 }] }, '第 1 题请填写正确选项（A–G）');
    await refuse({ ...base, key: [{ no: '1', kind: 'judge', answer: '也许', points: 1 }] }, '第 1 题请填写“对”或“错”');
    await refuse({ ...base, key: [{ no: '1', kind: 'blank', answer: '  ', points: 1 }] }, '第 1 题请填写正确答案');
    await refuse({ ...base, key: [{ no: '1', kind: 'blank', answer: 'x'.repeat(201), points: 1 }] }, /\p{Script=Han}/u);
    await refuse({ ...base, key: [KEY[0], { ...KEY[1], no: '1' }] }, '第 1 题重复了');

    const created = await c.done('teacher', HOMEWORKS, { ...base, key: KEY });
    expect(created).toMatchObject({ title: '第三单元课后练习', questionCount: 4 });
    expect(created.homeworks).toHaveLength(2);
    // The same file is not given twice.
    expect((await c.post('teacher', HOMEWORKS, { ...base, key: KEY })).json()).toMatchObject({ code: 404, msg: '作业原件不存在，请重新上传' });

    const listed = (await c.data('teacher', `${HOMEWORKS}?size=50`)).records as { id: number; fileId: number | null; questionCount: number; title: string }[];
    const mine = listed.find((h) => h.id === created.homeworks[0].id)!;
    expect(mine).toMatchObject({ fileId: file.id, questionCount: 4, title: '第三单元课后练习' });
    const detail = await c.data('teacher', `${HOMEWORKS}/${mine.id}`);
    expect(detail.questions.map((q: { no: string; points: number; question: { type: number; answer: string } }) => [q.no, q.points, q.question.type, q.question.answer])).toEqual([
      ['1', 2, 1, 'B'],
      ['2', 2, 1, 'C'],
      ['3', 1, 3, '对'],
      ['4', 5, 5, ''],
    ]);
    expect(detail.questions[0].question.stem).toBe('第三单元课后练习 第 1 题（选择题，见作业原件）');
    // Both classes share one key; nobody has handed in yet.
    const other = await c.data('teacher', `${HOMEWORKS}/${created.homeworks[1].id}`);
    expect(other.questions.map((q: { question: { id: number } }) => q.question.id)).toEqual(detail.questions.map((q: { question: { id: number } }) => q.question.id));
    expect((await c.data('teacher', `${HOMEWORKS}/${mine.id}/missing`)).students.length).toBe(detail.studentCount);

    // Not in the bank: neither listed nor given as a custom homework or a paper.
    const bank = await c.data('teacher', `/api/minerva/v1.0/questions?keyword=${encodeURIComponent('第三单元课后练习')}`);
    expect(bank.total).toBe(0);
    const asCustom = await c.post('teacher', HOMEWORKS, { courseId, classIds: [classes[0].id], dueAt: inAWeek(), questionIds: [detail.questions[0].question.id] });
    expect(asCustom.json()).toMatchObject({ code: 404, msg: '题目不存在' });

    // The file opens for its teacher only.
    const view = await c.get('teacher', `${FILES}/${file.id}`);
    expect([view.statusCode, view.headers['content-type']]).toEqual([200, 'image/jpeg']);
    for (const user of ['teacher2', 'teacher3']) expect((await c.get(user, `${FILES}/${file.id}`)).json()).toMatchObject({ code: 404, msg: '文件不存在' });
    for (const id of ['0', 'abc', '99999999999']) {
      const res = await c.get('teacher', `${FILES}/${id}`);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }

    // Withdrawn from both classes, its key goes with it.
    const ids = detail.questions.map((q: { question: { id: number } }) => q.question.id);
    for (const h of created.homeworks) expect((await t.call(await c.token('teacher'), { method: 'DELETE', url: `${HOMEWORKS}/${h.id}` })).statusCode).toBe(200);
    const [{ left }] = await rows<{ left: number }>(t.database.db, sql`SELECT count(*)::int AS left FROM questions WHERE id = ANY(${`{${ids.join(',')}}`}::int[])`);
    expect(left).toBe(0);
  });

  it("refuses another teacher's or another tenant's file", async () => {
    const { classes, courseId } = await mathsOf('teacher');
    const photo = await homeworkPhoto([{ text: '1. 计算', hand: false }], 3);
    for (const user of ['teacher2', 'teacher3']) {
      const theirs = (await upload(user, '别人的.jpg', photo)).json().data;
      const res = await c.post('teacher', HOMEWORKS, { courseId, classIds: [classes[0].id], dueAt: inAWeek(), title: '借用', fileId: theirs.id, key: KEY });
      expect(res.json()).toMatchObject({ code: 404, msg: '作业原件不存在，请重新上传' });
    }
  });

  it('is graded by an AI批改 作业 photo task against its key, and counts in 作业详情', async () => {
    const { classes, courseId } = await mathsOf('teacher');
    const file = (await upload('teacher', '练习.pdf', PDF)).json().data;
    const created = await c.done('teacher', HOMEWORKS, { courseId, classIds: [classes[0].id], dueAt: inAWeek(), title: '周末练习', fileId: file.id, key: KEY });
    const homeworkId = created.homeworks[0].id as number;
    const before = await c.data('teacher', `${HOMEWORKS}/${homeworkId}`);
    const [first] = before.students as { studentId: number; name: string }[];

    const task = await c.done('teacher', `${CORRECT}/task/create`, { type: 1, title: '周末练习批改', homeworkId, questions: KEY.map((k) => ({ no: Number(k.no) })) });
    // Printed answers: the reading is the engine's (tests/grading); this is about the key.
    const photo = await homeworkPhoto(
      [
        { text: '1. B', hand: false },
        { text: '2. A', hand: false },
        { text: '3. 对', hand: false },
      ],
      7,
    );
    const up = await c.upload('teacher', `${CORRECT}/task/upload`, multipart({ taskId: task.id, studentId: first.studentId }, { name: '作业.jpg', content: photo }));
    expect(up.statusCode, up.body).toBe(200);
    await c.done('teacher', `${CORRECT}/task/submit`, { taskId: task.id });
    const worker = createWorker(t.database.db, t.app.config);
    while (await worker.runOnce());

    const result = (await c.data('teacher', `${CORRECT}/task/detail?taskId=${task.id}`)).results[0];
    expect(result.studentId).toBe(first.studentId);
    const records = await rows<{ questionId: number; score: number; isCorrect: boolean; answer: string }>(t.database.db, sql`
      SELECT question_id AS "questionId", score, is_correct AS "isCorrect", answer FROM answer_records WHERE source_type = 0 AND source_id = ${homeworkId} ORDER BY question_id`);
    const byNo = (no: string) => records.find((r) => r.questionId === before.questions.find((q: { no: string }) => q.no === no).question.id);
    // 1 read as B (right, 2 points), 2 as A (wrong, 0), 3 as 对 (right, 1): written by the
    // machine from the key; 4 is a 解答题 with nothing on the photo: it waits for the teacher.
    expect(byNo('1')).toMatchObject({ score: 2, isCorrect: true, answer: 'B' });
    expect(byNo('2')).toMatchObject({ score: 0, isCorrect: false, answer: 'A' });
    expect(byNo('3')).toMatchObject({ score: 1, isCorrect: true });
    expect(byNo('4')).toBeUndefined();
    const full = await c.data('teacher', `${CORRECT}/result/detail?resultId=${result.id}`);
    expect(full.result.items.find((i: { no: number }) => i.no === 4)).toMatchObject({ score: null, needsReview: true });

    const after = await c.data('teacher', `${HOMEWORKS}/${homeworkId}`);
    expect(after.students.find((s: { studentId: number }) => s.studentId === first.studentId)).toMatchObject({ submitted: true });
    expect(after.questions.find((q: { no: string }) => q.no === '1')).toMatchObject({ answered: 1, correct: 1, accuracy: 1 });
    expect(after.questions.find((q: { no: string }) => q.no === '2')).toMatchObject({ answered: 1, correct: 0, accuracy: 0 });
    const missing = await c.data('teacher', `${HOMEWORKS}/${homeworkId}/missing`);
    expect(missing.students.map((s: { studentId: number }) => s.studentId)).not.toContain(first.studentId);
    expect(missing.students.length).toBe(after.studentCount - 1);
  }, 120_000);
});
