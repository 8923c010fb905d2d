// 角色任命 and teacher accounts (docs/api-roles.md): what each role sees after every appointment and
// removal, on the token the holder already had; refusals for other schools, wrong roles and hostile
// input; 停用 / 离职 with the handover of classes; initial passwords for a batch; 区域教研员.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';

let t: TestApp;
let c: ReturnType<typeof client>;
let classes: { id: number; className: string; gradeId: number; gradeName: string }[];
let courses: { courseId: number; courseName: string; subjectId: number }[];
let foreign: { teacherId: number; classId: number; gradeId: number; userId: number };
const ids: Record<string, { teacherId: number; userId: number }> = {};

const cls = (name: string) => classes.find((x) => x.className === name)!;
const grade = (name: string) => classes.find((x) => x.gradeName === name)!.gradeId;
const course = (name: string) => courses.find((x) => x.courseName === name)!;
const appoint = (body: object, user = 'schooladmin') => c.post(user, '/api/vesta/role/appoint', body);
const dismiss = (body: object, user = 'schooladmin') => c.post(user, '/api/vesta/role/dismiss', body);
const refused = async (res: { statusCode: number; json(): { msg: string } }, status: number, msg: string | RegExp) => {
  expect(res.statusCode).toBe(status);
  expect(res.json().msg).toMatch(msg);
};
const roleKeys = async (user: string) => (await c.data(user, '/api/juno/personal/myRoles')).map((r: { roleKey: string }) => r.roleKey);
const gradesAs = async (user: string, role: string, leaderType: number) =>
  (await c.data(user, `/api/vesta/teaching/getGradeInSchool?leaderType=${leaderType}`, role)).map((g: { name: string }) => g.name);
const query = async <T>(q: ReturnType<typeof sql>) => ((await t.database.db.execute(q)) as unknown as { rows: T[] }).rows;
const audit = async () => (await query<{ action: string; summary: string }>(sql`SELECT action, summary FROM audit_logs ORDER BY id DESC LIMIT 1`))[0];

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
  const tree = await c.data('schooladmin', '/api/vesta/class/treeClassBySchool');
  classes = tree.flatMap((g: { children: typeof classes }) => g.children);
  courses = await c.data('schooladmin', '/api/vesta/teaching/getSubjectInSchool');
  for (const user of ['teacher', 'teacher2', 'teacher4', 'classic', 'gradeleader']) {
    const info = await c.data(user, '/api/juno/personal/info');
    ids[user] = { teacherId: info.teacherId, userId: info.userId };
  }
  const tree2 = await c.data('schooladmin2', '/api/vesta/class/treeClassBySchool');
  const info3 = await c.data('teacher3', '/api/juno/personal/info');
  foreign = { teacherId: info3.teacherId, userId: info3.userId, classId: tree2[0].children[0].id, gradeId: tree2[0].gradeId };
});
afterAll(() => t.close());

describe('appointing and removing roles', () => {
  it('a grade leader sees exactly the grades appointed, at the next request on the same token', async () => {
    expect(await roleKeys('teacher2')).toEqual(['xz:teacher']);
    const res = await appoint({ teacherId: ids.teacher2.teacherId, role: 'gradeLeader', gradeId: grade('八年级') });
    expect(res.json().msg).toBe('已任命 林晓 为 八年级 的年级组长');
    expect(await audit()).toEqual({ action: 'appoint', summary: '任命 林晓 为 八年级 的年级组长' });
    expect(await roleKeys('teacher2')).toEqual(['xz:teacher', 'xz:gradeLeader']);
    expect(await gradesAs('teacher2', 'gradeLeader', 3)).toEqual(['八年级']);
    const seen = await c.data('teacher2', '/api/vesta/teaching/getTeachClass?leaderType=3', 'gradeLeader');
    expect(new Set(seen.map((x: { gradeName: string }) => x.gradeName))).toEqual(new Set(['八年级']));
    expect(seen).toHaveLength(classes.filter((x) => x.gradeName === '八年级').length);

    await refused(await appoint({ teacherId: ids.teacher2.teacherId, role: 'gradeLeader', gradeId: grade('八年级') }), 409, '林晓已是八年级的年级组长');
    await c.done('schooladmin', '/api/vesta/role/appoint', { teacherId: ids.teacher2.teacherId, role: 'gradeLeader', gradeId: grade('九年级') });
    expect(await gradesAs('teacher2', 'gradeLeader', 3)).toEqual(['八年级', '九年级']);

    const held = await c.data('schooladmin', `/api/vesta/role/ofTeacher?teacherId=${ids.teacher2.teacherId}`);
    const scopes = held.roles.find((r: { role: string }) => r.role === 'gradeLeader').scopes;
    expect(scopes.map((s: { label: string }) => s.label)).toEqual(['八年级', '九年级']);
    expect(held.classes.map((x: { className: string; courseName: string }) => `${x.className}${x.courseName}`)).toEqual(['七(1)班语文', '八(1)班语文']);

    // One scope away: the other stays, and so does the role.
    const one = await dismiss({ userId: ids.teacher2.userId, role: 'gradeLeader', scopeId: scopes[0].scopeId });
    expect(one.json().msg).toBe('已免去 林晓 八年级 的年级组长');
    expect(await gradesAs('teacher2', 'gradeLeader', 3)).toEqual(['九年级']);
    // The whole role away: a page still acting as 年级组长 is refused in Chinese and told to switch back.
    await c.done('schooladmin', '/api/vesta/role/dismiss', { userId: ids.teacher2.userId, role: 'gradeLeader' });
    expect(await audit()).toEqual({ action: 'dismiss', summary: '免去 林晓 九年级 的年级组长' });
    const stale = await c.get('teacher2', '/api/vesta/teaching/getTeachClass?leaderType=3', 'gradeLeader');
    await refused(stale, 403, '您已不再担任“年级组长”，将切换到您的其他角色');
    expect(stale.headers['x-role-revoked']).toBe('gradeLeader');
    expect(await roleKeys('teacher2')).toEqual(['xz:teacher']);
    await refused(await dismiss({ userId: ids.teacher2.userId, role: 'gradeLeader' }), 404, '林晓不是年级组长');
  });

  it('a subject leader sees their subject in the grades appointed, or in every grade', async () => {
    await c.done('schooladmin', '/api/vesta/role/appoint', { teacherId: ids.classic.teacherId, role: 'subjectleader', subjectId: course('英语').subjectId, gradeIds: [grade('八年级')] });
    expect(await gradesAs('classic', 'subjectleader', 2)).toEqual(['八年级']);
    const courseNames = async () => (await c.data('classic', '/api/vesta/teaching/getCourseList?leaderType=2', 'subjectleader')).map((x: { courseName: string }) => x.courseName);
    expect(await courseNames()).toEqual(['英语']);
    await c.done('schooladmin', '/api/vesta/role/appoint', { teacherId: ids.classic.teacherId, role: 'subjectleader', subjectId: course('英语').subjectId });
    expect(await gradesAs('classic', 'subjectleader', 2)).toEqual(['七年级', '八年级', '九年级']);
    expect(await courseNames()).toEqual(['英语']);
    await c.done('schooladmin', '/api/vesta/role/dismiss', { userId: ids.classic.userId, role: 'subjectleader' });
    await refused(await c.get('classic', '/api/vesta/teaching/getCourseList?leaderType=2', 'subjectleader'), 403, /不再担任“学科组长”/);
    // The demo subject leader, appointed for 数学 in every grade, is unchanged.
    expect(await gradesAs('subjectleader', 'subjectleader', 2)).toEqual(['七年级', '八年级', '九年级']);
  });

  it('校长 and 心理教师 cover the whole school; 班主任 is one teacher per class', async () => {
    await c.done('schooladmin', '/api/vesta/role/appoint', { teacherId: ids.teacher4.teacherId, role: 'schoolMaster' });
    // A 校长 has no grade leader's view.
    await refused(await c.get('teacher4', '/api/vesta/teaching/getTeachClass?leaderType=3', 'schoolMaster'), 403, '无权查看该角色的数据');
    expect((await c.data('teacher4', '/api/vesta/teaching/getTeachClass', 'schoolMaster')).length).toBe(classes.length);
    await c.done('schooladmin', '/api/vesta/role/appoint', { teacherId: ids.teacher4.teacherId, role: 'psychologyteacher' });
    expect(await roleKeys('teacher4')).toEqual(['xz:teacher', 'xz:schoolMaster', 'xz:psychologyteacher']);
    expect((await c.get('teacher4', '/api/vesta/teaching/getTeachClass', 'psychologyteacher')).statusCode).toBe(200);
    await refused(await appoint({ teacherId: ids.teacher4.teacherId, role: 'schoolMaster' }), 409, '方远已是学校校长');

    await c.done('schooladmin', '/api/vesta/role/appoint', { teacherId: ids.teacher2.teacherId, role: 'headTeacher', classId: cls('七(1)班').id });
    const replaced = await appoint({ teacherId: ids.teacher.teacherId, role: 'headTeacher', classId: cls('七(1)班').id });
    expect(replaced.json().msg).toBe('已任命 陈静 为 七(1)班 的班主任（原班主任 林晓）');
    const holders = await c.data('schooladmin', '/api/vesta/role/holders');
    const byRole = Object.fromEntries(holders.map((r: { role: string; holders: { name: string; scopes: { label: string }[] }[] }) => [r.role, r.holders.map((h) => `${h.name}:${h.scopes.map((s) => s.label).join('、')}`)]));
    const { headTeacher, ...others } = byRole;
    expect(others).toEqual({
      schoolMaster: ['孙校长:', '方远:'],
      gradeLeader: ['冯主任:七年级'],
      subjectleader: ['钱组长:数学 · 全部年级'],
      psychologyteacher: ['宋心语:', '方远:'],
    });
    // The demo's 班主任 of 七(3)班, 八(3)班 and 九(1)班, and 陈静 now of 七(1)班 in class order.
    expect(headTeacher).toHaveLength(4);
    expect(headTeacher[0]).toBe('陈静:七(1)班');
    expect(headTeacher.map((h: string) => h.split(':')[1])).toEqual(['七(1)班', '七(3)班', '八(3)班', '九(1)班']);
    expect(headTeacher).toContain('黄蕾:八(3)班');
    await c.done('schooladmin', '/api/vesta/role/dismiss', { userId: ids.teacher4.userId, role: 'schoolMaster' });
    await c.done('schooladmin', '/api/vesta/role/dismiss', { userId: ids.teacher4.userId, role: 'psychologyteacher' });
    expect(await roleKeys('teacher4')).toEqual(['xz:teacher']);
  });

  it('refuses other schools, other roles and hostile input in Chinese', async () => {
    const mine = ids.teacher2.teacherId;
    await refused(await appoint({ teacherId: foreign.teacherId, role: 'schoolMaster' }), 404, '教师不存在');
    await refused(await appoint({ teacherId: mine, role: 'gradeLeader', gradeId: foreign.gradeId }), 404, '年级不存在');
    await refused(await appoint({ teacherId: mine, role: 'subjectleader', subjectId: course('数学').subjectId, gradeIds: [foreign.gradeId] }), 404, '年级不存在');
    await refused(await appoint({ teacherId: mine, role: 'headTeacher', classId: foreign.classId }), 404, '班级不存在');
    await refused(await appoint({ teacherId: mine, role: 'subjectleader', subjectId: 999999 }), 404, '学科不存在');
    await refused(await dismiss({ userId: foreign.userId, role: 'schoolMaster' }), 404, '人员不存在');
    // The other school's admin cannot reach this school's teachers.
    await refused(await appoint({ teacherId: mine, role: 'schoolMaster' }, 'schooladmin2'), 404, '教师不存在');
    await refused(await dismiss({ userId: ids.gradeleader.userId, role: 'gradeLeader' }, 'schooladmin2'), 404, '人员不存在');
    // Teachers and leaders do not appoint.
    await refused(await appoint({ teacherId: mine, role: 'schoolMaster' }, 'teacher'), 403, '无权访问');
    await refused(await c.post('gradeleader', '/api/vesta/role/appoint', { teacherId: mine, role: 'schoolMaster' }, 'gradeLeader'), 403, '无权访问');
    await refused(await c.get('principal', '/api/vesta/role/holders'), 403, '无权访问');
    // Roles that are not appointed here, missing scopes, oversized lists.
    await refused(await appoint({ teacherId: mine, role: 'schoolAdmin' }), 400, '角色取值不正确');
    await refused(await appoint({ teacherId: mine, role: 'admin' }), 400, '角色取值不正确');
    await refused(await appoint({ teacherId: mine, role: 'gradeLeader' }), 400, '请选择年级');
    await refused(await appoint({ teacherId: mine, role: 'headTeacher' }), 400, '请选择班级');
    await refused(await appoint({ teacherId: mine, role: 'subjectleader', subjectId: 1, gradeIds: Array.from({ length: 21 }, (_, i) => i + 1) }), 400, '年级不能超过20项');
    await refused(await appoint({ teacherId: 'x', role: 'schoolMaster' }), 400, '教师格式不正确');
    await refused(await dismiss({ userId: ids.teacher2.userId, role: 'gradeLeader', scopeId: 2147483647 }), 404, '该任命不存在');
  });
});

describe('停用, 离职 and handing classes over', () => {
  it('a teacher who leaves cannot sign in, her classes have a new teacher, her records keep her name', async () => {
    const token = await c.token('teacher2');
    await c.done('schooladmin', '/api/vesta/role/appoint', { teacherId: ids.teacher2.teacherId, role: 'gradeLeader', gradeId: grade('八年级') });
    await c.done('schooladmin', '/api/vesta/role/appoint', { teacherId: ids.teacher2.teacherId, role: 'headTeacher', classId: cls('八(1)班').id });
    const [hw] = await query<{ n: number }>(sql`SELECT count(*)::int AS n FROM homeworks WHERE teacher_id = ${ids.teacher2.teacherId}`);
    expect(hw.n).toBeGreaterThan(0);
    // She has history, so she cannot be deleted; 离职 is the way.
    await refused(await c.post('schooladmin', '/api/vesta/teacher/remove', { teacherId: ids.teacher2.teacherId }), 409, /不能删除；可将其设为“离职”/);

    const setStatus = (body: object, user = 'schooladmin') => c.post(user, '/api/vesta/teacher/setStatus', { teacherId: ids.teacher2.teacherId, ...body });
    const to = ids.classic.teacherId;
    await refused(await setStatus({ status: 2, handovers: [{ classId: cls('七(1)班').id, courseId: course('语文').courseId, toTeacherId: to }] }), 400, '请为八年级八(1)班 语文选择接任教师');
    await refused(await setStatus({ status: 2, handovers: [{ classId: cls('七(1)班').id, courseId: course('语文').courseId, toTeacherId: foreign.teacherId }] }), 404, '教师不存在');
    await refused(await setStatus({ status: 2, handovers: [{ classId: cls('七(1)班').id, courseId: course('语文').courseId, toTeacherId: ids.teacher2.teacherId }] }), 400, '接任教师不能是其本人');
    await refused(await setStatus({ status: 2, handovers: [{ classId: cls('七(2)班').id, courseId: course('语文').courseId, toTeacherId: to }] }), 404, '教师林晓未任教该班级课程');
    await refused(await setStatus({ status: 2 }, 'teacher'), 403, '无权访问');
    await refused(await setStatus({ status: 2 }, 'schooladmin2'), 404, '教师不存在');
    await refused(await setStatus({ status: 5 }), 400, '状态取值不正确');

    const left = await setStatus({
      status: 2,
      handovers: [
        { classId: cls('七(1)班').id, courseId: course('语文').courseId, toTeacherId: to },
        { classId: cls('八(1)班').id, courseId: course('语文').courseId, toTeacherId: to },
      ],
      headTeachers: [{ classId: cls('八(1)班').id, toTeacherId: to }],
    });
    expect(left.statusCode, left.body).toBe(200);
    expect(left.json().msg).toBe('已设为离职，班级已交接');
    expect((await audit()).summary).toMatch(/^将教师 林晓 设为离职：七年级七\(1\)班 语文 交给 黄蕾、八年级八\(1\)班 语文 交给 黄蕾；八\(1\)班班主任交给 黄蕾；免去 林晓 八年级 的年级组长/);

    // Signed out at once, and refused at sign-in with the reason.
    expect((await t.call(token, { url: '/api/juno/personal/info' })).statusCode).toBe(401);
    const login = await t.app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'teacher2', password: 'Demo@2026' } });
    expect([login.statusCode, login.json().msg]).toEqual([403, '该教师已离职，账号不能登录']);
    // A wrong password is still only a wrong password.
    const wrong = await t.app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'teacher2', password: 'nope' } });
    expect(wrong.json().msg).toBe('用户名或密码错误');

    const ofClass = await c.data('schooladmin', `/api/vesta/teacher/pageByClassId?classId=${cls('八(1)班').id}`);
    const chinese = ofClass.records.filter((r: { courses: { courseName: string }[] }) => r.courses.some((x) => x.courseName === '语文'));
    expect(chinese.map((r: { name: string }) => r.name)).toEqual(['黄蕾']);
    const holders = await c.data('schooladmin', '/api/vesta/role/holders');
    expect(holders.find((r: { role: string }) => r.role === 'headTeacher').holders.map((h: { name: string }) => h.name)).toContain('黄蕾');
    expect(holders.find((r: { role: string }) => r.role === 'gradeLeader').holders.map((h: { name: string }) => h.name)).toEqual(['冯主任']);
    // Her homework stays hers.
    const named = await query(sql`SELECT DISTINCT t.name FROM homeworks h JOIN teachers t ON t.id = h.teacher_id WHERE t.id = ${ids.teacher2.teacherId}`);
    expect(named).toEqual([{ name: '林晓' }]);
    const listed = await c.data('schooladmin', '/api/vesta/teacher/page?status=2');
    expect(listed.records.map((r: { name: string; status: number }) => [r.name, r.status])).toEqual([['林晓', 2]]);
    // Not offered as anyone's successor, nor appointed, nor bound.
    expect((await c.data('schooladmin', `/api/vesta/teacher/getTeacherInSchool?keyword=${encodeURIComponent('林晓')}`))).toEqual([]);
    await refused(await appoint({ teacherId: ids.teacher2.teacherId, role: 'schoolMaster' }), 409, '教师林晓已离职，不能任命');

    await c.done('schooladmin', '/api/vesta/teacher/setStatus', { teacherId: ids.teacher2.teacherId, status: 0 });
    await t.login('teacher2');
  });

  it('a stopped teacher cannot sign in until restored, and keeps her classes', async () => {
    await c.done('schooladmin', '/api/vesta/teacher/setStatus', { teacherId: ids.teacher4.teacherId, status: 1 });
    expect(await audit()).toEqual({ action: 'disable', summary: '将教师 方远 停用' });
    const login = await t.app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'teacher4', password: 'Demo@2026' } });
    expect([login.statusCode, login.json().msg]).toEqual([403, '账号已停用，请联系学校管理员']);
    await refused(await c.post('schooladmin', '/api/vesta/teacher/setStatus', { teacherId: ids.teacher4.teacherId, status: 1 }), 409, '教师方远已是“停用”状态');
    await c.done('schooladmin', '/api/vesta/teacher/setStatus', { teacherId: ids.teacher4.teacherId, status: 0 });
    const token = await t.login('teacher4');
    expect((await t.call(token, { url: '/api/vesta/teaching/getTeachClass' })).json().data.map((x: { className: string }) => x.className)).toEqual(['七(1)班']);
  });
});

describe('initial passwords for a batch', () => {
  it('gives each teacher a one-time password to change at first sign-in, with their classes for the sheets', async () => {
    const accounts = await c.data('schooladmin', '/api/vesta/teacher/accounts');
    expect(accounts.length).toBeGreaterThan(10);
    const issued = await c.done('schooladmin', '/api/vesta/teacher/initialPasswords', { teacherIds: [ids.teacher4.teacherId, ids.classic.teacherId] });
    expect(issued.map((x: { username: string }) => x.username).sort()).toEqual(['classic', 'teacher4']);
    expect(issued.every((x: { password: string }) => /^[A-Za-z2-9]{10}$/.test(x.password))).toBe(true);
    const four = issued.find((x: { username: string }) => x.username === 'teacher4');
    expect(four.classes).toEqual([{ classId: cls('七(1)班').id, className: '七(1)班', gradeName: '七年级', level: 7, courseName: '数学' }]);
    expect((await audit()).summary).toMatch(/^生成教师 .+ 2 名的初始密码$/);
    const res = await t.app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'teacher4', password: four.password } });
    expect(res.json().data.mustChangePassword).toBe(true);
    const info = await t.call(res.json().data.accessToken, { url: '/api/juno/personal/info' });
    expect([info.statusCode, info.json().msg]).toEqual([403, '请先修改初始密码']);

    await refused(await c.post('schooladmin', '/api/vesta/teacher/initialPasswords', { teacherIds: [foreign.teacherId] }), 404, '教师不存在');
    await refused(await c.post('schooladmin', '/api/vesta/teacher/initialPasswords', { teacherIds: [] }), 400, '教师不能为空');
    await refused(await c.post('schooladmin', '/api/vesta/teacher/initialPasswords', { teacherIds: Array.from({ length: 201 }, (_, i) => i + 1) }), 400, '教师不能超过200项');
    await refused(await c.post('teacher', '/api/vesta/teacher/initialPasswords', { teacherIds: [ids.teacher4.teacherId] }), 403, '无权访问');
  });
});

describe('区域教研员', () => {
  it('the platform admin appoints and removes a researcher for a region', async () => {
    const { regions } = await c.data('admin', '/api/juno/admin/researchers');
    expect(regions.map((r: { region: string }) => r.region)).toContain('杭州市西湖区');
    await c.done('admin', '/api/juno/admin/appointResearcher', { username: 'gradeleader', region: '杭州市西湖区' });
    expect(await roleKeys('gradeleader')).toContain('xz:regionResearcher');
    // Every class of the region's schools, each school its own tenant (docs/api-analysis.md, "Region scope").
    const regionClasses = await query<{ id: number }>(sql`
      SELECT c.id FROM classes c JOIN schools s ON s.id = c.school_id JOIN grades g ON g.id = c.grade_id WHERE s.region = '杭州市西湖区' AND g.graduated_year IS NULL`);
    expect(regionClasses.length).toBeGreaterThan(classes.length);
    const seen = await c.data('gradeleader', '/api/vesta/teaching/getTeachClass?leaderType=9', 'regionResearcher');
    expect(seen.map((x: { id: number }) => x.id).sort((x: number, y: number) => x - y)).toEqual(regionClasses.map((x) => x.id).sort((x, y) => x - y));
    const listed = await c.data('admin', '/api/juno/admin/researchers');
    expect(listed.researchers.map((r: { username: string; region: string }) => `${r.username}:${r.region}`)).toEqual(['researcher:杭州市西湖区', 'gradeleader:杭州市西湖区']);

    await refused(await c.post('admin', '/api/juno/admin/appointResearcher', { username: 'gradeleader', region: '火星' }), 404, '没有区域“火星”的学校');
    await refused(await c.post('admin', '/api/juno/admin/appointResearcher', { username: 'nobody-here', region: '杭州市西湖区' }), 404, '账号“nobody-here”不存在');
    await refused(await c.post('schooladmin', '/api/juno/admin/appointResearcher', { username: 'teacher', region: '杭州市西湖区' }), 403, '无权访问');
    await refused(await c.post('teacher', '/api/juno/admin/dismissResearcher', { userId: ids.gradeleader.userId }), 403, '无权访问');

    await c.done('admin', '/api/juno/admin/dismissResearcher', { userId: ids.gradeleader.userId });
    await refused(await c.get('gradeleader', '/api/vesta/teaching/getTeachClass?leaderType=9', 'regionResearcher'), 403, '您已不再担任“区域教研员”，将切换到您的其他角色');
    await refused(await c.post('admin', '/api/juno/admin/dismissResearcher', { userId: ids.gradeleader.userId }), 404, '该账号不是区域教研员');
  });

  it('a new account for a researcher gets a one-time password, must change it, and reads the region at once', async () => {
    const made = await c.done('admin', '/api/juno/admin/createResearcher', { username: 'he.region2', name: '贺新', region: '杭州市西湖区' });
    expect(made).toMatchObject({ username: 'he.region2', name: '贺新', region: '杭州市西湖区' });
    expect(made.password).toMatch(/^[A-Za-z2-9]{10}$/);
    expect(await audit()).toEqual({ action: 'create', summary: '新增账号 贺新（he.region2）并任命为 杭州市西湖区 的区域教研员' });
    // The password is nowhere in the log.
    expect((await query(sql`SELECT 1 FROM audit_logs WHERE summary LIKE ${`%${made.password}%`}`)).length).toBe(0);
    const login = await t.app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'he.region2', password: made.password } });
    expect(login.json().data.mustChangePassword).toBe(true);
    const token = login.json().data.accessToken;
    const before = await t.call(token, { method: 'GET', url: '/api/vesta/teaching/getTeachClass?leaderType=9', role: 'regionResearcher' });
    expect(before.statusCode).toBe(403);
    expect(before.json().msg).toBe('请先修改初始密码');
    const changed = await t.call(token, { method: 'POST', url: '/api/juno/auth/changePassword', payload: { oldPassword: made.password, newPassword: 'Region7lights' }, role: 'regionResearcher' });
    expect(changed.statusCode, changed.body).toBe(200);
    const regionClasses = await query<{ id: number }>(sql`
      SELECT c.id FROM classes c JOIN schools s ON s.id = c.school_id JOIN grades g ON g.id = c.grade_id WHERE s.region = '杭州市西湖区' AND g.graduated_year IS NULL`);
    const fresh = (await t.app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'he.region2', password: 'Region7lights' } })).json().data.accessToken;
    const seen = await t.call(fresh, { method: 'GET', url: '/api/vesta/teaching/getTeachClass?leaderType=9', role: 'regionResearcher' });
    expect(seen.json().data.map((x: { id: number }) => x.id).sort((x: number, y: number) => x - y)).toEqual(regionClasses.map((x) => x.id).sort((x, y) => x - y));
    const listed = await c.data('admin', '/api/juno/admin/researchers');
    expect(listed.researchers.map((r: { username: string }) => r.username)).toContain('he.region2');

    await refused(await c.post('admin', '/api/juno/admin/createResearcher', { username: 'he.region2', name: '贺新', region: '杭州市西湖区' }), 409, '账号“he.region2”已存在，请按账号任命');
    await refused(await c.post('admin', '/api/juno/admin/createResearcher', { username: 'a b', name: '贺新', region: '杭州市西湖区' }), 400, '账号应为 3–64 位字母、数字或 _ . - @');
    await refused(await c.post('admin', '/api/juno/admin/createResearcher', { username: 'x.y.z', name: '  ', region: '杭州市西湖区' }), 400, '请填写姓名');
    await refused(await c.post('admin', '/api/juno/admin/createResearcher', { username: 'x.y.z', name: '贺新', region: '火星' }), 404, '没有区域“火星”的学校');
    await refused(await c.post('admin', '/api/juno/admin/createResearcher', { username: 'x.y.z', name: '名'.repeat(33), region: '杭州市西湖区' }), 400, /姓名/);
    await refused(await c.post('schooladmin', '/api/juno/admin/createResearcher', { username: 'x.y.z', name: '贺新', region: '杭州市西湖区' }), 403, '无权访问');
    await refused(await c.post('principal', '/api/juno/admin/createResearcher', { username: 'x.y.z', name: '贺新', region: '杭州市西湖区' }), 403, '无权访问');

    await c.done('admin', '/api/juno/admin/dismissResearcher', { userId: made.userId });
    const after = await t.call(fresh, { method: 'GET', url: '/api/vesta/teaching/getTeachClass?leaderType=9', role: 'regionResearcher' });
    expect(after.statusCode).toBe(403);
  });
});
