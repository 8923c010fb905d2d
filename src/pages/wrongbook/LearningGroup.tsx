// 学情组卷 (/learningGroup, classic teacher, full width): the class's most-missed questions of the
// term (homework mistakes by default, SPEC §3 mistake type), chosen by error rate, put into a paper
// draft (src/pages/paperDraft.ts: sections by question type, the bank's points), saved as the
// teacher's paper and opened in 试卷打印. Questions chosen in the wrong-answer book arrive as
// ?questionIds=… and start checked.
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useDataProvider, useNotify } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonGroup from '@mui/material/ButtonGroup';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ArrowBack from '@mui/icons-material/ArrowBack';
import type { AppDataProvider } from '../../dataProvider';
import type { ClassMistake } from '../../dataProvider/wrongbook';
import { MISTAKE_TYPES } from '../../domain/enums';
import { termOptions } from '../../domain/semester';
import { useSelection } from '../../filters/SelectionProvider';
import { classLabel } from '../../filters/widgets';
import type { ScreenProps } from '../screen';
import { EmptyState } from '../../ui/EmptyState';
import { ScreenCard } from '../../ui/ScreenCard';
import { addQuestion, draftCount, draftTotal, emptyDraft, gradeLevelOf, LIMITS, toInput, type Draft } from '../paperDraft';
import { MistakeList } from './MistakeList';

/** The most-missed questions offered: enough for a paper, a bounded read. */
const OFFERED = 50;
const QUICK = [5, 10, 20];

export default function LearningGroup({ route }: ScreenProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { selection } = useSelection();
  const { classId, courseId, gradeName, className, courseName, subjectId, learningTerm, mistakeType } = selection;
  const gradeLevel = gradeLevelOf(gradeName);
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [title, setTitle] = useState('');
  const [saving, setSaving] = useState(false);

  const { data, isPending, isError } = useQuery({
    queryKey: ['classMistakes', 'learningGroup', classId, courseId, learningTerm, mistakeType],
    queryFn: () => dataProvider.classMistakes({ classId, courseId, term: learningTerm, mistakeType: mistakeType ?? undefined, size: OFFERED }),
    enabled: Boolean(classId && courseId),
  });
  const records = useMemo(() => data?.records ?? [], [data]);

  // Preselect what the wrong-answer book passed, else the ten most missed.
  useEffect(() => {
    const passed = (params.get('questionIds') ?? '').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
    const known = records.filter((r) => passed.includes(r.question.id)).map((r) => r.question.id);
    setChosen(new Set(known.length ? known : records.slice(0, 10).map((r) => r.question.id)));
  }, [records, params]);
  useEffect(() => setTitle(`${classLabel(gradeName, className)}${courseName}学情组卷`), [gradeName, className, courseName]);

  const draft: Draft = useMemo(() => {
    let d = emptyDraft(title);
    for (const m of records) if (chosen.has(m.question.id)) {
      const next = addQuestion(d, m.question);
      if (typeof next !== 'string') d = next;
    }
    return d;
  }, [records, chosen, title]);

  const toggle = (m: ClassMistake) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (next.has(m.question.id)) next.delete(m.question.id);
      else next.add(m.question.id);
      return next;
    });

  const save = async () => {
    if (!gradeLevel || !subjectId) return notify('无法确定年级或学科，请重新选择班级和课程', { type: 'warning' });
    if (!draftCount(draft)) return notify('请至少选择一道错题', { type: 'warning' });
    if (!title.trim()) return notify('请填写试卷标题', { type: 'warning' });
    setSaving(true);
    try {
      const paper = await dataProvider.createPaper(toInput(draft, Number(subjectId), gradeLevel));
      notify(`已生成试卷「${paper.title}」`, { type: 'success' });
      navigate(`/paperPrinter?paperId=${paper.id}`);
    } catch (e) {
      notify(e instanceof Error ? e.message : '试卷保存失败', { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  const term = termOptions().find((o) => o.value === learningTerm)?.label ?? learningTerm;
  const kind = MISTAKE_TYPES.find((o) => o.value === mistakeType)?.label;
  const description = classId ? [classLabel(gradeName, className), courseName, term, kind && `${kind}错题`].filter(Boolean).join(' · ') : undefined;

  return (
    <ScreenCard title={route.meta.title} description={description}>
      <Button component={Link} to="/paper" startIcon={<ArrowBack />} size="small" sx={{ mt: 1 }}>
        返回组卷
      </Button>
      {!classId || !courseId ? (
        <EmptyState text={classId ? '请先在上方选择课程' : '请先在上方选择班级'} />
      ) : isPending ? (
        <LinearProgress sx={{ mt: 2 }} />
      ) : isError || records.length === 0 ? (
        <EmptyState />
      ) : (
        <Stack spacing={2} sx={{ mt: 2 }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
            <TextField size="small" label="试卷标题" value={title} onChange={(e) => setTitle(e.target.value)} slotProps={{ htmlInput: { maxLength: LIMITS.title } }} sx={{ flex: 1 }} />
            <ButtonGroup size="small" aria-label="按错误率选题">
              {QUICK.map((n) => (
                <Button key={n} onClick={() => setChosen(new Set(records.slice(0, n).map((r) => r.question.id)))}>
                  错误率最高 {n} 题
                </Button>
              ))}
            </ButtonGroup>
          </Stack>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', position: 'sticky', top: 0, zIndex: 2, bgcolor: 'background.paper', py: 1 }}>
            <Typography data-testid="draft-summary">
              已选 {draftCount(draft)} 题，共 {draft.sections.length} 个大题，总分 {draftTotal(draft)} 分
            </Typography>
            <Button variant="contained" disabled={saving || !draftCount(draft)} onClick={save}>
              生成试卷并打印
            </Button>
          </Box>
          <Typography variant="body2" color="text.secondary">
            本班错误率最高的 {records.length} 道题（共 {data?.total ?? 0} 道错题），错误率 = 答错人次 ÷ 作答人次
          </Typography>
          <MistakeList records={records} offset={0} selected={chosen} onToggle={toggle} />
        </Stack>
      )}
    </ScreenCard>
  );
}
