// Sign-in and sign-out (the account service). Tokens name a session row, so logout is immediate.
import { randomUUID } from 'node:crypto';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError, badRequest, forbidden, ok, unauthorized } from '../../http/envelope';
import { sessions, teachers, users } from '../../db/schema';
import { TeacherStatus } from '../../../src/domain/roles';
import { hashPassword, passwordProblem, verifyPassword } from '../../auth/passwords';
import { signToken } from '../../auth/tokens';
import { rows } from '../../db/query';
import { signInLimits, waitText, type Refusal } from '../../auth/signInLimits';

const LoginBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 64 }),
  password: Type.String({ minLength: 1, maxLength: 128 }),
});

const ChangePasswordBody = Type.Object({
  oldPassword: Type.String({ minLength: 1, maxLength: 128 }),
  newPassword: Type.String({ minLength: 1, maxLength: 128 }),
});

// Verifying against a real hash when the user does not exist keeps timing from telling who exists.
let dummyHash: Promise<string> | undefined;

const REFUSALS: Record<Refusal['reason'], (wait: string) => string> = {
  locked: (wait) => `密码错误次数过多，账号已暂时锁定，请${wait}后再试，或联系管理员重置密码`,
  slowed: (wait) => `密码错误次数较多，请${wait}后再试`,
  busy: (wait) => `当前网络登录失败次数过多，请${wait}后再试`,
};

/** 429 with Retry-After and a sentence saying when to try again. */
function tooMany(refused: Refusal): ApiError {
  return new ApiError(429, REFUSALS[refused.reason](waitText(refused.retryAfter)), { 'retry-after': String(refused.retryAfter) });
}

const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const limits = signInLimits(app.db, app.signInClock);

  app.post('/api/juno/auth/login', { schema: { body: LoginBody }, config: { public: true } }, async (request) => {
    const { username, password } = request.body;
    const name = username.trim();
    // Unknown names are limited like real ones, so the answers never tell which accounts exist.
    const attempt = await limits.begin(name, request.ip);
    if (!attempt.allowed) throw tooMany(attempt);

    const [user] = await app.db.select().from(users).where(eq(users.username, name)).limit(1);
    dummyHash ??= hashPassword('not-a-real-password');
    const valid = await verifyPassword(user?.passwordHash ?? (await dummyHash), password);
    if (!user || !valid) {
      await limits.failed(request.ip);
      throw unauthorized('用户名或密码错误');
    }

    await limits.succeeded(name, request.ip);
    await limits.forgetOldTries();
    // Said only to whoever knows the password, so it tells nobody else that the account exists.
    const [teacher] = await app.db.select({ status: teachers.status }).from(teachers).where(eq(teachers.userId, user.id)).limit(1);
    if (teacher?.status === TeacherStatus.disabled) throw forbidden('账号已停用，请联系学校管理员');
    if (teacher?.status === TeacherStatus.left) throw forbidden('该教师已离职，账号不能登录');
    if (user.partnerId !== null) {
      const [stopped] = await rows<{ name: string }>(app.db, sql`
        SELECT sp.name FROM partners p JOIN partners sp ON sp.status <> 0 AND (sp.id = p.id OR sp.id::text = ANY (string_to_array(p.ancestors, ',')))
         WHERE p.id = ${user.partnerId} LIMIT 1`);
      if (stopped) throw forbidden(`合作商“${stopped.name}”已停用，账号不能登录，请联系上级合作商`);
    }
    const ttl = app.config.sessionTtl;
    const sid = randomUUID();
    await app.db.insert(sessions).values({ id: sid, userId: user.id, expiresAt: new Date(Date.now() + ttl * 1000) });
    const accessToken = await signToken(app.config.jwtSecret, { sid, sub: String(user.id) }, ttl);
    // With a one-time password the session opens only the change of password (auth/plugin.ts).
    return ok({ accessToken, expiresIn: ttl, mustChangePassword: user.mustChangePassword }, user.mustChangePassword ? '请先修改初始密码' : '登录成功');
  });

  app.post('/api/juno/auth/changePassword', { schema: { body: ChangePasswordBody }, config: { beforePasswordChange: true } }, async (request) => {
    const { oldPassword, newPassword } = request.body;
    const p = request.principal;
    const [user] = await app.db.select().from(users).where(eq(users.id, p.userId)).limit(1);
    if (!user || !(await verifyPassword(user.passwordHash, oldPassword))) throw badRequest('原密码不正确');
    const weak = passwordProblem(newPassword, { username: user.username, oldPassword });
    if (weak) throw badRequest(weak);
    await app.db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash: await hashPassword(newPassword), mustChangePassword: false }).where(eq(users.id, user.id));
      // Whoever else holds the old password is signed out; this session goes on.
      await tx.update(sessions).set({ revokedAt: sql`now()` }).where(and(eq(sessions.userId, user.id), ne(sessions.id, p.sessionId), isNull(sessions.revokedAt)));
    });
    await app.principals.evictUser(user.id);
    return ok(null, '密码已修改');
  });

  app.post('/api/juno/auth/logout', { config: { beforePasswordChange: true } }, async (request) => {
    await app.db.update(sessions).set({ revokedAt: sql`now()` }).where(eq(sessions.id, request.principal.sessionId));
    await app.principals.evictSession(request.principal.sessionId);
    return ok(null, '已退出登录');
  });
};
export default authRoutes;
