// Parts of the exam report shared by the teacher's 考试报告 (src/pages/ExamReport.tsx) and the
// leaders' 考试分析 (src/pages/leaderExams): tiles, score bands, distribution, reliability, class
// comparison and per-question analysis. They take the figures structurally, so the leaders'
// report (no highest or lowest score, src/domain/leaderExams.ts) and the teacher's both fit.
import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import type { AppDataProvider } from '../../dataProvider';
import type { BandKey, QuestionStats } from '../../dataProvider/exams';
import { QUESTION_TYPES } from '../../domain/content';
import { percent } from '../../domain/format';
import { Stem } from '../Stem';
import { bandAxis, usePhone } from '../../ui/bandAxis';

/** Column titles on one line: on a phone the table scrolls sideways rather than stacking a title's characters. */
export const NOWRAP_HEAD = { '& th': { whiteSpace: 'nowrap' } } as const;

/** The figures of a report both screens draw (the leaders' has no highest or lowest score). */
export interface ReportFigures {
  exam: { fullMarks: number };
  scope: { classIds: number[] };
  participants: number;
  absent: number;
  average: number | null;
  highest?: number | null;
  lowest?: number | null;
  stdDev: number | null;
  bands: Record<BandKey, { count: number; rate: number }>;
  distribution: { from: number; to: number; count: number }[];
  reliability: number | null;
  questions: QuestionStats[];
  classes: ClassFigures[];
}

export interface ClassFigures {
  classId: number;
  className: string;
  participants: number;
  average: number | null;
  highest?: number | null;
  lowest?: number | null;
  stdDev: number | null;
  excellentRate: number;
  passRate: number;
}

export const BANDS: { key: BandKey; label: string; range: string; color: string }[] = [
  { key: 'excellent', label: '优秀', range: '≥90%', color: '#2e7d32' },
  { key: 'good', label: '良好', range: '70%–90%', color: '#1976d2' },
  { key: 'pass', label: '及格', range: '60%–70%', color: '#ed6c02' },
  { key: 'fail', label: '不及格', range: '<60%', color: '#d32f2f' },
];

/** Scores as the school writes them: no trailing zeros, at most two decimals. */
export const score = (x: number | null | undefined) => (x === null || x === undefined ? '—' : String(Number(x.toFixed(2))));
export const typeLabel = (type: number) => QUESTION_TYPES.find((t) => t.value === type)?.label ?? '';

/** Classical readings of the P value (higher is easier). */
export function difficultyWord(p: number): { text: string; color: 'success' | 'warning' | 'error' } {
  if (p >= 0.7) return { text: '较易', color: 'success' };
  if (p >= 0.4) return { text: '适中', color: 'warning' };
  return { text: '较难', color: 'error' };
}

/** Upper–lower 27 % index: ≥0.4 good, 0.2–0.4 fair, <0.2 poor, negative reversed. */
export function discriminationWord(d: number): { text: string; color: 'success' | 'warning' | 'error' } {
  if (d >= 0.4) return { text: '良好', color: 'success' };
  if (d >= 0.2) return { text: '一般', color: 'warning' };
  if (d >= 0) return { text: '较差', color: 'error' };
  return { text: '异常', color: 'error' };
}

/** What α says about this paper, in a teacher's words. */
export function reliabilityReading(alpha: number | null): string {
  if (alpha === null) return '题目数量不足或全体成绩相同，无法计算信度。';
  if (alpha >= 0.8) return '信度良好：各题测量的能力一致，成绩能较稳定地反映学生水平。';
  if (alpha >= 0.7) return '信度可以接受：成绩总体可信，个别题目可能与整卷关联较弱。';
  if (alpha >= 0.6) return '信度偏低：建议检查区分度低或为负的题目，解读成绩时留有余地。';
  return '信度较低：各题结果一致性不足，成绩易受偶然因素影响，请谨慎使用。';
}

export function Section({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <Box component="section" sx={{ mt: 3, minWidth: 0 }} aria-label={title}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        {action}
      </Box>
      {children}
    </Box>
  );
}

export function Tile({ label, value, note, testId, color }: { label: string; value: string; note?: string; testId: string; color?: string }) {
  return (
    <Card variant="outlined" sx={{ borderRadius: 2 }}>
      <CardContent sx={{ py: 1.5, '&:last-child': { pb: 1.5 } }}>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        <Typography variant="h5" sx={{ fontWeight: 600, color }} data-testid={testId}>
          {value}
        </Typography>
        {note && (
          <Typography variant="caption" color="text.secondary" data-testid={`${testId}-note`}>
            {note}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}

/** 及格率 (60 % and up) and 低分率 (under 40 % of full marks, the bins below it) of a report. */
export function rates(report: Pick<ReportFigures, 'participants' | 'bands' | 'distribution'>) {
  const n = report.participants;
  const low = report.distribution.slice(0, 4).reduce((s, d) => s + d.count, 0);
  return {
    excellentRate: report.bands.excellent.rate,
    passRate: n ? (report.bands.excellent.count + report.bands.good.count + report.bands.pass.count) / n : 0,
    lowRate: n ? low / n : 0,
    low,
  };
}

export function Summary({ report }: { report: ReportFigures }) {
  const full = report.exam.fullMarks;
  // The leaders' report has no highest or lowest (each is one student's score): it shows the rates.
  const extremes = report.highest !== undefined;
  const r = rates(report);
  return (
    <>
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr 1fr', md: `repeat(${extremes ? 6 : 7}, 1fr)` } }}>
        <Tile label="参考人数" value={String(report.participants)} note={`缺考 ${report.absent} 人`} testId="stat-participants" />
        <Tile label="平均分" value={score(report.average)} note={report.average === null && !extremes ? '不足 5 人不显示' : `满分 ${full}`} testId="stat-average" />
        {extremes && <Tile label="最高分" value={score(report.highest)} testId="stat-highest" />}
        {extremes && <Tile label="最低分" value={score(report.lowest)} testId="stat-lowest" />}
        <Tile label="标准差" value={score(report.stdDev)} note="越大说明成绩越分散" testId="stat-stddev" />
        {!extremes && <Tile label="优秀率" value={percent(r.excellentRate)} note="得分率 90% 及以上" testId="stat-excellent-rate" />}
        {!extremes && <Tile label="及格率" value={percent(r.passRate)} note="得分率 60% 及以上" testId="stat-pass-rate" />}
        {!extremes && <Tile label="低分率" value={percent(r.lowRate)} note={`得分率低于 40%，${r.low} 人`} testId="stat-low-rate" />}
        <Tile label="信度（α 系数）" value={report.reliability === null ? '—' : report.reliability.toFixed(2)} note="0.7 以上较可靠" testId="stat-alpha" />
      </Box>
      <Box sx={{ display: 'grid', gap: 1.5, mt: 1.5, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' } }}>
        {BANDS.map((b) => (
          <Tile
            key={b.key}
            label={`${b.label}（${b.range}）`}
            value={`${report.bands[b.key].count} 人`}
            note={`占 ${percent(report.bands[b.key].rate)}`}
            testId={`band-${b.key}`}
            color={b.color}
          />
        ))}
      </Box>
    </>
  );
}

export function Distribution({ report }: { report: ReportFigures }) {
  const labels = report.distribution.map((d) => `${score(d.from)}–${score(d.to)}`);
  const phone = usePhone();
  return (
    <Box sx={{ minWidth: 0 }}>
      <BarChart
        height={280}
        // Every bin is labelled: the default skips labels it measures as overlapping.
        xAxis={[bandAxis(labels, phone)]}
        yAxis={[{ label: '人数', tickMinStep: 1, width: 48 }]}
        series={[{ data: report.distribution.map((d) => d.count), label: '人数', color: '#1976d2' }]}
        hideLegend
      />
      <Typography variant="caption" color="text.secondary" component="p" sx={{ textAlign: 'center' }}>
        横轴为分数段（含下限、不含上限，满分计入最高段），纵轴为人数
      </Typography>
    </Box>
  );
}

export function Reliability({ alpha }: { alpha: number | null }) {
  return (
    <Alert severity={alpha !== null && alpha >= 0.7 ? 'success' : 'warning'} data-testid="reliability-reading">
      克隆巴赫 α = {alpha === null ? '—' : alpha.toFixed(2)}。{reliabilityReading(alpha)}
      <Typography variant="caption" component="div" color="text.secondary" sx={{ mt: 0.5 }}>
        α 衡量整卷各题测量结果是否一致（取值通常在 0 到 1 之间），0.7 以上一般认为试卷可靠，0.8 以上为良好。
      </Typography>
    </Alert>
  );
}

/** How the paper's items read as a whole: how many are easy or hard, which separate students poorly. */
export function ItemQuality({ questions }: { questions: QuestionStats[] }) {
  const counted = (values: (number | null)[], read: (v: number) => { text: string }, words: string[]) =>
    words.map((w) => `${w} ${values.filter((v) => v !== null && read(v).text === w).length} 题`).join('，');
  const weak = questions.filter((q) => q.discrimination !== null && q.discrimination < 0.2).map((q) => q.no);
  return (
    <Box sx={{ mt: 1.5, display: 'grid', gap: 0.5 }} data-testid="item-quality">
      <Typography variant="body2">难度：{counted(questions.map((q) => q.difficulty), difficultyWord, ['较易', '适中', '较难'])}</Typography>
      <Typography variant="body2">区分度：{counted(questions.map((q) => q.discrimination), discriminationWord, ['良好', '一般', '较差', '异常'])}</Typography>
      <Typography variant="body2" color={weak.length ? 'warning.main' : 'text.secondary'}>
        {weak.length ? `建议复查区分度低于 0.2 的题目：第 ${weak.join('、')} 题` : '没有区分度低于 0.2 的题目'}
      </Typography>
    </Box>
  );
}

/** Every class side by side; `onOpen` makes a class name open that class (the leaders' drill-down). */
export function ClassComparison({ report, onOpen }: { report: ReportFigures; onOpen?: (classId: number) => void }) {
  const inScope = new Set(report.scope.classIds);
  const extremes = report.highest !== undefined;
  const phone = usePhone();
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1fr 1.3fr' }, alignItems: 'start', minWidth: 0 }}>
      <Box sx={{ minWidth: 0 }}>
        <BarChart
          height={260}
          xAxis={[bandAxis(report.classes.map((c) => c.className), phone)]}
          yAxis={[{ label: '平均分', width: 48, min: 0, max: report.exam.fullMarks }]}
          series={[{ data: report.classes.map((c) => c.average ?? 0), label: '平均分', color: '#5c6bc0', valueFormatter: (v) => score(v) }]}
          hideLegend
        />
      </Box>
      <TableContainer>
        <Table size="small" sx={NOWRAP_HEAD} aria-label="班级对比">
          <TableHead>
            <TableRow>
              <TableCell>班级</TableCell>
              <TableCell align="right">参考人数</TableCell>
              <TableCell align="right">平均分</TableCell>
              {extremes && <TableCell align="right">最高分</TableCell>}
              {extremes && <TableCell align="right">最低分</TableCell>}
              <TableCell align="right">标准差</TableCell>
              <TableCell align="right">优秀率</TableCell>
              <TableCell align="right">及格率</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {report.classes.map((c) => (
              <TableRow key={c.classId} selected={inScope.has(c.classId) && report.scope.classIds.length === 1} data-testid="class-row">
                <TableCell sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                  {onOpen ? (
                    <Button size="small" onClick={() => onOpen(c.classId)} sx={{ minWidth: 0, px: 0.5, fontWeight: 600 }}>
                      {c.className}
                    </Button>
                  ) : (
                    c.className
                  )}
                </TableCell>
                <TableCell align="right">{c.participants}</TableCell>
                <TableCell align="right">{score(c.average)}</TableCell>
                {extremes && <TableCell align="right">{score(c.highest)}</TableCell>}
                {extremes && <TableCell align="right">{score(c.lowest)}</TableCell>}
                <TableCell align="right">{score(c.stdDev)}</TableCell>
                <TableCell align="right">{percent(c.excellentRate)}</TableCell>
                <TableCell align="right">{percent(c.passRate)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}

export function Word({ value, read }: { value: number | null; read: (v: number) => { text: string; color: 'success' | 'warning' | 'error' } }) {
  if (value === null) return <>—</>;
  const w = read(value);
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, whiteSpace: 'nowrap' }}>
      {value.toFixed(2)}
      <Chip size="small" variant="outlined" color={w.color} label={w.text} sx={{ height: 20, fontSize: 12 }} />
    </Box>
  );
}

export function Options({ q }: { q: QuestionStats }) {
  if (!q.optionRates) return <>—</>;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
      {q.optionRates.map((o) => (
        <Chip
          key={o.key}
          size="small"
          color={o.correct ? 'success' : o.rate >= 0.25 ? 'warning' : 'default'}
          variant={o.correct ? 'filled' : 'outlined'}
          label={`${o.key}${o.correct ? '✓' : ''} ${percent(o.rate)}`}
          title={o.correct ? `正确选项，${o.count} 人选择` : `干扰项，${o.count} 人选择`}
          sx={{ height: 22, fontSize: 12 }}
        />
      ))}
    </Box>
  );
}

export function Questions({ report }: { report: ReportFigures }) {
  return (
    <>
      <Alert severity="info" sx={{ mb: 1 }}>
        点击题号可查看题目与答案。难度：该题得分率，越高越容易（0.7 以上较易，0.4 以下较难）。区分度：总分前 27% 与后 27% 学生在该题上的得分率之差，0.4
        以上区分良好，0.2 以下较差，负值说明高分学生反而答得差。选项选择率：绿色为正确选项，橙色为选择率 25% 以上的干扰项。
      </Alert>
      <TableContainer>
        <Table size="small" sx={NOWRAP_HEAD} aria-label="小题分析">
          <TableHead>
            <TableRow>
              <TableCell>题号</TableCell>
              <TableCell>题型</TableCell>
              <TableCell align="right">分值</TableCell>
              <TableCell align="right">作答人数</TableCell>
              <TableCell align="right">平均分</TableCell>
              <TableCell align="right">得分率</TableCell>
              <TableCell>难度</TableCell>
              <TableCell>区分度</TableCell>
              <TableCell>选项选择率</TableCell>
              <TableCell>知识点</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {report.questions.map((q) => (
              <QuestionRows key={q.questionId} q={q} />
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </>
  );
}

/** The stem, options and answer of a question, fetched when its row is opened. */
export function QuestionPreview({ questionId }: { questionId: number }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const query = useQuery({ queryKey: ['examQuestion', questionId], queryFn: () => dataProvider.examQuestion(questionId), retry: false });
  const question = query.isError ? null : query.data;
  if (question === undefined) return <LinearProgress />;
  if (question === null) return <Typography color="text.secondary">题目加载失败</Typography>;
  return (
    <Box sx={{ fontSize: 14, display: 'grid', gap: 0.5 }} data-testid="question-preview">
      <div>
        <Stem text={question.stem} />
      </div>
      {question.options && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3 }}>
          {question.options.map((o) => (
            <span key={o.key}>
              {o.key}. <Stem text={o.text} />
            </span>
          ))}
        </Box>
      )}
      <Typography variant="body2" color="success.main">
        答案：<Stem text={question.answer} />
      </Typography>
      {question.analysis && (
        <Typography variant="body2" color="text.secondary">
          解析：<Stem text={question.analysis} />
        </Typography>
      )}
    </Box>
  );
}

export function QuestionRows({ q }: { q: QuestionStats }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <TableRow data-testid="question-row" sx={{ '& > td': open ? { borderBottom: 0 } : {} }}>
        <TableCell>
          <Button size="small" onClick={() => setOpen(!open)} aria-expanded={open} title={open ? '收起题目' : '查看题目'} sx={{ minWidth: 0, px: 1 }}>
            {q.no}
          </Button>
        </TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>{typeLabel(q.type)}</TableCell>
        <TableCell align="right">{score(q.points)}</TableCell>
        <TableCell align="right">{q.answered}</TableCell>
        <TableCell align="right">{score(q.average)}</TableCell>
        <TableCell align="right">{percent(q.scoreRate)}</TableCell>
        <TableCell>
          <Word value={q.difficulty} read={difficultyWord} />
        </TableCell>
        <TableCell>
          <Word value={q.discrimination} read={discriminationWord} />
        </TableCell>
        <TableCell sx={{ minWidth: 200 }}>
          <Options q={q} />
        </TableCell>
        <TableCell sx={{ minWidth: 140 }}>{q.knowledgePoints.map((k) => k.name).join('、') || '—'}</TableCell>
      </TableRow>
      {open && (
        <TableRow>
          <TableCell colSpan={10} sx={{ bgcolor: 'action.hover' }}>
            <QuestionPreview questionId={q.questionId} />
          </TableCell>
        </TableRow>
      )}
    </>
  );
}
