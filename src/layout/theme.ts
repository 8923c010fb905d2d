// react-admin's default theme with our brand and MUI's zh-CN component texts.
import { defaultTheme, type RaThemeOptions } from 'react-admin';
import { zhCN } from '@mui/material/locale';
import { brand } from './brandTheme';

/**
 * MUI's zh-CN locale words the table paging but not the numbered <Pagination> (the AI批改 task list,
 * the question bank): without this, screen readers hear "Go to previous page" and "Go to page 3".
 */
export function paginationItemLabel(type: string, page: number | null, selected: boolean): string {
  if (type === 'page') return selected ? `第 ${page} 页（当前页）` : `转到第 ${page} 页`;
  return { first: '转到第一页', last: '转到最后一页', next: '下一页', previous: '上一页' }[type] ?? '翻页';
}

export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: { ...defaultTheme.palette, ...brand.palette },
  shape: brand.shape,
  typography: { ...defaultTheme.typography, ...brand.typography },
  components: {
    ...defaultTheme.components,
    ...zhCN.components,
    ...brand.components,
    MuiPagination: { defaultProps: { getItemAriaLabel: paginationItemLabel } },
  },
};
