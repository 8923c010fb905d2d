// Paging under a hand-made table (screens that are not a resource list), worded like the lists.
import TablePagination from '@mui/material/TablePagination';

/** `page` counts from 0; `sizes` are the page sizes offered (one: no size picker). */
export function TablePaging({
  total,
  page,
  size,
  sizes = [10, 20, 50],
  onChange,
}: {
  total: number;
  page: number;
  size: number;
  sizes?: number[];
  onChange: (page: number, size: number) => void;
}) {
  return (
    <TablePagination
      component="div"
      count={total}
      page={page}
      rowsPerPage={size}
      rowsPerPageOptions={sizes}
      onPageChange={(_, p) => onChange(p, size)}
      onRowsPerPageChange={(e) => onChange(0, Number(e.target.value))}
      labelRowsPerPage="每页条数"
      labelDisplayedRows={({ from, to, count }) => `第 ${from}-${to} 条，共 ${count} 条`}
    />
  );
}
