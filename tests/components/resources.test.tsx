// The config-driven resources: the generic views render a config (columns, filters, Chinese
// validation, empty state), and the adapters map react-admin's calls onto the school endpoints.
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, type DataProvider } from 'react-admin';
import { HttpError } from 'ra-core';
import { createHttpClient, type Envelope, type HttpClient, type RequestOptions } from '../../src/dataProvider/http';
import { restQuery } from '../../src/dataProvider/adapters';
import { createDataProvider } from '../../src/dataProvider';
import { flattenRoutes } from '../../src/menu/routes';
import { i18nProvider } from '../../src/i18n';
import { RESOURCES } from '../../src/resources';
import { adaptersOf } from '../../src/resources/define';
import { ResourceCreate, ResourceList } from '../../src/resources/views';
import { permissionsFor } from './fixtures';

const students = RESOURCES.find((r) => r.name === 'students')!;

/** A fake http client that records each call and answers from a table of URL → data. */
function fakeHttp(answers: Record<string, unknown>) {
  const calls: { url: string; options: RequestOptions }[] = [];
  const request = vi.fn(async (url: string, options: RequestOptions = {}): Promise<Envelope<unknown>> => {
    calls.push({ url, options });
    const data = answers[url];
    if (data instanceof Error) return { code: 409, msg: data.message, success: false, data: null };
    return { code: 200, msg: '操作成功', success: true, data: data ?? null };
  });
  return { http: { request } as unknown as HttpClient, calls };
}

const page = (records: object[]) => ({ records, total: records.length, current: 1, size: 20, pages: 1 });
const STUDENT = { id: 7, studentId: 7, name: '王小明', studentNo: '2026010107', gender: 1, classId: 3, className: '七(1)班', gradeId: 1, gradeName: '七年级', parentPhone: null, status: 0, bindingStatus: 1 };

describe('students adapter', () => {
  it('lists with current,size, the sort as `sort`, and the filters that are set', async () => {
    const { http, calls } = fakeHttp({ '/api/vesta/student/page': page([STUDENT]) });
    const dp = createDataProvider(http, adaptersOf(RESOURCES));
    const result = await dp.getList('students', { pagination: { page: 2, perPage: 50 }, sort: { field: 'name', order: 'DESC' }, filter: { classId: 3, keyword: '', status: 0 } });
    expect(calls[0].options.query).toEqual({ classId: 3, status: 0, current: 2, size: 50, sort: 'name', order: 'desc' });
    expect(result).toEqual({ data: [{ ...STUDENT, id: 7 }], total: 1 });
    // No read-one endpoint: the edit form reads the listed row.
    await expect(dp.getOne('students', { id: 7 })).resolves.toMatchObject({ data: { name: '王小明' } });
    await expect(dp.getOne('students', { id: 99 })).rejects.toMatchObject({ status: 404, message: '记录不存在或已被删除' });
  });

  it('sends only the form fields on create and update, with studentId', async () => {
    const { http, calls } = fakeHttp({ '/api/vesta/student/add': { id: 8, studentId: 8 }, '/api/vesta/student/update': { id: 7, studentId: 7 } });
    const dp = createDataProvider(http, adaptersOf(RESOURCES));
    await dp.create('students', { data: { name: '李雷', studentNo: 'A-1', classId: 3, gender: 1, className: '七(1)班' } });
    expect(calls[0]).toMatchObject({ url: '/api/vesta/student/add', options: { method: 'POST', body: { name: '李雷', studentNo: 'A-1', classId: 3, gender: 1 } } });
    const updated = await dp.update('students', { id: 7, data: { ...STUDENT, name: '王晓明' }, previousData: STUDENT });
    expect(calls[1].options.body).toEqual({ studentId: 7, name: '王晓明', studentNo: '2026010107', gender: 1, classId: 3, parentPhone: null });
    expect(updated.data).toMatchObject({ id: 7, name: '王晓明', className: '七(1)班' });
  });

  it('deletes one by studentId and many in one all-or-nothing call', async () => {
    const { http, calls } = fakeHttp({});
    const dp = createDataProvider(http, adaptersOf(RESOURCES));
    await dp.delete('students', { id: 7, previousData: STUDENT });
    await dp.deleteMany('students', { ids: [7, 8, 9] });
    expect(calls.map((c) => [c.url, c.options.body])).toEqual([
      ['/api/vesta/student/remove', { studentId: 7 }],
      ['/api/vesta/student/remove', { studentIds: [7, 8, 9] }],
    ]);
  });

  it('turns a refusal into an HttpError with the server message', async () => {
    const { http } = fakeHttp({ '/api/vesta/student/add': new Error('学号A-1已存在') });
    const dp = createDataProvider(http, adaptersOf(RESOURCES));
    const error = await dp.create('students', { data: { name: '李雷', studentNo: 'A-1', classId: 3 } }).catch((e) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ message: '学号A-1已存在', status: 409 });
  });

  it('lists classes from the tree, filtered and paged in the browser', async () => {
    const tree = [
      { gradeId: 1, gradeName: '七年级', graduatedYear: null, children: [{ id: 1, classId: 1, className: '七(1)班', gradeId: 1, gradeName: '七年级', studentCount: 40 }, { id: 2, classId: 2, className: '七(2)班', gradeId: 1, gradeName: '七年级', studentCount: 38 }] },
      { gradeId: 2, gradeName: '八年级', graduatedYear: null, children: [{ id: 5, classId: 5, className: '八(1)班', gradeId: 2, gradeName: '八年级', studentCount: 41 }] },
    ];
    const { http, calls } = fakeHttp({ '/api/vesta/class/treeClassBySchool': tree });
    const dp = createDataProvider(http, adaptersOf(RESOURCES));
    const result = await dp.getList('classes', { pagination: { page: 1, perPage: 1 }, sort: { field: 'className', order: 'ASC' }, filter: { gradeId: 1 } });
    expect(calls[0].url).toBe('/api/vesta/class/treeClassBySchool');
    expect(result.total).toBe(2);
    expect(result.data).toEqual([expect.objectContaining({ id: 1, className: '七(1)班', fullName: '七(1)班' })]);
  });

  it('gives the dataProvider every resource, and every resource a route that names it', () => {
    const names = ['auditLogs', 'boardPartners', 'classes', 'deviceSchools', 'devices', 'directSchools', 'grades', 'homeworks', 'jobs', 'orders', 'rooms', 'schoolResources', 'students', 'subjects', 'teachers', 'workbooks'];
    expect(Object.keys(adaptersOf(RESOURCES)).sort()).toEqual(names);
    // The route table is the one source of access: a resource no route shows or uses is unreachable,
    // and a route naming a resource that does not exist is a typo.
    const named = new Set(flattenRoutes().flatMap((route) => [...(route.resources ?? []), ...(route.uses ?? [])]));
    expect([...named].sort()).toEqual(names);
  });
});

describe('a declared CRUD resource (rooms): ra-data-simple-rest through our http client', () => {
  const ROOM = { id: 3, name: '物理实验室', building: '格致楼', floor: 2, capacity: 50, kind: '实验室', remark: null, createdAt: '2026-09-01T00:00:00.000Z' };

  /** The real http client over a fake fetch: what goes over the wire is asserted, Content-Range included. */
  function restHttp(reply: (url: string, init: RequestInit) => { data: unknown; headers?: Record<string, string> }) {
    const sent: { url: string; method: string; body: unknown; headers: Record<string, string> }[] = [];
    const fetchImpl = vi.fn(async (url: string, init: RequestInit) => {
      sent.push({ url, method: init.method ?? 'GET', body: init.body === undefined ? undefined : JSON.parse(String(init.body)), headers: init.headers as Record<string, string> });
      const { data, headers } = reply(url, init);
      return new Response(JSON.stringify({ code: 200, msg: '操作成功', success: true, data }), { status: 200, headers: { 'content-type': 'application/json', ...headers } });
    });
    const http = createHttpClient({ fetch: fetchImpl as unknown as typeof fetch, getToken: () => 'tok', getActiveRole: () => 'mpSchoolAdmin', notify: vi.fn(), onAuthFailure: vi.fn() });
    return { dp: createDataProvider(http, adaptersOf(RESOURCES)), sent };
  }

  it('lists with sort, range and filter as JSON, empty filters dropped, and reads the total from Content-Range', async () => {
    const { dp, sent } = restHttp(() => ({ data: [ROOM], headers: { 'content-range': 'rooms 25-25/26' } }));
    const result = await dp.getList('rooms', { pagination: { page: 2, perPage: 25 }, sort: { field: 'name', order: 'DESC' }, filter: { q: '实验', kind: '' } });
    const url = new URL(sent[0].url, 'http://x');
    expect(url.pathname).toBe('/api/rooms');
    expect(Object.fromEntries(url.searchParams)).toEqual({ sort: '["name","DESC"]', range: '[25,49]', filter: '{"q":"实验"}' });
    expect(sent[0].headers).toMatchObject({ 'Blade-Auth': 'bearer tok', 'X-Active-Role': 'mpSchoolAdmin' });
    expect(result).toEqual({ data: [ROOM], total: 26 });
  });

  it('reads one by its path, and many by an id filter', async () => {
    const { dp, sent } = restHttp((url) => ({ data: url.includes('filter') ? [ROOM] : ROOM }));
    await expect(dp.getOne('rooms', { id: 3 })).resolves.toEqual({ data: ROOM });
    await dp.getMany('rooms', { ids: [3, 4] });
    expect(sent.map((c) => [c.method, decodeURIComponent(c.url)])).toEqual([
      ['GET', '/api/rooms/3'],
      ['GET', '/api/rooms?filter={"id":[3,4]}'],
    ]);
  });

  it('creates with POST, updates with PUT and deletes with DELETE, sending only the form fields', async () => {
    const { dp, sent } = restHttp(() => ({ data: ROOM }));
    const { id: _, createdAt: __, ...input } = ROOM;
    await dp.create('rooms', { data: { ...input, extra: 1 } });
    await dp.update('rooms', { id: 3, data: ROOM, previousData: ROOM });
    await expect(dp.delete('rooms', { id: 3, previousData: ROOM })).resolves.toEqual({ data: ROOM });
    await dp.deleteMany('rooms', { ids: [3, 4] });
    expect(sent.map((c) => [c.method, c.url, c.body])).toEqual([
      ['POST', '/api/rooms', input],
      ['PUT', '/api/rooms/3', input],
      ['DELETE', '/api/rooms/3', undefined],
      ['DELETE', '/api/rooms/3', undefined],
      ['DELETE', '/api/rooms/4', undefined],
    ]);
  });

  it("turns the server's refusal into an HttpError with its message", async () => {
    const fetchImpl = async () => new Response(JSON.stringify({ code: 409, msg: '名称“物理实验室”已存在', success: false, data: null }), { status: 409, headers: { 'content-type': 'application/json' } });
    const http = createHttpClient({ fetch: fetchImpl as unknown as typeof fetch, getToken: () => 'tok', getActiveRole: () => null, notify: vi.fn(), onAuthFailure: vi.fn() });
    const error = await createDataProvider(http, adaptersOf(RESOURCES)).create('rooms', { data: { name: '物理实验室', kind: '实验室' } }).catch((e) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ message: '名称“物理实验室”已存在', status: 409 });
  });

  it('exports what the list shows in the same dialect', () => {
    expect(restQuery({ sort: { field: 'floor', order: 'ASC' }, filter: { kind: '机房', q: '' } })).toEqual({ sort: '["floor","ASC"]', filter: '{"kind":"机房"}' });
  });
});

function renderWith(dataProvider: Partial<DataProvider>, children: React.ReactNode) {
  const permissions = permissionsFor('schoolAdmin');
  const authProvider = {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getPermissions: async () => permissions,
    canAccess: async () => true,
  };
  const empty = async () => ({ data: [], total: 0 });
  return render(
    <AdminContext dataProvider={{ getList: empty, ...dataProvider } as DataProvider} authProvider={authProvider} i18nProvider={i18nProvider}>
      {children}
    </AdminContext>,
  );
}

describe('generic views', () => {
  it('render the filters, the actions and the empty state of a config', async () => {
    renderWith({}, <ResourceList config={students} />);
    expect(await screen.findByText('暂无数据', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByLabelText('姓名/学号')).toBeInTheDocument();
    for (const label of ['年级', '班级', '状态', '绑定状态']) expect(screen.getByRole('combobox', { name: label })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '新增学生' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '批量导入' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '导出' })).toBeInTheDocument();
  });

  it('render the columns and rows with their choice labels', async () => {
    const getList = vi.fn(async (resource: string) => (resource === 'students' ? { data: [STUDENT], total: 1 } : { data: [], total: 0 }));
    renderWith({ getList } as never, <ResourceList config={students} />);
    expect(await screen.findByText('王小明', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('已绑定')).toBeInTheDocument();
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(expect.arrayContaining(['学号', '姓名', '性别', '年级', '班级', '家长手机号', '状态', '绑定状态', '操作']));
    expect(getList).toHaveBeenCalledWith('students', expect.objectContaining({ sort: { field: 'studentNo', order: 'ASC' }, pagination: { page: 1, perPage: 20 } }));
  });

  it('validate the form with the Chinese messages of the server and do not save', async () => {
    const create = vi.fn();
    renderWith({ create } as never, <ResourceCreate config={students} />);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/学号/, {}, { timeout: 5000 }), '2026 01');
    await user.type(screen.getByLabelText(/家长手机号/), '12345');
    await user.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('姓名不能为空')).toBeInTheDocument();
    expect(screen.getByText('家长手机号格式不正确')).toBeInTheDocument();
    expect(screen.getByText(/学号格式不正确/)).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^姓名/), 'x'.repeat(51));
    await waitFor(() => expect(screen.getByText('姓名长度不能超过50个字符')).toBeInTheDocument());
    expect(create).not.toHaveBeenCalled();
  });

  it('render the 教室 list: its columns, search and 类型 filter, and its actions', async () => {
    const rooms = RESOURCES.find((r) => r.name === 'rooms')!;
    const ROOM = { id: 3, name: '物理实验室', building: '格致楼', floor: 2, capacity: 50, kind: '实验室', remark: null, createdAt: '2026-09-01T00:00:00.000Z' };
    const getList = vi.fn(async () => ({ data: [ROOM], total: 1 }));
    renderWith({ getList } as never, <ResourceList config={rooms} />);
    expect(await screen.findByText('物理实验室', {}, { timeout: 5000 })).toBeInTheDocument();
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(expect.arrayContaining(['名称', '教学楼', '楼层', '座位数', '类型', '备注', '创建时间', '操作']));
    expect(screen.getByLabelText('搜索')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: '类型' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '新增教室' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '导出' })).toBeInTheDocument();
    expect(getList).toHaveBeenCalledWith('rooms', expect.objectContaining({ sort: { field: 'name', order: 'ASC' } }));
  });
});
