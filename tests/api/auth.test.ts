import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const login = (username: string, password: string, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username, password }, remoteAddress: ip });

describe('sign-in', () => {
  it('returns a token for the demo password', async () => {
    const res = await login('teacher', 'Demo@2026');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ code: 200, success: true });
    expect(body.data.accessToken).toMatch(/^ey/);
    expect(body.data.expiresIn).toBeGreaterThan(0);
  });

  it('refuses a wrong password with a Chinese message and the envelope', async () => {
    const res = await login('teacher', 'wrong');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 401, msg: '用户名或密码错误', success: false, data: null });
  });

  it('answers an unknown user exactly like a wrong password', async () => {
    const res = await login('nobody', 'Demo@2026');
    expect(res.statusCode).toBe(401);
    expect(res.json().msg).toBe('用户名或密码错误');
  });

  it('names the missing field in Chinese', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'teacher' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 400, success: false, msg: '密码不能为空' });
  });

  it('rejects a malformed JSON body with 400, not 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/juno/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('请求内容不是有效的 JSON');
  });
});

describe('sessions', () => {
  it('401 without a token, with a forged token and for an unknown API path only after routing', async () => {
    expect((await t.app.inject({ url: '/api/juno/personal/myRoles' })).statusCode).toBe(401);
    const forged = await t.app.inject({ url: '/api/juno/personal/myRoles', headers: { 'blade-auth': 'bearer abc.def.ghi' } });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().success).toBe(false);
    const unknown = await t.app.inject({ url: '/api/nope' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 404, msg: '接口不存在', success: false, data: null });
  });

  it('logout revokes the token at once', async () => {
    const token = await t.login('principal');
    expect((await t.call(token, { url: '/api/juno/personal/myRoles' })).statusCode).toBe(200);
    expect((await t.call(token, { method: 'POST', url: '/api/juno/auth/logout' })).statusCode).toBe(200);
    const after = await t.call(token, { url: '/api/juno/personal/myRoles' });
    expect(after.statusCode).toBe(401);
    expect(after.json().msg).toBe('登录已失效，请重新登录');
  });
});

describe('who am I', () => {
  it('myRoles lists role keys in the prefix:role form', async () => {
    const token = await t.login('teacher');
    const res = await t.call(token, { url: '/api/juno/personal/myRoles' });
    expect(res.json().data).toEqual([
      { roleKey: 'xz:teacher', roleName: '教师' },
      { roleKey: 'xz:teaching', roleName: '授课老师' },
    ]);
  });

  it('info carries school, courses with subjectId and the tenant', async () => {
    const token = await t.login('teacher');
    const info = (await t.call(token, { url: '/api/juno/personal/info' })).json().data;
    expect(info).toMatchObject({ name: '陈静', userName: 'teacher', schoolName: '杭州市西湖区实验中学', schoolArea: '杭州市西湖区' });
    expect(info.courses.map((c: { courseName: string }) => c.courseName)).toEqual(['数学', '物理']);
    expect(info.courses.every((c: { subjectId: number }) => c.subjectId > 0)).toBe(true);
    expect(info.tenantId).toBeGreaterThan(0);
    expect(info.schoolGrade.map((g: { gradeName: string }) => g.gradeName)).toEqual(['七年级', '八年级', '九年级']);
  });

  it('info for a partner carries the ancestors that give the level', async () => {
    const token = await t.login('partner3');
    const info = (await t.call(token, { url: '/api/juno/personal/info' })).json().data;
    expect(info.ancestors.split(',')).toHaveLength(3);
    expect(info.schoolName).toBeNull();
    const partner = (await t.call(token, { url: '/api/wrongbook/v1.0/partner/getCurrentPartner' })).json().data;
    expect(partner).toMatchObject({ level: 3, name: '西湖区晨光教育咨询工作室' });
  });

  it('getCurrentPartner is for partners only', async () => {
    const token = await t.login('teacher');
    const res = await t.call(token, { url: '/api/wrongbook/v1.0/partner/getCurrentPartner' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 403, msg: '无权访问', success: false, data: null });
  });

  it('app config exposes the classic-web flags without signing in', async () => {
    const res = await t.app.inject({ url: '/api/app/config' });
    expect(res.json().data).toEqual({ classicTeacher: false, classicAdmin: false });
  });
});
