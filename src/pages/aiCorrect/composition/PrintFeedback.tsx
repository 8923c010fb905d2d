// The feedback page a teacher prints for the student: title, student, score, the four dimensions,
// the comment (the teacher's, else the machine's) and the marked text with its notes. On paper
// only this page shows (@media print hides the buttons); on screen it is a preview. With
// 附家长查看二维码 ticked, pressing 打印 first issues the student's family link (a fresh one each
// time: only its hash is kept, so an old one cannot be printed again) and prints its QR code.
import { useState } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import type { AppDataProvider } from '../../../dataProvider';
import { QrCode } from '../../../ui/QrCode';
import Button from '@mui/material/Button';
import GlobalStyles from '@mui/material/GlobalStyles';
import Typography from '@mui/material/Typography';
import type { EssayOutput } from '../../../dataProvider/correct';
import { EssayText, NoteList } from './EssayText';
import { rescaleDimensions } from './rescale';

export interface FeedbackData {
  taskId: number;
  resultId: number;
  /** The result has a student of the task's class (a family to show it to). */
  hasStudent: boolean;
  taskTitle: string;
  studentName: string;
  score: number | null;
  maxScore: number | null;
  comment: string;
  text: string;
  essay: EssayOutput;
}

export function PrintFeedback({ data, onBack }: { data: FeedbackData; onBack: () => void }) {
  const api = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const { rubric } = data.essay;
  const [withQr, setWithQr] = useState(false);
  const [family, setFamily] = useState<{ url: string; days: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const print = async () => {
    if (withQr) {
      setBusy(true);
      try {
        const [link] = await api.issueFeedbackFamilyLinks(data.taskId, [data.resultId]);
        setFamily(link ? { url: link.url, days: link.days } : null);
      } catch {
        // The http client has shown the server's reason; nothing is printed.
        return;
      } finally {
        setBusy(false);
      }
      // Let the code render before the print dialog takes the page.
      await new Promise((resolve) => setTimeout(resolve, 50));
    } else setFamily(null);
    window.print();
    if (withQr) notify('已生成家长查看二维码（已记入操作日志）', { type: 'info' });
  };
  // The dimensions add up to the score printed above them, the teacher's total when they set one.
  const dimensions = rescaleDimensions(rubric.dimensions, data.score, data.maxScore);
  return (
    <Box data-testid="print-feedback" sx={{ maxWidth: 794, mx: 'auto', p: { xs: 2, sm: 4 }, bgcolor: '#fff', minHeight: '100vh', color: '#000' }}>
      <GlobalStyles
        styles={{
          '@media print': {
            '@page': { size: 'A4', margin: '15mm' },
            body: { background: '#fff !important' },
            '.no-print': { display: 'none !important' },
            // Marks keep their colours on paper.
            mark: { printColorAdjust: 'exact', WebkitPrintColorAdjust: 'exact' },
          },
        }}
      />
      <Box className="no-print" sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
        {data.hasStudent && (
          <FormControlLabel
            control={<Checkbox checked={withQr} onChange={(e) => setWithQr(e.target.checked)} />}
            label="附家长查看二维码"
            title="打印时为学生生成新的家长查看链接（30 天有效），家长扫码查看成绩和评语"
            sx={{ mr: 'auto' }}
          />
        )}
        <Button variant="outlined" onClick={onBack}>
          返回
        </Button>
        <Button variant="contained" onClick={() => void print()} disabled={busy}>
          {busy ? '生成二维码…' : '打印'}
        </Button>
      </Box>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, textAlign: 'center' }}>
        作文评语
      </Typography>
      <Typography data-testid="print-task" sx={{ textAlign: 'center', mt: 0.5, overflowWrap: 'anywhere' }}>
        {data.taskTitle}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: 1, mt: 2, pb: 1, borderBottom: '2px solid #000' }}>
        <Typography data-testid="print-student">学生：{data.studentName}</Typography>
        <Typography data-testid="print-score" sx={{ fontWeight: 700 }}>
          得分：{data.score ?? '—'} / {data.maxScore ?? '—'} 分
        </Typography>
      </Box>
      <Box component="table" sx={{ width: '100%', borderCollapse: 'collapse', mt: 2, '& td, & th': { border: '1px solid #999', p: 0.75, textAlign: 'left', verticalAlign: 'top', fontSize: 14 } }}>
        <thead>
          <tr>
            <th style={{ width: '4.5em' }}>维度</th>
            <th style={{ width: '5.5em' }}>得分</th>
            <th>评语</th>
          </tr>
        </thead>
        <tbody>
          {dimensions.map((d) => (
            <tr key={d.key} data-testid="print-dimension">
              <td>{d.name}</td>
              <td>
                {d.score}/{d.max}
              </td>
              <td>{d.comment}</td>
            </tr>
          ))}
        </tbody>
      </Box>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700, mt: 2 }}>
        老师评语
      </Typography>
      <Typography data-testid="print-comment" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {data.comment}
      </Typography>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700, mt: 2, mb: 1 }}>
        原文批注
      </Typography>
      <EssayText text={data.text} sentences={rubric.sentences} notes={rubric.notes} />
      <Box sx={{ mt: 1.5 }}>
        <NoteList notes={rubric.notes} />
      </Box>
      {withQr && family && (
        <Box data-testid="print-family-qr" sx={{ display: 'flex', gap: 2, alignItems: 'center', mt: 3, pt: 1.5, borderTop: '1px dashed #999', breakInside: 'avoid' }}>
          <QrCode text={family.url} size={96} label="家长查看二维码" />
          <Typography variant="body2">
            家长扫码查看{data.studentName}的成绩、评语和错题，{family.days} 天内有效。
            <br />
            请勿转发给他人。
          </Typography>
        </Box>
      )}
    </Box>
  );
}
