// 布置作业 (/assignHomework of the mini-program teacher, /homeworkAssign of the classic one): pick a book of the selected grade and course, tick pages
// (their questions previewed), tick classes, set the due time (and, to publish later, the time
// students first see it) and a note to them, and assign; below, the homework already
// given with completion and accuracy, each opening its 作业详情. Errors come as the server's own message from the http client.
import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { useDataProvider, useNotify, usePermissions } from 'react-admin';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../dataProvider';
import type { BasketHomework, BookDetail, HomeworkRecord } from '../dataProvider/minerva';
import type { Permissions } from '../authProvider';
import { useSelection } from '../filters/SelectionProvider';
import type { ScreenProps } from './screen';
import EmptyScreen from './EmptyScreen';
import { EmptyState } from '../ui/EmptyState';
import { ScreenCard } from '../ui/ScreenCard';
import { NoteField, QuestionPreview, TimeField } from './homeworkFields';
import { HomeworkFilePicker, KeyEditor, keyOf, nextRow, rowProblem, type KeyRow } from './homeworkKey';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import type { HomeworkFile } from '../dataProvider/minerva';
import { chinaDayStart, chinaInputValue, dateTime, fromChinaInput, percent } from '../domain/format';

const TEACHERS = ['teacher', 'mpTeacher'];


/** Tomorrow at the given hour, China time, as a date-time input's value. */
function tomorrowAt(hour: number) {
  return chinaInputValue(chinaDayStart(new Date(Date.now() + 86400_000)).getTime() + hour * 3600_000);
}
const defaultDue = () => tomorrowAt(22);

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Box component="section" sx={{ mt: 3 }}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/** One section per fold (a book has dozens of questions); the first is open, the others open on demand. */
function Pages({ book, picked, toggle }: { book: BookDetail; picked: Set<number>; toggle: (id: number) => void }) {
  const sections = book.chapters.flatMap((chapter) => chapter.sections.map((section) => ({ chapter, section })));
  return (
    <Box sx={{ minWidth: 0 }}>
      {sections.map(({ chapter, section }, index) => {
        const chosen = section.pages.filter((p) => picked.has(p.id)).length;
        return (
          <Accordion key={section.id} defaultExpanded={index === 0} disableGutters variant="outlined" slotProps={{ transition: { unmountOnExit: true } }}>
            <AccordionSummary expandIcon={<ExpandMoreIcon />}>
              <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                {chapter.title} · {section.title}
                {chosen > 0 && (
                  <Typography component="span" variant="body2" color="primary" sx={{ ml: 1 }}>
                    已选 {chosen} 页
                  </Typography>
                )}
              </Typography>
            </AccordionSummary>
            <AccordionDetails sx={{ pt: 0, minWidth: 0 }}>
              {section.pages.map((page) => (
                <Box key={page.id} sx={{ minWidth: 0 }}>
                  <FormControlLabel
                    control={<Checkbox checked={picked.has(page.id)} onChange={() => toggle(page.id)} />}
                    label={`第 ${page.pageNo} 页（${page.questions.length} 题）`}
                  />
                  <Box component="ol" sx={{ m: 0, pl: { xs: 2.5, sm: 4 }, fontSize: 14, color: 'text.secondary' }}>
                    {page.questions.map((q) => (
                      <li key={q.id} value={q.no} data-testid="question-preview">
                        <QuestionPreview stem={q.stem} options={q.options} />
                      </li>
                    ))}
                  </Box>
                </Box>
              ))}
            </AccordionDetails>
          </Accordion>
        );
      })}
    </Box>
  );
}

/** The questions brought from the paper builder's 试题篮, as they will be numbered in the homework. */
function BasketQuestions({ basket }: { basket: BasketHomework }) {
  return (
    <Box component="ol" sx={{ m: 0, pl: { xs: 2.5, sm: 4 }, fontSize: 14, color: 'text.secondary', display: 'grid', gap: 0.5, minWidth: 0 }} aria-label="题库选题">
      {basket.questions.map((q) => (
        <li key={q.id} data-testid="basket-question" data-question-id={q.id}>
          <QuestionPreview stem={q.stem} options={q.options} />
        </li>
      ))}
    </Box>
  );
}

function HomeworkList({ records, detailPath }: { records: HomeworkRecord[] | undefined; detailPath: string }) {
  if (records === undefined) return <LinearProgress />;
  if (records.length === 0) return <EmptyState />;
  return (
    <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }} aria-label="已布置的作业">
      {records.map((h) => (
        <Box
          component="li"
          key={h.id}
          data-testid="homework-row"
          data-homework-id={h.id}
          sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 1.5, display: 'grid', gap: 0.5, gridTemplateColumns: { xs: '1fr 1fr', md: '2fr 1fr 1fr 1fr' }, alignItems: 'center', minWidth: 0 }}
        >
          <Box sx={{ minWidth: 0, gridColumn: { xs: '1 / -1', md: 'auto' } }}>
            {/* Opens who has and has not submitted, per-question results and the export. */}
            <Link component={RouterLink} to={`${detailPath}?id=${h.id}`} underline="hover" sx={{ fontWeight: 600, overflowWrap: 'anywhere', display: 'block' }}>
              {h.title}
            </Link>
            <Typography variant="body2" color="text.secondary">
              {h.className} · {h.courseName} · {h.fileId ? '照片/文件作业 · ' : ''}{h.questionCount} 题 · 截止 {dateTime(h.dueAt)}
            </Typography>
            {!h.published && h.startAt && (
              <Chip size="small" color="warning" variant="outlined" data-testid="homework-scheduled" label={`定时发布 ${dateTime(h.startAt)}`} sx={{ mt: 0.5 }} />
            )}
          </Box>
          <Typography variant="body2" data-testid="homework-completion">
            完成 {h.submittedCount}/{h.studentCount}
          </Typography>
          <Typography variant="body2" data-testid="homework-accuracy">
            正确率 {percent(h.accuracy)}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ gridColumn: { xs: '1 / -1', md: 'auto' } }}>
            布置于 {dateTime(h.assignedAt)}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

function Assign({ detailPath }: { detailPath: string }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const { selection } = useSelection();
  const { gradeId, courseId, classId, classList } = selection;
  // Questions chosen in the paper builder's 试题篮 (布置为作业), given instead of book pages.
  const location = useLocation();
  const [basket, setBasket] = useState<BasketHomework | null>(() => (location.state as BasketHomework | null)?.questions?.length ? (location.state as BasketHomework) : null);
  const [title, setTitle] = useState(() => basket?.title ?? '');
  const [bookId, setBookId] = useState('');
  /** 练习册页面, or a photo/PDF of the assignment with its answer key. */
  const [source, setSource] = useState<'book' | 'file'>('book');
  const [file, setFile] = useState<HomeworkFile | null>(null);
  const [key, setKey] = useState<KeyRow[]>(() => [nextRow([])]);
  const [pages, setPages] = useState<Set<number>>(new Set());
  const [classIds, setClassIds] = useState<Set<number>>(new Set());
  const [due, setDue] = useState(defaultDue);
  const [note, setNote] = useState('');
  /** Scheduled publishing: students see the homework from `start` on. */
  const [scheduled, setScheduled] = useState(false);
  const [start, setStart] = useState(() => tomorrowAt(7));
  const [busy, setBusy] = useState(false);
  /** The server's question when these pages were already given to a class (409). */
  const [duplicate, setDuplicate] = useState<string | null>(null);

  const gradeClasses = useMemo(() => classList.filter((c) => String(c.gradeId) === gradeId), [classList, gradeId]);

  const bookList = useQuery({ queryKey: ['assignableBooks', gradeId, courseId], queryFn: () => dataProvider.assignableBooks(gradeId, courseId), enabled: !!gradeId && !!courseId, retry: false });
  const books = !gradeId || !courseId ? undefined : bookList.isError ? [] : bookList.data;
  useEffect(() => setBookId(''), [gradeId, courseId]);

  useEffect(() => {
    setClassIds(new Set(classId ? [Number(classId)] : []));
  }, [classId]);

  const bookDetail = useQuery({ queryKey: ['bookDetail', bookId], queryFn: () => dataProvider.bookDetail(bookId), enabled: !!bookId, retry: false });
  const book = bookId ? bookDetail.data : undefined;
  useEffect(() => setPages(new Set()), [bookId]);
  // A book that cannot be opened is unpicked.
  useEffect(() => {
    if (bookDetail.isError) setBookId('');
  }, [bookDetail.isError]);

  const homeworkPage = useQuery({ queryKey: ['homeworkPage', courseId], queryFn: () => dataProvider.homeworkPage({ courseId, current: 1, size: 20 }), enabled: !!courseId, retry: false });
  const homework = !courseId || homeworkPage.isError ? [] : homeworkPage.data?.records;

  const toggle = (set: Set<number>, id: number) => {
    const next = new Set(set);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  };

  const fromFile = !basket && source === 'file';
  const keyReady = key.length > 0 && key.every((row) => rowProblem(row, key) === null);
  const ready = (basket ? basket.questions.length > 0 && title.trim() : fromFile ? file && title.trim() && keyReady : bookId && pages.size > 0) && classIds.size > 0 && due && (!scheduled || start) && !busy;
  const submit = async (confirmDuplicate = false) => {
    setDuplicate(null);
    setBusy(true);
    try {
      const result = await dataProvider.assignHomework({
        courseId: Number(courseId),
        classIds: [...classIds],
        dueAt: fromChinaInput(due),
        ...(basket
          ? { questionIds: basket.questions.map((q) => q.id), title: title.trim() }
          : fromFile
            ? { fileId: file!.id, key: keyOf(key), title: title.trim() }
            : { bookId: Number(bookId), pageIds: [...pages] }),
        ...(note.trim() ? { note } : {}),
        ...(scheduled && start ? { startAt: fromChinaInput(start) } : {}),
        ...(confirmDuplicate ? { confirmDuplicate: true } : {}),
      });
      notify(`已布置「${result.title}」给 ${result.homeworks.length} 个班级`, { type: 'success' });
      setPages(new Set());
      setNote('');
      // A file is given once; the next photo homework starts afresh.
      if (fromFile) {
        setFile(null);
        setKey([nextRow([])]);
        setTitle('');
      }
      // Given once: another homework starts from the book again.
      setBasket(null);
      void homeworkPage.refetch();
    } catch (error) {
      const { status, message } = error as { status?: number; message?: string };
      if (status === 409) setDuplicate(message ?? '这些页面已布置过，仍要再布置一次吗？');
      else notify(message || '布置失败，请稍后重试', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  if (!gradeId || !courseId) return <EmptyState text="请先在上方选择班级和学科" />;
  return (
    <>
      {basket ? (
        <Section title={`1. 题库选题（${basket.questions.length} 题，分值按题库）`}>
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center', mb: 1.5 }}>
            <TextField size="small" label="作业标题" value={title} onChange={(e) => setTitle(e.target.value)} slotProps={{ htmlInput: { maxLength: 100 } }} sx={{ width: { xs: '100%', sm: 360 } }} />
            <Button onClick={() => setBasket(null)}>改用练习册</Button>
          </Box>
          <BasketQuestions basket={basket} />
        </Section>
      ) : (
      <>
      <ToggleButtonGroup size="small" exclusive value={source} onChange={(_, v) => v && setSource(v)} aria-label="作业内容" sx={{ mt: 2 }}>
        <ToggleButton value="book">练习册页面</ToggleButton>
        <ToggleButton value="file">照片或文件（附答案）</ToggleButton>
      </ToggleButtonGroup>
      {source === 'file' ? (
        <>
          <Section title="1. 上传作业原件">
            <Box sx={{ display: 'grid', gap: 1.5, maxWidth: 640 }}>
              <TextField size="small" label="作业标题" required value={title} onChange={(e) => setTitle(e.target.value)} placeholder="如 第三单元课后练习" slotProps={{ htmlInput: { maxLength: 100 } }} sx={{ width: { xs: '100%', sm: 360 } }} />
              <HomeworkFilePicker file={file} onChange={setFile} />
            </Box>
          </Section>
          <Section title={`2. 填写答案（${key.length} 题）`}>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
              选择、判断、填空题按答案自动批改（AI 批改中关联这份作业），解答题只填分值，由老师批改。
            </Typography>
            <KeyEditor rows={key} onChange={setKey} />
          </Section>
        </>
      ) : (
      <Section title="1. 选择练习册">
        {books === undefined ? (
          <LinearProgress />
        ) : books.length === 0 ? (
          <EmptyState />
        ) : (
          <TextField select fullWidth size="small" label="练习册" value={bookId} onChange={(e) => setBookId(e.target.value)} sx={{ maxWidth: 480 }}>
            {books.map((b) => (
              <MenuItem key={b.id} value={String(b.id)}>
                {b.title}
              </MenuItem>
            ))}
          </TextField>
        )}
      </Section>
      )}
      </>
      )}
      {/* Shown before a book is picked too, so the steps read 1, 2, 3, 4. */}
      {!basket && !fromFile && (
        <Section title={bookId ? `2. 选择页面（已选 ${pages.size} 页）` : '2. 选择页面'}>
          {!bookId ? (
            <Typography variant="body2" color="text.secondary">
              请先选择练习册
            </Typography>
          ) : book ? (
            <Pages book={book} picked={pages} toggle={(id) => setPages((p) => toggle(p, id))} />
          ) : (
            <LinearProgress />
          )}
        </Section>
      )}
      <Section title={`${basket ? 2 : 3}. 选择班级`}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2 }}>
          {gradeClasses.map((c) => (
            <FormControlLabel
              key={c.id}
              control={<Checkbox checked={classIds.has(Number(c.id))} onChange={() => setClassIds((s) => toggle(s, Number(c.id)))} />}
              label={c.className}
            />
          ))}
        </Box>
      </Section>
      <Section title={`${basket ? 3 : 4}. 留言、发布和截止时间`}>
        <NoteField
          fullWidth
          label="给学生的留言（选填）"
          placeholder="例如：第 3 题写出完整过程；拍照时把整页拍清楚"
          value={note}
          onChange={setNote}
          sx={{ maxWidth: 640, mb: 2 }}
        />
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
          <FormControlLabel control={<Checkbox checked={scheduled} onChange={(e) => setScheduled(e.target.checked)} />} label="定时发布" />
          {scheduled && <TimeField wide label="发布时间" value={start} onChange={setStart} helperText="学生在此之前看不到这份作业" />}
          <TimeField wide label="截止时间" value={due} onChange={setDue} />
          <Button variant="contained" disabled={!ready} onClick={() => submit()}>
            布置作业
          </Button>
        </Box>
      </Section>
      <Section title="已布置的作业">
        <HomeworkList records={homework} detailPath={detailPath} />
      </Section>
      <Dialog open={duplicate !== null} onClose={() => setDuplicate(null)} aria-labelledby="duplicate-title">
        <DialogTitle id="duplicate-title">重复布置</DialogTitle>
        <DialogContent>
          <DialogContentText>{duplicate}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDuplicate(null)}>取消</Button>
          <Button variant="contained" onClick={() => submit(true)} disabled={busy}>
            仍要布置
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

export default function AssignHomework({ route }: ScreenProps) {
  const { permissions } = usePermissions<Permissions>();
  if (!permissions) return null;
  if (!TEACHERS.includes(permissions.activeRole)) return <EmptyScreen route={route} />;
  return (
    <ScreenCard title={route.meta.title} description="选择练习册页面（或从试卷的试题篮布置为作业，或上传作业照片、PDF 并填写答案）和班级，设定截止时间后布置，可定时发布；下方列出已布置作业的完成情况和正确率。">
      {/* Each teacher's own 作业详情: the classic one sits under 作业, the mini-program one under 布置作业. */}
      <Assign detailPath={route.parent === '/homework' ? '/homeworkDetails' : '/assignHomework/details'} />
    </ScreenCard>
  );
}
