// Words and small formatters shared by the class wrong-answer book screens.
import { QUESTION_TYPES } from '../../domain/content';
import type { MistakeBand } from '../../dataProvider/wrongbook';

export const BAND_CHIPS: { value: MistakeBand; label: string }[] = [
  { value: 'all', label: '全部' },
  { value: 'gt40', label: '错误率 >40%' },
  { value: '30to40', label: '30%–40%' },
  { value: '10to30', label: '10%–30%' },
  { value: 'lt10', label: '<10%' },
];

/** SPEC §3 wrong-question sources; `undefined` is every source. */
export const SOURCE_CHIPS: { value: number | undefined; label: string }[] = [
  { value: undefined, label: '全部来源' },
  { value: 1, label: '作业本' },
  { value: 2, label: '考试' },
  { value: 0, label: '自定义作业' },
];

export const sourceLabel = (s: number) => SOURCE_CHIPS.find((c) => c.value === s)?.label ?? '';
export const typeLabel = (type: number) => QUESTION_TYPES.find((t) => t.value === type)?.label ?? '';
/** Red from 40%, orange from 30%, amber from 10%: the bands of the chips. */
export const rateColor = (rate: number) => (rate > 0.4 ? 'error' : rate >= 0.3 ? 'warning' : rate >= 0.1 ? 'secondary' : 'success');
