// AI批改 (/AICorrect/index), the mini-program teacher's home: their grading tasks newest first,
// by type, each with its status — 批改中 with progress polled from the task until it finishes,
// 批改失败 with the reason — its files, the results graded and still awaiting review, the pages
// that could not be read and the class's students with no page (未交). A graded or failed task opens
// its report (where pages are added, replaced or assigned); a task never submitted can be continued (uploads, submitting) or deleted. Laid out for a phone first.
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Confirm, useDataProvider, useNotify } from 'react-admin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Pagination from '@mui/material/Pagination';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import type { AppDataProvider } from '../../dataProvider';
import type { CorrectTask } from '../../dataProvider/correct';
import { GRADING_STATUSES, GRADING_TASK_TYPES, GradingStatus } from '../../domain/enums';
import type { ScreenProps } from '../screen';
import { EmptyState } from '../../ui/EmptyState';
import { ScreenCard } from '../../ui/ScreenCard';
import { dayTime } from '../../domain/format';
import { AssignedMarking } from './marking/AssignedMarking';

const PAGE_SIZE = 20;
/** How often a task being graded is asked for its progress. */
const POLL_MS = 3000;

const statusLabel = (status: number) => GRADING_STATUSES.find((s) => s.value === status)?.label ?? '未知状态';
const typeLabel = (type: number) => GRADING_TASK_TYPES.find((t) => t.value === type)?.short ?? '';
const STATUS_COLOR: Record<number, 'default' | 'info' | 'success' | 'error'> = {
  [GradingStatus.pendingSubmission]: 'default',
  [GradingStatus.grading]: 'info',
  [GradingStatus.graded]: 'success',
  [GradingStatus.failed]: 'error',
};

/** The progress of a task being graded, polled until it is graded or failed; then the list reloads. */
function GradingProgress({ task, onFinished }: { task: CorrectTask; onFinished: () => void }) {
  const api = useDataProvider<AppDataProvider>();
  const detail = useQuery({
    queryKey: ['correctTaskDetail', task.id],
    queryFn: () => api.correctTaskDetail(task.id),
    refetchInterval: (query) => (query.state.data && query.state.data.task.status !== GradingStatus.grading ? false : POLL_MS),
  });
  const status = detail.data?.task.status;
  useEffect(() => {
    if (status !== undefined && status !== GradingStatus.grading) onFinished();
  }, [status, onFinished]);
  const files = detail.data?.progress.files ?? task.fileCount;
  const done = detail.data?.progress.done ?? task.doneCount;
  return (
    <Box sx={{ gridColumn: '1 / -1', display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }} data-testid="task-progress">
      <LinearProgress variant="determinate" value={files ? (done / files) * 100 : 0} sx={{ flex: 1, height: 6, borderRadius: 3 }} aria-label="批改进度" />
      <Typography variant="caption" color="text.secondary" sx={{ flexShrink: 0 }}>
        已识别 {done}/{files}
      </Typography>
    </Box>
  );
}

function TaskRow({ task, onRemove, onFinished }: { task: CorrectTask; onRemove: (task: CorrectTask) => void; onFinished: () => void }) {
  return (
    <Box
      component="li"
      data-testid="correct-task"
      data-task-id={task.id}
      sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 1.5, display: 'grid', gap: 1, gridTemplateColumns: '1fr auto', alignItems: 'center', minWidth: 0 }}
    >
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="subtitle2" component="h3" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }} data-testid="task-title">
          {task.title}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ overflowWrap: 'anywhere' }}>
          {typeLabel(task.type)} · {task.className ?? '未选班级'} · {dayTime(task.createdAt)}
        </Typography>
      </Box>
      <Chip size="small" label={statusLabel(task.status)} color={STATUS_COLOR[task.status] ?? 'default'} data-testid="task-status" />
      {task.status === GradingStatus.grading && <GradingProgress task={task} onFinished={onFinished} />}
      {task.status === GradingStatus.failed && task.failReason && (
        <Typography variant="body2" color="error" sx={{ gridColumn: '1 / -1', overflowWrap: 'anywhere' }} data-testid="task-fail-reason">
          失败原因：{task.failReason}
        </Typography>
      )}
      {/* Files and actions share the last line, full width: two buttons in the chip's column would squeeze the title on a phone. */}
      <Box sx={{ gridColumn: '1 / -1', display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, color: 'text.secondary', fontSize: 14 }}>
          <span data-testid="task-files">文件 {task.fileCount} 份</span>
          {task.status === GradingStatus.graded && (
            <>
              <span data-testid="task-graded">已批改 {task.gradedCount} 份</span>
              <Box component="span" data-testid="task-review" sx={{ color: task.reviewCount ? 'warning.main' : undefined }}>
                待复核 {task.reviewCount} 份
              </Box>
            </>
          )}
          {/* Nobody lost: pages that could not be read and students with no page, once submitted. */}
          {task.status !== GradingStatus.pendingSubmission && task.failedCount > 0 && (
            <Box component="span" data-testid="task-failed" sx={{ color: 'error.main' }}>
              识别失败 {task.failedCount} 份
            </Box>
          )}
          {task.status !== GradingStatus.pendingSubmission && task.absentCount > 0 && (
            <Box component="span" data-testid="task-absent" sx={{ color: 'warning.main' }}>
              未交 {task.absentCount} 人
            </Box>
          )}
        </Box>
        <Box sx={{ display: 'flex', gap: 1, ml: 'auto' }}>
          {task.status === GradingStatus.graded && task.reviewCount > 0 && task.type !== 2 && (
            // The review screen opens on the first student grading was unsure of.
            <Button size="small" variant="contained" component={Link} to={`${task.type === 1 ? '/examProcessCorrectDetail' : '/correctDetail'}?taskId=${task.id}`}>
              去复核
            </Button>
          )}
          {(task.status === GradingStatus.graded || task.status === GradingStatus.failed) && (
            // A failed task's report lists its unreadable pages, to look at and upload again.
            <Button size="small" variant="outlined" component={Link} to={`/AICorrect/report?taskId=${task.id}`}>
              查看报告
            </Button>
          )}
          {task.status === GradingStatus.pendingSubmission && (
            <>
              <Button size="small" variant="outlined" component={Link} to={`/AICorrect/createCorrectTask?taskId=${task.id}`}>
                继续
              </Button>
              <Button size="small" color="error" onClick={() => onRemove(task)}>
                删除
              </Button>
            </>
          )}
        </Box>
      </Box>
    </Box>
  );
}

export default function TaskList({ route }: ScreenProps) {
  const api = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [type, setType] = useState(0);
  const [current, setCurrent] = useState(1);
  const [removing, setRemoving] = useState<CorrectTask | null>(null);
  const key = ['correctTasks', type, current];
  const tasks = useQuery({ queryKey: key, queryFn: () => api.correctTasks({ current, size: PAGE_SIZE, ...(type ? { type } : {}) }) });
  // Stable, so a finished task's progress asks for the list once.
  const reload = useCallback(() => void queryClient.invalidateQueries({ queryKey: ['correctTasks'] }), [queryClient]);
  const remove = useMutation({
    mutationFn: (taskId: number) => api.removeCorrectTask(taskId),
    onSuccess: () => {
      notify('已删除批改任务', { type: 'success' });
      reload();
    },
  });

  const records = tasks.data?.records;
  return (
    <ScreenCard title={route.meta.title}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 1, mt: 1, flexWrap: 'wrap' }}>
        <Typography variant="body2" color="text.secondary">
          拍照或扫描上传学生作答，系统自动批改，老师复核后生成报告。
        </Typography>
        <Button variant="contained" startIcon={<AddIcon />} component={Link} to="/AICorrect/createCorrectTask">
          新建批改任务
        </Button>
      </Box>
      <AssignedMarking />
      <Tabs
        value={type}
        onChange={(_, value: number) => {
          setType(value);
          setCurrent(1);
        }}
        variant="fullWidth"
        // Four short labels share a phone's width rather than scrolling out of sight.
        sx={{ mt: 1, borderBottom: 1, borderColor: 'divider', '& .MuiTab-root': { minWidth: 0, px: 0.5 } }}
        aria-label="批改类型"
      >
        <Tab label="全部" value={0} />
        {GRADING_TASK_TYPES.map((t) => (
          <Tab key={t.value} label={t.short} value={t.value} />
        ))}
      </Tabs>
      {records === undefined ? (
        <LinearProgress sx={{ mt: 2 }} />
      ) : records.length === 0 ? (
        type === 0 ? (
          // A new teacher's first visit: say what the first step is, not just that nothing is here.
          <EmptyState text="还没有批改任务">
            <Typography variant="body2">第一步：点「新建批改任务」，选好班级和批改类型，再上传学生作答的照片或扫描件，系统会自动批改。</Typography>
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'center' }}>
              <Button variant="contained" component={Link} to="/AICorrect/createCorrectTask">
                新建批改任务
              </Button>
              <Button variant="outlined" component={Link} to="/useGuide">
                查看使用教程
              </Button>
            </Box>
          </EmptyState>
        ) : (
          <EmptyState text={`暂无${GRADING_TASK_TYPES.find((t) => t.value === type)?.short ?? ''}批改任务`} />
        )
      ) : (
        <Box component="ul" aria-label="批改任务" sx={{ listStyle: 'none', m: 0, mt: 2, p: 0, display: 'grid', gap: 1 }}>
          {records.map((task) => (
            <TaskRow key={task.id} task={task} onRemove={setRemoving} onFinished={reload} />
          ))}
        </Box>
      )}
      {tasks.data && tasks.data.pages > 1 && (
        <Pagination sx={{ mt: 2, display: 'flex', justifyContent: 'center' }} count={tasks.data.pages} page={current} onChange={(_, p) => setCurrent(p)} />
      )}
      <Confirm
        isOpen={removing !== null}
        title="删除批改任务"
        content={`确定删除「${removing?.title ?? ''}」吗？已上传的文件会一起删除。`}
        confirm="删除"
        cancel="取消"
        onConfirm={() => {
          if (removing) remove.mutate(removing.id);
          setRemoving(null);
        }}
        onClose={() => setRemoving(null)}
      />
    </ScreenCard>
  );
}
