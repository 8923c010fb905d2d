// The platform admin's 班级错题本 (/without/common): the admin lists every school, a chosen school's
// classes and courses, and reads any school's class book with the same figures its school admin
// sees; school admins and teachers still cannot cross tenants, nobody else reads the platform
// lists, and bad ids get a Chinese 4xx.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../server/db/query';
import { currentAcademicYear } from '../../src/domain/semester';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';

let t: TestApp;
let c: ReturnType<typeof client>;
const PLATFORM = '/api/wrongbook/v1.0/platform';
const BASE = '/api/wrongbook/v1.0/web/class/mistakes';

interface School {
  id: number;
  name: string;
}
interface SchoolOf {
  schoolId: number;
}

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
});
afterAll(() => t.close());

const schoolOfUser = async (username: string) =>
  (await rows<SchoolOf>(t.database.db, sql`SELECT school_id AS "schoolId" FROM users WHERE username = ${username}`))[0].schoolId;

/** Through the picker: the school's classes and courses, then the first class's 数学 book. */
async function pickFirstClass(schoolId: number) {
  const classes = await c.data('admin', `${PLATFORM}/classes?schoolId=${schoolId}`);
  const courses = await c.data('admin', `${PLATFORM}/courses?schoolId=${schoolId}`);
  expect(classes.length).toBeGreaterThan(0);
  expect(classes[0].gradeName).toMatch(/年级/);
  const math = courses.find((x: { courseName: string }) => x.courseName === '数学');
  expect(math).toBeDefined();
  return { classId: classes[0].id as number, courseId: math.courseId as number, classIds: new Set<number>(classes.map((x: { id: number }) => x.id)) };
}

describe('platform admin class wrong-answer book', () => {
  it('lists every school, a school’s own classes and courses, and reads its class book like its school admin', async () => {
    const schools: School[] = await c.data('admin', `${PLATFORM}/schools`);
    const [{ n }] = await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM schools`);
    expect(schools.length).toBe(n);
    const home = await schoolOfUser('schooladmin');
    const other = await schoolOfUser('schooladmin2');
    expect(home).not.toBe(other);
    expect(schools.map((s) => s.id)).toEqual(expect.arrayContaining([home, other]));

    for (const [schoolId, schoolAdmin] of [[home, 'schooladmin'], [other, 'schooladmin2']] as const) {
      const { classId, courseId, classIds } = await pickFirstClass(schoolId);
      // Only that school's classes.
      const own = await rows<{ id: number }>(t.database.db, sql`
        SELECT c.id FROM classes c JOIN grades g ON g.id = c.grade_id WHERE c.school_id = ${schoolId} AND g.graduated_year IS NULL`);
      expect([...classIds].sort()).toEqual(own.map((r) => r.id).sort());
      const scope = `classId=${classId}&courseId=${courseId}&term=${currentAcademicYear()}`;
      const asAdmin = await c.data('admin', `${BASE}?${scope}&size=50`);
      const asSchool = await c.data(schoolAdmin, `${BASE}?${scope}&size=50`);
      expect(asAdmin).toEqual(asSchool);
      if (schoolId === home) {
        expect(asAdmin.total).toBeGreaterThan(0);
        const q = asAdmin.records[0].question.id;
        const detail = await c.data('admin', `${BASE}/${q}?${scope}`);
        expect(detail.wrong).toBe(asAdmin.records[0].wrong);
        expect(detail.students.length).toBeGreaterThan(0);
        expect(detail).toEqual(await c.data(schoolAdmin, `${BASE}/${q}?${scope}`));
      }
    }
  });

  it('keeps every other role in its tenant and the platform lists to the admin, with Chinese refusals', async () => {
    const other = await schoolOfUser('schooladmin2');
    const { classId, courseId } = await pickFirstClass(other);
    const scope = `classId=${classId}&courseId=${courseId}&term=${currentAcademicYear()}`;
    for (const user of ['schooladmin', 'teacher', 'classic']) {
      const res = await c.get(user, `${BASE}?${scope}`);
      expect([res.statusCode, res.json().msg], user).toEqual([404, '班级不存在']);
    }
    for (const user of ['partner1', 'principal', 'researcher']) {
      expect((await c.get(user, `${BASE}?${scope}`)).statusCode, user).toBe(403);
    }
    for (const url of ['schools', `classes?schoolId=${other}`, `courses?schoolId=${other}`]) {
      for (const user of ['schooladmin', 'schooladmin2', 'teacher', 'partner1', 'researcher']) {
        const res = await c.get(user, `${PLATFORM}/${url}`);
        expect([res.statusCode, res.json().msg], `${user} ${url}`).toEqual([403, '无权访问']);
      }
    }

    // A course of another school than the class's, unknown ids and hostile input.
    const home = await pickFirstClass(await schoolOfUser('schooladmin'));
    const mixed = await c.get('admin', `${BASE}?classId=${classId}&courseId=${home.courseId}`);
    expect([mixed.statusCode, mixed.json().msg]).toEqual([404, '课程不存在']);
    const missing = await c.get('admin', `${BASE}?classId=2147483647&courseId=${courseId}`);
    expect([missing.statusCode, missing.json().msg]).toEqual([404, '班级不存在']);
    const noSchool = await c.get('admin', `${PLATFORM}/classes?schoolId=2147483647`);
    expect([noSchool.statusCode, noSchool.json().msg]).toEqual([404, '学校不存在']);
    for (const url of ['classes', 'classes?schoolId=abc', 'courses?schoolId=0', 'courses?schoolId=2147483648', `classes?schoolId=${other}&x=1`, `${BASE}?classId=abc&courseId=1`]) {
      const res = await c.get('admin', url.startsWith('/') ? url : `${PLATFORM}/${url}`);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().msg, url).toMatch(/[\u4e00-\u9fa5]/);
      expect(res.json().msg, url).not.toMatch(/[A-Za-z]{3,}/);
    }
  });
});
