// 区域教研员: the platform admin appoints an existing account to a region (a district of schools)
// and takes it away. The region is the account's users.region, read with its roles on every
// request (auth/principal.ts), so the change applies at the holder's next request.
import { and, eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { allow } from '../../auth/plugin';
import { rows } from '../../db/query';
import { userRoles, users } from '../../db/schema';
import { badRequest, conflict, notFound, ok } from '../../http/envelope';
import { generatePassword, hashPassword } from '../../auth/passwords';
import { USERNAME } from './platformAdmin';
import { Id } from '../../http/schemas';
import { recordAudit } from '../audit/record';

const RESEARCHER_KEY = 'xz:regionResearcher';
const adminOnly = allow({ roles: ['admin'] });

const researcherRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get('/api/juno/admin/researchers', { preHandler: adminOnly }, async () => {
    const [researchers, regions] = await Promise.all([
      rows(db, sql`
        SELECT u.id AS "userId", u.username, u.name, u.region,
               (SELECT count(*)::int FROM schools s WHERE s.region = u.region) AS "schoolCount"
          FROM users u JOIN user_roles ur ON ur.user_id = u.id AND ur.role_key = ${RESEARCHER_KEY}
         ORDER BY u.region, ur.id`),
      rows(db, sql`SELECT region, count(*)::int AS "schoolCount", string_agg(name, '、' ORDER BY id) AS schools FROM schools GROUP BY region ORDER BY region`),
    ]);
    return ok({ researchers, regions });
  });

  app.post(
    '/api/juno/admin/appointResearcher',
    { preHandler: adminOnly, schema: { body: Type.Object({ username: Type.String({ minLength: 1, maxLength: 64 }), region: Type.String({ minLength: 1, maxLength: 100 }) }) } },
    async (request) => {
      const { username, region } = request.body;
      const [user] = await db.select().from(users).where(eq(users.username, username.trim())).limit(1);
      if (!user) throw notFound(`账号“${username.trim()}”不存在`);
      const [known] = await rows(db, sql`SELECT 1 FROM schools WHERE region = ${region} LIMIT 1`);
      if (!known) throw notFound(`没有区域“${region}”的学校`);
      // A researcher reads every school of the region, whatever its tenant (vesta/scope.ts); the
      // account keeps its home tenant for signing in and the audit log.
      if (user.tenantId === null) throw conflict('该账号不属于任何学校或机构，不能任命为区域教研员');
      const [held] = await db.select().from(userRoles).where(and(eq(userRoles.userId, user.id), eq(userRoles.roleKey, RESEARCHER_KEY)));
      if (held && user.region === region) throw conflict(`${user.name}已是${region}的区域教研员`);
      await db.transaction(async (tx) => {
        await tx.update(users).set({ region }).where(eq(users.id, user.id));
        await tx.insert(userRoles).values({ tenantId: user.tenantId, userId: user.id, roleKey: RESEARCHER_KEY }).onConflictDoNothing();
        await recordAudit(tx, request, { action: 'appoint', kind: 'role', recordId: user.id, summary: `任命 ${user.name} 为 ${region} 的区域教研员${held ? `（原区域 ${user.region ?? '无'}）` : ''}` });
      });
      await app.principals.evictUser(user.id);
      await app.lookups.invalidateTenant(user.tenantId);
      return ok({ userId: user.id, region }, `已任命 ${user.name} 为 ${region} 的区域教研员`);
    },
  );

  // A new account for a researcher who has none: a one-time password, shown once in the reply and
  // changed at first sign-in (as 批量开通账号 does for teachers). Its home tenant is that of the
  // region's first school; it belongs to no school (it reads the whole region).
  app.post(
    '/api/juno/admin/createResearcher',
    {
      preHandler: adminOnly,
      config: { fieldLabels: { username: '账号', name: '姓名', region: '区域' } },
      schema: {
        body: Type.Object({
          username: Type.String({ minLength: 1, maxLength: 64 }),
          name: Type.String({ minLength: 1, maxLength: 32 }),
          region: Type.String({ minLength: 1, maxLength: 100 }),
        }),
      },
    },
    async (request) => {
      const username = request.body.username.trim();
      const name = request.body.name.trim();
      const { region } = request.body;
      if (!USERNAME.test(username)) throw badRequest('账号应为 3–64 位字母、数字或 _ . - @');
      if (!name) throw badRequest('请填写姓名');
      const [home] = await rows<{ tenantId: number }>(db, sql`SELECT tenant_id AS "tenantId" FROM schools WHERE region = ${region} ORDER BY id LIMIT 1`);
      if (!home) throw notFound(`没有区域“${region}”的学校`);
      const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.username, username)).limit(1);
      if (taken) throw conflict(`账号“${username}”已存在，请按账号任命`);
      const password = generatePassword();
      const passwordHash = await hashPassword(password);
      const user = await db.transaction(async (tx) => {
        const [created] = await tx.insert(users).values({ tenantId: home.tenantId, username, name, passwordHash, region, mustChangePassword: true }).returning({ id: users.id });
        await tx.insert(userRoles).values({ tenantId: home.tenantId, userId: created.id, roleKey: RESEARCHER_KEY });
        // The password is in the reply only, never in the log.
        await recordAudit(tx, request, { action: 'create', kind: 'role', recordId: created.id, summary: `新增账号 ${name}（${username}）并任命为 ${region} 的区域教研员` });
        return created;
      });
      await app.lookups.invalidateTenant(home.tenantId);
      return ok({ userId: user.id, username, name, region, password }, `已开通 ${name} 的账号并任命为 ${region} 的区域教研员，首次登录须修改初始密码`);
    },
  );

  app.post('/api/juno/admin/dismissResearcher', { preHandler: adminOnly, schema: { body: Type.Object({ userId: Id }) } }, async (request) => {
    const { userId } = request.body;
    const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
    const gone = user
      ? await db.transaction(async (tx) => {
          const removed = await tx.delete(userRoles).where(and(eq(userRoles.userId, user.id), eq(userRoles.roleKey, RESEARCHER_KEY))).returning({ id: userRoles.id });
          if (!removed.length) return false;
          await tx.update(users).set({ region: null }).where(eq(users.id, user.id));
          await recordAudit(tx, request, { action: 'dismiss', kind: 'role', recordId: user.id, summary: `免去 ${user.name} ${user.region ?? ''} 的区域教研员` });
          return true;
        })
      : false;
    if (!user || !gone) throw notFound('该账号不是区域教研员');
    await app.principals.evictUser(user.id);
    if (user.tenantId !== null) await app.lookups.invalidateTenant(user.tenantId);
    return ok({ userId: user.id }, `已免去 ${user.name} 的区域教研员`);
  });
};
export default researcherRoutes;
