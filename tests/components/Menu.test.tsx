import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import { renderHook } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { Menu } from '../../src/menu/Menu';
import { useMenuBadges } from '../../src/menu/useMenuBadges';
import { permissionsFor } from './fixtures';
import type { Role } from '../../src/domain/roles';

function renderMenu(role: Role, path: string, badges = {}, level?: number) {
  const { menu } = permissionsFor(role, { partnerLevel: level });
  render(
    <MemoryRouter initialEntries={[path]}>
      <Menu entries={menu} badges={badges} />
    </MemoryRouter>,
  );
  return within(screen.getByRole('navigation', { name: '主菜单' }));
}

describe('menu rail', () => {
  it('lists the mini-program teacher entries, the active one plain and the others links', () => {
    const nav = renderMenu('mpTeacher', '/AICorrect/index');
    const titles = ['AI批改', '布置作业', '学生错题本', '班级错题本', '班级管理', '使用教程', '学校资源'];
    for (const title of titles) expect(nav.getByText(title)).toBeInTheDocument();
    expect(nav.queryByRole('link', { name: /AI批改/ })).toBeNull();
    expect(nav.getByText('AI批改').closest('[aria-current="page"]')).not.toBeNull();
    expect(nav.getByRole('link', { name: /布置作业/ })).toHaveAttribute('href', '/assignHomework');
    expect(nav.getAllByRole('link')).toHaveLength(titles.length - 1);
  });

  it('marks the entry of a nested path active by dropping its last segment', () => {
    const nav = renderMenu('mpTeacher', '/wrongbook/index');
    expect(nav.queryByRole('link', { name: /班级错题本/ })).toBeNull();
    expect(nav.getByRole('link', { name: /AI批改/ })).toBeInTheDocument();
  });

  it('shows badge counts, capped at 99+', () => {
    const nav = renderMenu('mpTeacher', '/useGuide', { correctCount: 120 });
    expect(nav.getByRole('link', { name: /AI批改/ })).toHaveTextContent('99+');
  });

  it('shows an exact count up to 99 and nothing for zero', () => {
    const nav = renderMenu('mpTeacher', '/useGuide', { correctCount: 99 });
    expect(nav.getByRole('link', { name: /AI批改/ })).toHaveTextContent('99');
    expect(nav.getByRole('link', { name: /AI批改/ })).not.toHaveTextContent('99+');
  });

  it('gives a level-3 partner no channel settlement and no account entry, and its 操作日志', () => {
    const nav = renderMenu('partner', '/overview-dashboard', {}, 3);
    expect(nav.getAllByText(/./).map((n) => n.textContent)).toEqual(['数据看板', '直营学校', '设备管理', '订单管理', '操作日志']);
  });

  it('gives the mini-program school admin its entries (角色任命 and 学年管理 too), school resources, 心声隐私 and 操作日志', () => {
    const nav = renderMenu('mpSchoolAdmin', '/class');
    expect(nav.getAllByText(/./).map((n) => n.textContent)).toEqual(['数据概览', '班级管理', '学生管理', '教师管理', '角色任命', '教室管理', '学年管理', '学校资源', '心声隐私', '操作日志']);
  });
});

describe('menu badges', () => {
  it('loads for badge roles and again when the learning year changes', async () => {
    const api = { menuBadges: vi.fn(async () => ({ correctCount: 3 })) };
    const { result, rerender } = renderHook(({ year }) => useMenuBadges(api, 'mpTeacher', 0, year), { initialProps: { year: '202503' } });
    await waitFor(() => expect(result.current).toEqual({ correctCount: 3 }));
    rerender({ year: '202403' });
    await waitFor(() => expect(api.menuBadges).toHaveBeenCalledTimes(2));
  });

  it('does not load for other roles', async () => {
    const api = { menuBadges: vi.fn(async () => ({ correctCount: 3 })) };
    const { result } = renderHook(() => useMenuBadges(api, 'partner', 0, '202503'));
    await new Promise((r) => setTimeout(r, 10));
    expect(api.menuBadges).not.toHaveBeenCalled();
    expect(result.current).toEqual({});
  });
});
