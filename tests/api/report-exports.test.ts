// The workbooks of 学校概况, a 联考 and the leaders' 考试分析: opened with exceljs, each figure equal to
// the screen's API, rates as percentage cells, scope and term in the file name and on the sheet,
// the time of export in China time; the leaders' file names a student exactly as the screen does
// under each 成绩公开范围, and nobody reads another's report through its export.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { createTestApp, type TestApp } from '../support/testApp';
import { client, XLSX } from '../support/school';
import { termLabel } from '../../src/domain/semester';
import { dateTime } from '../../src/domain/format';
import type { Activity, JointExamReport, JointExamSummary } from '../../src/domain/analysis';
import type { LeaderExamAnalysis, LeaderExamSummary } from '../../src/domain/leaderExams';

let t: TestApp;
let c: ReturnType<typeof client>;
const LEADER = '/api/minerva/v1.0/leader/exams';

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
});
afterAll(() => t.close());

type Res = Awaited<ReturnType<ReturnType<typeof client>['get']>>;
/** Downloads a workbook and checks what every export carries: its name, scope, term and China time. */
async function open(user: string, url: string, role?: string) {
  const before = new Date();
  const res: Res = await c.get(user, url, role);
  const after = new Date();
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  expect(res.headers['content-type']).toBe(XLSX);
  const name = decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(String(res.headers['content-disposition']))?.[1] ?? '');
  const china = (d: Date) => dateTime(d).replace(/\D/g, '');
  expect([china(before), china(after)]).toContain(name.slice(-19, -7));
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  for (const ws of wb.worksheets) expect([`导出时间：${dateTime(before)}（北京时间）`, `导出时间：${dateTime(after)}（北京时间）`]).toContain(ws.getCell('A4').value);
  return { name, wb };
}
/** The rows under a sheet's header (row 6), as arrays from column 1. */
const body = (ws: ExcelJS.Worksheet) => {
  const out: ExcelJS.Row[] = [];
  ws.eachRow((row, n) => n > 6 && out.push(row));
  return out;
};
const header = (ws: ExcelJS.Worksheet) => (ws.getRow(6).values as unknown[]).slice(1);
const rateCell = (cell: ExcelJS.Cell, value: number | null) => {
  if (value === null) return expect(cell.value).toBe('暂无数据');
  expect(cell.value as number).toBeCloseTo(value, 6);
  expect(cell.numFmt).toBe('0.0%');
};

describe('学校概况 export (principal)', () => {
  it('carries the screen’s figures per class and term, the school and term on the sheet and in the name', async () => {
    const a: Activity = await c.data('principal', '/api/analysis/v1.0/activity');
    const { name, wb } = await open('principal', '/api/analysis/v1.0/activity/export');
    expect(name).toMatch(new RegExp(`^学校概况_杭州市西湖区实验中学_${a.label}_\\d{14}\\.xlsx$`));
    const [whole, classes, terms] = wb.worksheets;
    expect(whole.getCell('A1').value).toBe('学校概况');
    expect(whole.getCell('A2').value).toBe('范围：杭州市西湖区实验中学');
    expect(whole.getCell('A3').value).toBe(`学期：${a.label}`);
    const [total] = body(whole);
    expect([1, 2, 3, 5, 6, 7].map((i) => total.getCell(i).value)).toEqual([a.total.homeworks, a.total.assigned, a.total.submitted, a.total.gradingTasks, a.total.activeTeachers, a.total.teachers]);
    rateCell(total.getCell(4), a.total.completionRate);
    rateCell(total.getCell(8), a.total.activeRate);
    expect(header(classes)).toEqual(['年级', '班级', '布置作业', '应交作业', '已交作业', '作业完成率', 'AI批改任务', '活跃教师']);
    const rows = body(classes);
    expect(rows).toHaveLength(a.classes.length);
    a.classes.forEach((x, i) => {
      expect([1, 2, 3, 4, 5, 7, 8].map((k) => rows[i].getCell(k).value)).toEqual([x.gradeName, x.className, x.homeworks, x.assigned, x.submitted, x.gradingTasks, x.activeTeachers]);
      rateCell(rows[i].getCell(6), x.completionRate);
    });
    expect(body(terms).map((r) => [r.getCell(1).value, r.getCell(3).value, r.getCell(4).value])).toEqual(a.terms.map((x) => [x.label, x.homeworks, x.submitted]));
    // Only the principal; a hostile term is a Chinese 400.
    for (const user of ['teacher', 'gradeleader', 'researcher', 'schooladmin']) expect((await c.get(user, '/api/analysis/v1.0/activity/export')).statusCode, user).toBe(403);
    const bad = await c.get('principal', "/api/analysis/v1.0/activity/export?term=2026'--");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toMatch(/[\u4e00-\u9fa5]/);
  });
});

describe('联考 export', () => {
  it('the researcher’s file has every school and the region; the principal’s only what their screen shows', async () => {
    const [j] = await c.data('researcher', '/api/analysis/v1.0/jointExams');
    const r: JointExamReport = await c.data('researcher', `/api/analysis/v1.0/jointExams/${(j as JointExamSummary).id}`);
    const { name, wb } = await open('researcher', `/api/analysis/v1.0/jointExams/${r.id}/export`);
    expect(name).toMatch(new RegExp(`^联考_${r.title}_${r.region}_${termLabel(r.term)}_\\d{14}\\.xlsx$`));
    const ws = wb.worksheets[0];
    expect(ws.getCell('A2').value).toBe(`范围：${r.region}`);
    expect(ws.getCell('A3').value).toBe(`学期：${termLabel(r.term)}`);
    const rows = body(ws);
    expect(rows.map((x) => x.getCell(1).value)).toEqual([...r.schools.map((s) => s.schoolName), `全区域（${r.schoolCount} 所学校）`]);
    [...r.schools, r.total!].forEach((s, i) => {
      expect([2, 3, 4, 5, 6].map((k) => rows[i].getCell(k).value)).toEqual([s.participants, s.average, s.standardDeviation, s.highest, s.lowest]);
      rateCell(rows[i].getCell(7), s.excellentRate);
      rateCell(rows[i].getCell(8), s.passRate);
      rateCell(rows[i].getCell(9), s.lowRate);
      expect([10, 11, 12, 13].map((k) => rows[i].getCell(k).value)).toEqual([s.bands.excellent, s.bands.good, s.bands.pass, s.bands.fail]);
    });

    const mine: JointExamReport = await c.data('principal', `/api/analysis/v1.0/jointExams/${r.id}`);
    const own = await open('principal', `/api/analysis/v1.0/jointExams/${r.id}/export`);
    const names = body(own.wb.worksheets[0]).map((x) => x.getCell(1).value);
    expect(names).toEqual([...mine.schools.map((s) => s.schoolName), ...(mine.total ? [`全区域（${mine.schoolCount} 所学校）`] : [])]);
    expect(names).toHaveLength(mine.total ? 2 : 1);
    // Another school's name is nowhere in the principal's file.
    const others = r.schools.filter((s) => !mine.schools.some((m) => m.schoolId === s.schoolId)).map((s) => s.schoolName);
    const text = JSON.stringify(own.wb.worksheets.map((w) => w.getSheetValues()));
    for (const other of others) expect(text).not.toContain(other);
    // The principal of another region's school, and a teacher, read nothing of it.
    expect((await c.get('schooladmin2', `/api/analysis/v1.0/jointExams/${r.id}/export`)).statusCode).toBe(403);
    expect((await c.get('teacher', `/api/analysis/v1.0/jointExams/${r.id}/export`)).statusCode).toBe(403);
    expect((await c.get('researcher', '/api/analysis/v1.0/jointExams/99999999/export')).json().msg).toBe('联考不存在');
  });
});

describe('考试分析 export (leaders)', () => {
  const setDisclosure = async (value: number) =>
    expect((await t.call(await c.token('schooladmin'), { method: 'PUT', url: '/api/vesta/school/settings', payload: { scoreDisclosure: value } })).statusCode).toBe(200);

  it('names students exactly as the screen does under each 成绩公开范围, with the figures the screen reads', async () => {
    const list = await c.data('principal', `${LEADER}?size=50`);
    let exam: LeaderExamSummary | undefined;
    for (const e of list.records as LeaderExamSummary[]) {
      const a: LeaderExamAnalysis = await c.data('principal', `${LEADER}/${e.id}/analysis`);
      if (a.progress.previous && a.progress.students.length) {
        exam = e;
        break;
      }
    }
    expect(exam).toBeDefined();
    const url = `${LEADER}/${exam!.id}/analysis/export`;
    for (const disclosure of [1, 2, 0]) {
      await setDisclosure(disclosure);
      const a: LeaderExamAnalysis = await c.data('principal', `${LEADER}/${exam!.id}/analysis`);
      const { name, wb } = await open('principal', url);
      expect(name).toMatch(new RegExp(`^考试分析_${exam!.title}_杭州市西湖区实验中学_`));
      expect(name).toContain(termLabel(exam!.term));
      const sheet = (n: string) => wb.getWorksheet(n);
      expect(sheet('临界生')!.getCell('A2').value).toMatch(/^范围：杭州市西湖区实验中学 · /);
      // 进退步 per class: the rates the screen reads, as percentage cells.
      const classes = body(sheet('进退步')!);
      expect(classes.map((x) => x.getCell(1).value)).toEqual(a.progress.classes.map((x) => x.className));
      a.progress.classes.forEach((x, i) => {
        rateCell(classes[i].getCell(2), x.rate);
        rateCell(classes[i].getCell(4), x.change);
      });
      const kp = body(sheet('知识点')!);
      a.knowledgePoints.forEach((k, i) => {
        expect(kp[i].getCell(1).value).toBe(k.name);
        rateCell(kp[i].getCell(5), k.scoreRate);
      });
      const critical = body(sheet('临界生')!);
      expect(critical.map((x) => x.getCell(3).value)).toEqual(a.critical.lines.map((l) => l.count));
      const students = sheet('学生进退');
      // The screen lists the students whose rank (or band) moved; the file the same ones.
      const moved = a.progress.students.filter((s) => (disclosure === 2 ? s.rank !== s.previousRank : s.band !== s.previousBand));
      const everyName = moved.map((s) => s.name);
      const text = JSON.stringify(wb.worksheets.map((w) => w.getSheetValues()));
      if (disclosure === 0) {
        // Nothing per student on the screen: no student sheet, no names beside the 临界生 counts.
        expect(a.progress.students).toHaveLength(0);
        expect(students).toBeUndefined();
        expect(header(sheet('临界生')!)).toEqual(['等级线', '分数线', '人数']);
        const names = (await c.data('principal', `${LEADER}/${exam!.id}/report`)).classes;
        expect(names.length).toBeGreaterThan(0);
      } else {
        expect(everyName.length).toBeGreaterThan(0);
        expect(everyName.length).toBeLessThanOrEqual(a.progress.students.length);
        expect(body(students!).map((x) => x.getCell(1).value)).toEqual(everyName);
        expect(header(students!)).toEqual(disclosure === 2 ? ['姓名', '班级', '上次名次', '本次名次'] : ['姓名', '班级', '上次等级', '本次等级']);
        expect(body(students!).map((x) => [x.getCell(3).value, x.getCell(4).value])).toEqual(
          moved.map((s) => (disclosure === 2 ? [s.previousRank ?? '—', s.rank ?? '—'] : [s.previousBand ?? '—', s.band ?? '—'])),
        );
        // Bands only: no rank column anywhere in the file.
        if (disclosure === 1) expect(text).not.toContain('名次');
      }
      // Never a student's score: no 得分 column but the class and knowledge point rates.
      expect(text).not.toMatch(/"(本次|上次)?得分"/);
    }
    await setDisclosure(1);
    // Another school's leader, a teacher and a class outside the scope.
    await t.database.db.execute((await import('drizzle-orm')).sql`INSERT INTO user_roles (tenant_id, user_id, role_key) SELECT tenant_id, id, 'xz:schoolMaster' FROM users WHERE username = 'teacher3' ON CONFLICT DO NOTHING`);
    const foreign = await c.get('teacher3', url, 'schoolMaster');
    expect([foreign.statusCode, foreign.json().msg]).toEqual([404, '考试不存在']);
    expect((await c.get('teacher', url)).statusCode).toBe(403);
    const bad = await c.get('principal', `${url}?classId=999999`);
    expect([bad.statusCode, bad.json().msg]).toEqual([404, '班级不存在']);
    const hostile = await c.get('principal', `${LEADER}/abc/analysis/export`);
    expect(hostile.statusCode).toBe(400);
    expect(hostile.json().msg).toMatch(/[\u4e00-\u9fa5]/);
  });
});
