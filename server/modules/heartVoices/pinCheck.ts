// A student's terminal PIN, checked when a 学生心声 is posted (server/auth/terminalPins.ts says how
// it is kept). Six digits are guessed in a few hundred thousand tries, so wrong PINs lock the
// student's PIN: every PIN_TRIES-th wrong one in a row locks it for 15 minutes, then 30, 60 … at
// most a day; the right PIN or a reset by the school admin clears the count. Each try is counted
// before the PIN is compared, in one statement that refuses while locked, so many tries sent at
// once cannot slip past the lock.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { ApiError, forbidden, unauthorized } from '../../http/envelope';
import { waitText } from '../../auth/signInLimits';
import { pinMatches } from '../../auth/terminalPins';

/** Wrong PINs in a row before the PIN locks. */
export const PIN_TRIES = 5;
const FIRST_LOCK_MINUTES = 15;
const MAX_LOCK_MINUTES = 24 * 60;

const locked = (seconds: number) =>
  new ApiError(423, `终端PIN错误次数过多，已暂时锁定，请${waitText(seconds)}后再试，或请学校管理员重置终端PIN`, { 'retry-after': String(seconds) });

/** Throws unless `pin` is the student's PIN (a Chinese 401, 403 or 423); a right PIN clears the count. */
export async function checkStudentPin(db: Db, key: Uint8Array, studentId: number, pin: string | undefined): Promise<void> {
  const [state] = await rows<{ hasPin: boolean; lockedFor: number }>(
    db,
    sql`SELECT terminal_pin_hash IS NOT NULL AS "hasPin",
               coalesce(ceil(extract(epoch FROM pin_locked_until - now())), 0)::int AS "lockedFor"
          FROM students WHERE id = ${studentId}`,
  );
  if (!state?.hasPin) throw forbidden('该学生尚未设置终端PIN，请联系学校管理员设置后再实名提交，也可以选择匿名提交');
  if (state.lockedFor > 0) throw locked(state.lockedFor);
  if (!pin) throw unauthorized('实名提交心声需要输入学生本人的终端PIN');
  // The try is counted (and the lock set on every PIN_TRIES-th) before comparing.
  const [tried] = await rows<{ hash: string; failures: number; lockedFor: number }>(
    db,
    sql`UPDATE students SET pin_failures = pin_failures + 1,
               pin_locked_until = CASE WHEN (pin_failures + 1) % ${PIN_TRIES} = 0
                 THEN now() + make_interval(mins => least(${FIRST_LOCK_MINUTES} * (2 ^ ((pin_failures + 1) / ${PIN_TRIES} - 1)), ${MAX_LOCK_MINUTES})::int)
                 ELSE pin_locked_until END
         WHERE id = ${studentId} AND terminal_pin_hash IS NOT NULL AND (pin_locked_until IS NULL OR pin_locked_until <= now())
         RETURNING terminal_pin_hash AS hash, pin_failures AS failures,
                   coalesce(ceil(extract(epoch FROM pin_locked_until - now())), 0)::int AS "lockedFor"`,
  );
  // Locked by tries that arrived at the same moment.
  if (!tried) throw locked(FIRST_LOCK_MINUTES * 60);
  if (pinMatches(key, studentId, pin, tried.hash)) {
    await db.execute(sql`UPDATE students SET pin_failures = 0, pin_locked_until = NULL WHERE id = ${studentId}`);
    return;
  }
  if (tried.lockedFor > 0) throw locked(tried.lockedFor);
  const left = PIN_TRIES - (tried.failures % PIN_TRIES);
  throw unauthorized(`终端PIN不正确，再错${left}次将暂时锁定`);
}
