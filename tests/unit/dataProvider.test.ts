import { describe, expect, it } from 'vitest';
import type { Envelope, HttpClient } from '../../src/dataProvider/http';
import { pagedResource } from '../../src/dataProvider/adapters';
import { createDataProvider } from '../../src/dataProvider';
import { fakeHttp } from '../support/fakeHttp';


const env = <T>(data: T, success = true, msg = '操作成功'): Envelope<T> => ({ code: 200, msg, success, data });

const students = (http: HttpClient) =>
  pagedResource(http, {
    list: '/api/vesta/student/page',
    one: '/api/vesta/student/detail',
    create: '/api/vesta/student/add',
    update: '/api/vesta/student/update',
    remove: '/api/vesta/student/remove',
    idField: 'studentId',
  });

describe('dataProvider', () => {
  it('maps list paging to current/size and records back to react-admin with id', async () => {
    const { http, calls } = fakeHttp({
      '/api/vesta/student/page': env({ records: [{ studentId: 7, name: '王小明' }], total: 41, current: 2, size: 20, pages: 3 }),
    });
    const dp = createDataProvider(http, { students });
    const result = await dp.getList('students', { pagination: { page: 2, perPage: 20 }, sort: { field: 'name', order: 'DESC' }, filter: { classId: 3 } });
    expect(calls[0]).toEqual({
      url: '/api/vesta/student/page',
      options: { query: { classId: 3, current: 2, size: 20, orderBy: 'name', order: 'desc' } },
    });
    expect(result).toEqual({ data: [{ id: 7, studentId: 7, name: '王小明' }], total: 41 });
  });

  it('returns the same record shape from getOne, and sends the backend id field', async () => {
    const { http, calls } = fakeHttp({ '/api/vesta/student/detail': env({ studentId: 7, name: '王小明' }) });
    const dp = createDataProvider(http, { students });
    await expect(dp.getOne('students', { id: 7 })).resolves.toEqual({ data: { id: 7, studentId: 7, name: '王小明' } });
    expect(calls[0].options.query).toEqual({ studentId: 7 });
  });

  it('posts updates and deletes with the backend id field', async () => {
    const { http, calls } = fakeHttp({ '/api/vesta/student/update': env(null), '/api/vesta/student/remove': env(null) });
    const dp = createDataProvider(http, { students });
    await dp.update('students', { id: 7, data: { id: 7, name: '王晓明' }, previousData: { id: 7 } });
    await dp.delete('students', { id: 7, previousData: { id: 7, name: '王晓明' } });
    expect(calls.map((c) => [c.url, c.options.method, c.options.body])).toEqual([
      ['/api/vesta/student/update', 'POST', { name: '王晓明', studentId: 7 }],
      ['/api/vesta/student/remove', 'POST', { studentId: 7 }],
    ]);
  });

  it('turns success:false into an HttpError with the message and field errors', async () => {
    const { http } = fakeHttp({ '/api/vesta/student/add': env({ errors: { name: '姓名不能为空' } }, false, '数据有误') });
    const dp = createDataProvider(http, { students });
    await expect(dp.create('students', { data: { name: '' } })).rejects.toMatchObject({
      message: '数据有误',
      status: 400,
      body: { errors: { name: '姓名不能为空' } },
    });
  });

  it('rejects unknown resources and unsupported methods in Chinese', async () => {
    const { http } = fakeHttp({});
    const dp = createDataProvider(http, { students: (h) => pagedResource(h, { list: '/api/vesta/student/page' }) });
    await expect(dp.getList('planets', { pagination: { page: 1, perPage: 10 }, sort: { field: 'id', order: 'ASC' }, filter: {} })).rejects.toMatchObject({
      message: '未知的资源：planets',
    });
    await expect(dp.delete('students', { id: 1 })).rejects.toMatchObject({ message: '不支持删除', status: 405 });
  });

  it('exposes the shell calls, e.g. the course-list query', async () => {
    const { http, calls } = fakeHttp({ '/api/vesta/teaching/getCourseList': env([{ courseId: 2, courseName: '数学', subjectId: 2 }]) });
    const dp = createDataProvider(http, {});
    await expect(dp.courseList({ classId: '', gradeId: '1', leaderType: 1 })).resolves.toHaveLength(1);
    expect(calls[0].options.query).toEqual({ classId: '', gradeId: '1', leaderType: 1 });
  });
});
