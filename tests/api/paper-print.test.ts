// The printable paper: its author gets a PDF whose first pages carry the paper (title, sections,
// numbered questions with options) and whose last pages are the engine's answer sheet, stored as
// a sheet the author may grade with; anyone else is refused in Chinese.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { sql } from 'drizzle-orm';
import { questions } from '../../server/db/schema';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';
import { latexToText } from '../../server/modules/minerva/paperPdf';
import type { QuestionView } from '../../src/domain/questionBank';

let t: TestApp;
let c: ReturnType<typeof client>;
// PAPER_PDF_DIR keeps the PDFs where a person can look at them.
const dir = process.env.PAPER_PDF_DIR ?? mkdtempSync(join(tmpdir(), 'xz-paper-'));

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
});
afterAll(() => t.close());

/** Text of each page, as poppler reads it (pages split on form feed). */
function pagesText(pdf: Buffer, name: string): string[] {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).split('\f').slice(0, -1);
}

describe('paper PDF', () => {
  let paperId: number;
  let singles: QuestionView[];
  let blanks: QuestionView[];
  let answers: QuestionView[];

  beforeAll(async () => {
    const maths = (await c.data('teacher', '/api/vesta/teaching/getTeacherCourse')).find((x: { courseName: string }) => x.courseName === '数学');
    const bank = async (query: string) => (await c.data('teacher', `/api/minerva/v1.0/questions?subjectId=${maths.subjectId}&gradeLevel=7&${query}`)).records as QuestionView[];
    singles = await bank('type=1&size=6');
    blanks = await bank('type=4&size=3');
    answers = await bank('type=5&size=2');
    const paper = await c.done('teacher', '/api/minerva/v1.0/papers', {
      title: '七年级数学单元检测卷',
      subjectId: maths.subjectId,
      gradeLevel: 7,
      durationMinutes: 60,
      sections: [
        { title: '选择题', questions: singles.map((q) => ({ questionId: q.id, points: 3 })) },
        { title: '填空题', questions: blanks.map((q) => ({ questionId: q.id, points: 4 })) },
        { title: '解答题', questions: answers.map((q) => ({ questionId: q.id, points: 10 })) },
      ],
    });
    paperId = paper.id;
  });

  it('lays out the paper for A4 and appends the answer sheet made by the engine', async () => {
    const res = await c.get('teacher', `/api/minerva/v1.0/papers/${paperId}/pdf?paper=A4`);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(String(res.headers['content-disposition'])).toContain(encodeURIComponent('七年级数学单元检测卷'));
    const doc = await PDFDocument.load(res.rawPayload);
    expect(doc.getPageCount()).toBeGreaterThanOrEqual(2);
    const { width, height } = doc.getPage(0).getSize();
    expect([Math.round(width), Math.round(height)]).toEqual([595, 842]);

    const pages = pagesText(res.rawPayload, 'a4');
    const first = pages[0].replace(/\s+/g, ' ');
    expect(first).toContain('七年级数学单元检测卷');
    expect(first).toContain('考试时间：60 分钟');
    expect(first).toContain('满分：50 分');
    expect(first).toContain('一、选择题（共 6 题，18 分）');
    // Every question, numbered through the paper, and the first one's options.
    const all = pages.join('\n').replace(/\s+/g, ' ');
    for (let no = 1; no <= 11; no++) expect(all).toContain(`${no}. `);
    expect(all).toContain('三、解答题（共 2 题，20 分）');
    for (const o of singles[0].options ?? []) expect(all).toContain(`${o.key}. `);

    // The answer sheet: the engine's pages, stored as the author's sheet with one item per question.
    const sheetPages = pages.filter((p) => p.includes('答题卡'));
    expect(sheetPages.length).toBeGreaterThanOrEqual(1);
    expect(pages[pages.length - 1]).toContain('答题卡');
    const sheets = await t.database.db.execute(sql`SELECT id, layout FROM answer_sheets WHERE id LIKE ${`P${paperId}A4%`}`);
    const list = (sheets as unknown as { rows?: { id: string; layout: { pages: { objective: unknown[]; fill: unknown[]; short: unknown[] }[] } }[] }).rows ?? (sheets as unknown as { id: string; layout: { pages: { objective: unknown[]; fill: unknown[]; short: unknown[] }[] } }[]);
    expect(list).toHaveLength(1);
    const layoutPages = list[0].layout.pages;
    expect(layoutPages.flatMap((p) => p.objective)).toHaveLength(6);
    expect(layoutPages.flatMap((p) => p.fill)).toHaveLength(3);
    expect(layoutPages.flatMap((p) => p.short)).toHaveLength(2);
    expect(doc.getPageCount()).toBe(pages.length);
    expect(pages.length - layoutPages.length).toBeGreaterThanOrEqual(1);
    // The author can fetch the same sheet through the correction calls to grade scans with it.
    const sheetPdf = await c.get('teacher', `/api/wrongbook/v1.0/correct/sheet/pdf?sheetId=${list[0].id}`);
    expect(sheetPdf.statusCode).toBe(200);
  });

  it('lays out A3 landscape, and printing again reuses the stored sheet', async () => {
    const res = await c.get('teacher', `/api/minerva/v1.0/papers/${paperId}/pdf?paper=A3`);
    expect(res.statusCode).toBe(200);
    const doc = await PDFDocument.load(res.rawPayload);
    const { width, height } = doc.getPage(0).getSize();
    expect([Math.round(width), Math.round(height)]).toEqual([1191, 842]);
    expect(pagesText(res.rawPayload, 'a3').join('')).toContain('七年级数学单元检测卷');
    expect((await c.get('teacher', `/api/minerva/v1.0/papers/${paperId}/pdf?paper=A3`)).statusCode).toBe(200);
    const count = await t.database.db.execute(sql`SELECT id FROM answer_sheets WHERE id LIKE ${`P${paperId}A3%`}`);
    expect(((count as unknown as { rows?: unknown[] }).rows ?? (count as unknown as unknown[])).length).toBe(1);
  });

  it('is for the author only: other teachers, tenants and roles are refused in Chinese', async () => {
    for (const user of ['teacher2', 'teacher3']) {
      const res = await c.get(user, `/api/minerva/v1.0/papers/${paperId}/pdf`);
      expect([res.statusCode, res.json().msg]).toEqual([404, '试卷不存在']);
    }
    for (const user of ['schooladmin', 'parttime']) {
      const res = await c.get(user, `/api/minerva/v1.0/papers/${paperId}/pdf`);
      expect(res.statusCode).toBe(403);
      expect(res.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    const bad = await c.get('teacher', `/api/minerva/v1.0/papers/${paperId}/pdf?paper=B5`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toContain('纸张大小');
    expect((await c.get('teacher', '/api/minerva/v1.0/papers/99999999/pdf')).statusCode).toBe(404);
    expect((await c.get('teacher', '/api/minerva/v1.0/papers/abc/pdf')).statusCode).toBe(400);
  });
});

describe('a 综合 question', () => {
  it('prints with its sub-questions and takes one writing box on the sheet', async () => {
    const maths = (await c.data('teacher', '/api/vesta/teaching/getTeacherCourse')).find((x: { courseName: string }) => x.courseName === '数学');
    const db = t.database.db;
    const [parent] = await db
      .insert(questions)
      .values({ subjectId: maths.subjectId, gradeLevel: 7, type: 6, stem: '阅读材料：某商店把一件商品按标价的八折出售，仍可获利 20%。', answer: '见解析', difficulty: 3, points: 12 })
      .returning({ id: questions.id });
    await db.insert(questions).values([
      { subjectId: maths.subjectId, gradeLevel: 7, type: 5, stem: '若进价为 $a$ 元，用含 $a$ 的式子表示售价。', answer: '1.2a', difficulty: 3, points: 6, parentId: parent.id, sortOrder: 1 },
      { subjectId: maths.subjectId, gradeLevel: 7, type: 1, stem: '若标价为 240 元，则进价为', options: [{ key: 'A', text: '160 元' }, { key: 'B', text: '180 元' }], answer: 'A', difficulty: 3, points: 6, parentId: parent.id, sortOrder: 2 },
    ]);
    const paper = await c.done('teacher', '/api/minerva/v1.0/papers', {
      title: '综合题练习',
      subjectId: maths.subjectId,
      gradeLevel: 7,
      durationMinutes: 30,
      sections: [{ title: '综合题', questions: [{ questionId: parent.id, points: 12 }] }],
    });
    const res = await c.get('teacher', `/api/minerva/v1.0/papers/${paper.id}/pdf`);
    expect(res.statusCode).toBe(200);
    const text = pagesText(res.rawPayload, 'composite').join('\n').replace(/\s+/g, ' ');
    expect(text).toContain('(1) 若进价为 a 元');
    expect(text).toContain('(2) 若标价为 240 元');
    expect(text).toContain('A. 160 元');
    const stored = await t.database.db.execute(sql`SELECT layout FROM answer_sheets WHERE id LIKE ${`P${paper.id}A4%`}`);
    const [sheet] = ((stored as unknown as { rows?: unknown[] }).rows ?? (stored as unknown as unknown[])) as { layout: { pages: { objective: unknown[]; short: { no: number }[] }[] } }[];
    expect(sheet.layout.pages.flatMap((p) => p.short.map((s) => s.no))).toEqual([1]);
    expect(sheet.layout.pages.flatMap((p) => p.objective)).toEqual([]);
  });
});

describe('formulas as plain text', () => {
  it('reads the LaTeX the bank uses', () => {
    expect(latexToText('(-3) \\times 4 \\div (-2) = ')).toBe('(-3) × 4 ÷ (-2) =');
    expect(latexToText('\\angle A = 40^\\circ')).toBe('∠A = 40°');
    expect(latexToText('\\dfrac{1}{2} + \\frac{x+1}{3}')).toBe('1/2 + (x+1)/3');
    expect(latexToText('a^2 - b^{2}')).toBe('a² - b²');
    expect(latexToText('\\sqrt{9^2 + 12^2}')).toBe('√(9² + 12²)');
    expect(latexToText('\\rho = 1.0 \\text{g/cm}^3')).toBe('ρ = 1.0 g/cm³');
  });
});
