// Each card of 学情分析 as a workbook: the same numbers the card shows, rates as fractions.
import type { Analysis, AnalysisFigure } from '../../../src/domain/analysis';

type Cell = string | number | null;
type Sheet = { name: string; headers: { header: string; width?: number }[]; data: Cell[][] };

const NONE = '暂无数据';
/** A rate as the card shows it: a fraction, or 暂无数据 without a denominator. */
const rate = (r: number | null): Cell => (r === null ? NONE : r);
const h = (...names: string[]) => names.map((header) => ({ header, width: Math.max(12, header.length * 3) }));

export function exportSheets(a: Analysis, figure: AnalysisFigure): { title: string; sheets: Sheet[] } {
  const unit = a.groupBy === 'school' ? '学校' : '班级';
  const rowsWithTotal = [...a.groups, { name: '合计', ...a.total }];
  switch (figure) {
    case 'groups':
      return {
        title: `${unit}对比`,
        sheets: [{ name: `${unit}对比`, headers: h(unit, '得分', '满分', '得分率'), data: rowsWithTotal.map((g) => [g.name, g.score, g.maxScore, rate(g.scoreRate)]) }],
      };
    case 'bands':
      return {
        title: '成绩分段',
        sheets: [
          {
            name: '成绩分段',
            headers: h(unit, '优秀人次', '良好人次', '及格人次', '不及格人次', '优秀率', '良好率', '及格率', '不及格率'),
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
            headers: h(unit, '在读学生', '参与学生', '参与率', '应交作业', '已交作业', '作业完成率'),
            data: rowsWithTotal.map((g) => [g.name, g.enrolled, g.participants, rate(g.participationRate), g.homeworkAssigned, g.homeworkSubmitted, rate(g.completionRate)]),
          },
        ],
      };
    case 'trend':
      return {
        title: '周趋势',
        sheets: [{ name: '周趋势', headers: h('周（起始日）', '得分', '满分', '得分率', '应交作业', '已交作业', '作业完成率'), data: a.trend.map((w) => [w.week, w.score, w.maxScore, rate(w.scoreRate), w.assigned, w.submitted, rate(w.completionRate)]) }],
      };
    case 'knowledge': {
      const cell = new Map(a.knowledge.cells.map((c) => [`${c.groupId}:${c.knowledgePointId}`, c]));
      return {
        title: '知识点掌握',
        sheets: [
          {
            name: '知识点掌握',
            headers: h(unit, ...a.knowledge.knowledgePoints.map((k) => k.name)),
            data: a.groups.map((g) => [g.name, ...a.knowledge.knowledgePoints.map((k) => rate(cell.get(`${g.id}:${k.id}`)?.mastery ?? null))]),
          },
        ],
      };
    }
    case 'questions':
      return {
        title: '高频错题',
        sheets: [{ name: '高频错题', headers: [{ header: '题目', width: 60 }, ...h('作答次数', '答错次数', '错误率')], data: a.questions.map((q) => [q.stem, q.answered, q.wrong, rate(q.wrongRate)]) }],
      };
  }
}
