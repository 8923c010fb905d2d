// A student row's 学情档案 action (the classic teacher's 班级): opens /studentHistory for the student.
import { Button, type RaRecord } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import Insights from '@mui/icons-material/Insights';

export function HistoryLinkButton({ record }: { record: RaRecord }) {
  const navigate = useNavigate();
  return (
    <Button label="学情档案" onClick={() => navigate(`/studentHistory?studentId=${encodeURIComponent(String(record.id))}`)}>
      <Insights />
    </Button>
  );
}
