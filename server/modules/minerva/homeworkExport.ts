// 作业详情 as a workbook: a summary sheet, one row per student and one per question, with the same
// figures the detail call answers (the teacher files it or shares it with the class's other staff).
// Small by nature (one class, a few dozen questions), so it is built in memory.
import type ExcelJS from 'exceljs';
import { loadExcel } from '../../files/xlsx';
import { QUESTION_TYPES } from '../../../src/domain/content';
import { dateTime } from '../../../src/domain/format';
import type { HomeworkDetail, MissingList } from './homeworkQueries';

const RATE = '0.0%';

const typeLabel = (type: number) => QUESTION_TYPES.find((t) => t.value === type)?.label ?? '';

function sheet(workbook: ExcelJS.Workbook, name: string, columns: { header: string; width: number; rate?: boolean; text?: boolean }[]) {
  const ws = workbook.addWorksheet(name);
  ws.columns = columns.map((c) => ({ header: c.header, width: c.width, style: c.rate ? { numFmt: RATE } : c.text ? { numFmt: '@' } : {} }));
  ws.getRow(1).font = { bold: true };
  ws.views = [{ state: 'frozen', ySplit: 1 }];
  return ws;
}

/** Times on the clock of `zone`, the school's (China time by default). */
export async function homeworkWorkbook(detail: HomeworkDetail, zone?: string): Promise<Buffer> {
  const workbook = new (await loadExcel()).Workbook();
  workbook.creator = '学助';

  const summary = sheet(workbook, '概况', [
    { header: '项目', width: 14 },
    { header: '内容', width: 48 },
  ]);
  const summaryRows: [string, string | number | null][] = [
    ['作业', detail.title],
    ['班级', `${detail.gradeName} ${detail.className}`],
    ['学科', detail.courseName],
    ['布置时间', dateTime(detail.assignedAt, zone)],
    ['截止时间', dateTime(detail.dueAt, zone)],
    ['题数', detail.questionCount],
    ['学生数', detail.studentCount],
    ['已提交', detail.submittedCount],
    ['已批改', detail.gradedCount],
    ['正确率', detail.accuracy],
    ['得分率', detail.scoreRate],
  ];
  for (const [label, value] of summaryRows) {
    const row = summary.addRow([label, value]);
    if (label === '正确率' || label === '得分率') row.getCell(2).numFmt = RATE;
  }

  const students = sheet(workbook, '学生', [
    { header: '学号', width: 16, text: true },
    { header: '姓名', width: 12 },
    { header: '状态', width: 10 },
    { header: '得分', width: 10 },
    { header: '满分', width: 10 },
    { header: '答题数', width: 10 },
    { header: '答对数', width: 10 },
    { header: '正确率', width: 10, rate: true },
  ]);
  for (const s of detail.students) {
    students.addRow([s.studentNo, s.name, s.submitted ? '已提交' : '未提交', s.score, s.maxScore, s.answered, s.correct, s.accuracy]);
  }

  const questions = sheet(workbook, '题目', [
    { header: '题号', width: 8, text: true },
    { header: '题型', width: 10 },
    { header: '题干', width: 60 },
    { header: '分值', width: 8 },
    { header: '作答人数', width: 10 },
    { header: '答对人数', width: 10 },
    { header: '正确率', width: 10, rate: true },
    { header: '得分率', width: 10, rate: true },
    { header: '知识点', width: 30 },
  ]);
  for (const q of detail.questions) {
    questions.addRow([
      q.no,
      typeLabel(q.question.type),
      q.question.stem,
      q.points,
      q.answered,
      q.correct,
      q.accuracy,
      q.scoreRate,
      q.question.knowledgePoints.map((k) => k.name).join('、'),
    ]);
  }
  questions.getColumn(3).alignment = { wrapText: true, vertical: 'top' };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** 未提交名单 as a workbook: what the homework is, then one row per student who has not handed it in. */
export async function missingWorkbook(list: MissingList, zone?: string): Promise<Buffer> {
  const workbook = new (await loadExcel()).Workbook();
  workbook.creator = '学助';
  const ws = sheet(workbook, '未提交名单', [
    { header: '学号', width: 16, text: true },
    { header: '姓名', width: 12 },
    { header: '班级', width: 14 },
    { header: '作业', width: 36 },
    { header: '截止时间', width: 18 },
  ]);
  for (const s of list.students) ws.addRow([s.studentNo, s.name, `${list.gradeName} ${list.className}`, list.title, dateTime(list.dueAt, zone)]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
