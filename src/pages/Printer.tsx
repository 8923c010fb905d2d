// 打印预览 (/printer?url=…): any printable the product links to (a paper's PDF, a resource file),
// fetched with the session and shown from memory, with print and download. Only addresses of this
// site's own API are taken: anything else in the query is refused, never fetched.
import { useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { useDataProvider } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import PrintOutlined from '@mui/icons-material/PrintOutlined';
import type { AppDataProvider } from '../dataProvider';
import type { ScreenProps } from './screen';
import { EmptyState } from '../ui/EmptyState';
import { ScreenCard } from '../ui/ScreenCard';
import { usePrintable } from './PaperPrinter';
import { sameOriginApi } from './printable';

const extension = (type: string) => (type.includes('pdf') ? '.pdf' : type.startsWith('image/') ? `.${type.slice(6).split(/[;+]/)[0]}` : '');

export default function Printer({ route }: ScreenProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const { search } = useLocation();
  const url = sameOriginApi(new URLSearchParams(search).get('url'));
  const file = usePrintable(url);
  const frame = useRef<HTMLIFrameElement>(null);
  const type = file.blob?.type ?? '';
  const isPdf = type.includes('pdf');
  const isImage = type.startsWith('image/');
  const print = () => {
    // The PDF viewer in the frame prints the document itself; an image prints with the page.
    if (isPdf && frame.current?.contentWindow) frame.current.contentWindow.print();
    else window.print();
  };
  return (
    <ScreenCard title={route.meta.title} description="预览后可直接打印或下载；打印时请在打印对话框中选择与文件一致的纸张大小。">
      {!url ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          无法预览：只能预览本系统提供的打印文件
        </Alert>
      ) : (
        <>
          <Box sx={{ display: 'flex', gap: 1, my: 2, flexWrap: 'wrap' }}>
            <Button variant="contained" startIcon={<PrintOutlined />} disabled={!file.blob || (!isPdf && !isImage)} onClick={print}>
              打印
            </Button>
            <Button variant="outlined" startIcon={<DownloadOutlined />} disabled={!file.blob} onClick={() => file.blob && dataProvider.saveBlob(file.blob, `打印文件${extension(type)}`)}>
              下载
            </Button>
          </Box>
          {file.failed ? (
            <EmptyState text="文件加载失败，请返回后重试" />
          ) : !file.href ? (
            <LinearProgress />
          ) : isPdf ? (
            <Box component="iframe" ref={frame} title="打印预览" src={file.href} data-testid="printer-frame" sx={{ width: '100%', height: 'calc(100vh - 240px)', minHeight: 480, border: 1, borderColor: 'divider' }} />
          ) : isImage ? (
            <Box component="img" alt="打印预览" src={file.href} sx={{ maxWidth: '100%', display: 'block', mx: 'auto' }} />
          ) : (
            <EmptyState text="该文件无法预览，请下载后打印" />
          )}
        </>
      )}
    </ScreenCard>
  );
}
