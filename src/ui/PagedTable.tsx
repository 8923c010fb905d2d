// One paged table for screens that are not a resource list: a header row, one row per record,
// the shared paging below, an empty state when there is nothing, and the page read through
// react-query (the previous page stays on screen while the next one loads).
import { useState, type ReactNode } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { Page } from '../domain/envelope';
import { EmptyState } from './EmptyState';
import { TablePaging } from './TablePaging';

export function PagedTable<T extends { id: number | string }>({
  queryKey,
  load,
  head,
  row,
  size = 10,
  empty,
}: {
  /** What `load` reads, without the page. */
  queryKey: readonly unknown[];
  /** `current` counts from 1, as the API's paging does. */
  load: (current: number, size: number) => Promise<Page<T>>;
  head: readonly string[];
  row: (record: T) => ReactNode[];
  size?: number;
  /** The empty state's words, when the default (暂无数据) says too little. */
  empty?: ReactNode;
}) {
  const [page, setPage] = useState(0);
  const query = useQuery({ queryKey: [...queryKey, page, size], queryFn: () => load(page + 1, size), retry: false, placeholderData: keepPreviousData });
  // A refused read shows as nothing to list; the http client has already said why.
  const data = query.isError ? { records: [], total: 0 } : query.data;
  if (!data) return <LinearProgress sx={{ mt: 2 }} />;
  if (!data.total) return empty === undefined ? <EmptyState /> : <>{empty}</>;
  return (
    <>
      <Table size="small">
        <TableHead>
          <TableRow>
            {head.map((h) => (
              <TableCell key={h} sx={{ fontWeight: 600, whiteSpace: 'nowrap', bgcolor: 'grey.50' }}>
                {h}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {data.records.map((record) => (
            <TableRow key={record.id}>
              {row(record).map((cell, i) => (
                <TableCell key={i}>{cell}</TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <TablePaging total={data.total} page={page} size={size} sizes={[size]} onChange={(next) => setPage(next)} />
    </>
  );
}
