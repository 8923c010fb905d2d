// The paging convention of DESIGN.md: `current`, `size` in; {records,total,current,size,pages} out.
import { Type } from 'typebox';
import type { Page } from '../../src/domain/envelope';

export const MAX_PAGE_SIZE = 500;
/** Far beyond any real list (500 × 100,000 rows) and small enough that OFFSET stays an integer. */
export const MAX_PAGE = 100_000;

export const PagingQuery = {
  current: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 })),
  size: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 10 })),
};

export type { Page };

export function page<T>(records: T[], total: number, current: number, size: number): Page<T> {
  return { records, total, current, size, pages: Math.ceil(total / size) };
}

/** OFFSET for a page, from the (validated) paging parameters. */
export function pageWindow(q: { current?: number; size?: number }): { current: number; size: number; offset: number } {
  const current = q.current ?? 1;
  const size = q.size ?? 10;
  return { current, size, offset: (current - 1) * size };
}
