// The platform's shared exercise books are read by every school, so only the platform's staff may
// change them: a school's part-timer gets a Chinese 403 on every write, and other schools see no
// change. A school's part-timer edits its own school's books; another tenant's book is 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/testApp';
import { XLSX, client, multipart, workbook } from '../support/school';
import { query, schoolBookLike } from '../support/content';

let t: TestApp;
let c: ReturnType<typeof client>;
/** The platform's grade-7 maths book, a book of the part-timer's school and one of tenant 2. */
let shared: number;
let ours: number;
let theirs: number;

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
  const list = await c.data('admin', api('exercisebooks?gradeLevel=7&size=50'));
  shared = (list.records as { id: number; subjectName: string }[]).find((b) => b.subjectName === '数学')!.id;
  const tenantOf = async (user: string) => (await query<{ id: number }>(t, sql`SELECT tenant_id AS id FROM users WHERE username = ${user}`))[0].id;
  ours = await schoolBookLike(t, await tenantOf('parttime'), shared, '实验中学校本数学');
  theirs = await schoolBookLike(t, await tenantOf('teacher3'), shared, '育才中学校本数学');
});
afterAll(() => t.close());

const api = (path: string) => `/api/minerva/v1.0/${path}`;
const send = async (user: string, method: 'PUT' | 'DELETE' | 'POST', url: string, payload?: object) => t.call(await c.token(user), { method, url, payload });
const upload = async (user: string, bookId: number, bytes: Buffer) =>
  c.upload(user, api(`exercisebooks/${bookId}/import`), multipart({}, { name: '题目.xlsx', content: bytes, type: XLSX }));

interface PageQ {
  id: number;
  stem: string;
  knowledgePoints: { id: number; name: string }[];
}
interface Page {
  id: number;
  pageNo: number;
  questions: PageQ[];
}
interface Detail {
  editable: boolean;
  chapters: { sections: { pages: Page[] }[] }[];
}
const pagesOf = (detail: Detail) => detail.chapters.flatMap((ch) => ch.sections.flatMap((s) => s.pages));
const detail = async (user: string, bookId: number) => (await c.data(user, api(`exercisebooks/${bookId}`))) as Detail;

/** A question of the book's subject, on the knowledge point of the shared book's first question. */
async function aQuestion(stem: string) {
  const point = pagesOf(await detail('admin', shared))[0].questions[0].knowledgePoints[0];
  return { question: { type: 4, stem, answer: '7', analysis: '', difficulty: 1, points: 2, knowledgePointIds: [point.id] }, point };
}
const HEADER = ['页码*', '题型*', '题干*', '选项A', '选项B', '选项C', '选项D', '选项E', '选项F', '答案*', '解析', '难度*', '分值*', '知识点*', '来源'];
const importRow = (pageNo: number, stem: string, point: string) => [pageNo, '填空', stem, '', '', '', '', '', '', '7', '', 1, 2, point, ''];

/** Every write a part-timer's screen could send to `bookId`, each with its answer. */
async function everyWrite(user: string, bookId: number, page: Page, questionId: number) {
  const { question, point } = await aQuestion('$|-7|=$______。');
  const ids = page.questions.length ? page.questions.map((q) => q.id) : [questionId];
  return {
    add: await send(user, 'POST', api(`exercisebooks/${bookId}/pages/${page.id}/questions`), { question }),
    edit: await send(user, 'PUT', api(`exercisebooks/${bookId}/questions/${questionId}`), { question: { ...question, answer: '8' } }),
    answerArea: await send(user, 'PUT', api(`exercisebooks/${bookId}/questions/${questionId}`), { question, answerArea: { x: 1, y: 1, width: 10, height: 10 } }),
    reorder: await send(user, 'PUT', api(`exercisebooks/${bookId}/pages/${page.id}/order`), { questionIds: [...ids].reverse() }),
    import: await upload(user, bookId, await workbook(HEADER, [importRow(page.pageNo, '导入的题', point.name)])),
    delete: await send(user, 'DELETE', api(`exercisebooks/${bookId}/questions/${questionId}`)),
  };
}
const answers = (writes: Record<string, { statusCode: number; json(): { msg: string } }>) =>
  Object.fromEntries(Object.entries(writes).map(([name, res]) => [name, [res.statusCode, res.json().msg]]));

describe("a school's part-timer and the platform's shared books", () => {
  it('refuses every write to a shared book with a Chinese 403, and other schools see no change', async () => {
    const before = await detail('teacher3', shared);
    const page = pagesOf(before)[0];
    const writes = await everyWrite('parttime', shared, page, page.questions.at(-1)!.id);
    const refused = [403, '平台共享练习册只能由平台管理员修改'];
    expect(answers(writes)).toEqual({ add: refused, edit: refused, answerArea: refused, reorder: refused, import: refused, delete: refused });
    expect(await detail('teacher3', shared)).toEqual(before);
    expect(await detail('parttime', shared)).toEqual({ ...before, editable: false });
  });

  it("edits its own school's book: add, edit, reorder, import and delete", async () => {
    const { question, point } = await aQuestion('校本题：$|-7|=$______。');
    const page = pagesOf(await detail('parttime', ours))[0];
    const added = await send('parttime', 'POST', api(`exercisebooks/${ours}/pages/${page.id}/questions`), { question });
    expect(added.statusCode, added.body).toBe(200);
    const id = added.json().data.id;
    const edited = await send('parttime', 'PUT', api(`exercisebooks/${ours}/questions/${id}`), { question: { ...question, answer: '8' } });
    expect(edited.json()).toMatchObject({ code: 200, data: { answer: '8' } });
    const imported = await upload('parttime', ours, await workbook(HEADER, [importRow(page.pageNo, '校本导入题', point.name)]));
    expect(imported.json()).toMatchObject({ code: 200, msg: '导入成功：共1道题' });
    const onPage = pagesOf(await detail('parttime', ours))[0].questions;
    expect(onPage.map((q) => q.stem)).toEqual(['校本题：$|-7|=$______。', '校本导入题']);
    const reorder = await send('parttime', 'PUT', api(`exercisebooks/${ours}/pages/${page.id}/order`), { questionIds: onPage.map((q) => q.id).reverse() });
    expect(reorder.statusCode, reorder.body).toBe(200);
    expect((await send('parttime', 'DELETE', api(`exercisebooks/${ours}/questions/${id}`))).statusCode).toBe(200);
    const after = await detail('parttime', ours);
    expect(after.editable).toBe(true);
    expect(pagesOf(after)[0].questions.map((q) => q.stem)).toEqual(['校本导入题']);
    // Its school's book stays its own.
    expect((await c.get('teacher3', api(`exercisebooks/${ours}`))).statusCode).toBe(404);
  });

  it("answers another tenant's book with 404 on every write", async () => {
    const page = pagesOf(await detail('teacher3', theirs))[0];
    const writes = await everyWrite('parttime', theirs, page, 1);
    const missing = [404, '练习册不存在'];
    expect(answers(writes)).toEqual({ add: missing, edit: missing, answerArea: missing, reorder: missing, import: missing, delete: missing });
  });

  it('lets the platform administrator edit a shared book, which every school then reads', async () => {
    const { question } = await aQuestion('平台新增题：$|-7|=$______。');
    const page = pagesOf(await detail('admin', shared))[0];
    const added = await send('admin', 'POST', api(`exercisebooks/${shared}/pages/${page.id}/questions`), { question });
    expect(added.statusCode, added.body).toBe(200);
    const id = added.json().data.id;
    expect((await send('admin', 'PUT', api(`exercisebooks/${shared}/questions/${id}`), { question: { ...question, stem: '平台修改题' } })).statusCode).toBe(200);
    for (const user of ['teacher3', 'parttime']) expect(pagesOf(await detail(user, shared))[0].questions.at(-1)!.stem, user).toBe('平台修改题');
    expect((await send('admin', 'DELETE', api(`exercisebooks/${shared}/questions/${id}`))).statusCode).toBe(200);
    expect((await detail('admin', shared)).editable).toBe(true);
  });

  it('tells each caller which books they may edit', async () => {
    const editable = async (user: string) => {
      const list = await c.data(user, api('exercisebooks?gradeLevel=7&size=50'));
      return Object.fromEntries((list.records as { id: number; editable: boolean }[]).filter((b) => [shared, ours].includes(b.id)).map((b) => [b.id, b.editable]));
    };
    expect(await editable('parttime')).toEqual({ [shared]: false, [ours]: true });
    expect(await editable('admin')).toEqual({ [shared]: true });
    expect(await editable('teacher')).toEqual({ [shared]: false, [ours]: false });
    expect((await detail('teacher', ours)).editable).toBe(false);
  });
});
