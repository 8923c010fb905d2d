// The school data overview: counts of the caller's school only, per grade, following graduation
// and binding changes; refused to other roles and for another school's id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';
import type { SchoolOverview } from '../../src/domain/school';

let t: TestApp;
let c: ReturnType<typeof client>;

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
});
afterAll(() => t.close());

const overview = (user = 'schooladmin'): Promise<SchoolOverview> => c.data(user, '/api/vesta/school/overview');

describe('school overview', () => {
  it('counts the seeded school: 3 grades, 12 classes, 480 students, per grade', async () => {
    const o = await overview();
    expect(o).toMatchObject({ gradeCount: 3, classCount: 12, studentCount: 480, graduatedCount: 0 });
    expect(o.boundCount + o.unboundCount).toBe(480);
    expect(o.teacherCount).toBeGreaterThan(0);
    expect(o.grades.map((g) => [g.gradeName, g.classCount, g.studentCount])).toEqual([
      ['七年级', 4, 160],
      ['八年级', 4, 160],
      ['九年级', 4, 160],
    ]);
    const teachers = await c.data('schooladmin', '/api/vesta/teacher/page?size=1');
    expect(o.teacherCount).toBe(teachers.total);
    const bound = await c.data('schooladmin', '/api/vesta/student/page?size=1&bindingStatus=1&status=0');
    expect(o.boundCount).toBe(bound.total);
  });

  it("another tenant's admin sees their own school, never this one", async () => {
    const mine = await c.data('schooladmin', '/api/juno/personal/info');
    const res = await c.get('schooladmin2', `/api/vesta/school/overview?schoolId=${mine.schoolId}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().msg).toBe('学校不存在');
    const theirs = await overview('schooladmin2');
    expect(theirs.studentCount).toBe(480);
  });

  it('refuses teachers, part-time staff and partners', async () => {
    for (const user of ['teacher', 'parttime', 'partner1']) {
      expect((await c.get(user, '/api/vesta/school/overview')).statusCode).toBe(403);
    }
  });

  it('follows binding and graduation', async () => {
    const page = await c.data('schooladmin', '/api/vesta/student/page?size=3&bindingStatus=0&status=0');
    const before = await overview();
    await c.done('schooladmin', '/api/wrongbook/v1.0/web/org/batchEnableStudentOrg', { studentIds: page.records.map((r: { id: number }) => r.id) });
    const bound = await overview();
    expect(bound.boundCount).toBe(before.boundCount + page.records.length);
    const ninth = bound.grades.find((g) => g.gradeName === '九年级')!;
    await c.done('schooladmin', '/api/vesta/class/graduateGrade', { gradeId: ninth.gradeId, year: 2026 });
    const after = await overview();
    expect(after).toMatchObject({ gradeCount: 2, classCount: 8, studentCount: 320, graduatedCount: 160 });
    expect(after.grades.find((g) => g.gradeId === ninth.gradeId)?.graduatedYear).toBe(2026);
  });
});
