// The header's course list (getCourseList, getCourseByGradeId) per leader role: each role gets the
// courses its scope teaches in the grade, as the database has them; a subject leader never gets
// another subject's course; a leader type of another role, another tenant's grade and hostile
// input are refused in Chinese.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';
import { query } from '../support/content';

let t: TestApp;
let c: ReturnType<typeof client>;

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
});
afterAll(() => t.close());

interface Course { courseId: number; courseName: string; subjectId: number }

/** Courses taught in a grade inside a scope, straight from the teaching assignments. */
async function taught(gradeId: number, scope: SQL): Promise<Course[]> {
  return query<Course>(t, sql`
    SELECT DISTINCT co.id AS "courseId", co.name AS "courseName", co.subject_id AS "subjectId"
      FROM teaching_assignments ta JOIN classes c ON c.id = ta.class_id JOIN courses co ON co.id = ta.course_id
     WHERE c.grade_id = ${gradeId} AND ${scope} ORDER BY co.id`);
}

const userScope = (u: string) => sql`(SELECT school_id FROM users WHERE username = ${u})`;
const LEADERS = [
  { user: 'principal', role: 'schoolMaster', leaderType: '', scope: sql`c.school_id = ${userScope('principal')}` },
  {
    user: 'gradeleader',
    role: 'gradeLeader',
    leaderType: '3',
    scope: sql`c.grade_id IN (SELECT ls.grade_id FROM leader_scopes ls JOIN users u ON u.id = ls.user_id WHERE u.username = 'gradeleader' AND ls.role = 'gradeLeader')`,
  },
  {
    user: 'subjectleader',
    role: 'subjectleader',
    leaderType: '2',
    scope: sql`c.school_id = ${userScope('subjectleader')} AND co.subject_id IN (SELECT ls.subject_id FROM leader_scopes ls JOIN users u ON u.id = ls.user_id WHERE u.username = 'subjectleader' AND ls.role = 'subjectleader')`,
  },
  {
    user: 'researcher',
    role: 'regionResearcher',
    leaderType: '9',
    scope: sql`c.school_id IN (SELECT s.id FROM schools s JOIN users u ON u.region = s.region WHERE u.username = 'researcher')`,
  },
] as const;

describe('course list per leader role', () => {
  for (const l of LEADERS) {
    it(`${l.user} (${l.role}) gets the courses its scope teaches in each of its grades`, async () => {
      const lt = l.leaderType ? `leaderType=${l.leaderType}` : '';
      const grades: { id: number; name: string }[] = await c.data(l.user, `/api/vesta/teaching/getGradeInSchool?${lt}`, l.role);
      expect(grades.length).toBeGreaterThan(0);
      for (const g of grades) {
        const expected = await taught(g.id, l.scope);
        expect(expected.length, `${l.user} ${g.name}`).toBeGreaterThan(0);
        expect(await c.data(l.user, `/api/vesta/teaching/getCourseList?classId=&gradeId=${g.id}&${lt}`, l.role)).toEqual(expected);
        expect(await c.data(l.user, `/api/vesta/teaching/getCourseByGradeId?gradeId=${g.id}`, l.role)).toEqual(expected);
      }
    });
  }

  it('the principal has more than one course to choose in a grade; the subject leader only 数学', async () => {
    const [g] = await c.data('principal', '/api/vesta/teaching/getGradeInSchool', 'schoolMaster');
    const principal: Course[] = await c.data('principal', `/api/vesta/teaching/getCourseList?classId=&gradeId=${g.id}`, 'schoolMaster');
    expect(principal.length).toBeGreaterThan(1);
    const leader: Course[] = await c.data('subjectleader', `/api/vesta/teaching/getCourseList?classId=&gradeId=${g.id}&leaderType=2`, 'subjectleader');
    expect(leader.map((x) => x.courseName)).toEqual(['数学']);
    // Without a grade: still only the subject leader's own subject, across the school.
    const all: Course[] = await c.data('subjectleader', '/api/vesta/teaching/getCourseList?classId=&gradeId=&leaderType=2', 'subjectleader');
    expect(new Set(all.map((x) => x.courseName))).toEqual(new Set(['数学']));
  });

  it('refuses another role’s leader type, another tenant’s grade and hostile input in Chinese', async () => {
    const [g] = await c.data('subjectleader', '/api/vesta/teaching/getGradeInSchool?leaderType=2', 'subjectleader');
    const asGradeLeader = await c.get('subjectleader', `/api/vesta/teaching/getCourseList?classId=&gradeId=${g.id}&leaderType=3`, 'subjectleader');
    expect(asGradeLeader.statusCode).toBe(403);
    expect(asGradeLeader.json().msg).toMatch(/[\u4e00-\u9fa5]/);

    const [other] = await query<{ id: number }>(t, sql`
      SELECT g.id FROM grades g WHERE g.tenant_id <> (SELECT tenant_id FROM users WHERE username = 'principal') ORDER BY g.id LIMIT 1`);
    const foreign = await c.get('principal', `/api/vesta/teaching/getCourseByGradeId?gradeId=${other.id}`, 'schoolMaster');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().msg).toBe('年级不存在');
    // The course list in another tenant's grade is simply empty: none of its classes are in scope.
    expect(await c.data('principal', `/api/vesta/teaching/getCourseList?classId=&gradeId=${other.id}`, 'schoolMaster')).toEqual([]);

    for (const bad of ['gradeId=abc', 'gradeId=-1', "gradeId=1%27%20OR%201%3D1", 'leaderType=1000', `classId=${'9'.repeat(40)}`]) {
      const res = await c.get('principal', `/api/vesta/teaching/getCourseList?${bad}`, 'schoolMaster');
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().msg, bad).toMatch(/[\u4e00-\u9fa5]/);
    }
  });
});
