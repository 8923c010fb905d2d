// What a terminal may report about the past: buffered records up to BACKFILL_DAYS back, nothing
// from the future (beyond the clock window a signed request is allowed anyway).
import { Type } from 'typebox';
import { BACKFILL_DAYS, CLOCK_SKEW_SECONDS } from '../../../src/domain/devices';

const DAY_MS = 24 * 3600 * 1000;

/** Why a reported time is refused, or undefined when it is acceptable. */
export function backfillProblem(at: Date, now = Date.now()): string | undefined {
  const t = at.getTime();
  if (Number.isNaN(t)) return '时间格式不正确';
  if (t > now + CLOCK_SKEW_SECONDS * 1000) return '时间不能晚于当前时间';
  if (t < now - BACKFILL_DAYS * DAY_MS) return `时间不能早于${BACKFILL_DAYS}天前`;
  return undefined;
}

/** An instant as ISO 8601 with its zone, e.g. 2026-11-25T08:30:00.000Z or 2026-11-25T16:30:00+08:00. */
export const Instant = Type.String({ maxLength: 40, pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,3})?(Z|[+-]\\d{2}:\\d{2})$' });
