// Paging controls read in Chinese to screen readers, on the numbered pager as on the tables.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import Pagination from '@mui/material/Pagination';
import TablePagination from '@mui/material/TablePagination';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import { theme } from '../../src/layout/theme';

const inTheme = (node: React.ReactNode) => render(<ThemeProvider theme={createTheme(theme)}>{node}</ThemeProvider>);

describe('the product theme', () => {
  it('labels the numbered pager in Chinese', () => {
    inTheme(<Pagination count={5} page={2} />);
    const labels = screen.getAllByRole('button').map((b) => b.getAttribute('aria-label'));
    expect(labels).toEqual(['上一页', '转到第 1 页', '第 2 页（当前页）', '转到第 3 页', '转到第 4 页', '转到第 5 页', '下一页']);
  });

  it('labels the table pager in Chinese', () => {
    inTheme(<TablePagination component="div" count={100} page={1} rowsPerPage={10} onPageChange={() => undefined} />);
    const labels = screen.getAllByRole('button').map((b) => b.getAttribute('aria-label') ?? b.getAttribute('title'));
    expect(labels.join(' ')).not.toMatch(/Go to|page/);
    expect(labels).toContain('下一页');
  });
});
