// Workbooks of three reports, each the very object its screen reads, so the file never says more
// than the screen: the principal's 学校概况, a 联考 (schools side by side, or the principal's own
// school against the region), and the leaders' 考试分析 (per student only what the school's 成绩公开范围
// lets the screen show: a rank, a band or no student at all). Headed and formatted as the cards of
// 学情分析 are (export.ts): scope, term, China time; rates as percentage cells.
import { ScoreDisclosure } from '../../../src/domain/content';
import type { Activity, JointExamReport } from '../../../src/domain/analysis';
import type { LeaderExamAnalysis } from '../../../src/domain/leaderExams';
import { h, r, rate, type Sheet } from './export';

/** A download's name (.xlsx) without the characters a file system refuses. */
export const fileName = (base: string) => `${base.replace(/[\\/:*?"<>|]/g, '_')}.xlsx`;

const num = (v: number | null): string | number => (v === null ? '暂无数据' : v);

export function activitySheets(a: Activity): Sheet[] {
  return [
    {
      name: '全校概况',
      columns: [...h('布置作业', '应交作业', '已交作业'), ...r('作业完成率'), ...h('AI批改任务', '活跃教师', '在职教师'), ...r('活跃教师占比')],
      data: [[a.total.homeworks, a.total.assigned, a.total.submitted, rate(a.total.completionRate), a.total.gradingTasks, a.total.activeTeachers, a.total.teachers, rate(a.total.activeRate)]],
    },
    {
      name: '各班使用情况',
      columns: [...h('年级', '班级', '布置作业', '应交作业', '已交作业'), ...r('作业完成率'), ...h('AI批改任务', '活跃教师')],
      data: a.classes.map((c) => [c.gradeName, c.className, c.homeworks, c.assigned, c.submitted, rate(c.completionRate), c.gradingTasks, c.activeTeachers]),
    },
    {
      name: '各学期对比',
      columns: [{ header: '学期', width: 20 }, { header: '日期', width: 26 }, ...h('布置作业', '已交作业', 'AI批改任务', '活跃教师')],
      data: a.terms.map((t) => [t.label, `${t.startDate} 至 ${t.endDate}`, t.homeworks, t.submitted, t.gradingTasks, t.activeTeachers]),
    },
  ];
}

export function jointExamSheets(j: JointExamReport): Sheet[] {
  const rows = [...j.schools.map((s) => ({ name: s.schoolName, ...s })), ...(j.total ? [{ name: `全区域（${j.schoolCount} 所学校）`, ...j.total }] : [])];
  return [
    {
      name: '联考对比',
      columns: [
        { header: '学校', width: 28 },
        ...h('参考人数', '平均分', '标准差', '最高分', '最低分'),
        ...r('优秀率', '及格率', '低分率'),
        ...h('优秀人数', '良好人数', '及格人数', '不及格人数'),
      ],
      data: rows.map((s) => [
        s.name,
        s.participants,
        num(s.average),
        num(s.standardDeviation),
        num(s.highest),
        num(s.lowest),
        rate(s.excellentRate),
        rate(s.passRate),
        rate(s.lowRate),
        s.bands.excellent,
        s.bands.good,
        s.bands.pass,
        s.bands.fail,
      ]),
    },
  ];
}

/** The 考试分析 sections as sheets; students appear only as the analysis (and so the screen) names them. */
export function leaderExamSheets(a: LeaderExamAnalysis): Sheet[] {
  const sheets: Sheet[] = [];
  const named = a.disclosure !== ScoreDisclosure.none;
  sheets.push({
    name: '临界生',
    columns: [...h('等级线', '分数线', '人数'), ...(named ? [{ header: '学生', width: 60 }] : [])],
    data: a.critical.lines.map((l) => [l.label, l.line, l.count, ...(named ? [l.students.map((s) => `${s.name}（${s.className}）`).join('、')] : [])]),
  });
  const p = a.progress;
  sheets.push({
    name: '进退步',
    columns: [{ header: '班级', width: 14 }, ...r('本次得分率', '上次得分率', '变化')],
    data: p.previous ? p.classes.map((c) => [c.className, rate(c.rate), rate(c.previousRate), rate(c.change)]) : [['本次为该年级该学科的第一次考试，没有可比较的上一次考试']],
  });
  // The students the screen lists: those whose rank (or band) moved; with 不显示 none.
  const rank = a.disclosure === ScoreDisclosure.rank;
  const moved = p.students.filter((s) => (rank ? s.rank !== s.previousRank : s.band !== s.previousBand));
  if (p.previous && named) {
    sheets.push({
      name: '学生进退',
      columns: h('姓名', '班级', ...(rank ? ['上次名次', '本次名次'] : ['上次等级', '本次等级'])),
      data: moved.map((s) => [s.name, s.className, ...(rank ? [s.previousRank ?? '—', s.rank ?? '—'] : [s.previousBand ?? '—', s.band ?? '—'])]),
    });
  }
  const b = a.balance;
  sheets.push({
    name: '学科均衡',
    columns: [{ header: '班级', width: 14 }, ...r(...b.exams.map((e) => `${e.courseName}得分率`)), ...r('差异'), ...h('最弱学科')],
    data: b.classes.map((c) => [c.className, ...b.exams.map((e) => rate(c.subjects.find((s) => s.examId === e.id)?.rate ?? null)), rate(c.spread), c.weakest ?? '—']),
  });
  sheets.push({
    name: '知识点',
    columns: [{ header: '知识点', width: 24 }, { header: '题号', width: 20 }, ...h('分值', '平均分'), ...r('得分率')],
    data: a.knowledgePoints.map((k) => [k.name, k.questions.join('、'), k.points, k.average, rate(k.scoreRate)]),
  });
  return sheets;
}
