// The leaders' sections of an exam's report (src/domain/leaderExams.ts): 临界生, 进退步, 学科均衡,
// knowledge points and the students as disclosed. Each says in a line what its figure means
// (docs/api-content.md), since a leader reads them without the teacher's context.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { LeaderExamAnalysis, LeaderExamReport } from '../../domain/leaderExams';
import { ScoreDisclosure } from '../../domain/content';
import { percent } from '../../domain/format';
import { NOWRAP_HEAD, score } from '../examReport/parts';

const Note = ({ children }: { children: string }) => (
  <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
    {children}
  </Typography>
);

const NOTHING_DISCLOSED = '学校的成绩公开范围为“不显示学生个人结果”，这里只显示人数，不列出学生。学校管理员可在“数据概览”中调整。';

function StudentLink({ name, className, onOpen }: { name: string; className: string; onOpen: () => void }) {
  return (
    <Chip size="small" variant="outlined" clickable onClick={onOpen} label={`${name}（${className}）`} sx={{ maxWidth: '100%' }} />
  );
}

export function Critical({ analysis, fullMarks, onStudent }: { analysis: LeaderExamAnalysis; fullMarks: number; onStudent: (id: number) => void }) {
  const named = analysis.disclosure !== ScoreDisclosure.none;
  return (
    <>
      <Note>{`临界生：总分低于优秀线（满分的 90%）或及格线（60%）不超过 ${score(analysis.critical.margin)} 分（满分 ${score(fullMarks)} 的 5%）的学生，稍加提高即可进入上一等级。`}</Note>
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        {analysis.critical.lines.map((l) => (
          <Box key={l.band} sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 1.5, minWidth: 0 }} data-testid={`critical-${l.band}`}>
            <Typography sx={{ fontWeight: 600 }}>
              {l.label}（{score(l.line)} 分）临界生 {l.count} 人
            </Typography>
            {named ? (
              l.students.length ? (
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 1 }}>
                  {l.students.map((s) => (
                    <StudentLink key={s.studentId} name={s.name} className={s.className} onOpen={() => onStudent(s.studentId)} />
                  ))}
                </Box>
              ) : (
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                  没有学生处在这条线下方的临界区间
                </Typography>
              )
            ) : (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                {NOTHING_DISCLOSED}
              </Typography>
            )}
          </Box>
        ))}
      </Box>
    </>
  );
}

const signed = (x: number | null) => (x === null ? '—' : `${x > 0 ? '+' : ''}${(x * 100).toFixed(1)}`);

export function Progress({ analysis, onStudent }: { analysis: LeaderExamAnalysis; onStudent: (id: number) => void }) {
  const p = analysis.progress;
  if (!p.previous) return <Typography color="text.secondary">这是本年级本学科在范围内的第一场考试，还没有可对比的上一场考试。</Typography>;
  const rank = analysis.disclosure === ScoreDisclosure.rank;
  const moved = p.students.filter((s) => (rank ? s.rank !== s.previousRank : s.band !== s.previousBand));
  return (
    <>
      <Note>{`与上一场考试《${p.previous.title}》（${p.previous.examDate}）对比。得分率 = 平均分 ÷ 满分，两场满分不同也可比较；得分率变化 5 个百分点及以上记为进步或退步。`}</Note>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 1.5 }} data-testid="progress-counts">
        <Chip label={`两场都参加 ${p.both} 人`} />
        <Chip color="success" variant="outlined" label={`进步 ${p.improved} 人`} />
        <Chip color="error" variant="outlined" label={`退步 ${p.declined} 人`} />
      </Box>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' }, alignItems: 'start', minWidth: 0 }}>
        <TableContainer>
          <Table size="small" sx={NOWRAP_HEAD} aria-label="班级进退步">
            <TableHead>
              <TableRow>
                <TableCell>班级</TableCell>
                <TableCell align="right">上次得分率</TableCell>
                <TableCell align="right">本次得分率</TableCell>
                <TableCell align="right">变化（百分点）</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {p.classes.map((c) => (
                <TableRow key={c.classId} data-testid="progress-class">
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{c.className}</TableCell>
                  <TableCell align="right">{percent(c.previousRate)}</TableCell>
                  <TableCell align="right">{percent(c.rate)}</TableCell>
                  <TableCell align="right" sx={{ color: c.change === null ? undefined : c.change >= 0 ? 'success.main' : 'error.main', fontWeight: 600 }}>
                    {signed(c.change)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        <Box sx={{ minWidth: 0 }}>
          {analysis.disclosure === ScoreDisclosure.none ? (
            <Typography variant="body2" color="text.secondary">
              {NOTHING_DISCLOSED}
            </Typography>
          ) : (
            <>
              <Typography variant="body2" sx={{ mb: 0.5 }}>
                {rank ? `名次有变化的学生 ${moved.length} 人` : `等级有变化的学生 ${moved.length} 人`}
              </Typography>
              <TableContainer sx={{ maxHeight: 320 }}>
                <Table size="small" sx={NOWRAP_HEAD} stickyHeader aria-label="学生进退步">
                  <TableHead>
                    <TableRow>
                      <TableCell>学生</TableCell>
                      <TableCell>班级</TableCell>
                      <TableCell>{rank ? '上次名次' : '上次等级'}</TableCell>
                      <TableCell>{rank ? '本次名次' : '本次等级'}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {moved.map((s) => (
                      <TableRow key={s.studentId} hover data-testid="progress-student">
                        <TableCell>
                          <Button size="small" onClick={() => onStudent(s.studentId)} sx={{ minWidth: 0, px: 0.5 }}>
                            {s.name}
                          </Button>
                        </TableCell>
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>{s.className}</TableCell>
                        <TableCell>{rank ? s.previousRank : s.previousBand}</TableCell>
                        <TableCell sx={{ fontWeight: 600 }}>{rank ? s.rank : s.band}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
            </>
          )}
        </Box>
      </Box>
    </>
  );
}

export function Balance({ analysis, onClass }: { analysis: LeaderExamAnalysis; onClass: (id: number) => void }) {
  const b = analysis.balance;
  return (
    <>
      <Note>相对得分率 = 班级得分率 ÷ 全年级得分率（1.00 为年级平均水平）。取本学期本年级各学科最近一场考试；极差 = 最高与最低相对得分率之差，超过 0.10 说明该班学科发展不均衡，“最弱学科”需重点关注。</Note>
      {b.exams.length < 2 && (
        <Alert severity="info" sx={{ mb: 1 }}>
          本学期您负责范围内本年级只有 {b.exams.map((e) => e.courseName).join('、')} 一个学科的考试，其他学科有考试后可比较学科均衡。
        </Alert>
      )}
      <TableContainer>
        <Table size="small" sx={NOWRAP_HEAD} aria-label="学科均衡">
          <TableHead>
            <TableRow>
              <TableCell>班级</TableCell>
              {b.exams.map((e) => (
                <TableCell key={e.id} align="right" title={`${e.title}（${e.examDate}）`} sx={{ whiteSpace: 'nowrap' }}>
                  {e.courseName}
                </TableCell>
              ))}
              <TableCell align="right">极差</TableCell>
              <TableCell>最弱学科</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {b.classes.map((c) => (
              <TableRow key={c.classId} data-testid="balance-class">
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  <Button size="small" onClick={() => onClass(c.classId)} sx={{ minWidth: 0, px: 0.5 }}>
                    {c.className}
                  </Button>
                </TableCell>
                {c.subjects.map((s) => (
                  <TableCell key={s.examId} align="right" title={s.rate === null ? '参考不足 5 人' : `得分率 ${percent(s.rate)}`}>
                    {s.relative === null ? '—' : s.relative.toFixed(2)}
                  </TableCell>
                ))}
                <TableCell align="right" sx={{ color: c.spread !== null && c.spread > 0.1 ? 'warning.main' : undefined, fontWeight: 600 }}>
                  {c.spread === null ? '—' : c.spread.toFixed(2)}
                </TableCell>
                <TableCell>{c.weakest ?? '—'}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </>
  );
}

export function KnowledgePoints({ analysis }: { analysis: LeaderExamAnalysis }) {
  if (!analysis.knowledgePoints.length) return <Typography color="text.secondary">这次考试的题目没有标注知识点。</Typography>;
  return (
    <>
      <Note>知识点得分率 = 考查该知识点的各题平均分之和 ÷ 这些题的分值之和，由低到高排列；一题考查几个知识点时计入每一个。</Note>
      <TableContainer sx={{ maxHeight: 420 }}>
        <Table size="small" sx={NOWRAP_HEAD} stickyHeader aria-label="知识点分析">
          <TableHead>
            <TableRow>
              <TableCell>知识点</TableCell>
              <TableCell>题号</TableCell>
              <TableCell align="right">分值</TableCell>
              <TableCell align="right">平均得分</TableCell>
              <TableCell align="right">得分率</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {analysis.knowledgePoints.map((k) => (
              <TableRow key={k.id} data-testid="knowledge-row">
                <TableCell sx={{ minWidth: 120 }}>{k.name}</TableCell>
                <TableCell>{k.questions.join('、')}</TableCell>
                <TableCell align="right">{score(k.points)}</TableCell>
                <TableCell align="right">{score(k.average)}</TableCell>
                <TableCell align="right" sx={{ color: k.scoreRate !== null && k.scoreRate < 0.6 ? 'error.main' : undefined, fontWeight: 600 }}>
                  {percent(k.scoreRate)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </>
  );
}

export function Students({ report, onStudent }: { report: LeaderExamReport; onStudent: (id: number) => void }) {
  if (report.disclosure === ScoreDisclosure.none) return <Typography color="text.secondary">{NOTHING_DISCLOSED.replace('只显示人数，', '')}</Typography>;
  const rank = report.disclosure === ScoreDisclosure.rank;
  return (
    <>
      <Note>{rank ? '按学校设置显示名次（不显示分数），名次在当前统计范围内排列。点击姓名查看该生的历次考试和原卷。' : '按学校设置只显示等级，按班级和学号排列。点击姓名查看该生的历次考试和原卷。'}</Note>
      <TableContainer sx={{ maxHeight: 440 }}>
        <Table size="small" sx={NOWRAP_HEAD} stickyHeader aria-label="学生名单">
          <TableHead>
            <TableRow>
              {rank && <TableCell>名次</TableCell>}
              <TableCell>姓名</TableCell>
              <TableCell>班级</TableCell>
              {!rank && <TableCell>等级</TableCell>}
            </TableRow>
          </TableHead>
          <TableBody>
            {report.students.map((s) => (
              <TableRow key={s.studentId} hover data-testid="leader-student-row">
                {rank && <TableCell>{s.rank}</TableCell>}
                <TableCell>
                  <Button size="small" onClick={() => onStudent(s.studentId)} sx={{ minWidth: 0, px: 0.5 }}>
                    {s.name}
                  </Button>
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{s.className}</TableCell>
                {!rank && <TableCell>{s.band}</TableCell>}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </>
  );
}
