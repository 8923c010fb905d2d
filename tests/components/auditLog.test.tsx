// 操作日志's screen: the config lists the server's entries with Chinese labels and China time, with
// its filters and export and no way to change an entry; its adapter sends the list's paging,
// filters and order as the audit route expects them.
import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { AdminContext, type DataProvider } from 'react-admin';
import type { Envelope, HttpClient, RequestOptions } from '../../src/dataProvider/http';
import { createDataProvider } from '../../src/dataProvider';
import { i18nProvider } from '../../src/i18n';
import { RESOURCES } from '../../src/resources';
import { adaptersOf } from '../../src/resources/define';
import { ResourceList } from '../../src/resources/views';
import type { AuditRecord } from '../../src/domain/audit';
import { permissionsFor } from './fixtures';

const auditLogs = RESOURCES.find((r) => r.name === 'auditLogs')!;

const ENTRY: AuditRecord = {
  id: 41,
  createdAt: '2026-05-01T06:03:07.000Z',
  userId: 5,
  userName: '赵校务',
  role: 'mpSchoolAdmin',
  roleName: '学校管理员',
  orgName: '杭州市西湖区实验中学',
  action: 'create',
  kind: 'student',
  recordId: '1201',
  summary: '新增学生 张三（202410401）到 七年级七(1)班',
  ip: '10.0.0.8',
};
const REVEAL: AuditRecord = { ...ENTRY, id: 40, userName: '宋心语', role: 'psychologyteacher', roleName: '心理教师', action: 'reveal', kind: 'heartVoice', recordId: '12', summary: '查看确认为高危的匿名心声（编号12）的写信人身份' };

function renderList(getList: DataProvider['getList']) {
  const permissions = permissionsFor('mpSchoolAdmin');
  const authProvider = {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getPermissions: async () => permissions,
    canAccess: async () => true,
  };
  return render(
    <AdminContext dataProvider={{ getList } as DataProvider} authProvider={authProvider} i18nProvider={i18nProvider}>
      <ResourceList config={auditLogs} />
    </AdminContext>,
  );
}

describe('操作日志 list', () => {
  it('lists the entries with their operator, Chinese action and kind, and the time in China time', async () => {
    const getList = vi.fn(async () => ({ data: [ENTRY, REVEAL], total: 2 }));
    renderList(getList as never);
    expect(await screen.findByText(ENTRY.summary, {}, { timeout: 5000 })).toBeInTheDocument();
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(expect.arrayContaining(['时间', '操作人', '角色', '所属单位', '操作', '对象类型', '内容', '对象编号', 'IP 地址']));
    const row = screen.getByText(ENTRY.summary).closest('tr')!;
    for (const text of ['2026-05-01 14:03:07', '赵校务', '学校管理员', '杭州市西湖区实验中学', '新增', '学生', '1201', '10.0.0.8']) expect(within(row).getByText(text)).toBeInTheDocument();
    const reveal = screen.getByText(REVEAL.summary).closest('tr')!;
    expect(within(reveal).getByText('查看身份')).toBeInTheDocument();
    expect(within(reveal).getByText('学生心声')).toBeInTheDocument();
    // Filters and export; an entry cannot be added, edited or deleted.
    expect(screen.getByLabelText('操作人')).toBeInTheDocument();
    for (const label of ['操作', '对象类型']) expect(screen.getByRole('combobox', { name: label })).toBeInTheDocument();
    expect(screen.getByLabelText('开始日期')).toBeInTheDocument();
    expect(screen.getByLabelText('结束日期')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '导出' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /新增|编辑|删除/ })).toBeNull();
    expect(getList).toHaveBeenCalledWith('auditLogs', expect.objectContaining({ sort: { field: 'createdAt', order: 'DESC' }, pagination: { page: 1, perPage: 20 } }));
    // The list's first render loads react-admin's machinery: slow on a busy machine.
  }, 20_000);

  it('asks the audit route with current, size, the filters that are set and the order', async () => {
    const calls: { url: string; options: RequestOptions }[] = [];
    const request = vi.fn(async (url: string, options: RequestOptions = {}): Promise<Envelope<unknown>> => {
      calls.push({ url, options });
      return { code: 200, msg: '操作成功', success: true, data: { records: [ENTRY], total: 31, current: 2, size: 20, pages: 2 } };
    });
    const dp = createDataProvider({ request } as unknown as HttpClient, adaptersOf(RESOURCES));
    const result = await dp.getList('auditLogs', {
      pagination: { page: 2, perPage: 20 },
      sort: { field: 'createdAt', order: 'DESC' },
      filter: { kind: 'student', action: '', operator: '赵', dateFrom: '2026-05-01' },
    });
    expect(calls[0].url).toBe('/api/audit/v1/logs');
    expect(calls[0].options.query).toEqual({ kind: 'student', operator: '赵', dateFrom: '2026-05-01', current: 2, size: 20, orderBy: 'createdAt', order: 'desc' });
    expect(result).toEqual({ data: [ENTRY], total: 31 });
  });
});
