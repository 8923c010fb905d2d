// Each card of 学情分析 as a workbook: the same numbers the card shows. The sheet says what it
// covers (scope, term, when it was made, in China time) above the table, the file name carries
// scope and term, and rates are percentage cells (94.9 %, a number Excel can sum and sort).
import { loadExcel } from '../../files/xlsx';
import { GROUP_UNITS, type Analysis, type AnalysisFigure } from '../../../src/domain/analysis';
import { dateTime, DEFAULT_ZONE, zoneName } from '../../../src/domain/format';

export type Cell = string | number | null;
export type Column = { header: string; width?: number; rate?: boolean };
export type Sheet = { name: string; columns: Column[]; data: Cell[][] };

const NONE = '暂无数据';
export const RATE_FORMAT = '0.0%';
/** A rate as the card shows it: a fraction (formatted as a percentage), or 暂无数据 without a denominator. */
export const rate = (r: number | null): Cell => (r === null ? NONE : r);
export const h = (...names: string[]): Column[] => names.map((header) => ({ header, width: Math.max(12, header.length * 3) }));
export const r = (...names: string[]): Column[] => h(...names).map((c) => ({ ...c, rate: true }));

export function exportSheets(a: Analysis, figure: AnalysisFigure): { title: string; sheets: Sheet[] } {
  const unit = GROUP_UNITS[a.groupBy];
  const rowsWithTotal = [...a.groups, { name: '合计', ...a.total }];
  switch (figure) {
    case 'groups':
      return {
        title: `${unit}对比`,
        sheets: [{ name: `${unit}对比`, columns: [...h(unit, '得分', '满分'), ...r('得分率')], data: rowsWithTotal.map((g) => [g.name, g.score, g.maxScore, rate(g.scoreRate)]) }],
      };
    case 'bands':
      return {
        title: '成绩分段',
        sheets: [
          {
            name: '成绩分段',
            columns: [...h(unit, '优秀人次', '良好人次', '及格人次', '不及格人次'), ...r('优秀率', '良好率', '及格率', '不及格率')],
            data: rowsWithTotal.map((g) => [g.name, g.excellent, g.good, g.pass, g.fail, rate(g.bands.excellent), rate(g.bands.good), rate(g.bands.pass), rate(g.bands.fail)]),
          },
        ],
      };
    case 'participation':
      return {
        title: '参与与完成',
        sheets: [
          {
            name: '参与与完成',
            columns: [...h(unit, '在读学生', '有作业班级在读学生', '参与学生'), ...r('参与率'), ...h('应交作业', '已交作业'), ...r('作业完成率')],
            data: rowsWithTotal.map((g) => [g.name, g.enrolled, g.enrolledWithWork, g.participants, rate(g.participationRate), g.homeworkAssigned, g.homeworkSubmitted, rate(g.completionRate)]),
          },
        ],
      };
    case 'trend':
      return {
        title: '周趋势',
        sheets: [
          {
            name: '周趋势',
            columns: [...h('周（起始日）', '得分', '满分'), ...r('得分率'), ...h('应交作业', '已交作业'), ...r('作业完成率')],
            data: a.trend.map((w) => [w.week, w.score, w.maxScore, rate(w.scoreRate), w.assigned, w.submitted, rate(w.completionRate)]),
          },
        ],
      };
    case 'knowledge': {
      const cell = new Map(a.knowledge.cells.map((c) => [`${c.groupId}:${c.knowledgePointId}`, c]));
      return {
        title: '知识点掌握',
        sheets: [
          {
            name: '知识点掌握',
            columns: [...h(unit), ...r(...a.knowledge.knowledgePoints.map((k) => k.name))],
            data: a.groups.map((g) => [g.name, ...a.knowledge.knowledgePoints.map((k) => rate(cell.get(`${g.id}:${k.id}`)?.mastery ?? null))]),
          },
        ],
      };
    }
    case 'questions':
      return {
        title: '高频错题',
        sheets: [{ name: '高频错题', columns: [{ header: '题目', width: 60 }, ...h('作答次数', '答错次数'), ...r('错误率')], data: a.questions.map((q) => [q.stem, q.answered, q.wrong, rate(q.wrongRate)]) }],
      };
  }
}

/** What an export covers: its scope in words and its term as the header names it. */
export interface ExportContext {
  scope: string;
  termLabel: string;
  now?: Date;
  /** The school's time zone; China time when absent. */
  zone?: string;
}

/** Lines above the table: title, scope, term and the time of export. */
export const PREAMBLE_ROWS = 5;

export async function analysisWorkbook(a: Analysis, figure: AnalysisFigure, context: ExportContext): Promise<{ title: string; bytes: Buffer }> {
  const { title, sheets } = exportSheets(a, figure);
  return { title, bytes: await sheetsWorkbook(`学情分析 · ${title}`, sheets, context) };
}

/**
 * A workbook of sheets, each headed by its title, scope, term and the time of export (China time),
 * with rate columns as percentage cells. Every export of analysis figures is made here.
 */
export async function sheetsWorkbook(heading: string, sheets: Sheet[], context: ExportContext): Promise<Buffer> {
  const workbook = new (await loadExcel()).Workbook();
  workbook.creator = '学助';
  for (const s of sheets) {
    const ws = workbook.addWorksheet(s.name);
    ws.columns = s.columns.map((c) => ({ width: c.width ?? 16 }));
    ws.addRow([heading]).font = { bold: true, size: 13 };
    ws.addRow([`范围：${context.scope}`]);
    ws.addRow([`学期：${context.termLabel}`]);
    ws.addRow([`导出时间：${dateTime(context.now ?? new Date(), context.zone ?? DEFAULT_ZONE)}（${zoneName(context.zone ?? DEFAULT_ZONE)}）`]);
    ws.addRow([]);
    ws.addRow(s.columns.map((c) => c.header)).font = { bold: true };
    for (const values of s.data) {
      const row = ws.addRow(values);
      s.columns.forEach((c, i) => {
        if (c.rate && typeof values[i] === 'number') row.getCell(i + 1).numFmt = RATE_FORMAT;
      });
    }
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
