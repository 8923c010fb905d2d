import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/dataProvider/http';
import { createDataProvider } from '../../src/dataProvider';
import { fakeHttp } from '../support/fakeHttp';


const env = <T>(data: T): Envelope<T> => ({ code: 200, msg: '操作成功', success: true, data });

describe('minerva calls on the dataProvider', () => {
  it('asks for the grade’s assignable books with the course, and a book by id', async () => {
    const { http, calls } = fakeHttp({
      '/api/minerva/v1.0/exercisebook/getAvailableExerciseBookByGrade': env([{ id: 3, title: '七年级数学上册' }]),
      '/api/minerva/v1.0/exercisebooks/3': env({ id: 3, title: '七年级数学上册', chapters: [] }),
    });
    const dp = createDataProvider(http, {});
    expect(await dp.assignableBooks('11', '2')).toEqual([{ id: 3, title: '七年级数学上册' }]);
    expect((await dp.bookDetail('3')).chapters).toEqual([]);
    expect(calls[0].options.query).toEqual({ gradeId: '11', courseId: '2' });
    expect(calls[1].url).toBe('/api/minerva/v1.0/exercisebooks/3');
  });

  it('pages the homework list and leaves out empty filters', async () => {
    const page = { records: [], total: 0, current: 1, size: 20, pages: 0 };
    const { http, calls } = fakeHttp({ '/api/minerva/v1.0/homeworks': env(page) });
    const dp = createDataProvider(http, {});
    await dp.homeworkPage({ courseId: '2', classId: '' });
    expect(calls[0].options.query).toEqual({ classId: undefined, courseId: '2', current: 1, size: 20 });
  });

  it('posts one assignment for several classes', async () => {
    const result = { batchId: 'b1', homeworks: [{ id: 9, classId: 1 }, { id: 10, classId: 2 }], title: '第1–2页', questionCount: 8 };
    const { http, calls } = fakeHttp({ '/api/minerva/v1.0/homeworks': env(result) });
    const dp = createDataProvider(http, {});
    const body = { courseId: 2, classIds: [1, 2], dueAt: '2026-12-01T14:00:00.000Z', bookId: 3, pageIds: [5, 6] };
    expect(await dp.assignHomework(body)).toEqual(result);
    expect(calls[0].options).toEqual({ method: 'POST', body });
  });
});
