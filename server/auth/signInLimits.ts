// Limits on guessing passwords, kept in the database so that every API process enforces the same
// ones, on the database's clock.
//
// A try is counted before the password is checked, in one atomic statement, so parallel requests
// cannot slip through together; a try that turns out right is taken back. Refused tries are not
// counted: hammering a locked account does not prolong its lock.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db';
import { rows } from '../db/query';

/**
 * One account, from any address: three free tries; then each try waits 5 s after the previous
 * failure, doubling (10 s, 20 s … 320 s); the tenth failure locks the account for 15 minutes. Fifteen
 * minutes without a failure forget them all. So an attacker can lock an account for 15 minutes at
 * a time, never for good, and an administrator's password reset unlocks it at once.
 */
export const ACCOUNT_LIMIT = { freeTries: 3, firstDelay: 5, lockAt: 10, lockFor: 15 * 60 };

/**
 * One address, across all accounts (password spraying): 30 failures at full speed, then one every
 * 30 seconds as they drain. Generous enough for a school whose teachers share one public address.
 */
export const ADDRESS_LIMIT = { burst: 30, drainEvery: 30 };

const secs = (n: number) => sql`make_interval(secs => ${n}::float8)`;
const untilNow = sql`extract(epoch FROM t.updated_at - now())`;

interface Rule {
  /** Seconds row `t` must still wait before its next try. */
  wait: SQL;
  /** Its level once a try is counted. */
  next: SQL;
  /** Whether a refusal is a lock rather than a slow-down. */
  locked: SQL;
}

const A = ACCOUNT_LIMIT;
const forgotten = sql`t.updated_at <= now() - ${secs(A.lockFor)}`;
const accountRule: Rule = {
  wait: sql`(CASE WHEN ${forgotten} THEN 0
    WHEN t.level >= ${A.lockAt} THEN ${untilNow} + ${A.lockFor}::float8
    WHEN t.level >= ${A.freeTries} THEN ${untilNow} + ${A.firstDelay}::float8 * power(2, t.level - ${A.freeTries})
    ELSE 0 END)`,
  next: sql`(CASE WHEN ${forgotten} THEN 1 ELSE t.level + 1 END)`,
  locked: sql`t.level >= ${A.lockAt}`,
};

const drained = sql`greatest(0, t.level - extract(epoch FROM now() - t.updated_at) / ${ADDRESS_LIMIT.drainEvery}::float8)`;
const addressRule: Rule = {
  wait: sql`((${drained} - ${ADDRESS_LIMIT.burst - 1}::float8) * ${ADDRESS_LIMIT.drainEvery}::float8)`,
  next: sql`(${drained} + 1)`,
  locked: sql`false`,
};

export type Attempt = { allowed: true } | { allowed: false; locked: boolean; retryAfter: number };

async function begin(db: Db, key: string, rule: Rule): Promise<Attempt> {
  const counted = await rows<{ level: number }>(db, sql`
    INSERT INTO login_throttles AS t (key, level, updated_at) VALUES (${key}, 1, now())
    ON CONFLICT (key) DO UPDATE SET level = ${rule.next}, updated_at = now()
     WHERE ${rule.wait} <= 0
    RETURNING t.level`);
  if (counted.length) return { allowed: true };
  const [state] = await rows<{ locked: boolean; wait: number }>(db, sql`
    SELECT ${rule.locked} AS locked, ${rule.wait}::float8 AS wait FROM login_throttles t WHERE t.key = ${key}`);
  return { allowed: false, locked: state?.locked ?? false, retryAfter: Math.max(1, Math.ceil(Number(state?.wait ?? 1))) };
}

/** Counts a try at this account's password when its limit allows one now. */
export const beginAccountTry = (db: Db, username: string) => begin(db, accountKey(username), accountRule);

/** Counts a try from this address when its limit allows one now. */
export const beginAddressTry = (db: Db, ip: string) => begin(db, addressKey(ip), addressRule);

/** The address's try was not a wrong guess: take it back. */
export async function takeBackAddressTry(db: Db, ip: string): Promise<void> {
  await db.execute(sql`UPDATE login_throttles SET level = greatest(0, level - 1) WHERE key = ${addressKey(ip)}`);
}

/** Forgets an account's failures: the right password, or an administrator's reset. */
export async function clearAccount(db: Db, username: string): Promise<void> {
  await db.execute(sql`DELETE FROM login_throttles WHERE key = ${accountKey(username)}`);
}

/** Rows untouched for a day mean nothing any more. */
export async function forgetOldTries(db: Db): Promise<void> {
  await db.execute(sql`DELETE FROM login_throttles WHERE updated_at < now() - interval '1 day'`);
}

export const accountKey = (username: string) => `account:${username}`;
export const addressKey = (ip: string) => `address:${ip}`;

/** '45秒' under a minute, else whole minutes rounded up. */
export function waitText(seconds: number): string {
  return seconds < 60 ? `${seconds}秒` : `${Math.ceil(seconds / 60)}分钟`;
}
