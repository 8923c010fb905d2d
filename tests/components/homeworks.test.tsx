// The classic teacher's homework list as a config: the header's filters reach the list call, and
// the row shows completion, grading, accuracy and a way into the detail, in Chinese.
import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { AdminContext, type DataProvider } from 'react-admin';
import { createDataProvider } from '../../src/dataProvider';
import { i18nProvider } from '../../src/i18n';
import { RESOURCES } from '../../src/resources';
import { adaptersOf } from '../../src/resources/define';
import { ResourceList } from '../../src/resources/views';
import { fakeHttp } from '../support/fakeHttp';
import { permissionsFor } from './fixtures';

const homeworks = RESOURCES.find((r) => r.name === 'homeworks')!;
const env = <T,>(data: T) => ({ code: 200, msg: '操作成功', success: true, data });
const RECORD = {
  id: 41, title: '1.1 一般过去时（第1页）', className: '八(2)班', questionCount: 4, studentCount: 40, submittedCount: 37,
  gradedCount: 35, accuracy: 0.7712, assignedAt: '2026-09-14T00:00:00.000Z', dueAt: '2026-09-15T04:00:00.000Z',
};

describe('homeworks resource', () => {
  it('asks for the header’s class, course and time range, page by page', async () => {
    const { http, calls } = fakeHttp({ '/api/minerva/v1.0/homeworks': env({ records: [RECORD], total: 1, current: 1, size: 20, pages: 1 }) });
    const dp = createDataProvider(http, adaptersOf(RESOURCES));
    const result = await dp.getList('homeworks', { pagination: { page: 1, perPage: 20 }, sort: { field: 'id', order: 'ASC' }, filter: { classId: '12', courseId: '5', dateType: 0 } });
    expect(calls[0].options.query).toEqual({ classId: '12', courseId: '5', dateType: 0, current: 1, size: 20 });
    expect(result.data[0]).toMatchObject({ id: 41, title: RECORD.title });
  });

  it('lists completion, grading, accuracy and a link to the detail', async () => {
    const permissions = permissionsFor('teacher');
    const authProvider = {
      login: async () => undefined,
      logout: async () => undefined,
      checkAuth: async () => undefined,
      checkError: async () => undefined,
      getPermissions: async () => permissions,
      canAccess: async () => true,
    };
    const dataProvider = { getList: async () => ({ data: [RECORD], total: 1 }) } as unknown as DataProvider;
    render(
      <AdminContext dataProvider={dataProvider} authProvider={authProvider} i18nProvider={i18nProvider}>
        <ResourceList config={homeworks} readOnly={false} filter={{ classId: '12' }} hideFilters />
      </AdminContext>,
    );
    const link = await screen.findByRole('link', { name: '查看详情' }, { timeout: 5000 });
    expect(link).toHaveAttribute('href', '#/homeworkDetails?id=41');
    for (const header of ['作业', '题数', '已提交/总人数', '已批改', '正确率', '布置时间', '截止时间']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    const row = within(link.closest('tr')!);
    for (const text of [RECORD.title, '37/40', '35', '77.1%']) expect(row.getByText(text)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
    expect(screen.queryByRole('button', { name: '新增作业' })).toBeNull();
  });
});
