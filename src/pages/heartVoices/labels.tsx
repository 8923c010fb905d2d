// How 学生心声's levels, statuses and times read on the screens.
import Chip from '@mui/material/Chip';
import { classLabel } from '../../filters/widgets';
import { labelOf, RISK_LEVELS, RISK_TYPES, RiskLevel, VOICE_STATUSES, VoiceStatus, type RiskType } from '../../domain/heartVoices';

const LEVEL_COLOR = { [RiskLevel.normal]: 'default', [RiskLevel.attention]: 'warning', [RiskLevel.high]: 'error' } as const;
const STATUS_COLOR = { [VoiceStatus.pending]: 'warning', [VoiceStatus.following]: 'info', [VoiceStatus.handled]: 'success' } as const;

export function LevelChip({ level, suggested = false }: { level: number | null; suggested?: boolean }) {
  if (!level) return <Chip size="small" variant="outlined" label="未确认" />;
  const label = `${suggested ? '疑似' : ''}${labelOf(RISK_LEVELS, level)}`;
  return <Chip size="small" color={LEVEL_COLOR[level as 1 | 2 | 3]} variant={suggested ? 'outlined' : 'filled'} label={label} />;
}

export function StatusChip({ status }: { status: number }) {
  return <Chip size="small" color={STATUS_COLOR[status as 0 | 1 | 2]} variant="outlined" label={labelOf(VOICE_STATUSES, status)} />;
}

export const riskTypesText = (types: readonly string[]) => types.map((t) => RISK_TYPES[t as RiskType] ?? t).join('、');

/** 七(1)班, with the grade only where the class name does not carry it. */
export const placeText = (row: { gradeName: string | null; className: string | null }) => (row.className ? classLabel(row.gradeName ?? '', row.className) : '—');
