// The exam report as an xlsx workbook for teachers: summary, ranking, per-question analysis (with
// each question's knowledge points and the exercise-book pages it is printed on) and the class
// comparison. Same access as the report itself; every figure is the report's own value, written
// as a number (rates as fractions shown in %), so a spreadsheet can compute with them.
import type ExcelJS from 'exceljs';
import { loadExcel } from '../../files/xlsx';
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { QUESTION_TYPES } from '../../../src/domain/content';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { sendWorkbook } from '../../http/download';
import { Id } from '../../http/schemas';
import { teachersOnly } from './access';
import { reportFor, type ExamReport } from './exams';

type Cell = string | number | null;

const BAND_LABELS = [
  ['excellent', '优秀（≥90%）'],
  ['good', '良好（70%–90%）'],
  ['pass', '及格（60%–70%）'],
  ['fail', '不及格（<60%）'],
] as const;

const typeLabel = (type: number) => QUESTION_TYPES.find((t) => t.value === type)?.label ?? '';

/** A stem as one short line of plain text (formulas stay as written, images as [图]). */
function stemLine(stem: string): string {
  const flat = stem.replace(/!\[[^\]]*\]\([^)]*\)/g, '[图]').replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 60)}…` : flat;
}

/** Where each question is printed: 《book》第 N 页, for the books the school can see. */
async function bookPagesOf(db: Db, tenantId: number, questionIds: number[]): Promise<Map<number, string[]>> {
  const found = questionIds.length
    ? await rows<{ questionId: number; title: string; pageNo: number }>(db, sql`
        SELECT bpq.question_id AS "questionId", b.title, bp.page_no AS "pageNo"
          FROM book_page_questions bpq JOIN book_pages bp ON bp.id = bpq.page_id JOIN exercise_books b ON b.id = bp.book_id
         WHERE bpq.question_id = ANY(${`{${questionIds.join(',')}}`}::int[]) AND (b.tenant_id IS NULL OR b.tenant_id = ${tenantId})
         ORDER BY b.id, bp.page_no`)
    : [];
  const out = new Map<number, string[]>();
  for (const f of found) out.set(f.questionId, [...(out.get(f.questionId) ?? []), `《${f.title}》第 ${f.pageNo} 页`]);
  return out;
}

function addSheet(workbook: ExcelJS.Workbook, name: string, columns: { header: string; width?: number; percent?: boolean; text?: boolean }[], data: Cell[][]) {
  const sheet = workbook.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({ header: c.header, width: c.width ?? 12 }));
  sheet.getRow(1).font = { bold: true };
  columns.forEach((c, i) => {
    // Student numbers stay text; rates are fractions shown as percentages.
    if (c.text) sheet.getColumn(i + 1).numFmt = '@';
    if (c.percent) sheet.getColumn(i + 1).numFmt = '0.0%';
  });
  for (const row of data) sheet.addRow(row);
  return sheet;
}

export async function examWorkbook(db: Db, tenantId: number, report: ExamReport): Promise<Buffer> {
  const workbook = new (await loadExcel()).Workbook();
  workbook.creator = '学助';
  const { exam } = report;

  const summary: Cell[][] = [
    ['考试', exam.title],
    ['考试日期', exam.examDate],
    ['年级', exam.gradeName],
    ['学科', exam.courseName],
    ['统计范围', report.scope.classNames.join('、')],
    ['满分', exam.fullMarks],
    ['参考人数', report.participants],
    ['缺考人数', report.absent],
    ['平均分', report.average],
    ['最高分', report.highest],
    ['最低分', report.lowest],
    ['标准差', report.stdDev],
    ['信度（克隆巴赫 α）', report.reliability],
    ...BAND_LABELS.flatMap(([key, label]) => [
      [`${label}人数`, report.bands[key].count],
      [`${label}占比`, report.bands[key].rate],
    ]),
  ];
  const summarySheet = addSheet(workbook, '成绩概况', [{ header: '项目', width: 22 }, { header: '数值', width: 40 }], summary);
  // Only the band shares are rates.
  summary.forEach((row, k) => String(row[0]).endsWith('占比') && (summarySheet.getCell(k + 2, 2).numFmt = '0.0%'));

  addSheet(
    workbook,
    '成绩排名',
    [{ header: '名次', width: 8 }, { header: '姓名' }, { header: '学号', width: 16, text: true }, { header: '班级' }, { header: '总分' }],
    report.ranking.map((r) => [r.rank, r.name, r.studentNo, r.className ?? '', r.score]),
  );

  const questionIds = report.questions.map((q) => q.questionId);
  const stems = new Map(
    (questionIds.length
      ? await rows<{ id: number; stem: string }>(db, sql`SELECT id, stem FROM questions WHERE id = ANY(${`{${questionIds.join(',')}}`}::int[])`)
      : []
    ).map((q) => [q.id, q.stem]),
  );
  const pages = await bookPagesOf(db, tenantId, questionIds);
  addSheet(
    workbook,
    '小题分析',
    [
      { header: '题号', width: 6 },
      { header: '题型', width: 8 },
      { header: '题目', width: 40 },
      { header: '分值', width: 6 },
      { header: '作答人数' },
      { header: '平均分' },
      { header: '得分率', percent: true },
      { header: '难度', width: 8 },
      { header: '区分度', width: 8 },
      { header: '选项选择率', width: 36 },
      { header: '知识点', width: 28 },
      { header: '练习册页码', width: 36 },
    ],
    report.questions.map((q) => [
      Number(q.no),
      typeLabel(q.type),
      stemLine(stems.get(q.questionId) ?? ''),
      q.points,
      q.answered,
      q.average,
      q.scoreRate,
      q.difficulty,
      q.discrimination,
      q.optionRates ? q.optionRates.map((o) => `${o.key}${o.correct ? '（正确）' : ''} ${(o.rate * 100).toFixed(1)}%`).join('；') : '',
      (q.knowledgePoints as { name: string }[]).map((k) => k.name).join('、'),
      (pages.get(q.questionId) ?? []).join('；') || '未收录于练习册',
    ]),
  );

  addSheet(
    workbook,
    '班级对比',
    [
      { header: '班级' },
      { header: '参考人数' },
      { header: '平均分' },
      { header: '最高分' },
      { header: '最低分' },
      { header: '标准差' },
      { header: '优秀率', percent: true },
      { header: '及格率', percent: true },
    ],
    report.classes.map((c) => [c.className, c.participants, c.average, c.highest, c.lowest, c.stdDev, c.excellentRate, c.passRate]),
  );

  const notes = workbook.addWorksheet('指标说明');
  notes.getColumn(1).width = 90;
  [
    '得分率 = 该题平均分 ÷ 该题分值；难度取同一比值，越高越容易（0.7 以上偏易，0.4 以下偏难）。',
    '区分度：按总分取前 27% 与后 27% 的学生，两组该题平均分之差 ÷ 分值；0.4 以上区分良好，0.2 以下区分较弱，负值说明高分学生反而答得差。',
    '选项选择率：客观题每个选项被选的人数 ÷ 作答人数；错误选项的选择率越高，干扰性越强。',
    '信度（克隆巴赫 α）：衡量各题测量结果是否一致，0.7 以上通常认为试卷可靠。',
    '成绩排名仅供任课教师使用，请勿公开学生成绩和名次（《未成年人学校保护规定》）。',
  ].forEach((line) => notes.addRow([line]));

  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const examExportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The workbook reads from the replica when one is configured (DATABASE_READ_URL).
  const db = app.readDb;
  app.get(
    '/api/minerva/v1.0/exams/:examId/report/export',
    { preHandler: teachersOnly, schema: { params: Type.Object({ examId: Id }), querystring: Type.Object({ classId: Type.Optional(Id) }) } },
    async (request, reply) => {
      const { examId } = request.params;
      const { classId } = request.query;
      const report = await reportFor(db, request.principal, examId, classId);
      const bytes = await examWorkbook(db, request.principal.tenantId!, report);
      const scope = classId === undefined ? '全年级' : report.scope.classNames.join('');
      return sendWorkbook(reply, bytes, `${report.exam.title}_${scope}_成绩分析.xlsx`);
    },
  );
};

export default examExportRoutes;
