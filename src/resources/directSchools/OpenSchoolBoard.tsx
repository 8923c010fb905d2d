import Button from '@mui/material/Button';
import { useListContext } from 'react-admin';
import { Link } from 'react-router-dom';
import type { RowActionProps } from '../types';

/** Opens the school's full-screen board on the list's date range (this month without one). */
export function OpenSchoolBoard({ record }: RowActionProps) {
  const { filterValues } = useListContext();
  const query = new URLSearchParams({ schoolId: String(record.id) });
  if (filterValues.startDate && filterValues.endDate) {
    query.set('queryMode', 'custom');
    query.set('startDate', filterValues.startDate);
    query.set('endDate', filterValues.endDate);
  }
  return (
    <Button size="small" component={Link} to={`/school-dashboard?${query}`}>
      学校看板
    </Button>
  );
}
