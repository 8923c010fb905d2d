// One question of the class wrong-answer book: the question with its answer, how the class's answers
// spread over the options (objective items), and every wrong answer with the student and the work.
import { useDataProvider } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import type { AppDataProvider } from '../../dataProvider';
import type { MistakeScope } from '../../dataProvider/wrongbook';
import { OBJECTIVE_TYPES } from '../../domain/content';
import { EmptyState } from '../../ui/EmptyState';
import { MathText } from '../MathText';
import { Stem } from '../Stem';
import { percent } from '../../domain/format';
import { sourceLabel, typeLabel } from './labels';

const points = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

export function MistakeDetailDialog({ questionId, scope, onClose }: { questionId: number | null; scope: MistakeScope; onClose: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const { data, isPending, isError } = useQuery({
    queryKey: ['classMistakeDetail', questionId, scope],
    queryFn: () => dataProvider.classMistakeDetail(questionId!, scope),
    enabled: questionId !== null,
  });
  // Subjective answers are graded on the sheet and keep no text: an empty one there is not "未作答".
  const objective = data ? OBJECTIVE_TYPES.includes(data.question.type) : false;
  return (
    <Dialog open={questionId !== null} onClose={onClose} fullScreen={narrow} maxWidth="md" fullWidth aria-labelledby="mistake-detail-title">
      <DialogTitle id="mistake-detail-title">错题详情</DialogTitle>
      <DialogContent dividers data-testid="mistake-detail">
        {isPending ? (
          <LinearProgress />
        ) : isError || !data ? (
          <EmptyState text="暂无数据" />
        ) : (
          <Stack spacing={2}>
            <Box>
              <Stack direction="row" spacing={1} sx={{ mb: 1, flexWrap: 'wrap', rowGap: 1 }}>
                <Chip size="small" label={typeLabel(data.question.type)} />
                {data.sources.map((s) => (
                  <Chip key={s} size="small" variant="outlined" label={sourceLabel(s)} />
                ))}
              </Stack>
              <Typography component="div" sx={{ lineHeight: 1.8 }}>
                <Stem text={data.question.stem} />
              </Typography>
              {data.question.options?.map((o) => (
                <Typography key={o.key} component="div" variant="body2" sx={{ pl: 1 }}>
                  {o.key}. <MathText text={o.text} />
                </Typography>
              ))}
              <Typography variant="body2" sx={{ mt: 1 }}>
                正确答案：<MathText text={data.question.answer} />
              </Typography>
            </Box>
            <Typography data-testid="detail-figures">
              错误率 <b>{percent(data.errorRate)}</b> · 错 {data.wrong} / 答 {data.answered} 人次
            </Typography>
            {data.options && (
              <Box data-testid="option-spread">
                <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
                  选项分布
                </Typography>
                {data.options.map((o) => (
                  <Stack key={o.key} direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5 }}>
                    <Typography sx={{ width: 56, flexShrink: 0, fontWeight: o.correct ? 700 : 400, color: o.correct ? 'success.main' : undefined }}>
                      {o.key}
                      {o.correct ? ' ✓' : ''}
                    </Typography>
                    <LinearProgress variant="determinate" value={o.rate * 100} color={o.correct ? 'success' : 'error'} sx={{ flex: 1, height: 8, borderRadius: 4 }} />
                    <Typography variant="body2" sx={{ width: 96, flexShrink: 0, textAlign: 'right' }}>
                      {o.count} 人次 · {percent(o.rate)}
                    </Typography>
                  </Stack>
                ))}
              </Box>
            )}
            <Box>
              <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
                做错的学生（{data.students.length} 人次）
              </Typography>
              {data.students.length === 0 ? (
                <EmptyState />
              ) : (
                <Box sx={{ overflowX: 'auto' }}>
                  <Table size="small" data-testid="wrong-students">
                    <TableHead>
                      <TableRow>
                        <TableCell>姓名</TableCell>
                        <TableCell>学号</TableCell>
                        <TableCell>作答</TableCell>
                        <TableCell>得分</TableCell>
                        {!narrow && <TableCell>来源</TableCell>}
                      </TableRow>
                    </TableHead>
                    <TableBody>
                      {data.students.map((s) => (
                        <TableRow key={`${s.sourceType}-${s.sourceId}-${s.studentId}`}>
                          <TableCell sx={{ whiteSpace: 'nowrap' }}>{s.name}</TableCell>
                          <TableCell>{s.studentNo}</TableCell>
                          <TableCell sx={{ maxWidth: 240, overflowWrap: 'anywhere' }}>{s.answer ? <MathText text={s.answer} /> : objective ? '未作答' : '—'}</TableCell>
                          <TableCell sx={{ whiteSpace: 'nowrap' }}>
                            {points(s.score)}/{points(s.maxScore)}
                          </TableCell>
                          {!narrow && (
                            <TableCell>
                              {sourceLabel(s.sourceType)} · {s.workTitle}
                            </TableCell>
                          )}
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </Box>
              )}
            </Box>
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>关闭</Button>
      </DialogActions>
    </Dialog>
  );
}
