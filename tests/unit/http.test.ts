import { describe, expect, it, vi } from 'vitest';
import { createHttpClient, type HttpClientOptions } from '../../src/dataProvider/http';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
const ok = (data: unknown) => json({ code: 200, msg: '操作成功', success: true, data });

function setup(fetchImpl: (url: string, init: RequestInit) => Promise<Response>, extra: Partial<HttpClientOptions> = {}) {
  const notify = vi.fn();
  const onAuthFailure = vi.fn();
  const saveFile = vi.fn();
  const fetchMock = vi.fn(fetchImpl);
  const client = createHttpClient({
    fetch: fetchMock as unknown as typeof fetch,
    getToken: () => 'tok-1',
    getActiveRole: () => 'mpTeacher',
    notify,
    onAuthFailure,
    saveFile,
    now: () => new Date('2026-03-05T09:08:07+08:00'),
    ...extra,
  });
  return { client, notify, onAuthFailure, saveFile, fetchMock };
}

describe('http client', () => {
  it('sends the bearer token and the active role, and keeps an empty classId in the query', async () => {
    const { client, fetchMock } = setup(async () => ok([]));
    await client.get('/api/vesta/teaching/getCourseList', { classId: '', gradeId: '3', leaderType: 1, skipped: undefined });
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/vesta/teaching/getCourseList?classId=&gradeId=3&leaderType=1');
    const headers = init.headers as Record<string, string>;
    expect(headers['Blade-Auth']).toBe('bearer tok-1');
    expect(headers['X-Active-Role']).toBe('mpTeacher');
  });

  it('sends no session headers without a token or for anonymous calls', async () => {
    const { client, fetchMock } = setup(async () => ok({}), { getToken: () => null, getActiveRole: () => null });
    await client.post('/api/juno/auth/login', { username: 'a', password: 'b' }, { anonymous: true });
    const init = fetchMock.mock.calls[0][1];
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"username":"a","password":"b"}');
    expect(init.headers).not.toHaveProperty('Blade-Auth');
    expect(init.headers).not.toHaveProperty('X-Active-Role');
  });

  it('resolves with the envelope data on code 200', async () => {
    const { client, notify } = setup(async () => ok([{ roleKey: 'xz:teacher' }]));
    await expect(client.get('/api/juno/personal/myRoles')).resolves.toEqual([{ roleKey: 'xz:teacher' }]);
    expect(notify).not.toHaveBeenCalled();
  });

  it('rejects a non-200 code and toasts the server message for 3000 ms', async () => {
    const { client, notify, onAuthFailure } = setup(async () => json({ code: 409, msg: '班级名称已存在', success: false, data: null }, 409));
    await expect(client.post('/api/vesta/class/add', {})).rejects.toMatchObject({ message: '班级名称已存在', status: 409 });
    expect(notify).toHaveBeenCalledWith('班级名称已存在', 'error', 3000);
    expect(onAuthFailure).not.toHaveBeenCalled();
  });

  it("falls back to '服务异常' when the envelope has no message", async () => {
    const { client, notify } = setup(async () => json({ code: 500, msg: '', success: false, data: null }, 500));
    await expect(client.get('/x')).rejects.toMatchObject({ message: '服务异常' });
    expect(notify).toHaveBeenCalledWith('服务异常', 'error', 3000);
  });

  it('passes field errors where react-admin forms read them, and leaves them to the form instead of a toast', async () => {
    const { client, notify } = setup(async () => json({ code: 422, msg: '数据有误', success: false, data: { errors: { className: '必填' } } }, 422));
    await expect(client.post('/x', {})).rejects.toMatchObject({ body: { errors: { className: '必填' } } });
    expect(notify).not.toHaveBeenCalled();
  });

  it('shows transport errors with their status code and message', async () => {
    const { client, notify } = setup(async () => new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    await expect(client.get('/x')).rejects.toMatchObject({ status: 502 });
    expect(notify).toHaveBeenCalledWith('请求失败（502）：Bad Gateway', 'error', 3000);
  });

  it('reports network failures', async () => {
    const { client, notify } = setup(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(client.get('/x')).rejects.toMatchObject({ status: 0 });
    expect(notify).toHaveBeenCalledWith('网络异常：Failed to fetch', 'error', 3000);
  });

  it('aborts a request after its timeout', async () => {
    const { client, notify, fetchMock } = setup(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    await expect(client.get('/slow', undefined, { timeout: 20 })).rejects.toMatchObject({ status: 0 });
    expect(fetchMock.mock.calls[0][1].signal?.aborted).toBe(true);
    expect(notify).toHaveBeenCalledWith('请求超时（0.02 秒），请稍后重试', 'error', 3000);
  });

  it('uses a 30 s timeout by default', async () => {
    vi.useFakeTimers();
    try {
      const { client, fetchMock } = setup(
        (_url, init) => new Promise((_r, reject) => init.signal?.addEventListener('abort', () => reject(new Error('aborted')))),
      );
      const pending = client.get('/slow').then(() => undefined, (e: Error) => e);
      await vi.advanceTimersByTimeAsync(29_999);
      expect(fetchMock.mock.calls[0][1].signal?.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect((await pending)?.message).toBe('请求超时（30 秒），请稍后重试');
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([401, 403])('signs out on %i and shows the message', async (status) => {
    const { client, notify, onAuthFailure } = setup(async () => json({ code: status, msg: '登录已过期', success: false, data: null }, status));
    await expect(client.get('/x', undefined, { silent: true })).rejects.toMatchObject({ status });
    expect(onAuthFailure).toHaveBeenCalledWith(status, '登录已过期', undefined);
    expect(notify).toHaveBeenCalledWith('登录已过期', 'error', 3000);
  });

  it('passes on the role the server says was taken away, so the app switches back instead of signing out', async () => {
    const msg = '您已不再担任“年级组长”，将切换到您的其他角色';
    const { client, notify, onAuthFailure } = setup(
      async () => new Response(JSON.stringify({ code: 403, msg, success: false, data: null }), { status: 403, headers: { 'content-type': 'application/json', 'x-role-revoked': 'gradeLeader' } }),
    );
    await expect(client.get('/x')).rejects.toMatchObject({ status: 403 });
    expect(onAuthFailure).toHaveBeenCalledWith(403, msg, 'gradeLeader');
    expect(notify).toHaveBeenCalledWith(msg, 'error', 3000);
  });

  it('does not sign out when an anonymous call (sign-in) gets 401', async () => {
    const { client, onAuthFailure } = setup(async () => json({ code: 401, msg: '用户名或密码错误', success: false, data: null }, 401));
    await expect(client.post('/api/juno/auth/login', {}, { anonymous: true, silent: true })).rejects.toMatchObject({
      message: '用户名或密码错误',
    });
    expect(onAuthFailure).not.toHaveBeenCalled();
  });

  it('silent calls fail without a toast', async () => {
    const { client, notify } = setup(async () => json({ code: 500, msg: '查询失败', success: false, data: null }, 500));
    await expect(client.get('/x', undefined, { silent: true })).rejects.toMatchObject({ message: '查询失败' });
    expect(notify).not.toHaveBeenCalled();
  });
});

describe('export download', () => {
  it('saves a binary answer as {name}_{suffix}.xls', async () => {
    const { client, saveFile } = setup(
      async () => new Response(new Blob(['xls-bytes']), { headers: { 'content-type': 'application/vnd.ms-excel' } }),
    );
    await expect(client.download('/api/vesta/student/exportStudentData', { name: '学生名单', suffix: '七(1)班' })).resolves.toBe('学生名单_七(1)班.xls');
    const [blob, fileName] = saveFile.mock.calls[0];
    expect(fileName).toBe('学生名单_七(1)班.xls');
    expect(await (blob as Blob).text()).toBe('xls-bytes');
  });

  it('uses the given extension and a China date-time suffix by default', async () => {
    const { client, saveFile } = setup(async () => new Response(new Blob(['x']), { headers: { 'content-type': 'application/octet-stream' } }));
    await client.download('/x', { name: '成绩', ext: 'xlsx' });
    expect(saveFile.mock.calls[0][1]).toBe('成绩_20260305090807.xlsx');
  });

  it('shows the message of a JSON answer as the error', async () => {
    const { client, notify, saveFile } = setup(async () => json({ code: 200, msg: '没有可导出的学生', success: false, data: null }));
    await expect(client.download('/x', { name: '学生名单' })).rejects.toMatchObject({ message: '没有可导出的学生' });
    expect(notify).toHaveBeenCalledWith('没有可导出的学生', 'error', 3000);
    expect(saveFile).not.toHaveBeenCalled();
  });

  it("says '导出{name}失败' when the JSON answer has no message", async () => {
    const { client, notify } = setup(async () => json({}, 500));
    await expect(client.download('/x', { name: '学生名单' })).rejects.toMatchObject({ message: '导出学生名单失败' });
    expect(notify).toHaveBeenCalledWith('导出学生名单失败', 'error', 3000);
  });
});
