// The psychology teacher's follow-up of a message: confirming its level (the machine only
// suggests), and the log of notes, contacts with the head teacher or the guardian, and the outcome.
// Confirming starts the follow-up (待处理 → 跟进中); recording the outcome closes it (已处理), from
// when the retention period counts.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { FollowUpKind, labelOf, RISK_LEVELS, VoiceStatus } from '../../../src/domain/heartVoices';
import { psychologists, schoolOf, voiceOf } from './scope';
import { NoticeKind } from './notices';

const Params = Type.Object({ id: Id });
const Level = Type.Object({ level: Type.Union(RISK_LEVELS.map((l) => Type.Literal(l.value))) });
const FollowUp = Type.Object({
  kind: Type.Union([FollowUpKind.note, FollowUpKind.headTeacher, FollowUpKind.guardian, FollowUpKind.outcome].map((k) => Type.Literal(k))),
  note: Type.String({ minLength: 1, maxLength: 500, pattern: '\\S' }),
});

const followUpRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.post('/api/heart/v1/voices/:id/level', { preHandler: psychologists, schema: { params: Params, body: Level } }, async (request) => {
    const { id } = request.params;
    const { level } = request.body;
    await voiceOf(db, schoolOf(request), id);
    await db.transaction(async (tx) => {
      await tx.execute(sql`UPDATE heart_voices SET confirmed_level = ${level},
        status = CASE WHEN status = ${VoiceStatus.pending} THEN ${VoiceStatus.following} ELSE status END WHERE id = ${id}`);
      await tx.execute(sql`INSERT INTO heart_voice_follow_ups (voice_id, user_id, kind, note)
        VALUES (${id}, ${request.principal.userId}, ${FollowUpKind.level}, ${`确认为${labelOf(RISK_LEVELS, level)}`})`);
      // The alert has done its work once a psychology teacher has judged the message: for all of them.
      await tx.execute(sql`UPDATE heart_notices SET seen_at = now() WHERE voice_id = ${id} AND kind = ${NoticeKind.highRisk} AND seen_at IS NULL`);
    });
    return ok({ id, confirmedLevel: level });
  });

  app.post('/api/heart/v1/voices/:id/followUps', { preHandler: psychologists, schema: { params: Params, body: FollowUp } }, async (request) => {
    const { id } = request.params;
    const { kind, note } = request.body;
    await voiceOf(db, schoolOf(request), id);
    const closes = kind === FollowUpKind.outcome;
    await db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO heart_voice_follow_ups (voice_id, user_id, kind, note) VALUES (${id}, ${request.principal.userId}, ${kind}, ${note.trim()})`);
      await tx.execute(
        closes
          ? sql`UPDATE heart_voices SET status = ${VoiceStatus.handled}, handled_at = now() WHERE id = ${id}`
          : sql`UPDATE heart_voices SET status = ${VoiceStatus.following}, handled_at = NULL WHERE id = ${id} AND status <> ${VoiceStatus.following}`,
      );
    });
    return ok({ id, status: closes ? VoiceStatus.handled : VoiceStatus.following });
  });
};
export default followUpRoutes;
