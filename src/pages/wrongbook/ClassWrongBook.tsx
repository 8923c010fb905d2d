// 班级错题本 (/wrongbook/index for the mini-program teacher, /errorNote and /without/common on the
// classic web): the questions the chosen class got wrong in the course and learning year, most
// missed first, by error-rate band, source and knowledge point; a question opens who got it wrong.
// Chosen questions go on to 错题组卷 (the mini-program's /wrongbook/volumnPaper, the classic
// teacher's /learningGroup).
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useDataProvider, usePermissions } from 'react-admin';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../dataProvider';
import type { ClassMistake, MistakeBand, MistakeScope } from '../../dataProvider/wrongbook';
import type { Permissions } from '../../authProvider';
import { academicYearOptions } from '../../domain/semester';
import { useSelection } from '../../filters/SelectionProvider';
import { classLabel } from '../../filters/widgets';
import type { ScreenProps } from '../screen';
import { EmptyState } from '../../ui/EmptyState';
import { ScreenCard } from '../../ui/ScreenCard';
import { BAND_CHIPS, SOURCE_CHIPS } from './labels';
import { MistakeDetailDialog } from './MistakeDetailDialog';
import { MistakeList } from './MistakeList';
import { NO_PICK, PlatformClassPicker, type PlatformPick } from './PlatformClassPicker';

const PAGE_SIZE = 20;
/** A paper takes at most 100 questions a section; a wrong-answer paper is far shorter. */
const MAX_CHOSEN = 50;

export default function ClassWrongBook({ route }: ScreenProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const navigate = useNavigate();
  const { permissions } = usePermissions<Permissions>();
  const { selection } = useSelection();
  // The platform admin picks any school's class on the page and only reads it (错题组卷 is a
  // teacher's paper of their school); everyone else uses the header's filters.
  const platform = permissions?.activeRole === 'admin';
  const [platformPick, setPlatformPick] = useState<PlatformPick>(NO_PICK);
  const { classId, courseId, gradeName, className, courseName } = platform ? platformPick : selection;
  const { learningYear } = selection;
  const [band, setBand] = useState<MistakeBand>('all');
  const [sourceType, setSourceType] = useState<number | undefined>();
  const [knowledgePointId, setKnowledgePointId] = useState<number | undefined>();
  const [current, setCurrent] = useState(1);
  const [chosen, setChosen] = useState<Map<number, ClassMistake>>(new Map());
  const [open, setOpen] = useState<number | null>(null);

  const scope: MistakeScope = { classId, courseId, term: learningYear, sourceType };
  // Another class, course or year is another book: choices and the knowledge point start over.
  useEffect(() => {
    setChosen(new Map());
    setKnowledgePointId(undefined);
    setCurrent(1);
  }, [classId, courseId, learningYear]);

  const { data, isPending, isError, isFetching } = useQuery({
    queryKey: ['classMistakes', classId, courseId, learningYear, sourceType, band, knowledgePointId, current],
    queryFn: () => dataProvider.classMistakes({ ...scope, band, knowledgePointId, current, size: PAGE_SIZE }),
    enabled: Boolean(classId && courseId),
    placeholderData: keepPreviousData,
  });

  const year = academicYearOptions().find((o) => o.value === learningYear)?.label;
  const description = classId ? [platform && platformPick.schoolName, classLabel(gradeName, className), courseName, year].filter(Boolean).join(' · ') : undefined;
  const toggle = (m: ClassMistake) =>
    setChosen((prev) => {
      const next = new Map(prev);
      if (next.has(m.question.id)) next.delete(m.question.id);
      else if (next.size < MAX_CHOSEN) next.set(m.question.id, m);
      return next;
    });
  const compose = () => {
    const ids = [...chosen.keys()].join(',');
    const query = `classId=${classId}&courseId=${courseId}&questionIds=${ids}`;
    navigate(permissions?.activeRole === 'mpTeacher' ? `/wrongbook/volumnPaper?${query}` : `/learningGroup?${query}`);
  };
  const pick = <T,>(setter: (v: T) => void) => (v: T) => {
    setter(v);
    setCurrent(1);
  };

  const picker = platform && <PlatformClassPicker value={platformPick} onChange={setPlatformPick} />;
  if (!classId || !courseId)
    return (
      <ScreenCard title={route.meta.title}>
        {picker}
        <EmptyState text={classId ? '请先在上方选择课程' : '请先在上方选择班级'} />
      </ScreenCard>
    );

  return (
    <ScreenCard title={route.meta.title} description={description}>
      {picker}
      <Stack spacing={1.5} sx={{ mt: 2, pb: chosen.size ? 8 : 0 }}>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }} role="group" aria-label="错误率区间">
          {BAND_CHIPS.map((b) => (
            <Chip
              key={b.value}
              size="small"
              label={`${b.label}${data ? `（${data.bands[b.value]}）` : ''}`}
              color={band === b.value ? 'primary' : 'default'}
              variant={band === b.value ? 'filled' : 'outlined'}
              onClick={() => pick(setBand)(b.value)}
              aria-pressed={band === b.value}
            />
          ))}
        </Stack>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }} role="group" aria-label="错题来源">
            {SOURCE_CHIPS.map((s) => (
              <Chip
                key={String(s.value)}
                size="small"
                label={s.label}
                color={sourceType === s.value ? 'secondary' : 'default'}
                variant={sourceType === s.value ? 'filled' : 'outlined'}
                onClick={() => pick(setSourceType)(s.value)}
                aria-pressed={sourceType === s.value}
              />
            ))}
          </Stack>
          <TextField
            select
            size="small"
            label="知识点"
            value={knowledgePointId ?? ''}
            onChange={(e) => pick(setKnowledgePointId)(e.target.value ? Number(e.target.value) : undefined)}
            sx={{ minWidth: 160, maxWidth: '100%' }}
          >
            <MenuItem value="">全部知识点</MenuItem>
            {(data?.knowledgePoints ?? []).map((k) => (
              <MenuItem key={k.id} value={k.id}>
                {k.name}（{k.count}）
              </MenuItem>
            ))}
          </TextField>
        </Stack>
        {isFetching && <LinearProgress />}
        {isPending ? null : isError || !data ? (
          <EmptyState text="暂无数据" />
        ) : data.records.length === 0 ? (
          <EmptyState />
        ) : (
          <>
            <Typography variant="body2" color="text.secondary">
              共 {data.total} 道错题，按错误率从高到低排列；错误率 = 答错人次 ÷ 作答人次
            </Typography>
            <MistakeList records={data.records} offset={(current - 1) * PAGE_SIZE} selected={new Set(chosen.keys())} onToggle={platform ? undefined : toggle} onOpen={(m) => setOpen(m.question.id)} />
            {data.pages > 1 && (
              <Box sx={{ display: 'flex', justifyContent: 'center' }}>
                <Pagination count={data.pages} page={current} onChange={(_, p) => setCurrent(p)} size="small" siblingCount={0} />
              </Box>
            )}
          </>
        )}
      </Stack>
      {chosen.size > 0 && (
        <Paper
          elevation={6}
          sx={{ position: 'fixed', left: 0, right: 0, bottom: 0, zIndex: 10, px: 2, py: 1.25, display: 'flex', alignItems: 'center', gap: 1.5, justifyContent: 'flex-end', flexWrap: 'wrap' }}
        >
          <Typography data-testid="chosen-count">已选 {chosen.size} 题</Typography>
          <Button onClick={() => setChosen(new Map())}>清空</Button>
          <Button variant="contained" onClick={compose}>
            错题组卷
          </Button>
        </Paper>
      )}
      <MistakeDetailDialog questionId={open} scope={scope} onClose={() => setOpen(null)} />
    </ScreenCard>
  );
}
