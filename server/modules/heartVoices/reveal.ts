// Break-glass: the writer of an anonymous message, revealed to a psychology teacher of the school
// only when the teacher has confirmed the message 高危 (duty of care for a child at risk) and
// writes a reason. The reveal is in the read log with its reason, in the message's follow-up log,
// and notified to the school's principals at once. The identity is answered once, never stored in
// another payload: opening the message again does not show it.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rows } from '../../db/query';
import { badRequest, forbidden, notFound, ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { FollowUpKind, MIN_REVEAL_REASON, RiskLevel } from '../../../src/domain/heartVoices';
import { psychologists, schoolOf, voiceOf } from './scope';
import { notifyPrincipals } from './notices';
import { ReadAction } from './voices';
import { recordAudit } from '../audit/record';

const Reveal = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 500 }) });

const revealRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.post('/api/heart/v1/voices/:id/reveal', { preHandler: psychologists, schema: { params: Type.Object({ id: Id }), body: Reveal } }, async (request) => {
    const { id } = request.params;
    const reason = request.body.reason.trim();
    const schoolId = schoolOf(request);
    const voice = await voiceOf(db, schoolId, id);
    if (!voice.anonymous) throw badRequest('该心声为实名提交，无需查看身份');
    if (voice.confirmedLevel !== RiskLevel.high) throw forbidden('只有确认为高危的匿名心声才能查看写信人身份');
    if (reason.length < MIN_REVEAL_REASON) throw badRequest(`请填写查看身份的理由（至少${MIN_REVEAL_REASON}个字）`);
    if (!voice.studentId) throw notFound('写信人信息已按保存期限删除');
    // pinVerified: whether the writer proved with their terminal PIN that they are this student;
    // without it the name is only the student number typed at the terminal.
    const [writer] = await rows<{ studentName: string; studentNo: string; className: string | null; pinVerified: boolean }>(
      db,
      sql`SELECT s.name AS "studentName", s.student_no AS "studentNo", g.name || c.name AS "className",
                 (SELECT pin_verified FROM heart_voices WHERE id = ${id}) AS "pinVerified"
            FROM students s LEFT JOIN classes c ON c.id = s.class_id LEFT JOIN grades g ON g.id = c.grade_id WHERE s.id = ${voice.studentId}`,
    );
    const who = request.principal.name;
    await db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO heart_voice_reads (school_id, voice_id, user_id, action, reason) VALUES (${schoolId}, ${id}, ${request.principal.userId}, ${ReadAction.reveal}, ${reason})`);
      await tx.execute(sql`INSERT INTO heart_voice_follow_ups (voice_id, user_id, kind, note) VALUES (${id}, ${request.principal.userId}, ${FollowUpKind.note}, ${`查看了写信人身份。理由：${reason}`})`);
      await notifyPrincipals(tx, schoolId, id, `心理教师${who}查看了一条确认为高危的匿名心声（编号${id}）的写信人身份。理由：${reason}`);
      // Who looked, and at which message: not the writer, the message's words or the reason (kept in the read log, purged with the message).
      await recordAudit(tx, request, { action: 'reveal', kind: 'heartVoice', recordId: id, summary: `查看确认为高危的匿名心声（编号${id}）的写信人身份` });
    });
    return ok(writer);
  });
};
export default revealRoutes;
