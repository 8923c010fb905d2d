import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FilterBar } from '../../src/filters/FilterBar';
import { FilterSelect } from '../../src/filters/FilterSelect';
import { SelectionProvider, useSelection, type SelectionApi } from '../../src/filters/SelectionProvider';
import { findRoute } from '../../src/domain/permissions';
import { ROUTES } from '../../src/menu/routes';
import { SESSION_KEYS } from '../../src/authProvider/session';
import type { Role } from '../../src/domain/roles';
import { fakeSelectionApi } from './fixtures';

/** Shows the store so tests read what the screens will read. */
function Probe() {
  const { selection } = useSelection();
  return <output data-testid="selection">{JSON.stringify({ ...selection, classList: undefined, courseList: selection.courseList.map((c) => c.courseName) })}</output>;
}
const stored = () => JSON.parse(screen.getByTestId('selection').textContent!);

function renderBar(role: Role, path: string, api: SelectionApi = fakeSelectionApi()) {
  const route = ROUTES.filter((r) => !r.meta.roles || r.meta.roles.includes(role)).map((r) => findRoute([r], path)).find(Boolean);
  render(
    <SelectionProvider api={api} role={role} schoolId={1}>
      <FilterBar route={route} role={role} />
      <Probe />
    </SelectionProvider>,
  );
  return api;
}

const labels = () => screen.queryAllByRole('combobox').map((box) => box.getAttribute('aria-labelledby') && document.getElementById(box.getAttribute('aria-labelledby')!.split(' ')[0])?.textContent);

beforeEach(() => sessionStorage.clear());

describe('filter bar per role (SPEC §2.2)', () => {
  it('teacher on homework: class, course and time range', async () => {
    renderBar('teacher', '/homework');
    await waitFor(() => expect(screen.getByRole('combobox', { name: '班级' })).toHaveTextContent('七(1)班'));
    expect(labels()).toEqual(['班级', '学科', '时间']);
    expect(screen.getByRole('combobox', { name: '学科' })).toHaveTextContent('数学');
    expect(screen.getByRole('combobox', { name: '时间' })).toHaveTextContent('本学期');
  });

  it('teacher on learning analysis: class, course and learning term', async () => {
    renderBar('teacher', '/analysis');
    await waitFor(() => expect(screen.getByRole('combobox', { name: '学科' })).toHaveTextContent('数学'));
    expect(labels()).toEqual(['班级', '学科', '学期']);
  });

  it('subject leader on learning analysis: grade, course and learning term', async () => {
    const api = renderBar('subjectleader', '/analysis');
    await waitFor(() => expect(screen.getByRole('combobox', { name: '年级' })).toHaveTextContent('七年级'));
    expect(labels()).toEqual(['年级', '学科', '学期']);
    expect(api.gradesInSchool).toHaveBeenCalledWith({ schoolId: 1, leaderType: 2 });
    await waitFor(() => expect(api.courseList).toHaveBeenLastCalledWith({ classId: '', gradeId: '1', leaderType: 2 }));
  });

  it('principal on learning analysis: 全部年级 and 全部学科 after the grades and courses, kept apart from their ids', async () => {
    const user = userEvent.setup();
    const api = renderBar('schoolMaster', '/analysis');
    await waitFor(() => expect(screen.getByRole('combobox', { name: '年级' })).toHaveTextContent('七年级'));
    await waitFor(() => expect(screen.getByRole('combobox', { name: '学科' })).toHaveTextContent('数学'));
    await user.click(screen.getByRole('combobox', { name: '年级' }));
    const grades = within(screen.getByRole('listbox')).getAllByRole('option').map((o) => o.textContent);
    expect(grades.at(-1)).toBe('全部年级');
    await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: '全部年级' }));
    await waitFor(() => expect(screen.getByRole('combobox', { name: '年级' })).toHaveTextContent('全部年级'));
    // The courses of every grade; the grade id underneath stays a real one for other screens.
    await waitFor(() => expect(api.courseList).toHaveBeenLastCalledWith({ classId: '', gradeId: '', leaderType: undefined }));
    expect(stored()).toMatchObject({ allGrades: true, gradeId: '1' });
    await user.click(screen.getByRole('combobox', { name: '学科' }));
    expect(within(screen.getByRole('listbox')).getAllByRole('option').at(-1)).toHaveTextContent('全部学科');
    await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: '全部学科' }));
    await waitFor(() => expect(stored()).toMatchObject({ allCourses: true }));
    expect(stored().courseId).not.toBe('');
    // Back to one grade: the grade's figures again.
    await user.click(screen.getByRole('combobox', { name: '年级' }));
    await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: '七年级' }));
    await waitFor(() => expect(stored()).toMatchObject({ allGrades: false, gradeId: '1' }));
  });

  it('mini-program teacher on school resources: course only', async () => {
    renderBar('mpTeacher', '/schoolResource');
    await waitFor(() => expect(screen.getByRole('combobox', { name: '学科' })).toHaveTextContent('数学'));
    expect(labels()).toEqual(['学科']);
  });

  it('mini-program school admin on school resources: no filters', () => {
    renderBar('mpSchoolAdmin', '/schoolResource');
    expect(screen.queryByRole('search')).toBeNull();
  });

  it('mini-program teacher on the class wrong-answer book: class, course, learning year', async () => {
    renderBar('mpTeacher', '/wrongbook/index');
    await waitFor(() => expect(screen.getByRole('combobox', { name: '班级' })).toHaveTextContent('七(1)班'));
    expect(labels()).toEqual(['班级', '学科', '学年']);
  });

  it('psychology teacher: school grade and class; changing grade clears the class', async () => {
    const user = userEvent.setup();
    const api = renderBar('psychologyteacher', '/heart-sounds');
    expect(labels()).toEqual(['年级', '班级']);
    await waitFor(() => expect(screen.getByRole('combobox', { name: '年级' })).not.toHaveAttribute('aria-disabled'));
    await user.click(screen.getByRole('combobox', { name: '年级' }));
    await user.click(within(screen.getByRole('listbox')).getByText('七年级'));
    await waitFor(() => expect(screen.getByRole('combobox', { name: '班级' })).not.toHaveAttribute('aria-disabled'));
    await user.click(screen.getByRole('combobox', { name: '班级' }));
    await user.click(within(screen.getByRole('listbox')).getByText('七(2)班'));
    expect(stored()).toMatchObject({ gradeId: '1', classId: '2', className: '七(2)班' });

    await user.click(screen.getByRole('combobox', { name: '年级' }));
    await user.click(within(screen.getByRole('listbox')).getByText('八年级'));
    expect(stored()).toMatchObject({ gradeId: '2', gradeName: '八年级', classId: '', className: '' });
    expect(api.classesInSchool).toHaveBeenLastCalledWith({ schoolId: 1, gradeId: '2' });
    // One class left in grade 8: nothing to choose between.
    await waitFor(() => expect(screen.getByRole('combobox', { name: '班级' })).toHaveAttribute('aria-disabled', 'true'));
  });
});

describe('teacher selection store (SPEC §4)', () => {
  it('chooses the first class and course, and persists to session storage', async () => {
    renderBar('mpTeacher', '/studentTracking');
    await waitFor(() => expect(stored()).toMatchObject({ classId: '1', className: '七(1)班', gradeId: '1', classesInGrade: ['1', '2'], courseId: '2', subjectId: '2' }));
    expect(JSON.parse(sessionStorage.getItem(SESSION_KEYS.selection)!)).toMatchObject({ classId: '1', courseId: '2', courseName: '数学' });
  });

  it('keeps a stored class and course that still exist', async () => {
    sessionStorage.setItem(SESSION_KEYS.selection, JSON.stringify({ classId: '5', courseId: '4' }));
    renderBar('mpTeacher', '/studentTracking');
    await waitFor(() => expect(stored()).toMatchObject({ classId: '5', gradeName: '八年级', courseId: '4', courseName: '物理' }));
  });

  it('reloads the course list when the class changes, without duplicates', async () => {
    const user = userEvent.setup();
    const api = fakeSelectionApi({
      courseList: vi.fn(async ({ classId }) =>
        classId === '5'
          ? [
              { courseId: 7, courseName: '英语', subjectId: 7 },
              { courseId: 7, courseName: '英语', subjectId: 7 },
            ]
          : [{ courseId: 2, courseName: '数学', subjectId: 2 }],
      ),
    });
    renderBar('mpTeacher', '/studentTracking', api);
    await waitFor(() => expect(stored()).toMatchObject({ courseId: '2' }));
    await user.click(screen.getByRole('combobox', { name: '班级' }));
    await user.click(within(screen.getByRole('listbox')).getByText('八(1)班'));
    await waitFor(() => expect(stored()).toMatchObject({ classId: '5', gradeId: '2', courseId: '7', courseName: '英语', courseList: ['英语'] }));
    expect(api.courseList).toHaveBeenLastCalledWith({ classId: '5', gradeId: '2', leaderType: 1 });
    // A single course: the picker has nothing to switch to.
    expect(screen.getByRole('combobox', { name: '学科' })).toHaveAttribute('aria-disabled', 'true');
  });

  it('empties the course list and choice silently when the course query fails', async () => {
    const api = fakeSelectionApi({ courseList: vi.fn(async () => Promise.reject(new Error('500'))) });
    sessionStorage.setItem(SESSION_KEYS.selection, JSON.stringify({ courseId: '2', courseName: '数学' }));
    renderBar('mpTeacher', '/studentTracking', api);
    await waitFor(() => expect(stored()).toMatchObject({ courseId: '', courseName: '', courseList: [] }));
    expect(screen.getByRole('combobox', { name: '学科' })).toHaveTextContent('暂无数据');
  });

  it('choosing a course sets its name and subject', async () => {
    const user = userEvent.setup();
    renderBar('mpTeacher', '/studentTracking');
    await waitFor(() => expect(screen.getByRole('combobox', { name: '学科' })).not.toHaveAttribute('aria-disabled'));
    await user.click(screen.getByRole('combobox', { name: '学科' }));
    await user.click(within(screen.getByRole('listbox')).getByText('物理'));
    expect(stored()).toMatchObject({ courseId: '4', courseName: '物理', subjectId: '4' });
  });
});

describe('dropdowns', () => {
  it("show '暂无数据' and are disabled when there is nothing to choose", () => {
    render(<FilterSelect label="班级" value="" options={[]} onChange={() => undefined} />);
    const box = screen.getByRole('combobox', { name: '班级' });
    expect(box).toHaveTextContent('暂无数据');
    expect(box).toHaveAttribute('aria-disabled', 'true');
  });

  it('are disabled with a single option, enabled with two', () => {
    const { rerender } = render(<FilterSelect label="学科" value="2" options={[{ value: '2', label: '数学' }]} onChange={() => undefined} />);
    expect(screen.getByRole('combobox', { name: '学科' })).toHaveAttribute('aria-disabled', 'true');
    rerender(
      <FilterSelect
        label="学科"
        value="2"
        options={[
          { value: '2', label: '数学' },
          { value: '4', label: '物理' },
        ]}
        onChange={() => undefined}
      />,
    );
    expect(screen.getByRole('combobox', { name: '学科' })).not.toHaveAttribute('aria-disabled');
  });
});

describe('learning term default (学年/学期 settings)', () => {
  it("a new session starts on the school's current term, not the calendar's", async () => {
    const currentTerm = vi.fn(async () => ({ term: '202402', label: '2024-2025学年下学期', startDate: '2025-02-16', endDate: '2025-07-10' }));
    renderBar('teacher', '/analysis', fakeSelectionApi({ currentTerm }));
    await waitFor(() => expect(stored().learningTerm).toBe('202402'));
    expect(currentTerm).toHaveBeenCalledTimes(1);
  });

  it('a term already in the session stays', async () => {
    sessionStorage.setItem(SESSION_KEYS.selection, JSON.stringify({ learningTerm: '202301' }));
    const currentTerm = vi.fn(async () => ({ term: '202402', label: '', startDate: null, endDate: null }));
    renderBar('teacher', '/analysis', fakeSelectionApi({ currentTerm }));
    await waitFor(() => expect(screen.getByRole('combobox', { name: '学科' })).toHaveTextContent('数学'));
    expect(stored().learningTerm).toBe('202301');
    expect(currentTerm).not.toHaveBeenCalled();
  });
});
