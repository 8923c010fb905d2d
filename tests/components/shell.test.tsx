// The whole shell with fake providers: routing per role, 404, '/' → home, header and user menu.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuthProvider, DataProvider } from 'react-admin';
import { AdminApp } from '../../src/AdminApp';
import { RESOURCES } from '../../src/resources';
import { canAccessResource } from '../../src/authProvider/startup';
import type { AppAuthProvider, Permissions } from '../../src/authProvider';
import type { Role } from '../../src/domain/roles';
import { fakeSelectionApi, permissionsFor } from './fixtures';

function fakeProviders(permissions: Permissions) {
  const switchRole = vi.fn();
  const logout = vi.fn(async () => false as const);
  const authProvider: AppAuthProvider = {
    login: vi.fn(),
    logout,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getPermissions: async () => permissions,
    canAccess: async ({ resource }) => canAccessResource(permissions, resource),
    getIdentity: async () => ({ id: 1, fullName: permissions.profile.displayName }),
    switchRole,
  };
  const dataProvider = {
    ...fakeSelectionApi(),
    menuBadges: vi.fn(async () => ({ correctCount: 120 })),
    // The mini-program teacher's home lists grading tasks: none here.
    correctTasks: vi.fn(async () => ({ records: [], total: 0, current: 1, size: 10, pages: 0 })),
  } as unknown as DataProvider;
  return { authProvider: authProvider as AuthProvider, dataProvider, switchRole, logout };
}

function renderShell(role: Role, hash: string, extra: Partial<Permissions> = {}) {
  window.location.hash = hash;
  const providers = fakeProviders(permissionsFor(role, extra));
  render(<AdminApp authProvider={providers.authProvider} dataProvider={providers.dataProvider} resources={RESOURCES} />);
  return providers;
}

beforeEach(() => {
  sessionStorage.clear();
});

describe('shell', () => {
  it("sends '/' to the role's home, shows its title, an empty state and the tab title", async () => {
    renderShell('mpTeacher', '#/');
    expect(await screen.findByRole('heading', { name: 'AI批改' })).toBeInTheDocument();
    expect(window.location.hash).toBe('#/AICorrect/index');
    // A new teacher's empty home says what to do first and links to it and to 使用教程.
    expect(await screen.findByText('还没有批改任务')).toBeInTheDocument();
    expect(screen.getByText(/第一步：点「新建批改任务」/)).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: '新建批改任务' }).map((a) => a.getAttribute('href'))).toContain('#/AICorrect/createCorrectTask');
    expect(screen.getByRole('link', { name: '查看使用教程' })).toHaveAttribute('href', '#/useGuide');
    await waitFor(() => expect(document.title).toBe('AI教学助手-AI批改'));
    expect(screen.getByRole('navigation', { name: '主菜单' })).toHaveTextContent('99+');
  });

  it('does not render the screen of a route the role may not open', async () => {
    renderShell('mpTeacher', '#/homework');
    expect(await screen.findByText('页面不存在')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: '作业' })).toBeNull();
  });

  it('keeps a partner of level 3 out of my account', async () => {
    renderShell('partner', '#/account', { partnerLevel: 3, profile: { displayName: '郑凯', partnerName: '西湖渠道', courses: [] } });
    expect(await screen.findByText('页面不存在')).toBeInTheDocument();
  });

  it('shows a 404 page with a way home for unknown paths', async () => {
    renderShell('mpSchoolAdmin', '#/no-such-page');
    expect(await screen.findByText('页面不存在')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '返回首页' })).toHaveAttribute('href', '#/');
  });

  it('hides rail and header on full-screen routes', async () => {
    renderShell('partner', '#/school-dashboard', { profile: { displayName: '郑凯', partnerName: '西湖渠道', courses: [] } });
    expect(await screen.findByRole('heading', { name: '学校看板' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: '主菜单' })).toBeNull();
    expect(screen.queryByRole('banner')).toBeNull();
  });

  it('shows a back link to the parent when the rail is hidden', async () => {
    renderShell('teacher', '#/homeworkDetails');
    expect(await screen.findByRole('heading', { name: '作业详情' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: '主菜单' })).toBeNull();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '返回' })).toHaveAttribute('href', '#/homework');
  });

  it('user menu: name, school, role, switch entries and exit', async () => {
    const user = userEvent.setup();
    const { switchRole, logout } = renderShell('mpTeacher', '#/useGuide', { roles: ['teaching', 'mpTeacher', 'mpSchoolAdmin'] });
    await user.click(await screen.findByRole('button', { name: '用户菜单' }));
    const menu = within(screen.getByRole('menu'));
    expect(menu.getByText('杭州市西湖区实验中学')).toBeInTheDocument();
    expect(menu.getByText('当前角色：教师')).toBeInTheDocument();
    expect(menu.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['切换为学校管理员', '退出']);
    await user.click(menu.getByText('切换为学校管理员'));
    expect(switchRole).toHaveBeenCalledWith('mpSchoolAdmin');
    await user.click(screen.getByRole('button', { name: '用户菜单' }));
    await user.click(within(screen.getByRole('menu')).getByText('退出'));
    await waitFor(() => expect(logout).toHaveBeenCalled());
  });

  it('user menu: a partner sees the partner label instead of a school', async () => {
    const user = userEvent.setup();
    renderShell('partner', '#/orders', { partnerLevel: 1, profile: { displayName: '郑凯', partnerName: '西湖渠道', courses: [] } });
    await user.click(await screen.findByRole('button', { name: '用户菜单' }));
    expect(within(screen.getByRole('menu')).getByText('合作伙伴：西湖渠道')).toBeInTheDocument();
  });

  it('user menu: a regional researcher sees the region', async () => {
    const user = userEvent.setup();
    renderShell('regionResearcher', '#/analysis', { profile: { displayName: '周研', regionName: '西湖区', schoolName: '某校', courses: [] } });
    await user.click(await screen.findByRole('button', { name: '用户菜单' }));
    expect(within(screen.getByRole('menu')).getByText('西湖区')).toBeInTheDocument();
    expect(within(screen.getByRole('menu')).queryByText('某校')).toBeNull();
  });
});
