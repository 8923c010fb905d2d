// Limits on guessing passwords, kept in the database so that every API process enforces the same
// ones, on the database's clock (or on a clock a test injects).
//
// Schools share one public address, so the address alone must never keep out someone who knows
// their password. Three counters, each a row of login_throttles:
// - the pair (address, account) is slowed down after a few failures: the one client that keeps
//   getting this account wrong waits, a colleague at the same address does not;
// - the account, from any address, is locked after many failures: guessing one password from many
//   addresses stops too;
// - the address, across accounts, only counts wrong passwords: while it has too many, each account
//   gets one free try from there instead of three. It refuses no try on its own.
// Addresses are counted by addressGroup (an IPv6 /64 is one client).
// The price of letting the right password in: one guess at each of many accounts from one address is
// held back only by each account's own limits, not by the address.
//
// A try is counted before the password is checked, in one atomic statement per counter, so parallel
// requests cannot slip through together; a try that turns out right is taken back. Refused tries
// are not counted: hammering a locked account does not prolong its lock.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db';
import { rows } from '../db/query';
import { addressGroup } from './addressGroup';

/** Everything is forgotten this long after a counter's last failure. */
const FORGET_AFTER = 15 * 60;

/**
 * One account from one address: three free tries; then each try waits 5 s after the previous
 * failure, doubling (10 s, 20 s … 320 s). Only one free try while the address is busy (below).
 */
export const PAIR_LIMIT = { freeTries: 3, busyFreeTries: 1, firstDelay: 5 };

/**
 * One account from any address: the tenth failure locks it for 15 minutes. So an attacker can lock
 * an account for 15 minutes at a time, never for good, and an administrator's password reset
 * unlocks it at once.
 */
export const ACCOUNT_LIMIT = { lockAt: 10, lockFor: FORGET_AFTER };

/**
 * One address across accounts (password spraying): busy once it holds 30 wrong passwords, which
 * drain one every 30 seconds.
 */
export const ADDRESS_LIMIT = { busyAt: 30, drainEvery: 30 };

export type Refusal = {
  allowed: false;
  /** locked: the account; slowed: this account from this address; busy: the same, sooner and longer, as the address is busy. */
  reason: 'locked' | 'slowed' | 'busy';
  retryAfter: number;
};
export type Attempt = { allowed: true } | Refusal;

interface Rule {
  /** Seconds row `t` must still wait before its next try. */
  wait: SQL;
  /** Its level once a try is counted. */
  next: SQL;
}

const secs = (n: number) => sql`make_interval(secs => ${n}::float8)`;

export const accountKey = (username: string) => `account:${username}`;
// The group never contains '|', so the username is everything after the first one.
export const pairKey = (group: string, username: string) => `pair:${group}|${username}`;
export const addressKey = (group: string) => `address:${group}`;

/** The limits as one client of the database sees them; `clock` replaces the database's clock. */
export function signInLimits(db: Db, clock?: (() => Date) | null) {
  const now = () => (clock ? sql`${clock().toISOString()}::timestamptz` : sql`now()`);
  const untilNow = (at: SQL) => sql`extract(epoch FROM t.updated_at - ${at})`;
  const forgotten = (at: SQL) => sql`t.updated_at <= ${at} - ${secs(FORGET_AFTER)}`;
  const next = (at: SQL) => sql`(CASE WHEN ${forgotten(at)} THEN 1 ELSE t.level + 1 END)`;

  const pairRule = (at: SQL, freeTries: number): Rule => ({
    wait: sql`(CASE WHEN ${forgotten(at)} OR t.level < ${freeTries} THEN 0
      ELSE ${untilNow(at)} + least(${PAIR_LIMIT.firstDelay}::float8 * power(2, t.level - ${freeTries}), ${FORGET_AFTER}::float8) END)`,
    next: next(at),
  });
  const accountRule = (at: SQL): Rule => ({
    wait: sql`(CASE WHEN ${forgotten(at)} OR t.level < ${ACCOUNT_LIMIT.lockAt} THEN 0
      ELSE ${untilNow(at)} + ${ACCOUNT_LIMIT.lockFor}::float8 END)`,
    next: next(at),
  });
  const drained = (at: SQL) =>
    sql`greatest(0, t.level - extract(epoch FROM ${at} - t.updated_at) / ${ADDRESS_LIMIT.drainEvery}::float8)`;

  /** Counts a try on `key` when its rule allows one now; else how long to wait. */
  async function count(key: string, rule: (at: SQL) => Rule): Promise<{ allowed: true } | { allowed: false; wait: number }> {
    const at = now();
    const { wait, next } = rule(at);
    const counted = await rows<{ level: number }>(db, sql`
      INSERT INTO login_throttles AS t (key, level, updated_at) VALUES (${key}, 1, ${at})
      ON CONFLICT (key) DO UPDATE SET level = ${next}, updated_at = ${at}
       WHERE ${wait} <= 0
      RETURNING t.level`);
    if (counted.length) return { allowed: true };
    const [state] = await rows<{ wait: number }>(db, sql`
      SELECT ${wait}::float8 AS wait FROM login_throttles t WHERE t.key = ${key}`);
    return { allowed: false, wait: Math.max(1, Math.ceil(Number(state?.wait ?? 1))) };
  }

  async function addressBusy(group: string): Promise<boolean> {
    const [state] = await rows<{ busy: boolean }>(db, sql`
      SELECT ${drained(now())} >= ${ADDRESS_LIMIT.busyAt} AS busy FROM login_throttles t WHERE t.key = ${addressKey(group)}`);
    return state?.busy ?? false;
  }

  /** Seconds the account stays locked, or 0. */
  async function accountLock(username: string): Promise<number> {
    const [state] = await rows<{ wait: number }>(db, sql`
      SELECT ${accountRule(now()).wait}::float8 AS wait FROM login_throttles t WHERE t.key = ${accountKey(username)}`);
    const wait = Number(state?.wait ?? 0);
    return wait > 0 ? Math.ceil(wait) : 0;
  }

  const takeBack = (key: string) => db.execute(sql`UPDATE login_throttles SET level = greatest(0, level - 1) WHERE key = ${key}`);

  return {
    /** Counts a try at this account's password from this address when the limits allow one now. */
    async begin(username: string, ip: string | undefined): Promise<Attempt> {
      // A locked account is refused before anything is counted, so its lock says when it ends.
      const locked = await accountLock(username);
      if (locked) return { allowed: false, reason: 'locked', retryAfter: locked };
      const group = addressGroup(ip);
      const busy = await addressBusy(group);
      const freeTries = busy ? PAIR_LIMIT.busyFreeTries : PAIR_LIMIT.freeTries;
      const pair = await count(pairKey(group, username), (at) => pairRule(at, freeTries));
      if (!pair.allowed) return { allowed: false, reason: busy ? 'busy' : 'slowed', retryAfter: pair.wait };
      // Counted again, atomically: tries from many addresses at once lock at exactly the limit.
      const account = await count(accountKey(username), accountRule);
      if (!account.allowed) {
        // No password was tried, so the pair is not charged for it.
        await takeBack(pairKey(group, username));
        return { allowed: false, reason: 'locked', retryAfter: account.wait };
      }
      return { allowed: true };
    },

    /** The right password: this client's failures at this account are forgotten. */
    async succeeded(username: string, ip: string | undefined): Promise<void> {
      await db.execute(sql`DELETE FROM login_throttles WHERE key = ${pairKey(addressGroup(ip), username)}`);
      // Only this try is taken back: failures from elsewhere still count toward the lock.
      await takeBack(accountKey(username));
    },

    /** A wrong password (or no such account): the address counts it too. */
    async failed(ip: string | undefined): Promise<void> {
      const at = now();
      await db.execute(sql`
        INSERT INTO login_throttles AS t (key, level, updated_at) VALUES (${addressKey(addressGroup(ip))}, 1, ${at})
        ON CONFLICT (key) DO UPDATE SET level = ${drained(at)} + 1, updated_at = ${at}`);
    },

    /** Rows untouched for a day mean nothing any more. */
    async forgetOldTries(): Promise<void> {
      await db.execute(sql`DELETE FROM login_throttles WHERE updated_at < ${now()} - interval '1 day'`);
    },
  };
}

/** Forgets an account's failures, from every address: an administrator's password reset. */
export async function clearAccount(db: Db, username: string): Promise<void> {
  await db.execute(sql`
    DELETE FROM login_throttles
     WHERE key = ${accountKey(username)}
        OR (key LIKE 'pair:%' AND substr(key, position('|' in key) + 1) = ${username})`);
}

/** '45秒' under a minute, else whole minutes rounded up. */
export function waitText(seconds: number): string {
  return seconds < 60 ? `${seconds}秒` : `${Math.ceil(seconds / 60)}分钟`;
}
