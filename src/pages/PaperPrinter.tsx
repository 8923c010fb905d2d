// 试卷打印 (/paperPrinter?paperId=…), full screen: the paper laid out by the server for A4 or A3 with
// its answer sheet, shown from the PDF itself (fetched with the session, displayed from memory), a
// size switch, a download and the print preview.
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, usePermissions } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import ArrowBack from '@mui/icons-material/ArrowBack';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import PrintOutlined from '@mui/icons-material/PrintOutlined';
import type { AppDataProvider } from '../dataProvider';
import { paperPdfUrl, type PaperSize } from '../dataProvider/papers';
import type { Permissions } from '../authProvider';
import type { ScreenProps } from './screen';
import EmptyScreen from './EmptyScreen';
import { EmptyState } from '../ui/EmptyState';

/** A PDF from a same-origin API address, as a blob URL that lives as long as the screen shows it. */
export function usePrintable(url: string | null) {
  const dataProvider = useDataProvider<AppDataProvider>();
  // Read afresh each time the screen opens (the paper may have been edited), never again while it shows.
  const query = useQuery({
    queryKey: ['printable', url],
    queryFn: () => {
      const target = new URL(url!, window.location.origin);
      return dataProvider.printable(target.pathname, Object.fromEntries(target.searchParams));
    },
    enabled: !!url,
    retry: false,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  const blob = query.data;
  const [shown, setShown] = useState<{ href: string; blob: Blob }>();
  useEffect(() => {
    if (!blob) return setShown(undefined);
    const href = URL.createObjectURL(blob);
    setShown({ href, blob });
    return () => URL.revokeObjectURL(href);
  }, [blob]);
  return { ...shown, failed: query.isError };
}

function Printer({ paperId }: { paperId: string }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const navigate = useNavigate();
  const [size, setSize] = useState<PaperSize>('A4');
  const query = useQuery({ queryKey: ['paper', paperId], queryFn: () => dataProvider.paper(paperId), retry: false });
  const paper = query.isError ? null : query.data;
  const url = paper ? paperPdfUrl(paper.id, size) : null;
  const pdf = usePrintable(url);

  const count = paper ? paper.sections.reduce((n, s) => n + s.questions.length, 0) : 0;
  return (
    <Box sx={{ height: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'grey.100' }}>
      <Box component="header" sx={{ display: 'flex', alignItems: 'center', gap: 1.5, px: 2, py: 1, bgcolor: 'background.paper', borderBottom: 1, borderColor: 'divider', flexWrap: 'wrap' }}>
        <Button component={Link} to="/paper" startIcon={<ArrowBack />} size="small">
          返回试卷
        </Button>
        <Box sx={{ flex: 1, minWidth: 200 }}>
          <Typography variant="h6" component="h1" sx={{ fontWeight: 600, overflowWrap: 'anywhere', lineHeight: 1.3 }}>
            {paper ? paper.title : '试卷打印'}
          </Typography>
          {paper && (
            <Typography variant="body2" color="text.secondary" data-testid="printer-meta">
              {count} 题 · 满分 {Math.round(paper.totalPoints * 10) / 10} 分 · {paper.durationMinutes} 分钟 · 试卷后附答题卡（供学生作答；要扫描批改，请在 AI批改 中按考试生成答题卡）
            </Typography>
          )}
        </Box>
        <ToggleButtonGroup size="small" exclusive value={size} onChange={(_, v: PaperSize | null) => v && setSize(v)} aria-label="纸张大小">
          <ToggleButton value="A4">A4 纵向</ToggleButton>
          <ToggleButton value="A3">A3 横向（两栏）</ToggleButton>
        </ToggleButtonGroup>
        <Button variant="outlined" startIcon={<PrintOutlined />} disabled={!url} onClick={() => url && navigate(`/printer?url=${encodeURIComponent(url)}`)}>
          打印预览
        </Button>
        <Button variant="contained" startIcon={<DownloadOutlined />} disabled={!pdf.blob || !paper} onClick={() => pdf.blob && paper && dataProvider.saveBlob(pdf.blob, `${paper.title}（${size}）.pdf`)}>
          下载 PDF
        </Button>
      </Box>
      <Box sx={{ flex: 1, minHeight: 0, display: 'flex' }}>
        {paper === null || pdf.failed ? (
          <Box sx={{ m: 'auto' }}>
            <EmptyState text={paper === null ? '试卷不存在或已删除' : '试卷生成失败，请稍后重试'} />
          </Box>
        ) : pdf.href ? (
          <Box component="iframe" title={`${paper?.title ?? '试卷'}（${size}）`} src={pdf.href} sx={{ flex: 1, border: 0, width: '100%' }} data-testid="paper-pdf" />
        ) : (
          <Box sx={{ m: 'auto', width: 320, textAlign: 'center' }}>
            <Typography color="text.secondary" sx={{ mb: 1 }}>
              正在排版试卷和答题卡…
            </Typography>
            <LinearProgress />
          </Box>
        )}
      </Box>
    </Box>
  );
}

export default function PaperPrinter({ route }: ScreenProps) {
  const { permissions } = usePermissions<Permissions>();
  const { search } = useLocation();
  const paperId = new URLSearchParams(search).get('paperId') ?? '';
  if (!permissions) return null;
  if (permissions.activeRole !== 'teacher') return <EmptyScreen route={route} />;
  if (!/^\d{1,9}$/.test(paperId))
    return (
      <Box sx={{ p: 4, textAlign: 'center' }}>
        <EmptyState text="请先在试卷列表中选择要打印的试卷" />
        <Button component={Link} to="/paper" variant="outlined">
          前往试卷
        </Button>
      </Box>
    );
  return <Printer paperId={paperId} />;
}
