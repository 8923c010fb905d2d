// 答题卡 of 新建批改任务, second way: 使用试卷的答题卡. The teacher picks one of their exams and a
// class of it; the server lays out the exam's paper as a named copy per student and derives the key
// from its questions. The page shows the key's summary and the PDF; the task it creates is linked
// to the exam, so grading writes the exam's scores.
import { useEffect, useState } from 'react';
import { useDataProvider } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import type { AppDataProvider } from '../../dataProvider';
import type { CreatedSheetTask } from './SheetDesigner';

const small = { size: 'small' as const };

export function ExamSheet({ onCreated }: { onCreated: (created: CreatedSheetTask) => void }) {
  const api = useDataProvider<AppDataProvider>();
  const [examId, setExamId] = useState('');
  const [classId, setClassId] = useState('');
  const [busy, setBusy] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [error, setError] = useState('');
  const exams = useQuery({ queryKey: ['examPage', 'correct'], queryFn: () => api.examPage({ size: 50 }) });
  const exam = exams.data?.records.find((e) => String(e.id) === examId);
  // One class of the exam is chosen for the teacher; several wait for their choice.
  useEffect(() => setClassId(exam?.classes.length === 1 ? String(exam.classes[0].classId) : ''), [exam]);
  const sheet = useQuery({
    queryKey: ['sheetFromExam', examId, classId],
    queryFn: () => api.sheetFromExam(Number(examId), Number(classId)),
    enabled: Boolean(examId && classId),
    retry: false,
    staleTime: Infinity,
  });
  const s = sheet.data;

  const download = async () => {
    if (!s) return;
    setDownloading(true);
    try {
      await api.downloadSheetPdf(s.sheetId, s.title);
    } catch {
      // Shown by the http client (字体缺少以下字符…).
    } finally {
      setDownloading(false);
    }
  };
  const create = async () => {
    if (!s) return;
    setBusy(true);
    setError('');
    try {
      const task = await api.createCorrectTask({
        type: 3,
        title: `${s.examTitle}（${s.className}）`.slice(0, 50),
        sheetId: s.sheetId,
        classId: Number(classId),
        examId: Number(examId),
        answerKey: s.answerKey,
      });
      onCreated({ taskId: task.id, pages: s.pages, copies: s.copies });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  if (exams.data === undefined) return exams.isError ? <Alert severity="error" sx={{ mt: 2 }}>考试列表加载失败</Alert> : <LinearProgress sx={{ mt: 2 }} />;
  if (!exams.data.records.length) {
    return (
      <Alert severity="info" sx={{ mt: 2 }}>
        暂无数据：您任教的班级还没有考试。
      </Alert>
    );
  }
  const keyed = s ? Object.keys(s.answerKey.items).length : 0;
  return (
    // One column that may shrink below a long exam title, which the select then cuts with an ellipsis.
    <Box sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 2, mt: 2, minWidth: 0 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, minWidth: 0 }}>
        <TextField {...small} select label="考试" value={examId} onChange={(e) => setExamId(e.target.value)} sx={{ flex: '1 1 240px', minWidth: 0 }} slotProps={{ htmlInput: { 'data-testid': 'exam-select' } }}>
          {exams.data.records.map((e) => (
            <MenuItem key={e.id} value={String(e.id)} sx={{ whiteSpace: 'normal' }}>
              {e.title}（{e.examDate}，{e.questionCount} 题）
            </MenuItem>
          ))}
        </TextField>
        <TextField {...small} select label="班级" value={classId} onChange={(e) => setClassId(e.target.value)} disabled={!exam} sx={{ minWidth: 160 }} slotProps={{ htmlInput: { 'data-testid': 'exam-class' } }}>
          {(exam?.classes ?? []).map((c) => (
            <MenuItem key={c.classId} value={String(c.classId)}>
              {c.className}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <Typography variant="caption" color="text.secondary">
        按考试试卷生成答题卡，每位学生一份印有姓名的答题卡；答案和分值取自试卷题目，批改结果计入这次考试的成绩。
      </Typography>
      {sheet.isFetching && <LinearProgress aria-label="正在生成答题卡" />}
      {sheet.isError && <Alert severity="error">{(sheet.error as Error).message}</Alert>}
      {s && (
        <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 1.5, display: 'grid', gap: 1 }} data-testid="exam-key-summary">
          <Typography variant="subtitle2" component="h3" sx={{ overflowWrap: 'anywhere' }}>
            {s.title}
          </Typography>
          <Typography variant="body2">
            共 {s.questionCount} 题，满分 {s.fullMarks} 分；{s.className} {s.copies} 份，每份 {s.pages} 页。
          </Typography>
          <Typography variant="body2" color="text.secondary">
            自动评分 {keyed} 题{s.manual.length ? `；第 ${s.manual.join('、')} 题（解答题等）由老师复核评分` : ''}
          </Typography>
          <Box>
            <Button variant="outlined" startIcon={<DownloadIcon />} disabled={downloading} onClick={() => void download()}>
              {downloading ? '正在生成 PDF…' : '下载答题卡 PDF'}
            </Button>
          </Box>
        </Box>
      )}
      {error && <Alert severity="error">{error}</Alert>}
      <Box>
        <Button variant="contained" disabled={!s || busy} onClick={() => void create()}>
          创建任务并上传
        </Button>
      </Box>
    </Box>
  );
}
