// Sign-in and sign-out (the account service). Tokens name a session row, so logout is immediate.
import { randomUUID } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { ApiError, ok, unauthorized } from '../../http/envelope';
import { loginFailures, sessions, users } from '../../db/schema';
import { hashPassword, verifyPassword } from '../../auth/passwords';
import { signToken } from '../../auth/tokens';

/** The lock-out rule: this many failures for one account and IP within the window lock further tries. */
export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MS = 10 * 60 * 1000;

const LoginBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 64 }),
  password: Type.String({ minLength: 1, maxLength: 128 }),
});

// Verifying against a real hash when the user does not exist keeps timing from telling who exists.
let dummyHash: Promise<string> | undefined;

export default async function authRoutes(app: FastifyInstance) {
  app.post('/api/juno/auth/login', { schema: { body: LoginBody }, config: { public: true } }, async (request) => {
    const { username, password } = request.body as { username: string; password: string };
    const name = username.trim();
    const ip = request.ip;
    const since = new Date(Date.now() - FAILURE_WINDOW_MS);
    const recent = await app.db
      .select({ at: loginFailures.at })
      .from(loginFailures)
      .where(and(eq(loginFailures.username, name), eq(loginFailures.ip, ip), gt(loginFailures.at, since)))
      .orderBy(loginFailures.at);
    if (recent.length >= MAX_FAILURES) {
      const unlockAt = recent[recent.length - MAX_FAILURES].at.getTime() + FAILURE_WINDOW_MS;
      const minutes = Math.max(1, Math.ceil((unlockAt - Date.now()) / 60_000));
      throw new ApiError(429, `登录失败次数过多，请${minutes}分钟后再试`, {
        'retry-after': String(Math.ceil((unlockAt - Date.now()) / 1000)),
      });
    }

    const [user] = await app.db.select().from(users).where(eq(users.username, name)).limit(1);
    dummyHash ??= hashPassword('not-a-real-password');
    const valid = await verifyPassword(user?.passwordHash ?? (await dummyHash), password);
    if (!user || !valid) {
      await app.db.insert(loginFailures).values({ username: name, ip });
      throw unauthorized('用户名或密码错误');
    }

    await app.db.delete(loginFailures).where(and(eq(loginFailures.username, name), eq(loginFailures.ip, ip)));
    const ttl = app.config.sessionTtl;
    const sid = randomUUID();
    await app.db.insert(sessions).values({ id: sid, userId: user.id, expiresAt: new Date(Date.now() + ttl * 1000) });
    const accessToken = await signToken(app.config.jwtSecret, { sid, sub: String(user.id) }, ttl);
    return ok({ accessToken, expiresIn: ttl }, '登录成功');
  });

  app.post('/api/juno/auth/logout', async (request) => {
    await app.db.update(sessions).set({ revokedAt: sql`now()` }).where(eq(sessions.id, request.principal.sessionId));
    await app.principals.evictSession(request.principal.sessionId);
    return ok(null, '已退出登录');
  });
}
