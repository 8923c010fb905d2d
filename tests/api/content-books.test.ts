// Exercise books and the bank: the two SPEC §7 calls with school and tenant refusals, the book
// page by page, the knowledge-point tree, bank search, and the editors' question changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';
import { query } from '../support/content';

let t: TestApp;
let c: ReturnType<typeof client>;
let grade7: { id: number; children: { id: number; className: string }[] };

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
  const tree = await c.data('schooladmin', '/api/vesta/class/treeClassBySchool');
  grade7 = { id: tree[0].gradeId, children: tree[0].children };
});
afterAll(() => t.close());

interface Book {
  id: number;
  title: string;
  subjectName: string;
  gradeLevel: number;
  subjectId: number;
  courseName?: string;
}
interface PageQ {
  id: number;
  type: number;
  stem: string;
  answer: string;
  analysis: string;
  options: { key: string; text: string }[] | null;
  knowledgePoints: { id: number; name: string }[];
  answerArea: { x: number; y: number; width: number; height: number };
  no: number;
}

const api = (path: string) => `/api/minerva/v1.0/${path}`;
const send = async (user: string, method: 'PUT' | 'DELETE' | 'POST', url: string, payload?: object) => t.call(await c.token(user), { method, url, payload });

describe('books of a class and of a grade (SPEC §7)', () => {
  it('a teacher gets the books of the courses they teach in the class; an admin every book of the class', async () => {
    const class71 = grade7.children[0];
    const mine = (await c.data('teacher', api(`exercisebook/getExerciseBooksByClassId?classId=${class71.id}`))) as Book[];
    // teacher teaches 数学 in 七(1)班 (物理 in 八年级, where physics starts).
    expect(mine.map((b) => b.subjectName).sort()).toEqual(['数学']);
    expect(mine.every((b) => b.gradeLevel === 7)).toBe(true);
    const all = (await c.data('schooladmin', api(`exercisebook/getExerciseBooksByClassId?classId=${class71.id}`))) as Book[];
    expect(all.map((b) => b.subjectName).sort()).toEqual(['数学', '英语', '语文']);
  });

  it('refuses classes not taught, other tenants and other roles', async () => {
    const notTaught = grade7.children[3];
    expect((await c.get('teacher', api(`exercisebook/getExerciseBooksByClassId?classId=${notTaught.id}`))).json()).toMatchObject({ code: 404, msg: '班级不存在' });
    expect((await c.get('teacher3', api(`exercisebook/getExerciseBooksByClassId?classId=${grade7.children[0].id}`))).statusCode).toBe(404);
    expect((await c.get('schooladmin2', api(`exercisebook/getExerciseBooksByClassId?classId=${grade7.children[0].id}`))).statusCode).toBe(404);
    for (const user of ['parttime', 'partner1', 'psych']) {
      expect((await c.get(user, api(`exercisebook/getExerciseBooksByClassId?classId=${grade7.children[0].id}`))).statusCode, user).toBe(403);
    }
    expect((await c.get('teacher', api('exercisebook/getExerciseBooksByClassId?classId=0'))).json().msg).toBe('班级取值不正确');
  });

  it('offers a teacher the books of the grade in the subjects they teach there', async () => {
    const books = (await c.data('teacher', api(`exercisebook/getAvailableExerciseBookByGrade?gradeId=${grade7.id}`))) as (Book & { classIds: number[] })[];
    expect(books.map((b) => b.subjectName).sort()).toEqual(['数学']);
    expect(books.find((b) => b.subjectName === '数学')!.classIds).toEqual(grade7.children.map((x) => x.id));
    const admin = (await c.data('schooladmin', api(`exercisebook/getAvailableExerciseBookByGrade?gradeId=${grade7.id}`))) as Book[];
    // No 物理 book in 七年级: physics starts in 八年级.
    expect(new Set(admin.map((b) => b.subjectName))).toEqual(new Set(['数学', '语文', '英语', '历史']));
    expect((await c.get('teacher3', api(`exercisebook/getAvailableExerciseBookByGrade?gradeId=${grade7.id}`))).statusCode).toBe(404);
    expect((await c.get('parttime', api(`exercisebook/getAvailableExerciseBookByGrade?gradeId=${grade7.id}`))).statusCode).toBe(403);
  });
});

describe('the demo content', () => {
  it('has a book per subject and grade, each of 8+ sections of 8+ questions with answers, 解析 and knowledge points', async () => {
    const list = await c.data('parttime', api('exercisebooks?size=100'));
    const keys = (list.records as Book[]).map((b) => `${b.subjectName}${b.gradeLevel}`).sort();
    for (const subject of ['数学', '语文', '英语', '历史']) for (const level of [7, 8, 9]) expect(keys).toContain(`${subject}${level}`);
    // 物理 starts in 八年级: 八上, 八下 and 九年级, none for 七年级.
    expect(keys.filter((k) => k.startsWith('物理'))).toEqual(['物理8', '物理8', '物理9']);
    for (const book of list.records as Book[]) {
      const detail = await c.data('parttime', api(`exercisebooks/${book.id}`));
      const sections = detail.chapters.flatMap((ch: { sections: unknown[] }) => ch.sections) as { pages: { pageNo: number; questions: PageQ[] }[] }[];
      expect(sections.length, book.title).toBeGreaterThanOrEqual(8);
      for (const s of sections) {
        const questions = s.pages.flatMap((p) => p.questions);
        expect(questions.length).toBeGreaterThanOrEqual(8);
        for (const q of questions) {
          expect(q.answer && q.analysis, q.stem).toBeTruthy();
          expect(q.knowledgePoints.length).toBeGreaterThan(0);
          expect(q.answerArea.y + q.answerArea.height).toBeLessThanOrEqual(297);
          if (q.options) expect(q.options.map((o) => o.key)).toEqual(expect.arrayContaining([...q.answer]));
        }
      }
    }
    const bank = await c.data('teacher', api('questions?size=1'));
    expect(bank.total).toBeGreaterThanOrEqual(300);
  });

  it('names knowledge points after the curriculum, as a tree', async () => {
    const [maths] = await query<{ id: number }>(t, sql`SELECT id FROM subjects WHERE name = '数学'`);
    const tree = await c.data('teacher', api(`knowledge-points?subjectId=${maths.id}`));
    const rational = tree.find((n: { name: string }) => n.name === '有理数');
    expect(rational.children.map((n: { name: string }) => n.name)).toContain('有理数的加减法');
  });

  it('searches the bank by knowledge point (with its subtree), type, difficulty and text, paged', async () => {
    const [maths] = await query<{ id: number }>(t, sql`SELECT id FROM subjects WHERE name = '数学'`);
    const tree = await c.data('teacher', api(`knowledge-points?subjectId=${maths.id}`));
    const rational = tree.find((n: { name: string }) => n.name === '有理数');
    const byParent = await c.data('teacher', api(`questions?knowledgePointId=${rational.id}&size=500`));
    const children = new Set(rational.children.map((n: { id: number }) => n.id));
    expect(byParent.total).toBe(rational.children.length * 12);
    expect(byParent.records.every((q: PageQ) => q.knowledgePoints.some((k) => children.has(k.id)))).toBe(true);
    const singles = await c.data('teacher', api(`questions?subjectId=${maths.id}&type=1&difficulty=2&size=5&current=2`));
    expect(singles.current).toBe(2);
    expect(singles.records.every((q: PageQ & { difficulty: number }) => q.type === 1 && q.difficulty === 2)).toBe(true);
    const text = await c.data('teacher', api(`questions?keyword=${encodeURIComponent('平面镜')}`));
    expect(text.total).toBeGreaterThan(0);
    expect(text.records.every((q: PageQ) => q.stem.includes('平面镜'))).toBe(true);
    expect((await c.data('teacher', api(`questions?keyword=${encodeURIComponent('%_')}`))).total).toBe(0);
    expect((await c.get('teacher', api('questions?type=9'))).statusCode).toBe(400);
    expect((await c.get('partner1', api('questions'))).statusCode).toBe(403);
    const one = await c.data('teacher', api(`questions/${singles.records[0].id}`));
    expect(one).toMatchObject({ id: singles.records[0].id, children: [] });
    expect((await c.get('teacher', api('questions/2147483647'))).json().msg).toBe('题目不存在');
  });
});

describe('editing a book (shared books by the platform administrator; school part-timers: content-shared-books.test.ts)', () => {
  async function firstBook(user = 'parttime') {
    const list = await c.data(user, api('exercisebooks?gradeLevel=7&size=50'));
    const book = (list.records as Book[]).find((b) => b.subjectName === '数学')!;
    return { book, detail: await c.data(user, api(`exercisebooks/${book.id}`)) };
  }

  it('adds a question at a position, edits it, reorders the page and deletes it', async () => {
    const { book, detail } = await firstBook();
    const page = detail.chapters[0].sections[0].pages[0];
    const point = page.questions[0].knowledgePoints[0].id;
    const question = { type: 1, stem: '下列各数中，最小的是（　　）', options: [{ key: 'A', text: '$-3$' }, { key: 'B', text: '$0$' }, { key: 'C', text: '$2$' }, { key: 'D', text: '$-1$' }], answer: 'A', analysis: '负数小于 0，$-3 < -1$。', difficulty: 1, points: 3, knowledgePointIds: [point] };
    const added = await send('admin', 'POST', api(`exercisebooks/${book.id}/pages/${page.id}/questions`), { question, position: 1 });
    expect(added.statusCode, added.body).toBe(200);
    const created = added.json().data;
    expect(created).toMatchObject({ no: 1, answer: 'A', source: book.title });
    const after = (await c.data('parttime', api(`exercisebooks/${book.id}`))).chapters[0].sections[0].pages[0].questions as PageQ[];
    expect(after.map((q) => q.id)).toEqual([created.id, ...page.questions.map((q: PageQ) => q.id)]);

    const edited = await send('admin', 'PUT', api(`exercisebooks/${book.id}/questions/${created.id}`), { question: { ...question, answer: 'a', analysis: '比较大小：$-3$ 最小。' }, answerArea: { x: 20, y: 30, width: 170, height: 12 } });
    expect(edited.json().data).toMatchObject({ answer: 'A', analysis: '比较大小：$-3$ 最小。', answerArea: { y: 30, height: 12 } });

    const reversed = [...after.map((q) => q.id)].reverse();
    const order = await send('admin', 'PUT', api(`exercisebooks/${book.id}/pages/${page.id}/order`), { questionIds: reversed });
    expect(order.json().data.map((o: { questionId: number }) => o.questionId)).toEqual(reversed);
    const partial = await send('admin', 'PUT', api(`exercisebooks/${book.id}/pages/${page.id}/order`), { questionIds: reversed.slice(1) });
    expect([partial.statusCode, partial.json().msg]).toEqual([400, '排序须包含本页的全部题目，且每题一次']);

    expect((await send('admin', 'DELETE', api(`exercisebooks/${book.id}/questions/${created.id}`))).statusCode).toBe(200);
    expect((await c.get('teacher', api(`questions/${created.id}`))).statusCode).toBe(404);
    const answered = page.questions[0].id;
    const refused = await send('admin', 'DELETE', api(`exercisebooks/${book.id}/questions/${answered}`));
    expect([refused.statusCode, refused.json().msg]).toEqual([409, '该题已有学生作答记录，不能删除']);
  });

  it('refuses questions that break the rules, wrong pages and other roles, changing nothing', async () => {
    const { book, detail } = await firstBook();
    const page = detail.chapters[0].sections[0].pages[0];
    const point = page.questions[0].knowledgePoints[0].id;
    const [chinesePoint] = await query<{ id: number }>(t, sql`SELECT k.id FROM knowledge_points k JOIN subjects s ON s.id = k.subject_id WHERE s.name = '语文' LIMIT 1`);
    const good = { type: 1, stem: '题干', options: [{ key: 'A', text: '1' }, { key: 'B', text: '2' }], answer: 'A', analysis: '', difficulty: 2, points: 3, knowledgePointIds: [point] };
    const cases: [object, number, string][] = [
      [{ ...good, answer: 'C' }, 400, '答案必须是选项中的字母'],
      [{ ...good, answer: 'AB' }, 400, '单选题和判断题只能有一个答案'],
      [{ ...good, type: 2, answer: 'A' }, 400, '多选题至少有两个正确选项'],
      [{ ...good, options: [{ key: 'A', text: '1' }] }, 400, '选择题至少需要两个选项'],
      [{ ...good, knowledgePointIds: [chinesePoint.id] }, 400, '知识点不存在或不属于本学科'],
      [{ ...good, difficulty: 6 }, 400, '难度取值不正确'],
      [{ ...good, stem: '' }, 400, '题干不能为空'],
      // A formula KaTeX cannot draw is refused where it is written, not saved to print as red source.
      [{ ...good, stem: '计算 $\\frac{1}{2$ 的值' }, 400, '题干：公式“\\frac{1}{2”有误，请检查括号和命令'],
      [{ ...good, stem: '已知 $x+1 = 2，求 x' }, 400, '题干：公式的 $ 没有成对出现'],
      [{ ...good, options: [{ key: 'A', text: '$\\sqrt{2$' }, { key: 'B', text: '2' }] }, 400, '选项A：公式“\\sqrt{2”有误，请检查括号和命令'],
    ];
    for (const [question, status, msg] of cases) {
      const res = await send('admin', 'POST', api(`exercisebooks/${book.id}/pages/${page.id}/questions`), { question });
      expect([res.statusCode, res.json().msg], JSON.stringify(question)).toEqual([status, msg]);
    }
    const other = detail.chapters[1].sections[0].pages[0];
    expect((await send('admin', 'PUT', api(`exercisebooks/${book.id + 1}/pages/${page.id}/order`), { questionIds: [1] })).json().msg).toBe('页面不存在');
    expect((await send('admin', 'PUT', api(`exercisebooks/${book.id + 1}/questions/${other.questions[0].id}`), { question: good })).statusCode).toBe(404);
    for (const user of ['teacher', 'schooladmin', 'partner1', 'parttime']) {
      expect((await send(user, 'POST', api(`exercisebooks/${book.id}/pages/${page.id}/questions`), { question: good })).statusCode, user).toBe(403);
      expect((await send(user, 'DELETE', api(`exercisebooks/${book.id}/questions/${other.questions[0].id}`))).statusCode, user).toBe(403);
    }
    const unchanged = await c.data('parttime', api(`exercisebooks/${book.id}`));
    expect(unchanged.chapters[0].sections[0].pages[0].questions.length).toBe(page.questions.length);
  });

  it("keeps a school's own book inside its tenant", async () => {
    const [maths] = await query<{ id: number }>(t, sql`SELECT id FROM subjects WHERE name = '数学'`);
    const [tenant2] = await query<{ id: number }>(t, sql`SELECT tenant_id AS id FROM users WHERE username = 'teacher3'`);
    const [own] = await query<{ id: number }>(t, sql`
      INSERT INTO exercise_books (tenant_id, title, subject_id, grade_level, term, edition) VALUES (${tenant2.id}, '育才中学校本练习', ${maths.id}, 7, 1, '校本') RETURNING id`);
    expect((await c.get('parttime', api(`exercisebooks/${own.id}`))).json()).toMatchObject({ code: 404, msg: '练习册不存在' });
    expect((await c.get('teacher', api(`exercisebooks/${own.id}`))).statusCode).toBe(404);
    expect((await c.get('teacher3', api(`exercisebooks/${own.id}`))).statusCode).toBe(200);
    expect((await c.data('parttime', api('exercisebooks?size=100'))).records.map((b: Book) => b.id)).not.toContain(own.id);
  });
});

describe('reading content', () => {
  it('is refused to roles without content, and hides another tenant’s own questions', async () => {
    const [maths] = await query<{ id: number }>(t, sql`SELECT id FROM subjects WHERE name = '数学'`);
    for (const user of ['partner1', 'psych', 'researcher']) {
      for (const url of [api(`knowledge-points?subjectId=${maths.id}`), api('questions'), api('questions/1'), api('exercisebooks'), api('exercisebooks/1')]) {
        expect((await c.get(user, url)).statusCode, `${user} ${url}`).toBe(403);
      }
    }
    const [tenant2] = await query<{ id: number }>(t, sql`SELECT tenant_id AS id FROM users WHERE username = 'teacher3'`);
    const [own] = await query<{ id: number }>(t, sql`
      INSERT INTO questions (tenant_id, subject_id, stage, grade_level, type, stem, answer, difficulty, points)
      VALUES (${tenant2.id}, ${maths.id}, 2, 7, 4, '育才中学自编题：$1 + 1 = $ ______', '2', 1, 2) RETURNING id`);
    expect((await c.get('teacher3', api(`questions/${own.id}`))).statusCode).toBe(200);
    expect((await c.get('teacher', api(`questions/${own.id}`))).statusCode).toBe(404);
    expect((await c.data('teacher', api(`questions?keyword=${encodeURIComponent('育才中学自编题')}`))).total).toBe(0);
    expect((await c.data('teacher3', api(`questions?keyword=${encodeURIComponent('育才中学自编题')}`))).total).toBe(1);
    const [foreignExam] = await query<{ id: number; studentId: number }>(t, sql`
      SELECT e.id, st.id AS "studentId" FROM exams e JOIN exam_classes ec ON ec.exam_id = e.id JOIN students st ON st.class_id = ec.class_id
       WHERE e.tenant_id = ${tenant2.id} LIMIT 1`);
    expect((await c.get('teacher3', api(`answers?sourceType=2&sourceId=${foreignExam.id}&studentId=${foreignExam.studentId}`))).statusCode).toBe(200);
    expect((await c.get('teacher', api(`answers?sourceType=2&sourceId=${foreignExam.id}&studentId=${foreignExam.studentId}`))).statusCode).toBe(404);
    expect((await c.get('parttime', api('answers?sourceType=2&sourceId=1&studentId=1'))).statusCode).toBe(403);
    expect((await c.get('schooladmin', api('papers'))).statusCode).toBe(403);
  });
});
