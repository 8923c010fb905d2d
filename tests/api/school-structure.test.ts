// School structure: class tree, class CRUD, class membership, graduation; tenant and role checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';
import { classCourses, classSize } from '../support/content';
import { client } from '../support/school';

let t: TestApp;
let c: ReturnType<typeof client>;
let schoolId: number;
let foreign: { schoolId: number; gradeId: number; classId: number; studentId: number };

interface GradeNode {
  gradeId: number;
  gradeName: string;
  graduatedYear: number | null;
  children: { id: number; classId: number; className: string; gradeId: number; studentCount: number }[];
}

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
  schoolId = (await c.data('schooladmin', '/api/juno/personal/info')).schoolId;
  const info2 = await c.data('schooladmin2', '/api/juno/personal/info');
  const tree2: GradeNode[] = await c.data('schooladmin2', `/api/vesta/class/treeClassBySchool?schoolId=${info2.schoolId}`);
  const students2 = await c.data('schooladmin2', '/api/vesta/student/page?size=1');
  foreign = { schoolId: info2.schoolId, gradeId: tree2[0].gradeId, classId: tree2[0].children[0].id, studentId: students2.records[0].id };
});
afterAll(() => t.close());

const tree = async (): Promise<GradeNode[]> => c.data('schooladmin', `/api/vesta/class/treeClassBySchool?schoolId=${schoolId}`);

describe('class tree', () => {
  it('lists grades with their classes and student counts', async () => {
    const grades = await tree();
    expect(grades.map((g) => g.gradeName)).toEqual(['七年级', '八年级', '九年级']);
    expect(grades[0].children.map((x) => x.className)).toEqual(['七(1)班', '七(2)班', '七(3)班', '七(4)班']);
    expect(grades[0].children[0]).toMatchObject({ classId: grades[0].children[0].id, gradeId: grades[0].gradeId, studentCount: await classSize(t, grades[0].children[0].id) });
  });

  it("hides another tenant's school and refuses teachers", async () => {
    expect((await c.get('schooladmin', `/api/vesta/class/treeClassBySchool?schoolId=${foreign.schoolId}`)).statusCode).toBe(404);
    expect((await c.get('teacher', `/api/vesta/class/treeClassBySchool?schoolId=${schoolId}`)).statusCode).toBe(403);
    expect((await c.get('parttime', `/api/vesta/class/treeClassBySchool?schoolId=${schoolId}`)).statusCode).toBe(403);
    expect((await c.get('partner1', '/api/vesta/class/treeClassBySchool')).statusCode).toBe(403);
  });
});

describe('class add, update, remove', () => {
  it('adds, renames and removes an empty class', async () => {
    const [seventh] = await tree();
    const added = await c.done('schooladmin', '/api/vesta/class/add', { gradeId: seventh.gradeId, className: '七(5)班' });
    expect(added).toMatchObject({ className: '七(5)班', gradeId: seventh.gradeId, gradeName: '七年级' });
    const renamed = await c.done('schooladmin', '/api/vesta/class/update', { classId: added.id, className: '七(6)班' });
    expect(renamed.className).toBe('七(6)班');
    expect((await tree())[0].children.map((x) => x.className)).toContain('七(6)班');
    await c.done('schooladmin', '/api/vesta/class/remove', { classId: added.id });
    expect((await tree())[0].children).toHaveLength(4);
  });

  it('refuses a duplicate, an empty or a too long class name with the field named', async () => {
    const [seventh] = await tree();
    const dup = await c.post('schooladmin', '/api/vesta/class/add', { gradeId: seventh.gradeId, className: '七(1)班' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().msg).toBe('七年级已有班级“七(1)班”');
    const empty = await c.post('schooladmin', '/api/vesta/class/add', { gradeId: seventh.gradeId, className: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().msg).toBe('班级名称不能为空');
    const long = await c.post('schooladmin', '/api/vesta/class/add', { gradeId: seventh.gradeId, className: '班'.repeat(51) });
    expect(long.statusCode).toBe(400);
    expect(long.json().msg).toBe('班级名称长度不能超过50个字符');
    const missing = await c.post('schooladmin', '/api/vesta/class/add', { className: '七(9)班' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().msg).toBe('年级不能为空');
  });

  it('refuses to remove a class that still has students, saying how many', async () => {
    const [seventh] = await tree();
    const res = await c.post('schooladmin', '/api/vesta/class/remove', { classId: seventh.children[0].id });
    expect(res.statusCode).toBe(409);
    expect(res.json().msg).toBe(`班级“七(1)班”还有${await classSize(t, seventh.children[0].id)}名学生，请先移出学生后再删除`);
  });

  it("treats another tenant's grade and class as not found", async () => {
    expect((await c.post('schooladmin', '/api/vesta/class/add', { gradeId: foreign.gradeId, className: '入侵班' })).statusCode).toBe(404);
    expect((await c.post('schooladmin', '/api/vesta/class/update', { classId: foreign.classId, className: '改名' })).statusCode).toBe(404);
    expect((await c.post('schooladmin', '/api/vesta/class/remove', { classId: foreign.classId })).statusCode).toBe(404);
    expect((await c.get('schooladmin', `/api/vesta/class/getClassInfo?classId=${foreign.classId}`)).statusCode).toBe(404);
  });

  it('refuses teachers and other roles', async () => {
    const [seventh] = await tree();
    expect((await c.post('teacher', '/api/vesta/class/add', { gradeId: seventh.gradeId, className: '七(7)班' })).statusCode).toBe(403);
    expect((await c.post('teacher', '/api/vesta/class/remove', { classId: seventh.children[3].id })).statusCode).toBe(403);
    expect((await c.post('psych', '/api/vesta/class/update', { classId: seventh.children[3].id, className: 'x' })).statusCode).toBe(403);
  });
});

describe('class info', () => {
  it('shows counts and teachers to the admin', async () => {
    const [seventh] = await tree();
    const info = await c.data('schooladmin', `/api/vesta/class/getClassInfo?classId=${seventh.children[0].id}`);
    expect(info).toMatchObject({ classId: seventh.children[0].id, className: '七(1)班', gradeName: '七年级', studentCount: await classSize(t, seventh.children[0].id), schoolId });
    // Every teacher of every course the seed assigns to the class, 数学 twice (teacher and teacher4).
    expect(info.teachers.map((x: { courseName: string }) => x.courseName).sort()).toEqual(await classCourses(t, seventh.children[0].id));
    expect(info.teachers.map((x: { courseName: string }) => x.courseName)).toEqual(expect.arrayContaining(['数学', '语文', '英语']));
  });

  it('lets a teacher read their own classes only', async () => {
    const [seventh] = await tree();
    expect((await c.get('teacher', `/api/vesta/class/getClassInfo?classId=${seventh.children[0].id}`)).statusCode).toBe(200);
    expect((await c.get('teacher', `/api/vesta/class/getClassInfo?classId=${seventh.children[3].id}`)).statusCode).toBe(404);
    expect((await c.get('parttime', `/api/vesta/class/getClassInfo?classId=${seventh.children[0].id}`)).statusCode).toBe(403);
  });
});

describe('class membership', () => {
  it('moves students out of a class and into another', async () => {
    const [seventh] = await tree();
    const from = seventh.children[2];
    const to = seventh.children[3];
    const [fromSize, toSize] = [await classSize(t, from.id), await classSize(t, to.id)];
    const list = await c.data('schooladmin', `/api/vesta/student/page?classId=${from.id}&size=2`);
    const ids = list.records.map((s: { id: number }) => s.id);
    const out = await c.done('schooladmin', '/api/vesta/teaching/removeStudentFromClass', { classId: from.id, studentIds: ids });
    expect(out.count).toBe(2);
    expect((await c.data('schooladmin', `/api/vesta/student/page?classId=${from.id}`)).total).toBe(fromSize - 2);
    const moved = await c.done('schooladmin', '/api/vesta/teaching/addStudentToClass', { classId: to.id, studentIds: ids });
    expect(moved.count).toBe(2);
    expect((await c.data('schooladmin', `/api/vesta/student/page?classId=${to.id}`)).total).toBe(toSize + 2);
    // Back where they were, for the other tests.
    await c.done('schooladmin', '/api/vesta/teaching/addStudentToClass', { classId: from.id, studentIds: ids });
  });

  it("refuses another tenant's student or class, and teachers", async () => {
    const [seventh] = await tree();
    const res = await c.post('schooladmin', '/api/vesta/teaching/addStudentToClass', { classId: seventh.children[0].id, studentIds: [foreign.studentId] });
    expect(res.statusCode).toBe(404);
    expect(res.json().msg).toBe('学生不存在');
    expect((await c.post('schooladmin', '/api/vesta/teaching/removeStudentFromClass', { classId: foreign.classId, studentId: foreign.studentId })).statusCode).toBe(404);
    expect((await c.post('teacher', '/api/vesta/teaching/addStudentToClass', { classId: seventh.children[0].id, studentIds: [1] })).statusCode).toBe(403);
    const empty = await c.post('schooladmin', '/api/vesta/teaching/addStudentToClass', { classId: seventh.children[0].id, studentIds: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().msg).toBe('学生不能为空');
  });
});

describe('graduation', () => {
  it('graduates a whole grade with its year, and lists the year', async () => {
    expect(await c.data('schooladmin', '/api/vesta/school/getGraduatedYear')).toEqual([]);
    const ninth = (await tree())[2];
    const res = await c.done('schooladmin', '/api/vesta/class/graduateGrade', { gradeId: ninth.gradeId, year: 2026 });
    expect(res).toEqual({ gradeId: ninth.gradeId, gradeName: '九年级', year: 2026, studentCount: 160 });
    expect(await c.data('schooladmin', '/api/vesta/school/getGraduatedYear')).toEqual([2026]);
    expect((await tree()).map((g) => g.gradeName)).toEqual(['七年级', '八年级']);
    const all: GradeNode[] = await c.data('schooladmin', `/api/vesta/class/treeClassBySchool?includeGraduated=true`);
    expect(all.find((g) => g.gradeId === ninth.gradeId)?.graduatedYear).toBe(2026);
    const graduated = await c.data('schooladmin', `/api/vesta/student/page?gradeId=${ninth.gradeId}&status=1`);
    expect(graduated.total).toBe(160);
    expect(graduated.records[0]).toMatchObject({ status: 1, graduatedYear: 2026 });
    const again = await c.post('schooladmin', '/api/vesta/class/graduateGrade', { gradeId: ninth.gradeId, year: 2026 });
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe('九年级已于2026年毕业');
  });

  it('validates the year and the grade', async () => {
    const [seventh] = await tree();
    const bad = await c.post('schooladmin', '/api/vesta/class/graduateGrade', { gradeId: seventh.gradeId, year: 'abc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe('毕业年份格式不正确');
    expect((await c.post('schooladmin', '/api/vesta/class/graduateGrade', { gradeId: foreign.gradeId, year: 2026 })).statusCode).toBe(404);
    expect((await c.post('teacher', '/api/vesta/class/graduateGrade', { gradeId: seventh.gradeId, year: 2026 })).statusCode).toBe(403);
    expect((await c.get('teacher', '/api/vesta/school/getGraduatedYear')).statusCode).toBe(403);
  });
});
