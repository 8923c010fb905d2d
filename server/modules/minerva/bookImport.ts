// Importing a book's questions from Excel: a template, and an import that is all or nothing.
// A refused file comes back with each bad row's reason (as the school's student import does), so
// an editor fixes the rows where they are and imports the same file again.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { QuestionType } from '../../../src/domain/content';
import { rows } from '../../db/query';
import { bookPageQuestions, questions } from '../../db/schema';
import { buildWorkbook, readImport, sendImportErrors } from '../../files/xlsx';
import { sendWorkbook } from '../../http/download';
import { ok } from '../../http/envelope';
import { unsafeCells } from '../../http/input';
import { Id } from '../../http/schemas';
import { editorsOnly, findBook, findEditableBook } from './access';
import { cleanQuestion, loadFormulaCheck, type CleanQuestion, type QuestionInput } from './questions';

const OPTION_KEYS = ['A', 'B', 'C', 'D', 'E', 'F'] as const;
export const IMPORT_COLUMNS = ['页码', '题型', '题干', ...OPTION_KEYS.map((k) => `选项${k}`), '答案', '解析', '难度', '分值', '知识点', '来源'];
const REQUIRED_COLUMNS = ['页码', '题型', '题干', '答案', '难度', '分值', '知识点'];
/** A page holds at most this many questions (what a page's reorder accepts). */
export const MAX_PAGE_QUESTIONS = 200;

const TYPE_BY_LABEL = new Map<string, number>([
  ['单选', QuestionType.single], ['单选题', QuestionType.single],
  ['多选', QuestionType.multiple], ['多选题', QuestionType.multiple],
  ['判断', QuestionType.judge], ['判断题', QuestionType.judge],
  ['填空', QuestionType.blank], ['填空题', QuestionType.blank],
  ['解答', QuestionType.answer], ['解答题', QuestionType.answer], ['简答', QuestionType.answer], ['简答题', QuestionType.answer],
  ['作文', QuestionType.essay],
]);
const JUDGE_ANSWERS = new Map([['对', 'A'], ['√', 'A'], ['正确', 'A'], ['A', 'A'], ['错', 'B'], ['×', 'B'], ['错误', 'B'], ['B', 'B']]);

const TEMPLATE_NOTE = [
  '1. 带 * 的列必须填写；每行一道题，按行的顺序排在所填页码的已有题目之后。',
  '2. 页码：本练习册中已有的页码（练习册详情中“第 N 页”的 N）。',
  '3. 题型：单选、多选、判断、填空、解答（或简答）、作文。综合题含有小题，请在练习册详情页中添加。',
  '4. 选择题把选项写在“选项A”至“选项F”列；判断题可不写选项，答案填“对”或“错”。',
  '5. 答案：单选填一个字母，如 B；多选填多个字母，如 AC；其他题型填参考答案，多个空用“；”隔开。',
  '6. 难度：1 到 5 的整数，1 最容易；分值：0.5 到 100。',
  '7. 知识点：本学科知识点的名称，多个用“、”隔开，最多 10 个。',
  '8. 公式写在 $…$ 之间，如 $\\frac{1}{2}$。',
  '9. 整个文件无误才会导入；有错误时将返回原文件，并在每个错误行的末尾写明原因。',
].join('\n');

const EXAMPLE_ROWS: (string | number)[][] = [
  [1, '单选', '下列各数中，最小的数是（　）', '$-3$', '$-1$', '0', '2', '', '', 'A', '负数小于零，两个负数比较，绝对值大的反而小。', 2, 3, '有理数', ''],
  [1, '填空', '计算：$(-5)+3=$______。', '', '', '', '', '', '', '$-2$', '异号两数相加，取绝对值较大的加数的符号。', 1, 2, '有理数的加减法', ''],
];

/** Knowledge points named in a cell: split on 、，,；;, blanks dropped. */
const pointNames = (cell: string) => cell.split(/[、，,；;\n]/).map((s) => s.trim()).filter(Boolean);

function numberCell(text: string): number | null {
  if (!/^\d+(\.\d+)?$/.test(text)) return null;
  return Number(text);
}

const bookImportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;
  const BookParams = Type.Object({ bookId: Id });

  app.get('/api/minerva/v1.0/exercisebooks/:bookId/import-template', { preHandler: editorsOnly, schema: { params: BookParams } }, async (request, reply) => {
    const { bookId } = request.params;
    const book = await findBook(db, request.principal, bookId);
    const bytes = await buildWorkbook(
      '题目',
      IMPORT_COLUMNS.map((c) => ({ header: REQUIRED_COLUMNS.includes(c) ? `${c}*` : c, width: c === '题干' || c === '解析' ? 40 : c.startsWith('选项') ? 14 : 10 })),
      // The examples show the format; they are mathematics, so other books start from an empty sheet.
      book.subjectName === '数学' ? EXAMPLE_ROWS : [],
      TEMPLATE_NOTE,
    );
    return sendWorkbook(reply, bytes, `${book.title}-题目导入模板.xlsx`);
  });

  app.post('/api/minerva/v1.0/exercisebooks/:bookId/import', { preHandler: editorsOnly, schema: { params: BookParams } }, async (request, reply) => {
    const { bookId } = request.params;
    const p = request.principal;
    const book = await findEditableBook(db, p, bookId);
    const [imported] = await Promise.all([readImport(request, REQUIRED_COLUMNS), loadFormulaCheck()]);

    const pages = await rows<{ id: number; pageNo: number; count: number }>(db, sql`
      SELECT bp.id, bp.page_no AS "pageNo", (SELECT count(*)::int FROM book_page_questions pq WHERE pq.page_id = bp.id) AS count
        FROM book_pages bp WHERE bp.book_id = ${book.id}`);
    const pageByNo = new Map(pages.map((pg) => [pg.pageNo, pg]));
    const points = await rows<{ id: number; name: string }>(db, sql`
      SELECT id, name FROM knowledge_points WHERE subject_id = ${book.subjectId} ORDER BY stage = 2 DESC, id`);
    const pointByName = new Map<string, number>();
    for (const point of points) if (!pointByName.has(point.name)) pointByName.set(point.name, point.id);

    const errors = new Map<number, string>();
    const valid: { pageId: number; question: CleanQuestion }[] = [];
    const added = new Map<number, number>();
    for (const { rowNumber, values } of imported.rows) {
      const problems: string[] = unsafeCells(values);
      const cell = (name: string) => values[name] ?? '';
      const pageNo = numberCell(cell('页码'));
      const page = pageNo === null ? undefined : pageByNo.get(pageNo);
      if (!cell('页码')) problems.push('页码不能为空');
      else if (!page) problems.push(`本练习册没有第${cell('页码')}页`);
      else if (page.count + (added.get(page.id) ?? 0) >= MAX_PAGE_QUESTIONS) problems.push(`第${page.pageNo}页的题目不能超过${MAX_PAGE_QUESTIONS}道`);

      const typeText = cell('题型');
      const type = TYPE_BY_LABEL.get(typeText);
      if (!typeText) problems.push('题型不能为空');
      else if (typeText.startsWith('综合')) problems.push('综合题含有小题，请在练习册详情页中添加');
      else if (!type) problems.push('题型只能是单选、多选、判断、填空、解答或作文');

      const stem = cell('题干');
      const answerText = cell('答案');
      const analysis = cell('解析');
      const source = cell('来源');
      if (!stem) problems.push('题干不能为空');
      else if ([...stem].length > 5000) problems.push('题干不能超过5000个字符');
      if (!answerText) problems.push('答案不能为空');
      else if ([...answerText].length > 2000) problems.push('答案不能超过2000个字符');
      if ([...analysis].length > 5000) problems.push('解析不能超过5000个字符');
      if ([...source].length > 200) problems.push('来源不能超过200个字符');

      const options = OPTION_KEYS.flatMap((key) => (cell(`选项${key}`) ? [{ key, text: cell(`选项${key}`) }] : []));
      if (options.some((o) => [...o.text].length > 500)) problems.push('每个选项不能超过500个字符');

      const difficulty = numberCell(cell('难度'));
      if (difficulty === null || !Number.isInteger(difficulty) || difficulty < 1 || difficulty > 5) problems.push('难度须为1到5的整数');
      const score = numberCell(cell('分值'));
      if (score === null || score < 0.5 || score > 100) problems.push('分值须在0.5到100之间');

      const names = pointNames(cell('知识点'));
      const unknown = names.filter((n) => !pointByName.has(n));
      if (!names.length) problems.push('知识点不能为空');
      else if (names.length > 10) problems.push('知识点最多10个');
      else if (unknown.length) problems.push(`本学科没有知识点：${unknown.slice(0, 3).join('、')}`);

      if (problems.length) {
        errors.set(rowNumber, problems.join('；'));
        continue;
      }
      const answer = type === QuestionType.judge && !options.length ? (JUDGE_ANSWERS.get(answerText) ?? answerText) : answerText;
      const input: QuestionInput = {
        type: type!,
        stem,
        options: options.length ? options : undefined,
        answer,
        analysis,
        difficulty: difficulty!,
        points: score!,
        knowledgePointIds: names.map((n) => pointByName.get(n)!),
        source: source || undefined,
      };
      try {
        valid.push({ pageId: page!.id, question: cleanQuestion(input) });
        added.set(page!.id, (added.get(page!.id) ?? 0) + 1);
      } catch (err) {
        errors.set(rowNumber, (err as Error).message);
      }
    }
    if (!imported.rows.length) errors.set(2, '文件中没有题目');
    if (errors.size) return sendImportErrors(reply, imported, errors, '题目导入结果.xlsx');

    // All or nothing: every question lands after the questions its page already has.
    await db.transaction(async (tx) => {
      for (let i = 0; i < valid.length; i += 500) {
        const chunk = valid.slice(i, i + 500);
        const created = await tx
          .insert(questions)
          .values(chunk.map(({ question: { children: _none, ...q } }) => ({ ...q, tenantId: book.tenantId, subjectId: book.subjectId, gradeLevel: book.gradeLevel, source: q.source ?? book.title, createdBy: p.userId })))
          .returning({ id: questions.id });
        const placements = chunk.map(({ pageId }, k) => ({ pageId, questionId: created[k].id }));
        // Positions are counted under a lock on the pages, so two imports into one page never share a number.
        const pageIds = [...new Set(placements.map((pl) => pl.pageId))];
        await tx.execute(sql`SELECT id FROM book_pages WHERE id = ANY(${`{${pageIds.join(',')}}`}::int[]) ORDER BY id FOR UPDATE`);
        const counts = await rows<{ pageId: number; n: number }>(tx, sql`
          SELECT page_id AS "pageId", max(sort_order)::int AS n FROM book_page_questions WHERE page_id = ANY(${`{${pageIds.join(',')}}`}::int[]) GROUP BY page_id`);
        const next = new Map(counts.map((c) => [c.pageId, c.n]));
        await tx.insert(bookPageQuestions).values(
          placements.map(({ pageId, questionId }) => {
            const position = (next.get(pageId) ?? 0) + 1;
            next.set(pageId, position);
            return { pageId, questionId, sortOrder: position, answerArea: { x: 20, y: Math.min(24 + (position - 1) * 60, 360), width: 170, height: 40 } };
          }),
        );
      }
    });
    reply.header('x-import-result', 'success');
    return ok({ total: valid.length, pages: new Set(valid.map((v) => v.pageId)).size }, `导入成功：共${valid.length}道题`);
  });
};

export default bookImportRoutes;
