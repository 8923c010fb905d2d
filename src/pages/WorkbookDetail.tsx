// 练习册详情: a book page by page with every question as printed; an editor (admin, part-timer)
// adds, edits, reorders and deletes questions. Writes are pessimistic: the book reloads after each.
// A book the caller may not change (the platform's shared books, for a school's part-timer) is
// shown without any of the edit actions, which the server would refuse.
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { Confirm, useDataProvider, useNotify } from 'react-admin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import LinearProgress from '@mui/material/LinearProgress';
import type { AppDataProvider } from '../dataProvider';
import type { BookPage, BookQuestion, QuestionInput } from '../dataProvider/workbooks';
import { ScreenCard } from '../ui/ScreenCard';
import { EmptyState } from '../ui/EmptyState';
import { MathText } from './MathText';
import { QuestionDialog } from './QuestionDialog';
import { ImportButton, TemplateButton } from '../resources/views/Transfer';
import type { ScreenProps } from './screen';

const TYPE_LABELS: Record<number, string> = { 1: '单选', 2: '多选', 3: '判断', 4: '填空', 5: '解答', 6: '综合', 7: '作文' };

export default function WorkbookDetail({ route }: ScreenProps) {
  const { bookId = '' } = useParams();
  const api = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const key = ['workbook', bookId];
  const book = useQuery({ queryKey: key, queryFn: () => api.workbook(bookId) });
  const [editing, setEditing] = useState<{ page: BookPage; question?: BookQuestion } | null>(null);
  const [removing, setRemoving] = useState<BookQuestion | null>(null);

  const write = useMutation({
    mutationFn: (run: () => Promise<unknown>) => run(),
    onSuccess: async () => {
      notify('已保存', { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const run = (action: () => Promise<unknown>) => write.mutateAsync(action).catch(() => undefined);

  const save = async (input: QuestionInput) => {
    if (!editing) return;
    const { page, question } = editing;
    await write.mutateAsync(() =>
      question ? api.updateBookQuestion(bookId, question.id, input) : api.addBookQuestion(bookId, page.id, input),
    );
    setEditing(null);
  };
  const move = (page: BookPage, index: number, by: -1 | 1) => {
    const ids = page.questions.map((q) => q.id);
    [ids[index], ids[index + by]] = [ids[index + by], ids[index]];
    void run(() => api.reorderBookPage(bookId, page.id, ids));
  };

  const data = book.data;
  const editable = data?.editable === true;
  const transfer = {
    label: '题目',
    transfer: {
      template: { url: `/api/minerva/v1.0/exercisebooks/${bookId}/import-template`, fileName: `${data?.title ?? '练习册'}-题目导入模板.xlsx` },
      import: { url: `/api/minerva/v1.0/exercisebooks/${bookId}/import` },
    },
  };
  return (
    <ScreenCard
      title={data ? `${route.meta.title}：${data.title}` : route.meta.title}
      description={
        data && !editable
          ? '按页查看题目。'
          : '按页查看和编辑题目；也可下载模板，在 Excel 中填写后批量导入（整份文件无误才会导入）。'
      }
    >
      {data && !editable && (
        <Alert severity="info" sx={{ mt: 1 }}>
          这是平台共享练习册，仅平台管理员可以修改，本校只能查看。
        </Alert>
      )}
      {editable && (
        <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
          <TemplateButton config={transfer} />
          <ImportButton config={transfer} />
        </Stack>
      )}
      {book.isPending && <LinearProgress sx={{ mt: 2 }} />}
      {book.isError && <EmptyState text={book.error instanceof Error ? book.error.message : '加载失败'} />}
      {data && data.chapters.length === 0 && <EmptyState text="暂无数据" />}
      {data?.chapters.map((chapter) => (
        <Box key={chapter.id} sx={{ mt: 3 }}>
          <Typography variant="h6" component="h2">{chapter.title}</Typography>
          {chapter.sections.map((section) => (
            <Box key={section.id} sx={{ mt: 2 }}>
              <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>{section.title}</Typography>
              {section.pages.map((page) => (
                <Paper key={page.id} variant="outlined" sx={{ p: 2, mt: 1.5 }} data-page={page.pageNo}>
                  <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
                    <Typography variant="subtitle2" color="text.secondary">第 {page.pageNo} 页</Typography>
                    {editable && <Button size="small" onClick={() => setEditing({ page })}>添加题目</Button>}
                  </Stack>
                  {page.questions.length === 0 && <Typography color="text.secondary">暂无数据</Typography>}
                  {page.questions.map((q, index) => (
                    <Box key={q.id} data-question={q.id} sx={{ py: 1.5, borderTop: index ? 1 : 0, borderColor: 'divider' }}>
                      <Typography component="div">
                        <strong>{q.no}.</strong> <Chip size="small" label={TYPE_LABELS[q.type] ?? '题目'} sx={{ mx: 0.5 }} />
                        <span data-stem><MathText text={q.stem} /></span>
                        <Typography component="span" color="text.secondary">（{q.points} 分）</Typography>
                      </Typography>
                      {q.options?.map((o) => (
                        <Typography key={o.key} component="div" sx={{ pl: 3 }}>
                          {o.key}. <MathText text={o.text} />
                        </Typography>
                      ))}
                      {q.children.map((child, k) => (
                        <Box key={child.id} sx={{ pl: 3, mt: 0.5 }} data-child={k + 1}>
                          <Typography component="div">
                            （{k + 1}）<Chip size="small" variant="outlined" label={TYPE_LABELS[child.type] ?? '题目'} sx={{ mx: 0.5 }} />
                            <MathText text={child.stem} />
                            <Typography component="span" color="text.secondary">（{child.points} 分）</Typography>
                          </Typography>
                          {child.options?.map((o) => (
                            <Typography key={o.key} component="div" sx={{ pl: 3 }}>
                              {o.key}. <MathText text={o.text} />
                            </Typography>
                          ))}
                          <Typography variant="body2" component="div" color="text.secondary">答案：<MathText text={child.answer} /></Typography>
                        </Box>
                      ))}
                      <Typography variant="body2" component="div" sx={{ mt: 0.5 }} data-answer>
                        答案：<MathText text={q.answer} />
                      </Typography>
                      {q.analysis && (
                        <Typography variant="body2" component="div" color="text.secondary" data-analysis>
                          解析：<MathText text={q.analysis} />
                        </Typography>
                      )}
                      <Stack direction="row" spacing={0.5} sx={{ mt: 0.5, flexWrap: 'wrap', alignItems: 'center' }}>
                        {q.knowledgePoints.map((k) => <Chip key={k.id} size="small" variant="outlined" label={k.name} />)}
                        {editable && (
                          <>
                            <Box sx={{ flex: 1 }} />
                            <Button size="small" disabled={index === 0 || write.isPending} onClick={() => move(page, index, -1)}>上移</Button>
                            <Button size="small" disabled={index === page.questions.length - 1 || write.isPending} onClick={() => move(page, index, 1)}>下移</Button>
                            <Button size="small" onClick={() => setEditing({ page, question: q })}>编辑</Button>
                            <Button size="small" color="error" onClick={() => setRemoving(q)}>删除</Button>
                          </>
                        )}
                      </Stack>
                    </Box>
                  ))}
                </Paper>
              ))}
            </Box>
          ))}
        </Box>
      ))}
      {editing && data && (
        <QuestionDialog subjectId={data.subjectId} question={editing.question} saving={write.isPending} onSave={save} onClose={() => setEditing(null)} />
      )}
      <Confirm
        isOpen={removing !== null}
        title="删除题目"
        content={removing ? `确定删除第 ${removing.no} 题吗？` : ''}
        confirm="删除"
        cancel="取消"
        loading={write.isPending}
        onConfirm={async () => {
          if (removing) await run(() => api.deleteBookQuestion(bookId, removing.id));
          setRemoving(null);
        }}
        onClose={() => setRemoving(null)}
      />
    </ScreenCard>
  );
}
