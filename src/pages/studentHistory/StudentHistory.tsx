// 学情档案 (/studentHistory?studentId=): one student's term across homework and exams, where a
// teacher looks at a student (from 学生错题本 and the classic 班级). A summary in plain words, the
// 临界 results (a few points below 及格 or 优秀), each subject's score rate beside the class's and
// its weekly trend, the knowledge points weakest first with a mastery level, and the exams sat.
// 打印学情诊断 downloads the one-page PDF for a parent meeting. A leader sees what the school's
// 成绩公开范围 allows: bands and levels, no score (the server leaves them out).
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { LineChart } from '@mui/x-charts/LineChart';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ArrowBack from '@mui/icons-material/ArrowBack';
import Print from '@mui/icons-material/Print';
import type { AppDataProvider } from '../../dataProvider';
import { percent } from '../../domain/format';
import { classLabel } from '../../domain/school';
import { termLabel } from '../../domain/semester';
import { CRITICAL_MARGIN, MASTERY_FAIR, MASTERY_LEVEL_LABELS, MASTERY_MIN_ITEMS, MASTERY_STRONG, type HistoryPoint, type StudentHistory as History } from '../../domain/studentHistory';
import type { ScreenProps } from '../screen';
import { EmptyState } from '../../ui/EmptyState';
import { ScreenCard } from '../../ui/ScreenCard';

const LEVEL_COLOR = { strong: 'success', fair: 'info', weak: 'error', few: 'default' } as const;
const LEVEL_ORDER = { weak: 0, fair: 1, strong: 2, few: 3 } as const;
/** Tables fit a phone: narrow cell padding, headers on one line; a column that does not fit moves under another cell. */
const TABLE_SX = { '& .MuiTableCell-root': { px: { xs: 1, sm: 2 } }, '& .MuiTableCell-head': { whiteSpace: 'nowrap' } } as const;
const WIDE = { display: { xs: 'none', sm: 'table-cell' } } as const;
const NARROW = { display: { xs: 'block', sm: 'none' } } as const;
const LINE_COLORS = ['#1a4fb4', '#d32f2f', '#2e7d32', '#ed6c02', '#7b1fa2', '#00897b'];

/** The term shown and the three before it ('202601' → 2026-2027 上, 2025-2026 下, 上, 2024-2025 下). */
export function recentTerms(term: string): string[] {
  const out = [term];
  let year = Number(term.slice(0, 4));
  let part = term.slice(4);
  for (let i = 0; i < 3; i++) {
    if (part === '02') part = '01';
    else {
      part = '02';
      year--;
    }
    out.push(`${year}${part}`);
  }
  return out;
}

function Section({ title, note, children }: { title: string; note?: string; children: React.ReactNode }) {
  return (
    <Box component="section" sx={{ mt: 3, minWidth: 0 }}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      {note && (
        <Typography variant="caption" color="text.secondary" component="p">
          {note}
        </Typography>
      )}
      <Box sx={{ mt: 1, minWidth: 0 }}>{children}</Box>
    </Box>
  );
}

function SubjectTiles({ subjects }: { subjects: History['subjects'] }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(auto-fill, minmax(180px, 1fr))' }, gap: 1 }}>
      {subjects.map((s) => (
        <Card key={s.subjectId} variant="outlined" sx={{ borderRadius: 2 }} data-testid={`subject-${s.name}`}>
          <CardContent sx={{ py: 1.5, '&:last-child': { pb: 1.5 } }}>
            <Typography variant="body2" color="text.secondary">
              {s.name}
            </Typography>
            <Typography sx={{ fontSize: 24, fontWeight: 700 }} data-testid="subject-rate">
              {percent(s.scoreRate)}
            </Typography>
            <Typography variant="caption" color="text.secondary" component="div">
              班级 {percent(s.classRate)} · {s.works} 次作业和考试
            </Typography>
          </CardContent>
        </Card>
      ))}
    </Box>
  );
}

function Trend({ subjects }: { subjects: History['subjects'] }) {
  const weeks = [...new Set(subjects.flatMap((s) => s.weeks.map((w) => w.week)))].sort();
  if (!weeks.length) return <EmptyState text="本学期还没有已批改的作业或考试" />;
  return (
    <Box sx={{ minWidth: 0, mt: 2 }} data-testid="trend">
      <Typography variant="subtitle2">每周得分率（%）</Typography>
      <Typography variant="caption" color="text.secondary" component="p">
        横轴为每周的周一；某周没有该学科的作业或考试时折线断开
      </Typography>
      <LineChart
        height={260}
        margin={{ top: 16 }}
        xAxis={[{ scaleType: 'point', data: weeks.map((w) => w.slice(5)), height: 32 }]}
        yAxis={[{ min: 0, max: 100, width: 40, tickInterval: [0, 20, 40, 60, 80, 100] }]}
        series={subjects.map((s, i) => ({
          label: s.name,
          curve: 'linear' as const,
          color: LINE_COLORS[i % LINE_COLORS.length],
          connectNulls: false,
          // A week without work in the subject has no rate: the line breaks there.
          data: weeks.map((w) => {
            const rate = s.weeks.find((x) => x.week === w)?.scoreRate;
            return rate === undefined || rate === null ? null : Math.round(rate * 1000) / 10;
          }),
          valueFormatter: (v: number | null) => (v === null ? '暂无数据' : `${v}%`),
        }))}
      />
    </Box>
  );
}

function Points({ points, leader }: { points: HistoryPoint[]; leader: boolean }) {
  const [level, setLevel] = useState<'all' | keyof typeof LEVEL_ORDER>('all');
  if (!points.length) return <EmptyState text="本学期还没有答过标注了知识点的题目" />;
  const shown = points
    .filter((p) => level === 'all' || p.level === level)
    .sort((a, b) => LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level] || (a.scoreRate ?? 0) - (b.scoreRate ?? 0) || b.items - a.items);
  const count = (l: keyof typeof LEVEL_ORDER) => points.filter((p) => p.level === l).length;
  return (
    <>
      <Box sx={{ display: 'flex', gap: 0.75, flexWrap: 'wrap', mb: 1 }} role="group" aria-label="按掌握程度筛选">
        <Chip label={`全部 ${points.length}`} color={level === 'all' ? 'primary' : 'default'} onClick={() => setLevel('all')} />
        {(['weak', 'fair', 'strong', 'few'] as const).map((l) => (
          <Chip key={l} label={`${MASTERY_LEVEL_LABELS[l]} ${count(l)}`} color={level === l ? 'primary' : 'default'} variant={level === l ? 'filled' : 'outlined'} onClick={() => setLevel(l)} data-testid={`level-${l}`} />
        ))}
      </Box>
      <Box sx={{ overflowX: 'auto', maxHeight: 420, overflowY: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}>
        <Table size="small" stickyHeader aria-label="知识点掌握" sx={TABLE_SX}>
          <TableHead>
            <TableRow>
              <TableCell>知识点</TableCell>
              <TableCell sx={WIDE}>学科</TableCell>
              <TableCell align="right">题数</TableCell>
              {!leader && <TableCell align="right">得分率</TableCell>}
              <TableCell>掌握程度</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.map((p) => (
              <TableRow key={p.knowledgePointId} data-testid="point-row">
                <TableCell sx={{ minWidth: 96 }}>
                  {p.name}
                  <Typography variant="caption" color="text.secondary" sx={NARROW}>
                    {p.subjectName}
                  </Typography>
                </TableCell>
                <TableCell sx={{ ...WIDE, whiteSpace: 'nowrap' }}>{p.subjectName}</TableCell>
                <TableCell align="right">{p.items}</TableCell>
                {!leader && <TableCell align="right">{percent(p.scoreRate)}</TableCell>}
                <TableCell>
                  <Chip size="small" color={LEVEL_COLOR[p.level]} variant={p.level === 'few' ? 'outlined' : 'filled'} label={MASTERY_LEVEL_LABELS[p.level]} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </>
  );
}

function Exams({ exams, leader }: { exams: History['exams']; leader: boolean }) {
  if (!exams.length) return <EmptyState text="本学期还没有考试成绩" />;
  return (
    <Box sx={{ overflowX: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}>
      <Table size="small" aria-label="考试" sx={TABLE_SX}>
        <TableHead>
          <TableRow>
            <TableCell sx={WIDE}>日期</TableCell>
            <TableCell>考试</TableCell>
            {!leader && <TableCell align="right">得分</TableCell>}
            <TableCell>等级</TableCell>
            {!leader && (
              <TableCell align="right" sx={WIDE}>
                班级平均
              </TableCell>
            )}
          </TableRow>
        </TableHead>
        <TableBody>
          {exams.map((e) => (
            <TableRow key={e.examId} data-testid="exam-row">
              <TableCell sx={{ ...WIDE, whiteSpace: 'nowrap' }}>{e.examDate}</TableCell>
              <TableCell sx={{ minWidth: 120 }}>
                {e.title}
                <Typography variant="caption" color="text.secondary" sx={NARROW}>
                  {e.examDate}
                </Typography>
              </TableCell>
              {!leader && (
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {e.score} / {e.fullMarks}
                  <Typography variant="caption" color="text.secondary" sx={NARROW}>
                    班均 {e.classAverage ?? '—'}
                  </Typography>
                </TableCell>
              )}
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{e.band ?? '—'}</TableCell>
              {!leader && (
                <TableCell align="right" sx={WIDE}>
                  {e.classAverage ?? '—'}
                </TableCell>
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

function PrintButton({ studentId, term }: { studentId: number; term: string }) {
  const api = useDataProvider<AppDataProvider>();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      size="small"
      variant="contained"
      startIcon={<Print />}
      disabled={busy}
      title="下载一页 A4 学情诊断，用于家长会"
      onClick={async () => {
        setBusy(true);
        // The http client shows the server's message when it fails.
        await api.downloadStudentDiagnostic(studentId, term).catch(() => undefined).finally(() => setBusy(false));
      }}
    >
      {busy ? '正在生成…' : '打印学情诊断'}
    </Button>
  );
}

function HistoryView({ h, onTerm }: { h: History; onTerm: (term: string) => void }) {
  const leader = h.viewer === 'leader';
  return (
    <Box sx={{ minWidth: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, mt: 1 }}>
        <Typography variant="h6" component="p" sx={{ mr: 'auto' }} data-testid="history-student">
          {h.student.name}
          <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 1 }}>
            {h.student.studentNo} · {classLabel(h.student.gradeName, h.student.className)}
          </Typography>
        </Typography>
        <TextField select size="small" label="学期" value={h.term} onChange={(e) => onTerm(e.target.value)} sx={{ flex: 'none', width: { xs: '100%', sm: 240 } }}>
          {recentTerms(h.term).map((t) => (
            <MenuItem key={t} value={t}>
              {termLabel(t)}
            </MenuItem>
          ))}
        </TextField>
        {!leader && <PrintButton studentId={h.student.id} term={h.term} />}
      </Box>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
        学科：{h.subjectNames.join('、') || '—'}
        {leader ? '（按学校的成绩公开范围，只显示等级，不显示分数）' : h.subjectNames.length > 2 ? '（班主任可查看全部学科）' : '（您任教的学科）'}
      </Typography>

      {!leader && (
        <Alert severity="info" icon={false} sx={{ mt: 2 }} data-testid="history-summary">
          <Typography variant="subtitle2" component="h2" sx={{ mb: 0.5 }}>
            总结
          </Typography>
          {h.summary.map((line) => (
            <Typography key={line} variant="body2">
              {line}
            </Typography>
          ))}
        </Alert>
      )}

      {!leader && (
        <Section title="临界提醒" note={`考试成绩低于及格线（60%）或优秀线（90%）且差距不超过满分的 ${CRITICAL_MARGIN * 100}%`}>
          {h.critical.length ? (
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
              {h.critical.map((c) => (
                <Chip key={c.examId} color="warning" data-testid="critical-flag" label={`${c.title}：差 ${c.gap} 分达到${c.boundary}`} sx={{ maxWidth: '100%', height: 'auto', '& .MuiChip-label': { whiteSpace: 'normal', py: 0.5 } }} />
              ))}
            </Box>
          ) : (
            <Typography variant="body2" color="text.secondary">
              本学期没有处在等级边缘的考试成绩。
            </Typography>
          )}
        </Section>
      )}

      {!leader && (
        <Section title="各学科得分率" note="得分率 = 本学期作业和考试的得分之和 ÷ 满分之和；班级为同一批作业和考试全班的得分率">
          {h.subjects.length ? (
            <>
              <SubjectTiles subjects={h.subjects} />
              <Trend subjects={h.subjects} />
            </>
          ) : (
            <EmptyState text="本学期还没有已批改的作业或考试。布置作业或批改考试后，这里会显示得分率趋势。" />
          )}
        </Section>
      )}

      <Section
        title="知识点掌握"
        note={`题数不少于 ${MASTERY_MIN_ITEMS} 道时判断：得分率 ${MASTERY_STRONG * 100}% 以上为${MASTERY_LEVEL_LABELS.strong}，${MASTERY_FAIR * 100}%–${MASTERY_STRONG * 100}% 为${MASTERY_LEVEL_LABELS.fair}，以下为${MASTERY_LEVEL_LABELS.weak}`}
      >
        <Points points={h.points} leader={leader} />
      </Section>

      <Section title="考试">
        <Exams exams={h.exams} leader={leader} />
      </Section>
    </Box>
  );
}

export default function StudentHistory({ route }: ScreenProps) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const api = useDataProvider<AppDataProvider>();
  const studentId = Number(params.get('studentId'));
  const term = params.get('term') ?? undefined;
  const valid = Number.isInteger(studentId) && studentId > 0;
  const query = useQuery({ queryKey: ['studentHistory', studentId, term], queryFn: () => api.studentHistory(studentId, term), enabled: valid, retry: false });
  const back = (
    <Button startIcon={<ArrowBack />} onClick={() => (window.history.length > 1 ? navigate(-1) : navigate('/'))} sx={{ mt: 1, ml: -1 }}>
      返回
    </Button>
  );
  const h = query.data;
  return (
    <ScreenCard title={route.meta.title} description={h ? `${classLabel(h.student.gradeName, h.student.className)} · ${h.termLabel}` : undefined}>
      {back}
      {!valid ? (
        <EmptyState text="请从学生错题本或班级的学生名单中选择一名学生">
          <Button component={Link} to="/" variant="outlined">
            回到首页
          </Button>
        </EmptyState>
      ) : query.isError ? (
        <EmptyState text={(query.error as Error)?.message || '无法查看该学生的学情'} />
      ) : !h ? (
        <LinearProgress sx={{ mt: 2 }} />
      ) : (
        <HistoryView h={h} onTerm={(t) => setParams((p) => { const copy = new URLSearchParams(p); copy.set('term', t); return copy; }, { replace: true })} />
      )}
    </ScreenCard>
  );
}
