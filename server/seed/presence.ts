// What a server start asks of the demo before anything else: is the database empty (then it is
// seeded), and does it hold the demo accounts (refused in production). Apart from the seed itself,
// whose modules (a term of generated school work) are loaded only when a start seeds.
import { count, inArray } from 'drizzle-orm';
import type { Db } from '../db';
import * as t from '../db/schema';
import { verifyPassword } from '../auth/passwords';

export const DEMO_PASSWORD = 'Demo@2026';

export async function isEmpty(db: Db): Promise<boolean> {
  const [{ n }] = await db.select({ n: count() }).from(t.users);
  return n === 0;
}

/** Accounts the demo creates, the ones a production start looks for. */
const DEMO_ACCOUNTS = ['admin', 'schooladmin', 'teacher', 'partner1', 'psych'];

/** Demo accounts that still sign in with the published demo password (a demo database). */
export async function demoAccountsPresent(db: Db): Promise<string[]> {
  const found = await db.select({ username: t.users.username, passwordHash: t.users.passwordHash }).from(t.users).where(inArray(t.users.username, DEMO_ACCOUNTS));
  const open: string[] = [];
  for (const user of found) if (await verifyPassword(user.passwordHash, DEMO_PASSWORD)) open.push(user.username);
  return open;
}
