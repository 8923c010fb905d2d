// Importing a book's questions from Excel (all or nothing, a refused file comes back annotated),
// and 综合 questions with their sub-questions. The platform's shared book is written by the platform
// administrator (a school's part-timer may not: content-shared-books.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/testApp';
import { XLSX, client, multipart, readRows, workbook } from '../support/school';
import { query } from '../support/content';

let t: TestApp;
let c: ReturnType<typeof client>;

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
});
afterAll(() => t.close());

const api = (path: string) => `/api/minerva/v1.0/${path}`;
const send = async (user: string, method: 'PUT' | 'DELETE' | 'POST', url: string, payload?: object) => t.call(await c.token(user), { method, url, payload });

interface PageQ {
  id: number;
  type: number;
  stem: string;
  answer: string;
  options: { key: string; text: string }[] | null;
  points: number;
  knowledgePoints: { id: number; name: string }[];
  children: { id: number; type: number; stem: string; answer: string; points: number; options: { key: string; text: string }[] | null }[];
  no: number;
}
interface Detail {
  chapters: { sections: { pages: { id: number; pageNo: number; questions: PageQ[] }[] }[] }[];
}

async function mathsBook() {
  const list = await c.data('parttime', api('exercisebooks?gradeLevel=7&size=50'));
  const book = (list.records as { id: number; subjectName: string; title: string }[]).find((b) => b.subjectName === '数学')!;
  return book;
}
const pagesOf = (detail: Detail) => detail.chapters.flatMap((ch) => ch.sections.flatMap((s) => s.pages));
const upload = async (user: string, bookId: number, bytes: Buffer) => c.upload(user, api(`exercisebooks/${bookId}/import`), multipart({}, { name: '题目.xlsx', content: bytes, type: XLSX }));

describe('importing questions from Excel', () => {
  it('gives editors a template with the required columns marked, and refuses other roles', async () => {
    const book = await mathsBook();
    const res = await c.get('parttime', api(`exercisebooks/${book.id}/import-template`));
    expect(res.statusCode).toBe(200);
    const [header, example] = await readRows(res.rawPayload);
    expect(header.slice(0, 4)).toEqual(['页码*', '题型*', '题干*', '选项A']);
    expect(header).toContain('知识点*');
    expect(example[1]).toBe('单选');
    for (const user of ['teacher', 'schooladmin']) expect((await c.get(user, api(`exercisebooks/${book.id}/import-template`))).statusCode, user).toBe(403);
  });

  it('imports nothing while one row is wrong, says why on that row, then imports the corrected file in row order', async () => {
    const book = await mathsBook();
    const before = (await c.data('parttime', api(`exercisebooks/${book.id}`))) as Detail;
    const [page1, page2] = pagesOf(before);
    const point = page1.questions[0].knowledgePoints[0].name;
    const header = ['页码*', '题型*', '题干*', '选项A', '选项B', '选项C', '选项D', '选项E', '选项F', '答案*', '解析', '难度*', '分值*', '知识点*', '来源'];
    const good: (string | number)[][] = [
      [page1.pageNo, '单选', '比 $-2$ 小 1 的数是（　）', '$-3$', '$-1$', '1', '3', '', '', 'A', '$-2-1=-3$。', 2, 3, point, '期中复习'],
      [page2.pageNo, '判断', '$0$ 既不是正数也不是负数。', '', '', '', '', '', '', '对', '', 1, 2, point, ''],
      [page1.pageNo, '填空', '$|-7|=$______。', '', '', '', '', '', '', '7', '负数的绝对值是它的相反数。', 1, 2, `${point}、${point}`, ''],
    ];
    const bad = [...good, [999, '综合', '', 'x', '', '', '', '', '', '', '', 9, 0, '不存在的知识点', '']];
    const refused = await upload('admin', book.id, await workbook(header, bad));
    expect(refused.statusCode).toBe(422);
    expect(refused.headers['x-import-error-count']).toBe('1');
    const marked = await readRows(refused.rawPayload);
    const reason = marked[4].at(-1)!;
    for (const part of ['本练习册没有第999页', '综合题含有小题', '题干不能为空', '答案不能为空', '难度须为1到5的整数', '分值须在0.5到100之间', '本学科没有知识点：不存在的知识点']) expect(reason).toContain(part);
    expect(marked[1].length).toBeLessThan(marked[4].length);
    const unchanged = (await c.data('parttime', api(`exercisebooks/${book.id}`))) as Detail;
    expect(pagesOf(unchanged).map((p) => p.questions.length)).toEqual(pagesOf(before).map((p) => p.questions.length));

    const wrongAnswer = await upload('admin', book.id, await workbook(header, [[page1.pageNo, '单选', '题干', '1', '2', '', '', '', '', 'E', '', 1, 1, point, '']]));
    expect(wrongAnswer.statusCode).toBe(422);
    expect((await readRows(wrongAnswer.rawPayload))[1].at(-1)).toBe('答案必须是选项中的字母');

    const res = await upload('admin', book.id, await workbook(header, good));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ code: 200, data: { total: 3, pages: 2 }, msg: '导入成功：共3道题' });
    const after = pagesOf((await c.data('parttime', api(`exercisebooks/${book.id}`))) as Detail);
    const p1 = after.find((p) => p.id === page1.id)!.questions;
    const p2 = after.find((p) => p.id === page2.id)!.questions;
    expect(p1.length).toBe(page1.questions.length + 2);
    expect(p1.slice(-2).map((q) => [q.no, q.type, q.stem])).toEqual([
      [page1.questions.length + 1, 1, '比 $-2$ 小 1 的数是（　）'],
      [page1.questions.length + 2, 4, '$|-7|=$______。'],
    ]);
    expect(p1.at(-2)!.options).toEqual([{ key: 'A', text: '$-3$' }, { key: 'B', text: '$-1$' }, { key: 'C', text: '1' }, { key: 'D', text: '3' }]);
    expect(p1.at(-1)!.knowledgePoints.map((k) => k.name)).toEqual([point]);
    expect(p2.at(-1)).toMatchObject({ type: 3, answer: 'A', options: [{ key: 'A', text: '对' }, { key: 'B', text: '错' }] });
  });

  it("refuses other tenants' books, other roles and files that are not workbooks", async () => {
    const book = await mathsBook();
    const [tenant2] = await query<{ id: number }>(t, sql`SELECT tenant_id AS id FROM users WHERE username = 'teacher3'`);
    const [own] = await query<{ id: number }>(t, sql`
      INSERT INTO exercise_books (tenant_id, title, subject_id, grade_level, term, edition)
      SELECT ${tenant2.id}, '校本练习', subject_id, 7, 1, '校本' FROM exercise_books WHERE id = ${book.id} RETURNING id`);
    const bytes = await workbook(['页码*'], [[1]]);
    expect((await upload('admin', own.id, bytes)).json()).toMatchObject({ code: 404, msg: '练习册不存在' });
    expect((await upload('teacher', book.id, bytes)).statusCode).toBe(403);
    const notXlsx = await c.upload('admin', api(`exercisebooks/${book.id}/import`), multipart({}, { name: 'a.xlsx', content: Buffer.from('not a workbook') }));
    expect(notXlsx.statusCode).toBe(400);
    expect(notXlsx.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    const missing = await upload('admin', book.id, bytes);
    expect([missing.statusCode, missing.json().msg]).toEqual([400, expect.stringContaining('题型')]);
  });
});

describe('综合 questions', () => {
  it('keeps sub-questions in order, worth their sum; an edit replaces them, a delete removes them', async () => {
    const book = await mathsBook();
    const page = pagesOf((await c.data('parttime', api(`exercisebooks/${book.id}`))) as Detail)[2];
    const point = page.questions[0].knowledgePoints[0].id;
    const question = {
      type: 6,
      stem: '某校七年级一班 5 名同学的数学测验成绩与平均分的差（单位：分）为：$+6, -3, 0, +9, -2$。',
      answer: '见各小题',
      difficulty: 3,
      points: 1,
      knowledgePointIds: [point],
      children: [
        { type: 1, stem: '成绩最高的同学比平均分高（　）', options: [{ key: 'A', text: '6 分' }, { key: 'B', text: '9 分' }], answer: 'b', difficulty: 1, points: 3 },
        { type: 5, stem: '若平均分为 80 分，求这 5 名同学的总分。', answer: '$5\\times80+(6-3+0+9-2)=410$（分）', difficulty: 3, points: 6.5 },
      ],
    };
    const added = await send('admin', 'POST', api(`exercisebooks/${book.id}/pages/${page.id}/questions`), { question });
    expect(added.statusCode, added.body).toBe(200);
    const created = added.json().data as PageQ;
    expect(created.points).toBe(9.5);
    expect(created.children.map((ch) => [ch.type, ch.answer, ch.points])).toEqual([[1, 'B', 3], [5, question.children[1].answer, 6.5]]);
    const fromBank = await c.data('teacher', api(`questions/${created.id}`));
    expect(fromBank.children.map((ch: { stem: string }) => ch.stem)).toEqual(question.children.map((ch) => ch.stem));
    // Sub-questions are part of their 综合, never questions of the bank on their own.
    const bank = await c.data('teacher', api(`questions?keyword=${encodeURIComponent('成绩最高的同学')}`));
    expect(bank.total).toBe(0);

    const edited = await send('admin', 'PUT', api(`exercisebooks/${book.id}/questions/${created.id}`), { question: { ...question, children: [question.children[1]] } });
    expect(edited.json().data).toMatchObject({ points: 6.5, children: [{ type: 5 }] });
    const [{ n }] = await query<{ n: number }>(t, sql`SELECT count(*)::int AS n FROM questions WHERE parent_id = ${created.id}`);
    expect(n).toBe(1);

    const wrong = await send('admin', 'POST', api(`exercisebooks/${book.id}/pages/${page.id}/questions`), { question: { ...question, type: 5 } });
    expect([wrong.statusCode, wrong.json().msg]).toEqual([400, '只有综合题可以包含小题']);
    const badChild = await send('admin', 'POST', api(`exercisebooks/${book.id}/pages/${page.id}/questions`), {
      question: { ...question, children: [{ ...question.children[0], answer: 'Z' }] },
    });
    expect([badChild.statusCode, badChild.json().msg]).toEqual([400, '第1小题：答案必须是选项中的字母']);

    expect((await send('admin', 'DELETE', api(`exercisebooks/${book.id}/questions/${created.id}`))).statusCode).toBe(200);
    const [{ left }] = await query<{ left: number }>(t, sql`SELECT count(*)::int AS left FROM questions WHERE id = ${created.id} OR parent_id = ${created.id}`);
    expect(left).toBe(0);
  });
});
