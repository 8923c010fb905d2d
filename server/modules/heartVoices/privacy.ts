// The school admin's side of 学生心声's privacy (PIPL art. 28 and 31): the read log of the school's
// messages (who opened which message when, and every reveal with its reason; never a message's
// words), and the guardian consents that let a student under 14 write.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isoTime, rows } from '../../db/query';
import { badRequest, notFound, ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { page, pageWindow, PagingQuery } from '../../http/paging';
import { ageOn, CONSENT_AGE } from '../../../src/domain/heartVoices';
import { schoolAdmins, schoolOf } from './scope';
import { findClass } from '../vesta/access';
import { recordAudit } from '../audit/record';

const Consent = Type.Object({
  studentId: Id,
  guardianName: Type.String({ minLength: 1, maxLength: 50, pattern: '\\S' }),
  consentedOn: Type.String({ maxLength: 10, pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
});

const ConsentQuery = Type.Object({ ...PagingQuery, classId: Type.Optional(Id), keyword: Type.Optional(Type.String({ maxLength: 50 })) });

const privacyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get('/api/heart/v1/reads', { preHandler: schoolAdmins, schema: { querystring: Type.Object(PagingQuery) } }, async (request) => {
    const schoolId = schoolOf(request);
    const { current, size, offset } = pageWindow(request.query);
    const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM heart_voice_reads WHERE school_id = ${schoolId}`);
    const records = await rows(
      db,
      sql`SELECT r.id, ${isoTime(sql`r.created_at`)} AS "createdAt", u.name AS "readerName", r.action, r.voice_id AS "voiceId", r.reason
            FROM heart_voice_reads r JOIN users u ON u.id = r.user_id
           WHERE r.school_id = ${schoolId} ORDER BY r.created_at DESC, r.id DESC LIMIT ${size} OFFSET ${offset}`,
    );
    return ok(page(records, total, current, size));
  });

  app.get('/api/heart/v1/consents', { preHandler: schoolAdmins, schema: { querystring: ConsentQuery } }, async (request) => {
    const q = request.query;
    const schoolId = schoolOf(request);
    // Another school's class is not an empty list but a class that does not exist here.
    if (q.classId) await findClass(db, request.principal, q.classId);
    const { current, size, offset } = pageWindow(q);
    const keyword = q.keyword?.trim();
    const where = sql`s.school_id = ${schoolId} AND s.status = 0
      ${q.classId ? sql`AND s.class_id = ${q.classId}` : sql``}
      ${keyword ? sql`AND (strpos(s.name, ${keyword}) > 0 OR strpos(s.student_no, ${keyword}) > 0)` : sql``}`;
    const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM students s WHERE ${where}`);
    const list = await rows<{ birthDate: string | null }>(
      db,
      sql`SELECT s.id AS "studentId", s.name, s.student_no AS "studentNo", g.name || c.name AS "className",
                 to_char(s.birth_date, 'YYYY-MM-DD') AS "birthDate", gc.guardian_name AS "guardianName",
                 to_char(gc.consented_on, 'YYYY-MM-DD') AS "consentedOn"
            FROM students s LEFT JOIN classes c ON c.id = s.class_id LEFT JOIN grades g ON g.id = c.grade_id
            LEFT JOIN guardian_consents gc ON gc.student_id = s.id
           WHERE ${where}
           -- Those who cannot write yet first: under 14 (or no birth date) without a consent.
           ORDER BY (gc.student_id IS NULL AND (s.birth_date IS NULL OR s.birth_date > (now() AT TIME ZONE 'Asia/Shanghai')::date - make_interval(years => ${CONSENT_AGE}))) DESC,
                    s.student_no
           LIMIT ${size} OFFSET ${offset}`,
    );
    const now = new Date();
    const records = list.map((r) => ({ ...r, underAge: !r.birthDate || ageOn(r.birthDate, now) < CONSENT_AGE }));
    return ok(page(records, total, current, size));
  });

  app.post('/api/heart/v1/consents', { preHandler: schoolAdmins, schema: { body: Consent } }, async (request) => {
    const body = request.body;
    const schoolId = schoolOf(request);
    const day = new Date(`${body.consentedOn}T00:00:00+08:00`);
    if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) > new Date().toISOString().slice(0, 10)) throw badRequest('同意日期不正确');
    const [student] = await rows<{ tenantId: number; name: string; studentNo: string }>(
      db,
      sql`SELECT tenant_id AS "tenantId", name, student_no AS "studentNo" FROM students WHERE id = ${body.studentId} AND school_id = ${schoolId}`,
    );
    if (!student) throw notFound('学生不存在');
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        INSERT INTO guardian_consents (student_id, tenant_id, school_id, guardian_name, consented_on, recorded_by)
        VALUES (${body.studentId}, ${student.tenantId}, ${schoolId}, ${body.guardianName.trim()}, ${body.consentedOn}, ${request.principal.userId})
        ON CONFLICT (student_id) DO UPDATE SET guardian_name = excluded.guardian_name, consented_on = excluded.consented_on,
          recorded_by = excluded.recorded_by, recorded_at = now()`);
      await recordAudit(tx, request, { action: 'update', kind: 'consent', recordId: body.studentId, summary: `登记学生 ${student.name}（${student.studentNo}）的监护人同意（${body.consentedOn}）` });
    });
    return ok({ studentId: body.studentId });
  });
};
export default privacyRoutes;
