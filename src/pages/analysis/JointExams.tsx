// 区域联考 (researcher and principal on /analysis): the region's joint exams of the term, and one
// opened: the schools side by side (the researcher), or the principal's own school against the
// region as a whole. Definitions: docs/analysis-figures.md, "联考".
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import AddOutlined from '@mui/icons-material/AddOutlined';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import type { AppDataProvider } from '../../dataProvider';
import type { JointExamCandidate } from '../../domain/analysis';
import { LOW_SCORE_SHARE, REGION_FIGURE_MIN_SCHOOLS, type JointExamFigures, type JointExamReport } from '../../domain/analysis';
import { percent } from '../../domain/format';
import { EmptyState } from '../../ui/EmptyState';
import { FigureCard } from './FigureCard';
import { NO_DATA } from './format';

const GRADE_NAMES: Record<number, string> = { 7: '七年级', 8: '八年级', 9: '九年级' };
const BANDS = [
  { key: 'excellent', label: '优秀（≥90%）', color: '#2e7d32' },
  { key: 'good', label: '良好（70%–90%）', color: '#1976d2' },
  { key: 'pass', label: '及格（60%–70%）', color: '#ed6c02' },
  { key: 'fail', label: '不及格（<60%）', color: '#d32f2f' },
] as const;

export const JOINT_DEFINITION = `每名考生的总分；平均分 = 总分之和 ÷ 参考人数；标准差为总分的总体标准差；优秀率 = 总分 ≥ 满分 90% 的人数 ÷ 参考人数；及格率 = ≥ 60%；低分率 = < ${LOW_SCORE_SHARE * 100}%；全区域由各校考生合计算出，不是各校数字的平均`;

const num = (v: number | null) => (v === null ? NO_DATA : String(v));

export function JointExams({ term, researcher }: { term: string; researcher: boolean }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [openId, setOpenId] = useState<number | null>(null);
  const list = useQuery({ queryKey: ['jointExams', term], queryFn: () => dataProvider.jointExams(term), retry: false });
  const report = useQuery({ queryKey: ['jointExam', openId], queryFn: () => dataProvider.jointExam(openId!), enabled: openId !== null, retry: false });
  const exams = list.data ?? [];
  const notify = useNotify();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<{ id: number; title: string } | null>(null);
  const remove = async () => {
    if (!deleting) return;
    try {
      notify(await dataProvider.deleteJointExam(deleting.id), { type: 'success' });
      if (openId === deleting.id) setOpenId(null);
      void list.refetch();
    } catch {
      // Shown by the http client.
    } finally {
      setDeleting(null);
    }
  };
  return (
    <FigureCard
      testId="card-joint"
      title="区域联考"
      definition={researcher ? '本区域几所学校同卷同考，按学校并列对比（按名称排列，不作排名）' : `本校与全区域对比；不显示其他学校的数据（参考学校不少于 ${REGION_FIGURE_MIN_SCHOOLS} 所时显示全区域）`}
    >
      {researcher && (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1 }}>
          <Button size="small" variant="outlined" startIcon={<AddOutlined />} onClick={() => setCreating(true)}>
            新建联考
          </Button>
        </Box>
      )}
      {list.isLoading && <LinearProgress />}
      {list.isSuccess && exams.length === 0 && (
        <EmptyState text={researcher ? '本学期本区域还没有联考：几所学校用同一份试卷考试后，联考在这里按学校并列' : '本学期本校没有参加区域联考'} />
      )}
      {exams.length > 0 && (
        <TableContainer>
          <Table size="small" aria-label="联考列表" sx={{ '& td, & th': { whiteSpace: 'nowrap' } }}>
            <TableHead>
              <TableRow>
                <TableCell>联考</TableCell>
                <TableCell>学科</TableCell>
                <TableCell>考试日期</TableCell>
                <TableCell align="right">参考学校</TableCell>
                <TableCell align="right">操作</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {exams.map((e) => (
                <TableRow key={e.id} selected={e.id === openId} data-testid="joint-row">
                  <TableCell>
                    {/* The title opens it too: on a phone the 操作 column sits past the table's edge. */}
                    <Link component="button" type="button" onClick={() => setOpenId(e.id)} sx={{ textAlign: 'left' }}>
                      {e.title}
                    </Link>
                  </TableCell>
                  <TableCell>
                    {GRADE_NAMES[e.gradeLevel] ?? ''}
                    {e.subject}
                  </TableCell>
                  <TableCell>{e.examDate}</TableCell>
                  <TableCell align="right">{e.schools}</TableCell>
                  <TableCell align="right">
                    <Button size="small" onClick={() => setOpenId(e.id)} disabled={e.id === openId}>
                      查看报告
                    </Button>
                    {e.mine && (
                      <Button size="small" color="error" onClick={() => setDeleting({ id: e.id, title: e.title })}>
                        删除
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {openId !== null && report.isLoading && <LinearProgress sx={{ mt: 2 }} />}
      {openId !== null && report.data && <JointReport r={report.data} onExport={() => dataProvider.exportJointExam(report.data.id)} />}
      {creating && (
        <CreateDialog
          onClose={() => setCreating(false)}
          onDone={(msg) => {
            notify(msg, { type: 'success' });
            setCreating(false);
            void list.refetch();
          }}
        />
      )}
      <Dialog open={!!deleting} onClose={() => setDeleting(null)}>
        <DialogTitle>删除联考</DialogTitle>
        <DialogContent>
          <Typography>确定删除联考“{deleting?.title}”吗？各校的考试和成绩保留，只是不再合为联考。</Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDeleting(null)}>取消</Button>
          <Button color="error" variant="contained" onClick={remove}>
            确认删除
          </Button>
        </DialogActions>
      </Dialog>
    </FigureCard>
  );
}

const NONE = '';

/** 新建联考: a name, the grade and subject, then one exam of each school that takes part (at least two). */
function CreateDialog({ onClose, onDone }: { onClose: () => void; onDone: (msg: string) => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [title, setTitle] = useState('');
  const [gradeLevel, setGradeLevel] = useState<number | ''>('');
  const [subjectId, setSubjectId] = useState<number | ''>('');
  const [chosen, setChosen] = useState<Record<number, string>>({});
  const [busy, setBusy] = useState(false);
  const subjects = useQuery({ queryKey: ['analysisSubjects', 'region'], queryFn: () => dataProvider.analysisSubjects(), retry: false });
  const candidates = useQuery({
    queryKey: ['jointExamCandidates', gradeLevel, subjectId],
    queryFn: () => dataProvider.jointExamCandidates(Number(gradeLevel), Number(subjectId)),
    enabled: gradeLevel !== '' && subjectId !== '',
    retry: false,
  });
  const bySchool = new Map<number, { name: string; exams: JointExamCandidate[] }>();
  for (const c of candidates.data ?? []) {
    const school = bySchool.get(c.schoolId) ?? { name: c.schoolName, exams: [] };
    school.exams.push(c);
    bySchool.set(c.schoolId, school);
  }
  const examIds = Object.values(chosen).filter((v) => v !== NONE).map(Number);
  const ready = title.trim().length > 0 && gradeLevel !== '' && subjectId !== '' && examIds.length >= 2;
  const save = async () => {
    setBusy(true);
    try {
      onDone(await dataProvider.createJointExam({ title: title.trim(), gradeLevel: Number(gradeLevel), subjectId: Number(subjectId), examIds }));
    } catch {
      // Shown by the http client.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>新建联考</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          从本区域至少两所学校各选一场同年级、同学科、同一学期且满分相同的考试，合为一场联考，按学校并列对比。
        </Typography>
        <TextField label="联考名称" value={title} onChange={(e) => setTitle(e.target.value)} fullWidth size="small" slotProps={{ htmlInput: { maxLength: 60 } }} sx={{ mb: 2 }} />
        <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 2, mb: 2 }}>
          <TextField select label="年级" value={gradeLevel} onChange={(e) => (setGradeLevel(Number(e.target.value)), setChosen({}))} size="small">
            {[7, 8, 9].map((level) => (
              <MenuItem key={level} value={level}>
                {GRADE_NAMES[level]}
              </MenuItem>
            ))}
          </TextField>
          <TextField select label="学科" value={subjectId} onChange={(e) => (setSubjectId(Number(e.target.value)), setChosen({}))} size="small">
            {(subjects.data ?? []).map((su) => (
              <MenuItem key={su.id} value={su.id}>
                {su.name}
              </MenuItem>
            ))}
          </TextField>
        </Box>
        {candidates.isLoading && <LinearProgress />}
        {candidates.isSuccess && bySchool.size === 0 && <EmptyState text="本区域各校还没有这个年级和学科的考试" />}
        {[...bySchool.entries()].map(([schoolId, school]) => (
          <FormControl key={schoolId} component="fieldset" sx={{ display: 'block', mb: 1.5, minWidth: 0 }} data-testid="joint-candidate-school">
            <FormLabel component="legend" sx={{ fontWeight: 600, color: 'text.primary' }}>
              {school.name}
            </FormLabel>
            <RadioGroup value={chosen[schoolId] ?? NONE} onChange={(e) => setChosen({ ...chosen, [schoolId]: e.target.value })}>
              <FormControlLabel value={NONE} control={<Radio size="small" />} label="不参加" />
              {school.exams.map((e) => (
                <FormControlLabel
                  key={e.examId}
                  value={String(e.examId)}
                  disabled={e.jointExam !== null}
                  control={<Radio size="small" />}
                  label={`${e.title}（${e.examDate}，满分 ${e.fullMarks}${e.jointExam ? `，已属于“${e.jointExam}”` : ''}）`}
                />
              ))}
            </RadioGroup>
          </FormControl>
        ))}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>取消</Button>
        <Button variant="contained" onClick={save} disabled={busy || !ready}>
          创建联考（{examIds.length} 所学校）
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function JointReport({ r, onExport }: { r: JointExamReport; onExport: () => Promise<unknown> }) {
  const [busy, setBusy] = useState(false);
  const exportIt = async () => {
    setBusy(true);
    await onExport().catch(() => undefined);
    setBusy(false);
  };
  const rows: ({ key: string; name: string } & JointExamFigures)[] = [
    ...r.schools.map((s) => ({ key: String(s.schoolId), name: s.schoolName, ...s })),
    ...(r.total ? [{ key: 'region', name: `全区域（${r.schoolCount} 所学校）`, ...r.total }] : []),
  ];
  return (
    <Box sx={{ mt: 2 }} data-testid="joint-report">
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="subtitle2" component="h3">
          {r.title} · 满分 {r.fullMarks} · {r.examDate}
        </Typography>
        <Button size="small" variant="outlined" startIcon={<FileDownloadOutlined />} onClick={exportIt} disabled={busy}>
          导出报告
        </Button>
      </Box>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
        说明：{JOINT_DEFINITION}
      </Typography>
      <TableContainer>
        <Table size="small" aria-label="联考对比" sx={{ '& td, & th': { whiteSpace: 'nowrap' } }}>
          <TableHead>
            <TableRow>
              <TableCell>学校</TableCell>
              <TableCell align="right">参考人数</TableCell>
              <TableCell align="right">平均分</TableCell>
              <TableCell align="right">标准差</TableCell>
              <TableCell align="right">最高分</TableCell>
              <TableCell align="right">最低分</TableCell>
              <TableCell align="right">优秀率</TableCell>
              <TableCell align="right">及格率</TableCell>
              <TableCell align="right">低分率</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((s) => (
              <TableRow key={s.key} data-testid="joint-school" sx={s.key === 'region' ? { '& td': { fontWeight: 600 } } : undefined}>
                <TableCell>{s.name}</TableCell>
                <TableCell align="right">{s.participants}</TableCell>
                <TableCell align="right" data-testid="joint-average">
                  {num(s.average)}
                </TableCell>
                <TableCell align="right">{num(s.standardDeviation)}</TableCell>
                <TableCell align="right">{num(s.highest)}</TableCell>
                <TableCell align="right">{num(s.lowest)}</TableCell>
                <TableCell align="right">{percent(s.excellentRate, NO_DATA)}</TableCell>
                <TableCell align="right">{percent(s.passRate, NO_DATA)}</TableCell>
                <TableCell align="right">{percent(s.lowRate, NO_DATA)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {rows.some((s) => s.participants > 0) && (
        <BarChart
          height={260}
          xAxis={[{ scaleType: 'band', data: rows.map((s) => s.name), tickLabelInterval: () => true, height: 40 }]}
          yAxis={[{ label: '人数占比（%）', min: 0, max: 100, width: 56 }]}
          series={BANDS.map((b) => ({
            data: rows.map((s) => (s.participants ? Math.round((s.bands[b.key] / s.participants) * 1000) / 10 : null)),
            label: b.label,
            color: b.color,
            stack: 'bands',
            valueFormatter: (v: number | null) => (v === null ? NO_DATA : `${v}%`),
          }))}
        />
      )}
    </Box>
  );
}
