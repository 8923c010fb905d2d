import Button from '@mui/material/Button';
import { Link } from 'react-router-dom';
import type { RowActionProps } from '../types';

export function OpenHomeworkButton({ record }: RowActionProps) {
  return (
    <Button size="small" component={Link} to={`/homeworkDetails?id=${record.id}`} data-testid="open-homework">
      查看详情
    </Button>
  );
}
