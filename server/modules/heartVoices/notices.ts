// In-app notices of 学生心声: a suspected 高危 message alerts every psychology teacher of the
// school at once; a reveal of an anonymous writer notifies the principals. A notice names no
// student. GET lists the caller's unseen notices; POST …/seen marks them seen.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../db';
import { isoTime, rows } from '../../db/query';
import { allow } from '../../auth/plugin';
import { ok } from '../../http/envelope';
import { Id } from '../../http/schemas';

export const NoticeKind = { highRisk: 1, reveal: 2 } as const;

/** Users of the school holding a role (role keys are 'prefix:role'). */
const holders = (schoolId: number, role: string) =>
  sql`SELECT u.id FROM users u WHERE u.school_id = ${schoolId}
        AND EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND split_part(r.role_key, ':', 2) = ${role})`;

/** A database or a transaction: notices are written with what caused them. */
type Executor = Pick<Db, 'execute'>;

export async function alertPsychologists(db: Executor, schoolId: number, voiceId: number) {
  await db.execute(sql`
    INSERT INTO heart_notices (user_id, voice_id, kind, text)
    SELECT id, ${voiceId}, ${NoticeKind.highRisk}, ${'收到一条疑似高危的学生心声，请尽快查看并确认等级'} FROM (${holders(schoolId, 'psychologyteacher')}) h`);
}

export async function notifyPrincipals(db: Executor, schoolId: number, voiceId: number, text: string) {
  await db.execute(sql`
    INSERT INTO heart_notices (user_id, voice_id, kind, text)
    SELECT id, ${voiceId}, ${NoticeKind.reveal}, ${text} FROM (${holders(schoolId, 'schoolMaster')}) h`);
}

const readers = allow({ roles: ['psychologyteacher', 'schoolMaster'] });

const noticeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/api/heart/v1/notices', { preHandler: readers }, async (request) => {
    // An alert about an anonymous message is dated to the hour, like the message (voices.ts).
    const records = await rows<{ id: number; voiceId: number | null; kind: number; text: string; createdAt: string }>(
      app.db,
      sql`SELECT n.id, n.voice_id AS "voiceId", n.kind, n.text,
                 ${isoTime(sql`CASE WHEN v.anonymous THEN date_trunc('hour', n.created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' ELSE n.created_at END`)} AS "createdAt"
            FROM heart_notices n LEFT JOIN heart_voices v ON v.id = n.voice_id AND n.kind = ${NoticeKind.highRisk}
           WHERE n.user_id = ${request.principal.userId} AND n.seen_at IS NULL ORDER BY n.created_at DESC, n.id DESC LIMIT 50`,
    );
    return ok({ records, total: records.length });
  });

  app.post(
    '/api/heart/v1/notices/seen',
    { preHandler: readers, schema: { body: Type.Object({ ids: Type.Array(Id, { minItems: 1, maxItems: 50 }) }) } },
    async (request) => {
      const { ids } = request.body;
      const seen = await rows<{ id: number }>(
        app.db,
        sql`UPDATE heart_notices SET seen_at = now() WHERE user_id = ${request.principal.userId} AND seen_at IS NULL
             AND id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::int) RETURNING id`,
      );
      return ok({ seen: seen.length });
    },
  );
};
export default noticeRoutes;
