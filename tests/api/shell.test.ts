import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../server/db/query';
import { createTestApp, type TestApp } from '../support/testApp';
import { taught as taughtBy } from '../support/content';

let t: TestApp;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['teacher', 'teacher2', 'subjectleader', 'gradeleader', 'researcher', 'psych', 'schooladmin', 'schooladmin2', 'teacher3', 'partner1']) {
    tokens[u] = await t.login(u);
  }
});
afterAll(() => t.close());

const taught = (username: string) => taughtBy(t, username);

const get = async (user: string, url: string, role?: string) => t.call(tokens[user], { url, role });
const data = async (user: string, url: string, role?: string) => {
  const res = await get(user, url, role);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};

describe('getTeachClass by leader type', () => {
  it('a teacher sees the classes they teach', async () => {
    const classes = await data('teacher', '/api/vesta/teaching/getTeachClass?leaderType=1');
    // 数学 in 七(1)班 and 七(2)班, 物理 in 八(1)班 and 八(2)班 (the seed's assignments).
    expect(classes.map((c: { className: string }) => c.className)).toEqual((await taught('teacher')).classes);
    expect(classes.map((c: { className: string }) => c.className)).toEqual(['七(1)班', '七(2)班', '八(1)班', '八(2)班']);
    expect(classes[0]).toEqual({ id: expect.any(Number), gradeId: expect.any(Number), className: '七(1)班', gradeName: '七年级' });
  });

  it('a grade leader sees the four classes of their grade', async () => {
    const classes = await data('gradeleader', '/api/vesta/teaching/getTeachClass?leaderType=3');
    expect(classes).toHaveLength(4);
    expect(new Set(classes.map((c: { gradeName: string }) => c.gradeName))).toEqual(new Set(['七年级']));
  });

  it('a subject leader and the psychology teacher see the whole school', async () => {
    expect(await data('subjectleader', '/api/vesta/teaching/getTeachClass?leaderType=2')).toHaveLength(12);
    expect(await data('psych', '/api/vesta/teaching/getTeachClass?leaderType=7')).toHaveLength(12);
  });

  it('a researcher sees the schools of their region, each its own tenant, and no school outside it', async () => {
    const classes: { id: number }[] = await data('researcher', '/api/vesta/teaching/getTeachClass?leaderType=9');
    // The classes of every school of the researcher's region, whatever the school's tenant.
    const region = await rows<{ id: number; region: string; tenantId: number }>(t.database.db, sql`
      SELECT c.id, s.region, s.tenant_id AS "tenantId" FROM classes c JOIN schools s ON s.id = c.school_id
       WHERE s.region = (SELECT region FROM users WHERE username = 'researcher') ORDER BY c.id`);
    expect(classes.map((c) => c.id).sort((a, b) => a - b)).toEqual(region.map((c) => c.id));
    // The demo region holds four schools in four tenants; 宁波 (tenant 2) is not among them.
    expect(new Set(region.map((c) => c.tenantId)).size).toBe(4);
    const [ningbo] = await rows<{ id: number }>(t.database.db, sql`SELECT c.id FROM classes c JOIN schools s ON s.id = c.school_id WHERE s.name = '宁波市海曙区育才中学' LIMIT 1`);
    expect(classes.some((c) => c.id === ningbo!.id)).toBe(false);
  });

  it("refuses a leader type that is not the caller's role", async () => {
    const res = await get('teacher', '/api/vesta/teaching/getTeachClass?leaderType=3');
    expect(res.statusCode).toBe(403);
    expect(res.json().msg).toBe('无权查看该角色的数据');
  });

  it('refuses partners, who have no classes', async () => {
    expect((await get('partner1', '/api/vesta/teaching/getTeachClass?leaderType=1')).statusCode).toBe(403);
  });

  it('validates the leader type', async () => {
    const res = await get('teacher', '/api/vesta/teaching/getTeachClass?leaderType=abc');
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('角色类型格式不正确');
  });
});

describe('courses', () => {
  it("a teacher's course list for a class is what they teach there", async () => {
    const [c1] = await data('teacher', '/api/vesta/teaching/getTeachClass?leaderType=1');
    const courses = await data('teacher', `/api/vesta/teaching/getCourseList?classId=${c1.id}&gradeId=${c1.gradeId}&leaderType=1`);
    expect(courses.map((c: { courseName: string }) => c.courseName)).toEqual((await taught('teacher')).courses(c1.className));
    expect(courses[0]).toEqual({ courseId: expect.any(Number), courseName: '数学', subjectId: expect.any(Number) });
    // In a class of another grade the list is that class's: 物理 in 八(1)班.
    const c3 = (await data('teacher', '/api/vesta/teaching/getTeachClass?leaderType=1')).find((c: { className: string }) => c.className === '八(1)班');
    const physics = await data('teacher', `/api/vesta/teaching/getCourseList?classId=${c3.id}&gradeId=${c3.gradeId}&leaderType=1`);
    expect(physics.map((c: { courseName: string }) => c.courseName)).toEqual(['物理']);
  });

  it('accepts an empty classId as SPEC §7 sends it', async () => {
    const [c1] = await data('teacher', '/api/vesta/teaching/getTeachClass?leaderType=1');
    const courses = await data('teacher', `/api/vesta/teaching/getCourseList?classId=&gradeId=${c1.gradeId}&leaderType=1`);
    // Every course the teacher teaches in that grade (七年级: 数学 only).
    expect(courses.map((c: { courseName: string }) => c.courseName)).toEqual((await taught('teacher')).courses(c1.className));
    expect(courses).toHaveLength(1);
  });

  it('a subject leader only gets courses of their subject', async () => {
    const [c1] = await data('subjectleader', '/api/vesta/teaching/getTeachClass?leaderType=2');
    const courses = await data('subjectleader', `/api/vesta/teaching/getCourseByGradeId?gradeId=${c1.gradeId}`);
    expect(courses.map((c: { courseName: string }) => c.courseName)).toEqual(['数学']);
  });

  it('getTeacherCourse and getTeachCourse return the signed-in teacher courses', async () => {
    expect((await data('teacher2', '/api/vesta/teaching/getTeacherCourse')).map((c: { courseName: string }) => c.courseName)).toEqual(['语文']);
    const info = await data('teacher', '/api/juno/personal/info');
    const [c1] = await data('teacher', '/api/vesta/teaching/getTeachClass?leaderType=1');
    const courses = await data('teacher', `/api/vesta/teaching/getTeachCourse?teacherId=${info.teacherId}&gradeId=${c1.gradeId}`);
    // The teacher's courses in that grade (七年级: 数学); without a grade, every course they teach.
    expect(courses.map((c: { courseName: string }) => c.courseName)).toEqual((await taught('teacher')).courses(c1.className));
    const all = await data('teacher', `/api/vesta/teaching/getTeachCourse?teacherId=${info.teacherId}`);
    expect(all.map((c: { courseName: string }) => c.courseName).sort()).toEqual(['数学', '物理']);
  });

  it("a teacher cannot read another teacher's courses", async () => {
    const other = await data('teacher2', '/api/juno/personal/info');
    expect((await get('teacher', `/api/vesta/teaching/getTeachCourse?teacherId=${other.teacherId}`)).statusCode).toBe(403);
  });
});

describe('tenant isolation', () => {
  it("another tenant's class id is not found", async () => {
    const [foreign] = await data('teacher3', '/api/vesta/teaching/getTeachClass?leaderType=1');
    const res = await get('teacher', `/api/vesta/teaching/getCourseList?classId=${foreign.id}&leaderType=1`);
    expect(res.statusCode).toBe(404);
    expect(res.json().msg).toBe('班级不存在');
  });

  it("another tenant's grade and school are not found", async () => {
    const [foreign] = await data('teacher3', '/api/vesta/teaching/getTeachClass?leaderType=1');
    expect((await get('subjectleader', `/api/vesta/teaching/getCourseByGradeId?gradeId=${foreign.gradeId}`)).statusCode).toBe(404);
    const info2 = await data('schooladmin2', '/api/juno/personal/info');
    expect((await get('schooladmin', `/api/vesta/class/getClassInSchool?schoolId=${info2.schoolId}`)).statusCode).toBe(404);
    expect((await get('schooladmin', `/api/vesta/teaching/getGradeInSchool?schoolId=${info2.schoolId}`)).statusCode).toBe(404);
  });

  it('a school admin lists grades and classes of their own school', async () => {
    const info = await data('schooladmin', '/api/juno/personal/info');
    const grades = await data('schooladmin', `/api/vesta/teaching/getGradeInSchool?schoolId=${info.schoolId}`);
    expect(grades.map((g: { name: string }) => g.name)).toEqual(['七年级', '八年级', '九年级']);
    const classes = await data('schooladmin', `/api/vesta/class/getClassInSchool?schoolId=${info.schoolId}&gradeId=${grades[1].id}`);
    expect(classes.map((c: { className: string }) => c.className)).toEqual(['八(1)班', '八(2)班', '八(3)班', '八(4)班']);
  });
});

describe('menu badge', () => {
  it('counts zero for a teacher with no homework yet, per date type', async () => {
    expect(await data('teacher', '/api/wrongbook/v1.0/web/nav/getMenuBadge?dateType=1')).toEqual({ dateType: 1, correctCount: 0, homeworkCount: 0, wrongCount: expect.any(Number) });
  });

  it('counts real pending homework and grading tasks', async () => {
    const { homeworks, gradingTasks, teachers, teachingAssignments } = await import('../../server/db/schema');
    const { eq } = await import('drizzle-orm');
    const info = await data('teacher', '/api/juno/personal/info');
    const [assignment] = await t.database.db.select().from(teachingAssignments).where(eq(teachingAssignments.teacherId, info.teacherId));
    const [teacher] = await t.database.db.select().from(teachers).where(eq(teachers.id, info.teacherId));
    const base = { tenantId: teacher.tenantId, teacherId: teacher.id, classId: assignment.classId };
    await t.database.db.insert(homeworks).values({ ...base, courseId: assignment.courseId, title: '一元一次方程练习', pendingReview: 120 });
    await t.database.db.insert(gradingTasks).values([
      { ...base, type: 3, status: 3, title: '期中答题卡' },
      { ...base, type: 2, status: 4, title: '已批完的作文' },
    ]);
    expect(await data('teacher', '/api/wrongbook/v1.0/web/nav/getMenuBadge?dateType=0')).toEqual({ dateType: 0, correctCount: 1, homeworkCount: 120, wrongCount: expect.any(Number) });
  });

  it('is for teachers only', async () => {
    expect((await get('schooladmin', '/api/wrongbook/v1.0/web/nav/getMenuBadge?dateType=1')).statusCode).toBe(403);
  });
});

describe('active role header', () => {
  it('cannot grant a role the user does not hold', async () => {
    const res = await get('teacher', '/api/wrongbook/v1.0/partner/getCurrentPartner', 'partner');
    expect(res.statusCode).toBe(403);
  });

  it('selects among the roles the user holds', async () => {
    // teacher holds mpTeacher and teaching; as `teaching` the class scope is still their own classes.
    const classes = await data('teacher', '/api/vesta/teaching/getTeachClass', 'teaching');
    expect(classes).toHaveLength((await taught('teacher')).classes.length);
    expect(classes).toHaveLength(4);
  });
});

describe('lookups stay fresh', () => {
  it("a teacher's class list changes as soon as the admin binds or removes a class", async () => {
    const before = await data('teacher', '/api/vesta/teaching/getTeachClass?leaderType=1');
    // Read twice: the second answer may come from the lookup cache.
    expect(await data('teacher', '/api/vesta/teaching/getTeachClass?leaderType=1')).toEqual(before);
    const info = await data('teacher', '/api/juno/personal/info');
    const admin = await data('schooladmin', '/api/juno/personal/info');
    const grades = await data('schooladmin', `/api/vesta/teaching/getGradeInSchool?schoolId=${admin.schoolId}`);
    const seventh = await data('schooladmin', `/api/vesta/class/getClassInSchool?gradeId=${grades[0].id}`);
    const third = seventh.find((c: { className: string }) => c.className === '七(3)班');
    const bind = await t.call(tokens.schooladmin, {
      method: 'POST',
      url: '/api/vesta/teaching/bindClassCourse',
      payload: { teacherId: info.teacherId, classId: third.id, courseId: info.courses[0].courseId },
    });
    expect(bind.statusCode, bind.body).toBe(200);
    const after = await data('teacher', '/api/vesta/teaching/getTeachClass?leaderType=1');
    expect(after.map((c: { className: string }) => c.className)).toEqual(['七(1)班', '七(2)班', '七(3)班', '八(1)班', '八(2)班']);

    const remove = await t.call(tokens.schooladmin, {
      method: 'POST',
      url: '/api/vesta/teaching/removeTeacherFromClass',
      payload: { teacherId: info.teacherId, classId: third.id },
    });
    expect(remove.statusCode, remove.body).toBe(200);
    expect(await data('teacher', '/api/vesta/teaching/getTeachClass?leaderType=1')).toEqual(before);
  });
});
