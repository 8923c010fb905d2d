// A message's page (/heart-sounds/detail?id=): its words (this opening is recorded in the read
// log), the machine's suggestion, the psychology teacher's level confirmation, the follow-up log
// with a form for notes, contacts and the outcome, and — for a confirmed 高危 anonymous message
// only — the break-glass reveal of the writer with a written reason (logged, the principal told).
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useNotify } from 'react-admin';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../dataProvider';
import { FOLLOW_UP_KINDS, FollowUpKind, labelOf, MIN_REVEAL_REASON, MOODS, RETENTION_DAYS, RISK_LEVELS, RiskLevel, VOICE_CATEGORIES } from '../../domain/heartVoices';
import type { ScreenProps } from '../screen';
import { EmptyState } from '../../ui/EmptyState';
import { ScreenCard } from '../../ui/ScreenCard';
import { dayHour, dayTime } from '../../domain/format';
import { LevelChip, placeText, riskTypesText, StatusChip } from './labels';

const WRITABLE_KINDS = FOLLOW_UP_KINDS.filter((k) => k.value !== FollowUpKind.level);

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', minHeight: 28 }}>
      <Typography variant="body2" color="text.secondary" sx={{ width: 72, flexShrink: 0 }}>
        {label}
      </Typography>
      <Box sx={{ minWidth: 0 }}>{children}</Box>
    </Box>
  );
}

function RevealDialog({ voiceId, open, onClose, onRevealed }: { voiceId: number; open: boolean; onClose: () => void; onRevealed: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [reason, setReason] = useState('');
  const [writer, setWriter] = useState<{ studentName: string; studentNo: string; className: string | null; pinVerified: boolean }>();
  const close = () => {
    setWriter(undefined);
    setReason('');
    onClose();
  };
  const reveal = () =>
    dataProvider.revealHeartWriter(voiceId, reason.trim()).then((w) => {
      setWriter(w);
      onRevealed();
    }, () => undefined);
  return (
    <Dialog open={open} onClose={close} maxWidth="sm" fullWidth>
      <DialogTitle>查看写信人身份</DialogTitle>
      <DialogContent>
        {writer ? (
          <>
            <Alert severity="warning" data-testid="heart-writer">
              写信人：{writer.studentName}（{writer.className ?? '未分班'}，学号 {writer.studentNo}）。本次查看已记录并通知校长，关闭后不再显示。
            </Alert>
            {!writer.pinVerified && (
              <Alert severity="info" sx={{ mt: 1.5 }} data-testid="heart-writer-unverified">
                这条匿名心声提交时没有输入终端PIN，学号是在终端上输入的，未经本人验证，可能不是该生本人所写。与学生谈话时请注意方式。
              </Alert>
            )}
          </>
        ) : (
          <>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              仅在学生可能面临危险、需要及时干预时使用。查看会记入查阅记录（含理由），并立即通知校长。
            </Typography>
            <TextField
              autoFocus
              fullWidth
              multiline
              minRows={3}
              label="查看理由"
              placeholder={`请写明需要知道写信人身份的原因（至少${MIN_REVEAL_REASON}个字）`}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              slotProps={{ htmlInput: { maxLength: 500 } }}
            />
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{writer ? '关闭' : '取消'}</Button>
        {!writer && (
          <Button color="error" variant="contained" disabled={reason.trim().length < MIN_REVEAL_REASON} onClick={reveal}>
            确认查看
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}

/** A random visit id; getRandomValues works on plain http too, where randomUUID does not exist. */
const newVisitId = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

export default function HeartVoiceDetail({ route }: ScreenProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const valid = Number.isInteger(id) && id >= 1;
  // The read log has one row per visit: the loads after an action belong to the visit that opened
  // the page (never a reload on a mere return to the tab).
  const [visit] = useState(newVisitId);
  const query = useQuery({ queryKey: ['heartVoice', id, visit], queryFn: () => dataProvider.heartVoice(id, visit), enabled: valid, retry: false, refetchOnWindowFocus: false });
  const voice = !valid || query.isError ? null : query.data;
  const [level, setLevel] = useState<number | null>(null);
  const [kind, setKind] = useState<number>(FollowUpKind.note);
  const [note, setNote] = useState('');
  const [revealing, setRevealing] = useState(false);

  // Each load (the first, and after every action) shows the level as it now stands.
  useEffect(() => {
    if (voice) setLevel(voice.confirmedLevel ?? voice.suggestedLevel);
  }, [voice]);
  const load = () => void query.refetch();

  const confirm = () =>
    level &&
    dataProvider.confirmHeartLevel(id, level).then(() => {
      notify(`已确认为${labelOf(RISK_LEVELS, level)}`, { type: 'success' });
      load();
    }, () => undefined);
  const addFollowUp = () =>
    dataProvider.addHeartFollowUp(id, kind, note.trim()).then(() => {
      notify('已添加跟进记录', { type: 'success' });
      setNote('');
      load();
    }, () => undefined);

  const back = (
    <Button component={RouterLink} to="/heart-sounds" size="small" sx={{ mt: 1 }}>
      返回学生心声
    </Button>
  );
  if (voice === undefined) return <LinearProgress />;
  if (voice === null)
    return (
      <ScreenCard title={route.meta.title}>
        <EmptyState text="该心声不存在" />
        {back}
      </ScreenCard>
    );

  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 3fr) minmax(0, 2fr)' }, gap: 2, alignItems: 'start' }}>
      <ScreenCard
        title={route.meta.title}
        description={`编号 ${voice.id} · ${voice.anonymous ? `${dayHour(voice.createdAt)}（匿名心声的时间只精确到小时）` : dayTime(voice.createdAt)} · 本次查看已记入查阅记录`}
      >
        {voice.pinned && (
          <Alert severity="error" sx={{ mt: 2 }}>
            机器提示疑似高危（{riskTypesText(voice.riskTypes)}），请尽快核实并确认等级。机器筛查会误报，等级以心理老师确认为准。
          </Alert>
        )}
        <Box
          data-testid="heart-content"
          sx={{ mt: 2, p: 2, borderRadius: 1, bgcolor: 'grey.50', border: '1px solid', borderColor: 'divider', whiteSpace: 'pre-wrap', fontSize: 16, lineHeight: 1.8 }}
        >
          {voice.content ?? `内容已在处理完成 ${RETENTION_DAYS} 天后按保存期限删除，仅保留统计信息。`}
        </Box>
        <Box sx={{ mt: 2, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 3 }}>
          <Fact label="学生">{voice.anonymous ? '匿名' : voice.studentName ?? '—'}</Fact>
          <Fact label="年级班级">{placeText(voice)}</Fact>
          <Fact label="分类">{labelOf(VOICE_CATEGORIES, voice.category)}</Fact>
          <Fact label="心情">{voice.mood ? labelOf(MOODS, voice.mood) : '未选'}</Fact>
          <Fact label="机器提示">{voice.suggestedLevel > RiskLevel.normal ? <LevelChip level={voice.suggestedLevel} suggested /> : '无'}</Fact>
          <Fact label="状态">
            <StatusChip status={voice.status} />
          </Fact>
        </Box>
        <Divider sx={{ my: 2 }} />
        <Typography variant="subtitle2" sx={{ mb: 1 }}>
          确认等级
        </Typography>
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
          <ToggleButtonGroup exclusive size="small" value={level} onChange={(_, v: number | null) => v && setLevel(v)} aria-label="确认等级">
            {RISK_LEVELS.map((l) => (
              <ToggleButton key={l.value} value={l.value} sx={{ px: 2 }}>
                {l.label}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          <Button variant="contained" onClick={confirm} disabled={!level}>
            确认
          </Button>
          <Typography variant="body2" color="text.secondary" data-testid="heart-confirmed">
            {voice.confirmedLevel ? `当前：${labelOf(RISK_LEVELS, voice.confirmedLevel)}` : '尚未确认'}
          </Typography>
        </Box>
        {voice.anonymous && voice.confirmedLevel === RiskLevel.high && voice.content !== null && (
          <Box sx={{ mt: 2 }}>
            <Button color="error" variant="outlined" onClick={() => setRevealing(true)}>
              查看写信人身份
            </Button>
            <Typography variant="caption" color="text.secondary" sx={{ ml: 1 }}>
              仅限确认高危时使用，需填写理由并通知校长
            </Typography>
          </Box>
        )}
        {back}
      </ScreenCard>

      <ScreenCard title="跟进记录" description="与班主任、监护人的联系和处理结果；添加“处理结果”后心声标为已处理。">
        <Box sx={{ mt: 2, display: 'flex', flexDirection: 'column', gap: 1.5 }} data-testid="heart-follow-ups">
          {voice.followUps.length === 0 && (
            <Typography color="text.secondary" variant="body2">
              暂无数据
            </Typography>
          )}
          {voice.followUps.map((f) => (
            <Box key={f.id} sx={{ borderLeft: '3px solid', borderColor: f.kind === FollowUpKind.outcome ? 'success.main' : 'primary.light', pl: 1.5 }}>
              <Typography variant="caption" color="text.secondary">
                {dayTime(f.createdAt)} · {f.userName} · {labelOf(FOLLOW_UP_KINDS, f.kind)}
              </Typography>
              <Typography variant="body2">{f.note ?? '（已按保存期限删除）'}</Typography>
            </Box>
          ))}
        </Box>
        <Divider sx={{ my: 2 }} />
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
          <TextField select size="small" label="记录类型" value={kind} onChange={(e) => setKind(Number(e.target.value))}>
            {WRITABLE_KINDS.map((k) => (
              <MenuItem key={k.value} value={k.value}>
                {k.label}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            multiline
            minRows={3}
            label="记录内容"
            value={note}
            onChange={(e) => setNote(e.target.value)}
            slotProps={{ htmlInput: { maxLength: 500, 'data-testid': 'heart-note' } }}
          />
          <Box>
            <Button variant="contained" onClick={addFollowUp} disabled={!note.trim()}>
              添加记录
            </Button>
          </Box>
        </Box>
      </ScreenCard>
      <RevealDialog voiceId={voice.id} open={revealing} onClose={() => setRevealing(false)} onRevealed={load} />
    </Box>
  );
}
