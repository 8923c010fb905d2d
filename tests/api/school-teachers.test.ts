// Teachers: accounts, bindings, jobs, subjects, password reset and Excel import; tenant and role checks.
// This file runs with ADMIN_CLASSIC_WEB, so the admin acts as `schoolAdmin` (the others: `mpSchoolAdmin`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { homeworks, teachers, teachingAssignments } from '../../server/db/schema';
import { createTestApp, type TestApp } from '../support/testApp';
import { XLSX, client, multipart, readRows, workbook } from '../support/school';

let t: TestApp;
let c: ReturnType<typeof client>;
let schoolId: number;
let classes: { id: number; className: string; gradeId: number; gradeName: string }[];
let courses: { courseId: number; courseName: string; subjectId: number; subjectName: string }[];
let foreign: { teacherId: number; classId: number; gradeId: number; schoolId: number; courseId: number };
let myTeacherId: number;

const teacherCount = async () => (await t.database.db.select({ n: count() }).from(teachers).where(eq(teachers.schoolId, schoolId)))[0].n;
const course = (name: string) => courses.find((x) => x.courseName === name)!;
const cls = (name: string) => classes.find((x) => x.className === name)!;

beforeAll(async () => {
  t = await createTestApp({ classicAdmin: true });
  c = client(t);
  const info = await c.data('schooladmin', '/api/juno/personal/info');
  schoolId = info.schoolId;
  const tree = await c.data('schooladmin', '/api/vesta/class/treeClassBySchool');
  classes = tree.flatMap((g: { children: typeof classes }) => g.children);
  courses = await c.data('schooladmin', `/api/vesta/teaching/getSubjectInSchool?schoolId=${schoolId}`);
  myTeacherId = (await c.data('teacher', '/api/juno/personal/info')).teacherId;
  const info2 = await c.data('schooladmin2', '/api/juno/personal/info');
  const tree2 = await c.data('schooladmin2', '/api/vesta/class/treeClassBySchool');
  const courses2 = await c.data('schooladmin2', '/api/vesta/teaching/getSubjectInSchool');
  foreign = {
    teacherId: (await c.data('teacher3', '/api/juno/personal/info')).teacherId,
    classId: tree2[0].children[0].id,
    gradeId: tree2[0].gradeId,
    schoolId: info2.schoolId,
    courseId: courses2[0].courseId,
  };
});
afterAll(() => t.close());

describe('reading teachers', () => {
  it('acts as the classic schoolAdmin role here', async () => {
    expect((await c.data('schooladmin', '/api/juno/personal/myRoles')).map((r: { roleKey: string }) => r.roleKey)).toEqual(['xz:schoolAdmin']);
    const page = await c.get('schooladmin', '/api/vesta/teacher/page', 'schoolAdmin');
    expect(page.statusCode).toBe(200);
  });

  it('pages the teachers of the school with their classes and courses', async () => {
    const p = await c.data('schooladmin', '/api/vesta/teacher/page?size=5');
    expect(p).toMatchObject({ total: 14, current: 1, size: 5, pages: 3 });
    const chen = p.records.find((x: { name: string }) => x.name === '陈静');
    expect(chen).toMatchObject({ teacherId: myTeacherId, username: 'teacher', job: '数学教师', phone: expect.stringMatching(/^1\d{10}$/) });
    expect(chen.classes).toHaveLength(4);
    expect(chen.classes[0]).toEqual({ classId: cls('七(1)班').id, className: '七(1)班', gradeId: cls('七(1)班').gradeId, gradeName: '七年级', courseId: course('数学').courseId, courseName: '数学' });
    expect((await c.data('schooladmin', `/api/vesta/teacher/page?keyword=${encodeURIComponent('陈')}`)).records.map((x: { name: string }) => x.name)).toContain('陈静');
    expect((await c.data('schooladmin', `/api/vesta/teacher/page?job=${encodeURIComponent('语文教师')}`)).total).toBe(1);
    const ofClass = await c.data('schooladmin', `/api/vesta/teacher/page?classId=${cls('七(1)班').id}&courseId=${course('语文').courseId}`);
    expect(ofClass.records.map((x: { name: string }) => x.name)).toEqual(['林晓']);
  });

  it('lists the teachers of a class for an admin and for a teacher of that class', async () => {
    const url = `/api/vesta/teacher/pageByClassId?classId=${cls('七(1)班').id}`;
    const p = await c.data('schooladmin', url);
    expect(p.records.find((x: { teacherId: number }) => x.teacherId === myTeacherId).courses.map((x: { courseName: string }) => x.courseName)).toEqual(['数学']);
    expect((await c.data('teacher', url)).total).toBe(p.total);
    expect((await c.get('teacher', `/api/vesta/teacher/pageByClassId?classId=${cls('九(4)班').id}`)).statusCode).toBe(404);
    expect((await c.get('schooladmin', `/api/vesta/teacher/pageByClassId?classId=${foreign.classId}`)).statusCode).toBe(404);
    expect((await c.get('parttime', url)).statusCode).toBe(403);
  });

  it('gives the school of a teacher to the teacher and to the admin', async () => {
    const own = await c.data('teacher', '/api/vesta/teacher/getTeacherSchoolByTeacherId');
    expect(own).toMatchObject({ teacherId: myTeacherId, teacherName: '陈静', schoolId, schoolName: '杭州市西湖区实验中学' });
    expect(await c.data('schooladmin', `/api/vesta/teacher/getTeacherSchoolByTeacherId?teacherId=${myTeacherId}`)).toEqual(own);
    const colleague = (await c.data('teacher2', '/api/juno/personal/info')).teacherId;
    expect((await c.get('teacher', `/api/vesta/teacher/getTeacherSchoolByTeacherId?teacherId=${colleague}`)).statusCode).toBe(403);
    expect((await c.get('schooladmin', `/api/vesta/teacher/getTeacherSchoolByTeacherId?teacherId=${foreign.teacherId}`)).statusCode).toBe(404);
  });

  it('lists teachers, jobs and subjects of the school', async () => {
    const all = await c.data('schooladmin', `/api/vesta/teacher/getTeacherInSchool?schoolId=${schoolId}`);
    expect(all).toHaveLength(14);
    expect(all[0]).toEqual({ id: expect.any(Number), teacherId: all[0].id, name: expect.any(String), phone: expect.any(String), job: expect.any(String) });
    const jobs = await c.data('schooladmin', `/api/vesta/teacher/getJobInSchool?schoolId=${schoolId}`);
    expect(jobs.map((j: { name: string }) => j.name)).toEqual(expect.arrayContaining(['班主任', '任课教师', '数学教师']));
    expect(jobs[0]).toEqual({ id: jobs[0].name, name: jobs[0].name });
    expect(courses.map((x) => x.courseName)).toEqual(['语文', '数学', '英语', '物理', '化学', '道德与法治', '历史', '地理', '生物']);
    expect(courses[0]).toEqual({ courseId: expect.any(Number), courseName: '语文', subjectId: expect.any(Number), subjectName: '语文' });
    expect(await c.data('teacher', `/api/vesta/teaching/getSubjectByGradeId?gradeId=${classes[0].gradeId}`)).toEqual(courses);
    for (const url of [
      `/api/vesta/teacher/getTeacherInSchool?schoolId=${foreign.schoolId}`,
      `/api/vesta/teacher/getJobInSchool?schoolId=${foreign.schoolId}`,
      `/api/vesta/teaching/getSubjectInSchool?schoolId=${foreign.schoolId}`,
      `/api/vesta/teaching/getSubjectByGradeId?gradeId=${foreign.gradeId}`,
    ]) {
      expect((await c.get('schooladmin', url)).statusCode, url).toBe(404);
    }
    expect((await c.get('teacher', `/api/vesta/teacher/getTeacherInSchool?schoolId=${schoolId}`)).statusCode).toBe(403);
    expect((await c.get('teacher', `/api/vesta/teacher/getJobInSchool?schoolId=${schoolId}`)).statusCode).toBe(403);
  });
});

describe('managing teachers', () => {
  it('adds a teacher whose one-time password signs in, then updates, binds, unbinds and removes', async () => {
    const added = await c.done('schooladmin', '/api/vesta/teacher/add', {
      name: '周新', phone: '13700000001', job: '班主任', bindings: [{ classId: cls('八(1)班').id, courseId: course('数学').courseId }],
    });
    expect(added).toMatchObject({ teacherId: expect.any(Number), username: '13700000001', password: expect.stringMatching(/^[A-Za-z2-9]{10}$/) });
    await t.login('13700000001', added.password);

    await c.done('schooladmin', '/api/vesta/teacher/update', { teacherId: added.teacherId, name: '周新新', phone: '13700000002' });
    await t.login('13700000002', added.password);

    const bound = await c.done('schooladmin', '/api/vesta/teaching/bindClassCourse', { teacherId: added.teacherId, classId: cls('八(2)班').id, courseId: course('物理').courseId });
    expect(bound.added).toBe(1);
    const again = await c.done('schooladmin', '/api/vesta/teaching/bindClassCourse', { teacherId: added.teacherId, bindings: [{ classId: cls('八(2)班').id, courseId: course('物理').courseId }] });
    expect(again.added).toBe(0);
    const row = (await c.data('schooladmin', '/api/vesta/teacher/page?keyword=13700000002')).records[0];
    expect(row).toMatchObject({ name: '周新新', job: '班主任' });
    expect(row.classes.map((x: { className: string; courseName: string }) => `${x.className}${x.courseName}`)).toEqual(['八(1)班数学', '八(2)班物理']);

    await c.done('schooladmin', '/api/vesta/teaching/removeTeacherFromClass', { teacherId: added.teacherId, classId: cls('八(1)班').id });
    const gone = await c.post('schooladmin', '/api/vesta/teaching/removeTeacherFromClass', { teacherId: added.teacherId, classId: cls('八(1)班').id });
    expect([gone.statusCode, gone.json().msg]).toEqual([404, '该教师未任教此班级']);

    await c.done('schooladmin', '/api/vesta/teacher/remove', { teacherId: added.teacherId });
    await expect(t.login('13700000002', added.password)).rejects.toThrow();
    expect((await c.data('schooladmin', '/api/vesta/teacher/page?keyword=13700000002')).total).toBe(0);
  });

  it('resets a password: the new one works once shown, the old one and its sessions stop', async () => {
    const colleague = await c.data('classic', '/api/juno/personal/info');
    const oldToken = await t.login('classic');
    const reset = await c.done('schooladmin', '/api/vesta/teacher/resetPassword', { teacherId: colleague.teacherId });
    expect(reset).toMatchObject({ teacherId: colleague.teacherId, username: 'classic', password: expect.any(String) });
    expect((await t.call(oldToken, { url: '/api/juno/personal/info' })).statusCode).toBe(401);
    await expect(t.login('classic')).rejects.toThrow();
    await t.login('classic', reset.password);
  });

  it('validates with messages that name the field', async () => {
    // A phone that is another tenant's sign-in.
    await c.done('schooladmin2', '/api/vesta/teacher/add', { name: '他校老师', phone: '13600000099' });
    const cases: [string, object, number, string][] = [
      ['/api/vesta/teacher/add', { name: '', phone: '13700000003' }, 400, '姓名不能为空'],
      ['/api/vesta/teacher/add', { name: '师'.repeat(51), phone: '13700000003' }, 400, '姓名长度不能超过50个字符'],
      ['/api/vesta/teacher/add', { name: '王五', phone: '12700000003' }, 400, '手机号格式不正确'],
      ['/api/vesta/teacher/add', { name: '王五' }, 400, '手机号不能为空'],
      ['/api/vesta/teacher/add', { name: '王五', phone: '13700000003', job: '宇航员' }, 400, '职务“宇航员”不存在'],
      ['/api/vesta/teacher/add', { name: '王五', phone: '13800000001' }, 409, '手机号13800000001已被其他账号使用'],
      ['/api/vesta/teacher/add', { name: '王五', phone: '13600000099' }, 409, '手机号13600000099已被其他账号使用'],
      ['/api/vesta/teacher/add', { name: '王五', phone: '13700000003', bindings: [{ classId: foreign.classId, courseId: course('数学').courseId }] }, 404, '班级不存在'],
      ['/api/vesta/teacher/add', { name: '王五', phone: '13700000003', bindings: [{ classId: cls('七(1)班').id, courseId: foreign.courseId }] }, 404, '课程不存在'],
      ['/api/vesta/teacher/update', { teacherId: myTeacherId, phone: '13800000002' }, 409, '手机号13800000002已被其他账号使用'],
      ['/api/vesta/teaching/bindClassCourse', { teacherId: myTeacherId, classId: cls('七(3)班').id }, 400, '课程不能为空'],
      ['/api/vesta/teaching/bindClassCourse', { teacherId: myTeacherId }, 400, '任教班级不能为空'],
    ];
    for (const [url, body, status, msg] of cases) {
      const res = await c.post('schooladmin', url, body);
      expect([res.statusCode, res.json().msg], JSON.stringify(body)).toEqual([status, msg]);
    }
  });

  it('refuses to remove a teacher with homework history, and nothing changes', async () => {
    const [assignment] = await t.database.db.select().from(teachingAssignments).where(eq(teachingAssignments.teacherId, myTeacherId));
    const [me] = await t.database.db.select().from(teachers).where(eq(teachers.id, myTeacherId));
    await t.database.db.insert(homeworks).values({ tenantId: me.tenantId, teacherId: me.id, classId: assignment.classId, courseId: assignment.courseId, title: '练习' });
    const res = await c.post('schooladmin', '/api/vesta/teacher/remove', { teacherId: myTeacherId });
    expect([res.statusCode, res.json().msg]).toEqual([409, '教师陈静已有作业或批改记录，不能删除；可将其设为“离职”，记录保留']);
    await t.login('teacher');
  });

  it("treats another tenant's teacher as not found and refuses teachers", async () => {
    for (const [url, body] of [
      ['/api/vesta/teacher/update', { teacherId: foreign.teacherId, name: 'x' }],
      ['/api/vesta/teacher/remove', { teacherId: foreign.teacherId }],
      ['/api/vesta/teacher/resetPassword', { teacherId: foreign.teacherId }],
      ['/api/vesta/teaching/bindClassCourse', { teacherId: foreign.teacherId, classId: cls('七(1)班').id, courseId: course('数学').courseId }],
      ['/api/vesta/teaching/removeTeacherFromClass', { teacherId: foreign.teacherId, classId: cls('七(1)班').id }],
    ] as [string, object][]) {
      expect((await c.post('schooladmin', url, body)).statusCode, url).toBe(404);
      expect((await c.post('teacher', url, body)).statusCode, url).toBe(403);
    }
    expect((await c.post('teacher', '/api/vesta/teacher/add', { name: 'x', phone: '13700000009' })).statusCode).toBe(403);
    expect((await c.get('teacher', '/api/vesta/teacher/page')).statusCode).toBe(403);
    expect((await c.get('subjectleader', '/api/vesta/teacher/page')).statusCode).toBe(403);
  });
});

describe('teacher import', () => {
  const HEADER = ['姓名*', '手机号*', '职务', '年级', '班级', '任教课程'];
  const importFile = (bytes: Buffer) => c.upload('schooladmin', '/api/vesta/teacher/importData', multipart({}, { name: '教师.xlsx', content: bytes, type: XLSX }));

  it('imports from the template, merges rows of one teacher, and re-imports without duplicates', async () => {
    const template = await c.get('schooladmin', '/api/vesta/teacher/importTemplate');
    expect(template.statusCode).toBe(200);
    expect((await readRows(template.rawPayload))[0]).toEqual(HEADER);
    const bytes = await workbook(HEADER, [
      ['吴老师', '13600000001', '班主任', '七年级', '七(3)班、七(4)班', '数学'],
      ['吴老师', '13600000001', '', '八年级', '八(1)班', '物理'],
      ['郑老师', '13600000002', '', '', '', ''],
    ]);
    const before = await teacherCount();
    const res = await importFile(bytes);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-import-result']).toBe('success');
    expect(res.json().data).toEqual({ total: 2, created: 2, updated: 0 });
    expect(await teacherCount()).toBe(before + 2);
    const wu = (await c.data('schooladmin', '/api/vesta/teacher/page?keyword=13600000001')).records[0];
    expect(wu.job).toBe('班主任');
    expect(wu.classes.map((x: { className: string; courseName: string }) => `${x.className}${x.courseName}`)).toEqual(['七(3)班数学', '七(4)班数学', '八(1)班物理']);

    const again = await importFile(bytes);
    expect(again.json().data).toEqual({ total: 2, created: 0, updated: 2 });
    expect(await teacherCount()).toBe(before + 2);
    const wuAgain = (await c.data('schooladmin', '/api/vesta/teacher/page?keyword=13600000001')).records[0];
    expect(wuAgain.classes).toHaveLength(3);

    // Imported accounts cannot sign in until an admin resets the password.
    await expect(t.login('13600000001', '')).rejects.toThrow();
    const reset = await c.done('schooladmin', '/api/vesta/teacher/resetPassword', { teacherId: wu.teacherId });
    await t.login('13600000001', reset.password);
  });

  it('writes nothing when a row is bad and says why on each bad row', async () => {
    const bytes = await workbook(HEADER, [
      ['好老师', '13600000011', '', '七年级', '七(1)班', '数学'],
      ['', '13600000012', '', '', '', ''],
      ['坏手机', '1360000', '', '', '', ''],
      ['无班级', '13600000013', '', '七年级', '七(99)班', '数学'],
      ['无课程', '13600000014', '', '七年级', '七(1)班', '天文'],
      ['无职务', '13600000015', '宇航员', '', '', ''],
      ['占用', '13600000099', '', '', '', ''],
    ]);
    const before = await teacherCount();
    const res = await importFile(bytes);
    expect(res.statusCode).toBe(422);
    expect(res.headers['x-import-error-count']).toBe('6');
    const back = await readRows(res.rawPayload);
    expect(back.slice(1).map((r) => r[6] ?? '')).toEqual([
      '',
      '姓名不能为空',
      '手机号格式不正确',
      '本校没有七年级七(99)班',
      '本校没有课程“天文”',
      '职务“宇航员”不存在',
      '手机号已被其他账号使用',
    ]);
    expect(await teacherCount()).toBe(before);
  });

  it('is for school admins only', async () => {
    const bytes = await workbook(HEADER, [['a', '13600000021', '', '', '', '']]);
    expect((await c.upload('teacher', '/api/vesta/teacher/importData', multipart({}, { name: 'a.xlsx', content: bytes }))).statusCode).toBe(403);
    expect((await c.get('teacher', '/api/vesta/teacher/importTemplate')).statusCode).toBe(403);
  });
});
