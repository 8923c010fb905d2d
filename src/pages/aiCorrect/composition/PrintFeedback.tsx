// The feedback page a teacher prints for the student: title, student, score, the four dimensions,
// the comment (the teacher's, else the machine's) and the marked text with its notes. On paper
// only this page shows (@media print hides the buttons); on screen it is a preview.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import GlobalStyles from '@mui/material/GlobalStyles';
import Typography from '@mui/material/Typography';
import type { EssayOutput } from '../../../dataProvider/correct';
import { EssayText, NoteList } from './EssayText';
import { rescaleDimensions } from './rescale';

export interface FeedbackData {
  taskTitle: string;
  studentName: string;
  score: number | null;
  maxScore: number | null;
  comment: string;
  text: string;
  essay: EssayOutput;
}

export function PrintFeedback({ data, onBack }: { data: FeedbackData; onBack: () => void }) {
  const { rubric } = data.essay;
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
      <Box className="no-print" sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', mb: 2 }}>
        <Button variant="outlined" onClick={onBack}>
          返回
        </Button>
        <Button variant="contained" onClick={() => window.print()}>
          打印
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
    </Box>
  );
}
