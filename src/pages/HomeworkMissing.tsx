// 未提交名单 (/homeworkMissing?id=, full screen, from 作业详情): the students who have not handed a
// homework in, as an A4 sheet the teacher prints to remind them (a blank column to tick 补交 by
// hand), or downloads as an .xlsx. On paper only the sheet shows (@media print hides the buttons).
import { Link, useSearchParams } from 'react-router-dom';
import { useDataProvider, usePermissions } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import GlobalStyles from '@mui/material/GlobalStyles';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import PrintOutlined from '@mui/icons-material/PrintOutlined';
import type { AppDataProvider } from '../dataProvider';
import type { Permissions } from '../authProvider';
import { classLabel } from '../filters/widgets';
import { dateTime } from '../domain/format';
import { EmptyState } from '../ui/EmptyState';
import type { ScreenProps } from './screen';

export default function HomeworkMissing({ route }: ScreenProps) {
  const [params] = useSearchParams();
  const raw = params.get('id') ?? '';
  const id = /^[1-9]\d{0,9}$/.test(raw) ? raw : '';
  const api = useDataProvider<AppDataProvider>();
  const { permissions } = usePermissions<Permissions>();
  const list = useQuery({ queryKey: ['homeworkMissing', id], queryFn: () => api.missingList(id), enabled: !!id, retry: false });
  const [exporting, setExporting] = useState(false);
  // Back to the 作业详情 this sheet was opened from: each kind of teacher has her own.
  const detail = `${permissions?.activeRole === 'mpTeacher' ? '/assignHomework/details' : '/homeworkDetails'}${id ? `?id=${id}` : ''}`;
  const data = list.data;
  const exportXlsx = async () => {
    setExporting(true);
    try {
      await api.exportMissing(id);
    } catch {
      // The http client has already shown the server's message.
    } finally {
      setExporting(false);
    }
  };
  return (
    <Box sx={{ maxWidth: 794, mx: 'auto', p: { xs: 2, sm: 4 }, bgcolor: '#fff', minHeight: '100vh', color: '#000' }}>
      <GlobalStyles styles={{ '@media print': { '@page': { size: 'A4', margin: '15mm' }, body: { background: '#fff !important' }, '.no-print': { display: 'none !important' } } }} />
      <Box className="no-print" sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', flexWrap: 'wrap', mb: 2 }}>
        <Button variant="outlined" component={Link} to={detail} startIcon={<ArrowBackOutlined />}>
          返回
        </Button>
        <Button variant="outlined" startIcon={<FileDownloadOutlined />} onClick={exportXlsx} disabled={!data || exporting}>
          导出名单
        </Button>
        <Button variant="contained" startIcon={<PrintOutlined />} onClick={() => window.print()} disabled={!data}>
          打印
        </Button>
      </Box>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, textAlign: 'center' }}>
        {route.meta.title}
      </Typography>
      {!id || list.isError ? (
        <EmptyState text={!id ? '请从作业详情打开未提交名单' : '暂无数据'} />
      ) : !data ? (
        <LinearProgress sx={{ mt: 2 }} />
      ) : (
        <>
          <Typography data-testid="missing-homework" sx={{ textAlign: 'center', mt: 0.5, overflowWrap: 'anywhere' }}>
            {data.title}
          </Typography>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: 1, mt: 2, pb: 1, borderBottom: '2px solid #000' }}>
            <Typography>
              {classLabel(data.gradeName, data.className)} · {data.courseName}
            </Typography>
            <Typography data-testid="missing-due">
              截止：{dateTime(data.dueAt)}
              {!data.published ? '（尚未发布）' : data.overdue ? '（已截止）' : '（未截止）'}
            </Typography>
            <Typography data-testid="missing-count" sx={{ fontWeight: 700 }}>
              未提交 {data.students.length} 人 / 共 {data.studentCount} 人
            </Typography>
          </Box>
          {data.students.length === 0 ? (
            <EmptyState text="全部学生都已提交" />
          ) : (
            <Box
              component="table"
              aria-label="未提交名单"
              sx={{ width: '100%', borderCollapse: 'collapse', mt: 2, '& td, & th': { border: '1px solid #999', px: 1, py: 0.75, textAlign: 'left', fontSize: 14 } }}
            >
              <thead>
                <tr>
                  <th style={{ width: '3.5em' }}>序号</th>
                  <th style={{ width: '9em' }}>学号</th>
                  <th>姓名</th>
                  <th style={{ width: '8em' }}>补交确认</th>
                </tr>
              </thead>
              <tbody>
                {data.students.map((s, i) => (
                  <tr key={s.studentId} data-testid="missing-row">
                    <td>{i + 1}</td>
                    <td>{s.studentNo}</td>
                    <td>{s.name}</td>
                    <td />
                  </tr>
                ))}
              </tbody>
            </Box>
          )}
          <Typography variant="body2" sx={{ mt: 2, color: '#555' }}>
            打印时间：{dateTime(new Date().toISOString())}
          </Typography>
        </>
      )}
    </Box>
  );
}
