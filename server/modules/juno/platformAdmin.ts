// The first account of a production install: a platform admin with a one-time password, made by
// `npm run admin:create`. The password is returned once and must be changed at first sign-in.
import { eq } from 'drizzle-orm';
import type { Db } from '../../db';
import { userRoles, users } from '../../db/schema';
import { generatePassword, hashPassword } from '../../auth/passwords';

/** Usernames as the sign-in form takes them: letters, digits, _ . - and @, 3 to 64 characters. */
export const USERNAME = /^[A-Za-z0-9_.@-]{3,64}$/;

export class AccountError extends Error {}

export async function createPlatformAdmin(db: Db, { username, name }: { username: string; name: string }): Promise<{ password: string }> {
  if (!USERNAME.test(username)) throw new AccountError('用户名应为 3–64 位字母、数字或 _ . - @');
  if (!name.trim() || name.length > 32) throw new AccountError('姓名应为 1–32 个字符');
  const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.username, username)).limit(1);
  if (taken) throw new AccountError(`用户名“${username}”已存在`);
  const password = generatePassword(14);
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const [user] = await tx.insert(users).values({ username, name: name.trim(), passwordHash, mustChangePassword: true }).returning({ id: users.id });
    await tx.insert(userRoles).values({ userId: user.id, tenantId: null, roleKey: 'xz:admin' });
  });
  return { password };
}
