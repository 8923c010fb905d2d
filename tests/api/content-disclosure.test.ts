// What leaders see of students' exam results: the school's setting decides a rank, a band or
// nothing per student; no student's score ever reaches them. Teachers keep scores and ranks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';
import { sql } from 'drizzle-orm';
import { client } from '../support/school';
import { query } from '../support/content';

let t: TestApp;
let c: ReturnType<typeof client>;

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
});
afterAll(() => t.close());

const put = async (user: string, payload: object) => t.call(await c.token(user), { method: 'PUT', url: '/api/vesta/school/settings', payload });
interface LeaderExam { id: number; title: string; gradeName: string; courseName: string; participants: number; average: number }

describe('the school setting', () => {
  it('starts at bands, is changed by the school admin only, within its values', async () => {
    const settings = await c.data('schooladmin', '/api/vesta/school/settings');
    expect(settings.scoreDisclosure).toBe(1);
    expect(settings.scoreDisclosureOptions.map((o: { label: string }) => o.label)).toEqual(['不显示学生个人结果', '只显示等级（优秀、良好、及格、不及格）', '显示名次（不显示分数）']);
    for (const user of ['teacher', 'gradeleader', 'principal']) expect((await put(user, { scoreDisclosure: 2 })).statusCode, user).toBe(403);
    const bad = await put('schooladmin', { scoreDisclosure: 7 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toContain('成绩公开范围');
    expect((await c.data('schooladmin', '/api/vesta/school/settings')).scoreDisclosure).toBe(1);
  });
});

describe('an exam report for leaders', () => {
  it('carries bands, ranks or nothing per student as the school decides, never a score', async () => {
    const list = await c.data('gradeleader', '/api/minerva/v1.0/leader/exams');
    expect(list.total).toBeGreaterThan(0);
    const exam = (list.records as LeaderExam[])[0];
    expect(exam.gradeName).toBe('七年级');
    const url = `/api/minerva/v1.0/leader/exams/${exam.id}/report`;

    const banded = await c.data('gradeleader', url);
    expect(banded).not.toHaveProperty('ranking');
    expect(banded.disclosure).toBe(1);
    expect(banded.students.length).toBe(banded.participants);
    expect(JSON.stringify(banded.students)).not.toMatch(/score/i);
    // A highest or lowest score is one student's score: a leader sees neither, for the scope or a class.
    expect(banded).not.toHaveProperty('highest');
    expect(banded).not.toHaveProperty('lowest');
    expect(banded.classes.length).toBeGreaterThan(0);
    for (const cls of banded.classes) {
      expect(cls).not.toHaveProperty('highest');
      expect(cls).not.toHaveProperty('lowest');
      if (cls.participants < 5) expect(cls.average).toBeNull();
    }
    expect(new Set(banded.students.map((s: { band: string }) => s.band))).toEqual(new Set(['优秀', '良好', '及格', '不及格'].filter((b) => banded.students.some((s: { band: string }) => s.band === b))));
    const bandCounts = { 优秀: banded.bands.excellent.count, 良好: banded.bands.good.count, 及格: banded.bands.pass.count, 不及格: banded.bands.fail.count };
    for (const [band, count] of Object.entries(bandCounts)) expect(banded.students.filter((s: { band: string }) => s.band === band).length, band).toBe(count);

    // The teacher's own report of a class keeps scores and ranks whatever the setting.
    const teacherExams = await c.data('teacher', '/api/minerva/v1.0/exams?size=50');
    const mine = teacherExams.records.find((e: { id: number }) => e.id === exam.id);
    if (mine) {
      const teacherReport = await c.data('teacher', `/api/minerva/v1.0/exams/${exam.id}/report`);
      expect(teacherReport.ranking[0]).toHaveProperty('score');
    }

    expect((await put('schooladmin', { scoreDisclosure: 2 })).statusCode).toBe(200);
    const ranked = await c.data('gradeleader', url);
    expect(ranked.students.map((s: { rank: number }) => s.rank)).toEqual([...ranked.students.map((s: { rank: number }) => s.rank)].sort((a, b) => a - b));
    expect(ranked.students[0]).toEqual({ studentId: expect.any(Number), name: expect.any(String), className: expect.any(String), rank: 1 });
    expect(ranked.average).toBe(banded.average);

    expect((await put('schooladmin', { scoreDisclosure: 0 })).statusCode).toBe(200);
    const hidden = await c.data('gradeleader', url);
    expect(hidden.students).toEqual([]);
    expect(hidden.participants).toBe(banded.participants);
    expect(await put('schooladmin', { scoreDisclosure: 1 })).toBeTruthy();
  });

  it("refuses teachers, another tenant's leaders and classes out of scope", async () => {
    const exam = ((await c.data('gradeleader', '/api/minerva/v1.0/leader/exams')).records as LeaderExam[])[0];
    expect((await c.get('teacher', '/api/minerva/v1.0/leader/exams')).statusCode).toBe(403);
    expect((await c.get('schooladmin', `/api/minerva/v1.0/leader/exams/${exam.id}/report`)).statusCode).toBe(403);
    const outOfScope = await c.get('gradeleader', `/api/minerva/v1.0/leader/exams/${exam.id}/report?classId=999999`);
    expect([outOfScope.statusCode, outOfScope.json().msg]).toEqual([404, '班级不存在']);
    // A principal of the other tenant's school: the exam is not there for them.
    await query(t, sql`INSERT INTO user_roles (tenant_id, user_id, role_key) SELECT tenant_id, id, 'schoolMaster' FROM users WHERE username = 'teacher3'`);
    const foreign = await c.get('teacher3', `/api/minerva/v1.0/leader/exams/${exam.id}/report`, 'schoolMaster');
    expect([foreign.statusCode, foreign.json().msg]).toEqual([404, '考试不存在']);
    expect((await c.data('teacher3', '/api/minerva/v1.0/leader/exams', 'schoolMaster')).records.map((e: LeaderExam) => e.id)).not.toContain(exam.id);
    // The subject leader leads 数学: an exam of another course is not theirs.
    const subjectLeader = (await c.data('subjectleader', '/api/minerva/v1.0/leader/exams?size=50')).records as LeaderExam[];
    expect(subjectLeader.every((e) => e.courseName === '数学')).toBe(true);
    const principal = (await c.data('principal', '/api/minerva/v1.0/leader/exams?size=50')).records as LeaderExam[];
    expect(principal.length).toBeGreaterThanOrEqual(subjectLeader.length);
    const other = principal.find((e) => e.courseName !== '数学');
    if (other) expect((await c.get('subjectleader', `/api/minerva/v1.0/leader/exams/${other.id}/report`)).statusCode).toBe(404);
  });
});
