// 新建批改任务 (/AICorrect/createCorrectTask) of the mini-program teacher. Without a task: one form
// per task type, by tab or `?type=` — 答题卡 (design a sheet and its key, or `&source=exam` the sheet
// of an exam's paper with the key from its questions), 作业 (an assigned
// homework, or a title and question count), 作文 (title, genre, length, full marks). Once created,
// the task's id goes into the address (`?taskId=`), so a reload or a later visit (继续 on the list)
// comes back to the same task: its files as the server has them, more uploads, 提交批改, and the
// grading followed every 2 s until 已批改 (with its report) or 批改失败. Laid out for a phone first.
import { useCallback, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useDataProvider, useNotify } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import type { AppDataProvider } from '../../dataProvider';
import type { ClassItem } from '../../dataProvider/api';
import { LEADER_TYPES } from '../../domain/roles';
import { GRADING_STATUSES, GRADING_TASK_TYPES, GradingStatus } from '../../domain/enums';
import type { ScreenProps } from '../screen';
import { ScreenCard } from '../../ui/ScreenCard';
import { ExamSheet } from './ExamSheet';
import { SheetDesigner, type CreatedSheetTask } from './SheetDesigner';
import { Uploader } from './Uploader';

/** How often a task being graded is asked for its progress. */
const POLL_MS = 2000;
const GENRES = ['记叙文', '议论文', '说明文', '其他'] as const;
const TYPES = [3, 1, 2] as const;

const typeLabel = (type: number) => GRADING_TASK_TYPES.find((t) => t.value === type)?.short ?? '';
const statusLabel = (status: number) => GRADING_STATUSES.find((s) => s.value === status)?.label ?? '未知状态';
const className = (c: ClassItem) => (c.gradeName && !c.className.startsWith(c.gradeName) ? `${c.gradeName}${c.className}` : c.className);
const small = { size: 'small' as const };

function ClassSelect({ classes, value, onChange }: { classes: ClassItem[]; value: string; onChange: (id: string) => void }) {
  return (
    <TextField {...small} select required label="班级" value={value} onChange={(e) => onChange(e.target.value)} fullWidth={false} sx={{ minWidth: 200 }} slotProps={{ htmlInput: { 'data-testid': 'task-class' } }}>
      {classes.map((c) => (
        <MenuItem key={c.id} value={String(c.id)}>
          {className(c)}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** 作业: the questions come from a homework given to the class, or just their count. */
function HomeworkForm({ classes, onCreated }: { classes: ClassItem[]; onCreated: (taskId: number) => void }) {
  const api = useDataProvider<AppDataProvider>();
  const [classId, setClassId] = useState(classes[0] ? String(classes[0].id) : '');
  const [homeworkId, setHomeworkId] = useState('');
  const [title, setTitle] = useState('');
  const [count, setCount] = useState(10);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const homeworks = useQuery({ queryKey: ['homeworkPage', classId], queryFn: () => api.homeworkPage({ classId, size: 50 }), enabled: Boolean(classId) });
  const chosen = homeworks.data?.records.find((h) => String(h.id) === homeworkId);

  const create = async () => {
    setError('');
    const name = title.trim() || chosen?.title || '';
    if (!classId) return setError('请选择班级');
    if (!name) return setError('请填写作业名称');
    if (!chosen && !(Number.isInteger(count) && count >= 1 && count <= 100)) return setError('题目数量在 1 到 100 之间');
    setBusy(true);
    try {
      // The homework's questions as frozen when assigned, so the photo's answers line up with them.
      const questions = chosen
        ? (await api.homeworkDetail(chosen.id)).questions.slice(0, 100).map((q, i) => ({ no: Math.min(200, Number.parseInt(q.no, 10) || i + 1), text: q.question.stem.slice(0, 500) }))
        : Array.from({ length: count }, (_, i) => ({ no: i + 1 }));
      // Linked to the homework, the teacher's review writes each student's answer records.
      const task = await api.createCorrectTask({ type: 1, title: name.slice(0, 50), classId: Number(classId), questions, ...(chosen ? { homeworkId: chosen.id } : {}) });
      onCreated(task.id);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box sx={{ display: 'grid', gap: 2, mt: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5 }}>
        <ClassSelect classes={classes} value={classId} onChange={(id) => (setClassId(id), setHomeworkId(''))} />
        <TextField {...small} select label="已布置的作业" value={homeworkId} onChange={(e) => setHomeworkId(e.target.value)} sx={{ flex: '1 1 220px' }}>
          <MenuItem value="">不选作业，手动填写题目数量</MenuItem>
          {homeworks.data?.records.map((h) => (
            <MenuItem key={h.id} value={String(h.id)}>
              {h.title}（{h.questionCount} 题）
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5 }}>
        <TextField {...small} label="作业名称" placeholder={chosen?.title ?? '如 第三单元练习'} value={title} onChange={(e) => setTitle(e.target.value)} slotProps={{ htmlInput: { maxLength: 50 } }} sx={{ flex: '1 1 220px' }} />
        {!chosen && (
          <TextField {...small} type="number" label="题目数量" value={Number.isNaN(count) ? '' : count} onChange={(e) => setCount(e.target.value === '' ? NaN : Number(e.target.value))} slotProps={{ htmlInput: { min: 1, max: 100 } }} style={{ width: 110 }} />
        )}
      </Box>
      {error && <Alert severity="warning">{error}</Alert>}
      <Box>
        <Button variant="contained" disabled={busy} onClick={() => void create()}>
          创建任务并上传照片
        </Button>
      </Box>
    </Box>
  );
}

/** The genre rides in the brief's title, e.g. 「我的老师」（记叙文）, read back by `genreOf`. */
const briefTitle = (title: string, genre: string) => `${title}（${genre}）`;
const genreOf = (brief: string | undefined) => /（(记叙文|议论文|说明文|其他)）$/.exec(brief ?? '')?.[1];

/** 作文: title, genre, minimum length and full marks, for the essay scorer. */
function EssayForm({ classes, onCreated }: { classes: ClassItem[]; onCreated: (taskId: number) => void }) {
  const api = useDataProvider<AppDataProvider>();
  const [classId, setClassId] = useState(classes[0] ? String(classes[0].id) : '');
  const [title, setTitle] = useState('');
  const [prompt, setPrompt] = useState('');
  const [genre, setGenre] = useState<string>(GENRES[0]);
  const [minChars, setMinChars] = useState(600);
  const [fullMarks, setFullMarks] = useState(50);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const create = async () => {
    setError('');
    if (!classId) return setError('请选择班级');
    if (!title.trim()) return setError('请填写作文题目');
    if (!(Number.isInteger(minChars) && minChars >= 0 && minChars <= 3000)) return setError('最少字数在 0 到 3000 之间');
    if (!(fullMarks >= 1 && fullMarks <= 150)) return setError('满分在 1 到 150 之间');
    setBusy(true);
    try {
      const task = await api.createCorrectTask({
        type: 2,
        title: title.trim(),
        classId: Number(classId),
        essayBrief: { title: briefTitle(title.trim(), genre), ...(prompt.trim() ? { prompt: prompt.trim() } : {}), minChars, fullMarks },
      });
      onCreated(task.id);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box sx={{ display: 'grid', gap: 2, mt: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5 }}>
        <ClassSelect classes={classes} value={classId} onChange={setClassId} />
        <TextField {...small} required label="作文题目" value={title} onChange={(e) => setTitle(e.target.value)} slotProps={{ htmlInput: { maxLength: 50 } }} sx={{ flex: '1 1 220px' }} />
      </Box>
      <TextField
        {...small}
        multiline
        minRows={2}
        label="完整题目和写作要求（选填）"
        placeholder="如：以“我的老师”为题，写一篇记叙文……"
        helperText="贴上试卷上的完整题目，照抄题目的作文会被识别出来"
        value={prompt}
        onChange={(e) => setPrompt(e.target.value)}
        slotProps={{ htmlInput: { maxLength: 500, 'data-testid': 'essay-prompt' } }}
      />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5 }}>
        <TextField {...small} select label="文体" value={genre} onChange={(e) => setGenre(e.target.value)} style={{ width: 120 }}>
          {GENRES.map((g) => (
            <MenuItem key={g} value={g}>
              {g}
            </MenuItem>
          ))}
        </TextField>
        <TextField {...small} type="number" label="最少字数" value={Number.isNaN(minChars) ? '' : minChars} onChange={(e) => setMinChars(e.target.value === '' ? NaN : Number(e.target.value))} slotProps={{ htmlInput: { min: 0, max: 3000, step: 50 } }} style={{ width: 110 }} />
        <TextField {...small} type="number" label="满分" value={Number.isNaN(fullMarks) ? '' : fullMarks} onChange={(e) => setFullMarks(e.target.value === '' ? NaN : Number(e.target.value))} slotProps={{ htmlInput: { min: 1, max: 150 } }} style={{ width: 100 }} />
      </Box>
      {error && <Alert severity="warning">{error}</Alert>}
      <Box>
        <Button variant="contained" disabled={busy} onClick={() => void create()}>
          创建任务并上传照片
        </Button>
      </Box>
    </Box>
  );
}

/** A created task: its files, more uploads, submitting and the grading's progress. */
function TaskWorkspace({ taskId, printed }: { taskId: number; printed?: { pages: number; copies: number } }) {
  const api = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [studentId, setStudentId] = useState('');
  // Essays: one student at a time, or the whole class's photos at once (each matched afterwards).
  const [batch, setBatch] = useState(false);
  const [busy, setBusy] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const key = ['correctTaskDetail', taskId];
  const detail = useQuery({
    queryKey: key,
    queryFn: () => api.correctTaskDetail(taskId),
    retry: false,
    refetchInterval: (query) => (query.state.data?.task.status === GradingStatus.grading ? POLL_MS : false),
  });
  const task = detail.data?.task;
  const classId = task?.classId ?? null;
  const perStudent = task !== undefined && task.type !== 3;
  const roster = useQuery({ queryKey: ['classStudents', classId], queryFn: () => api.classStudents(classId!), enabled: perStudent && classId !== null });
  const names = useMemo(() => new Map((roster.data ?? []).map((s) => [s.id, s.name])), [roster.data]);
  const studentName = useCallback((id: number) => names.get(id), [names]);
  const reload = useCallback(() => void queryClient.invalidateQueries({ queryKey: ['correctTaskDetail', taskId] }), [queryClient, taskId]);

  if (detail.isError) {
    return (
      <Alert severity="error" sx={{ mt: 2 }}>
        {(detail.error as Error).message || '批改任务不存在'}
      </Alert>
    );
  }
  if (!detail.data || !task) return <LinearProgress sx={{ mt: 2 }} />;
  const files = detail.data.files ?? [];
  const pendingSubmission = task.status === GradingStatus.pendingSubmission;
  const { files: total, done } = detail.data.progress;

  const submit = async () => {
    setSubmitting(true);
    try {
      await api.submitCorrectTask(taskId);
      notify('已提交批改', { type: 'success' });
      reload();
    } catch {
      // The http client has shown why (e.g. 请先上传要批改的图片或扫描件).
    } finally {
      setSubmitting(false);
    }
  };
  const download = async () => {
    setDownloading(true);
    try {
      await api.downloadSheetPdf(task.sheetId!, task.title);
    } catch {
      // Shown by the http client (字体缺少以下字符…).
    } finally {
      setDownloading(false);
    }
  };
  const genre = genreOf(task.essayBrief?.title);

  return (
    <Box sx={{ display: 'grid', gap: 2, mt: 2, minWidth: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', minWidth: 0 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }} data-testid="task-heading">
          {typeLabel(task.type)} · {task.title}
        </Typography>
        <Chip size="small" label={statusLabel(task.status)} data-testid="task-status" color={task.status === GradingStatus.graded ? 'success' : task.status === GradingStatus.failed ? 'error' : task.status === GradingStatus.grading ? 'info' : 'default'} />
      </Box>
      {task.type === 2 && task.essayBrief && (
        <Typography variant="body2" color="text.secondary">
          {genre ? `文体：${genre} · ` : ''}最少 {task.essayBrief.minChars ?? 0} 字 · 满分 {task.essayBrief.fullMarks ?? 100} 分
        </Typography>
      )}
      {task.type === 1 && task.questions && (
        <Typography variant="body2" color="text.secondary">
          共 {task.questions.length} 题
        </Typography>
      )}

      {task.type === 3 && task.sheetId && (
        <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 1.5, display: 'grid', gap: 1 }}>
          <Typography variant="body2">
            {printed ? `答题卡已生成：共 ${printed.copies} 份，每份 ${printed.pages} 页。` : '答题卡已生成。'}
            {pendingSubmission && '打印后发给学生作答，收回后拍照或扫描上传。可以先离开本页，稍后在任务列表点「继续」回来上传。'}
          </Typography>
          <Box>
            <Button variant="outlined" startIcon={<DownloadIcon />} disabled={downloading} onClick={() => void download()}>
              {downloading ? '正在生成 PDF…' : '下载答题卡 PDF'}
            </Button>
          </Box>
        </Box>
      )}

      {pendingSubmission && task.type === 2 && (
        <ToggleButtonGroup
          size="small"
          exclusive
          value={batch ? 'class' : 'one'}
          onChange={(_, v: string | null) => v && setBatch(v === 'class')}
          aria-label="上传方式"
          sx={{ maxWidth: 420 }}
        >
          <ToggleButton value="one">逐个学生上传</ToggleButton>
          <ToggleButton value="class" data-testid="upload-batch">全班一起上传</ToggleButton>
        </ToggleButtonGroup>
      )}
      {pendingSubmission && batch && (
        <Alert severity="info" data-testid="batch-hint">
          一次选择全班的作文照片。作文开头写了姓名或学号的，批改时自动对应到学生；其余的请在下方列表里为每张照片选择学生，也可以批改后在报告中指定。
        </Alert>
      )}
      {pendingSubmission && perStudent && !batch && (
        <TextField
          {...small}
          select
          label="学生"
          value={studentId}
          onChange={(e) => setStudentId(e.target.value)}
          helperText="先选学生，再上传这位学生的作答照片（可多张）"
          sx={{ maxWidth: 320 }}
          slotProps={{ htmlInput: { 'data-testid': 'upload-student' } }}
        >
          {(roster.data ?? []).map((s) => (
            <MenuItem key={s.id} value={String(s.id)}>
              {s.name}（{s.studentNo}）
            </MenuItem>
          ))}
        </TextField>
      )}

      <Uploader
        taskId={taskId}
        files={files}
        studentId={studentId && !batch ? Number(studentId) : undefined}
        needsStudent={perStudent && !batch}
        studentName={studentName}
        roster={task.type === 2 ? roster.data : undefined}
        locked={!pendingSubmission}
        onChanged={reload}
        onBusy={setBusy}
      />

      {pendingSubmission && (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          <Button variant="contained" disabled={!files.length || busy || submitting} onClick={() => void submit()}>
            提交批改
          </Button>
          <Typography variant="caption" color="text.secondary">
            {busy ? '文件上传完成后才能提交' : files.length ? `将批改 ${files.length} 个文件，提交后可在批改报告中补充或重新上传` : '请先上传要批改的图片或扫描件'}
          </Typography>
        </Box>
      )}
      {task.status === GradingStatus.grading && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }} data-testid="grading-progress">
          <LinearProgress variant="determinate" value={total ? (done / total) * 100 : 0} sx={{ flex: 1, height: 8, borderRadius: 4 }} aria-label="批改进度" />
          <Typography variant="caption" sx={{ flexShrink: 0 }}>
            批改中，已识别 {done}/{total}
          </Typography>
        </Box>
      )}
      {task.status === GradingStatus.graded && (
        <Alert
          severity="success"
          action={
            <Button color="inherit" size="small" component={Link} to={`/AICorrect/report?taskId=${taskId}`}>
              查看报告
            </Button>
          }
        >
          已批改：{detail.data.results.length} 名学生有结果
          {detail.data.results.some((r) => r.needsReview) ? `，${detail.data.results.filter((r) => r.needsReview).length} 份待复核` : ''}
        </Alert>
      )}
      {task.status === GradingStatus.failed && (
        <Alert severity="error" data-testid="task-fail-reason">
          批改失败：{task.failReason ?? '文件无法识别'}
        </Alert>
      )}
      <Box>
        <Button component={Link} to="/AICorrect/index" size="small">
          返回任务列表
        </Button>
      </Box>
    </Box>
  );
}

export default function CreateTask({ route }: ScreenProps) {
  const api = useDataProvider<AppDataProvider>();
  const [params, setParams] = useSearchParams();
  const taskId = Number(params.get('taskId'));
  const hasTask = Number.isInteger(taskId) && taskId > 0;
  const askedType = Number(params.get('type'));
  const type = (TYPES as readonly number[]).includes(askedType) ? askedType : 3;
  // What the sheet's creation said (copies, pages); gone after a reload, when the PDF still is there.
  const [printed, setPrinted] = useState<{ pages: number; copies: number }>();
  const classes = useQuery({ queryKey: ['teachClasses', 'mpTeacher'], queryFn: () => api.teachClasses(LEADER_TYPES.mpTeacher!), enabled: !hasTask });
  const open = (id: number) => setParams({ taskId: String(id) }, { replace: true });
  // 答题卡: designed here, or the sheet of an exam's paper (`?source=exam`).
  const fromExam = params.get('source') === 'exam';
  const sheetCreated = (created: CreatedSheetTask) => {
    setPrinted({ pages: created.pages, copies: created.copies });
    open(created.taskId);
  };

  return (
    <ScreenCard title={route.meta.title}>
      {hasTask ? (
        <TaskWorkspace key={taskId} taskId={taskId} printed={printed} />
      ) : (
        <>
          <Tabs
            value={type}
            onChange={(_, value: number) => setParams({ type: String(value) }, { replace: true })}
            variant="fullWidth"
            sx={{ mt: 1, borderBottom: 1, borderColor: 'divider', '& .MuiTab-root': { minWidth: 0, px: 0.5 } }}
            aria-label="批改类型"
          >
            {TYPES.map((t) => (
              <Tab key={t} label={typeLabel(t)} value={t} />
            ))}
          </Tabs>
          {classes.data === undefined ? (
            <LinearProgress sx={{ mt: 2 }} />
          ) : classes.data.length === 0 ? (
            <Alert severity="info" sx={{ mt: 2 }}>
              您还没有任教的班级，请联系学校管理员。
            </Alert>
          ) : type === 3 ? (
            <>
              <ToggleButtonGroup
                size="small"
                exclusive
                fullWidth
                value={fromExam ? 'exam' : 'design'}
                onChange={(_, v: string | null) => v && setParams(v === 'exam' ? { type: '3', source: 'exam' } : { type: '3' }, { replace: true })}
                aria-label="答题卡来源"
                sx={{ mt: 2 }}
              >
                <ToggleButton value="design">设计答题卡</ToggleButton>
                <ToggleButton value="exam">使用试卷的答题卡</ToggleButton>
              </ToggleButtonGroup>
              {fromExam ? <ExamSheet onCreated={sheetCreated} /> : <SheetDesigner classes={classes.data} onCreated={sheetCreated} />}
            </>
          ) : type === 1 ? (
            <HomeworkForm classes={classes.data} onCreated={open} />
          ) : (
            <EssayForm classes={classes.data} onCreated={open} />
          )}
        </>
      )}
    </ScreenCard>
  );
}
