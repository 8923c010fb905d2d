import Button from '@mui/material/Button';
import { Link } from 'react-router-dom';
import type { RowActionProps } from '../types';

export function OpenBookButton({ record }: RowActionProps) {
  return (
    <Button size="small" component={Link} to={`/workbook/${record.id}`}>
      打开
    </Button>
  );
}
