// In-app notices of 学生心声: a suspected 高危 message alerts every psychology teacher of the
// school at once; a reveal of an anonymous writer notifies the principals. A notice names no
// student. GET lists the caller's unseen notices; POST …/seen marks them seen.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../db';
import { isoTime, rows } from '../../db/query';
import { allow } from '../../auth/plugin';
import { forbidden, ok } from '../../http/envelope';
import { openHighRisk, remindUnconfirmed } from './reminders';
import { holders, NoticeKind } from './noticeKinds';
import { Id } from '../../http/schemas';

export { NoticeKind } from './noticeKinds';

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
/** Who sees how many 高危 cases are open: the principal and the school admins (counts, no message). */
const overseers = allow({ roles: ['schoolMaster', 'schoolAdmin', 'mpSchoolAdmin', 'psychologyteacher'] });
/** Notices about a message; those of an anonymous one are dated to the hour, like the message. */
const ABOUT_A_MESSAGE = [NoticeKind.highRisk, NoticeKind.reminder, NoticeKind.escalation];

const noticeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/api/heart/v1/notices', { preHandler: readers }, async (request) => {
    // Reminders that fell due since the last sweep are sent before the list is read.
    if (request.principal.schoolId !== null) await remindUnconfirmed(app.db, request.principal.schoolId);
    // An alert about an anonymous message is dated to the hour, like the message (voices.ts).
    const records = await rows<{ id: number; voiceId: number | null; kind: number; text: string; createdAt: string }>(
      app.db,
      sql`SELECT n.id, n.voice_id AS "voiceId", n.kind, n.text,
                 ${isoTime(sql`CASE WHEN v.anonymous THEN date_trunc('hour', n.created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' ELSE n.created_at END`)} AS "createdAt"
            FROM heart_notices n LEFT JOIN heart_voices v ON v.id = n.voice_id AND n.kind IN (${sql.join(ABOUT_A_MESSAGE.map((k) => sql`${k}`), sql`, `)})
           WHERE n.user_id = ${request.principal.userId} AND n.seen_at IS NULL ORDER BY n.created_at DESC, n.id DESC LIMIT 50`,
    );
    return ok({ records, total: records.length });
  });

  app.get('/api/heart/v1/openHighRisk', { preHandler: overseers }, async (request) => {
    const { schoolId } = request.principal;
    if (schoolId === null) throw forbidden();
    await remindUnconfirmed(app.db, schoolId);
    return ok(await openHighRisk(app.db, schoolId));
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
