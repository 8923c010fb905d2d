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
import { dateOnly } from '../../../src/domain/format';
import { isDay } from '../../../src/domain/schoolYear';

const Consent = Type.Object({
  studentId: Id,
  guardianName: Type.String({ minLength: 1, maxLength: 50, pattern: '\\S' }),
  consentedOn: Type.String({ maxLength: 10, pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
});

const ClassConsent = Type.Object(
  {
    classId: Id,
    guardianName: Type.Optional(Type.String({ maxLength: 50 })),
    consentedOn: Type.String({ maxLength: 10, pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
  },
  { additionalProperties: false },
);
/** The name a class-wide consent is recorded under when the admin gives none. */
const CLASS_CONSENT_NAME = '全班监护人（统一签署）';

/** A real day, not after today (Asia/Shanghai). */
const isConsentDay = (text: string) => isDay(text) && text <= dateOnly(new Date());

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
    if (!isConsentDay(body.consentedOn)) throw badRequest('同意日期不正确');
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

  // A whole class at once (the forms collected at a parents' meeting): every student of the class
  // in school without a consent yet gets one; those already recorded keep theirs.
  app.post('/api/heart/v1/consents/class', { preHandler: schoolAdmins, schema: { body: ClassConsent } }, async (request) => {
    const body = request.body;
    const schoolId = schoolOf(request);
    if (!isConsentDay(body.consentedOn)) throw badRequest('同意日期不正确');
    const target = await findClass(db, request.principal, body.classId);
    const guardianName = body.guardianName?.trim() || CLASS_CONSENT_NAME;
    const count = await db.transaction(async (tx) => {
      const added = await rows<{ id: number }>(tx, sql`
        INSERT INTO guardian_consents (student_id, tenant_id, school_id, guardian_name, consented_on, recorded_by)
        SELECT s.id, s.tenant_id, s.school_id, ${guardianName}, ${body.consentedOn}::date, ${request.principal.userId}
          FROM students s WHERE s.class_id = ${target.id} AND s.school_id = ${schoolId} AND s.status = 0
        ON CONFLICT (student_id) DO NOTHING
        RETURNING student_id AS id`);
      await recordAudit(tx, request, { action: 'update', kind: 'consent', recordId: target.id, summary: `登记 ${target.gradeName}${target.name} 全班监护人同意（${body.consentedOn}，${added.length} 名）` });
      return added.length;
    });
    return ok({ classId: target.id, count }, `已为${count}名学生登记监护人同意`);
  });

  // A guardian may withdraw consent: the record goes (the log keeps that it was withdrawn), and a
  // student under 14 can no longer write until a new one is recorded.
  app.post('/api/heart/v1/consents/withdraw', { preHandler: schoolAdmins, schema: { body: Type.Object({ studentId: Id }, { additionalProperties: false }) } }, async (request) => {
    const { studentId } = request.body;
    const schoolId = schoolOf(request);
    await db.transaction(async (tx) => {
      const [gone] = await rows<{ name: string; studentNo: string }>(tx, sql`
        DELETE FROM guardian_consents gc USING students s
         WHERE gc.student_id = ${studentId} AND s.id = gc.student_id AND gc.school_id = ${schoolId}
        RETURNING s.name, s.student_no AS "studentNo"`);
      if (!gone) throw notFound('该学生没有已登记的监护人同意');
      await recordAudit(tx, request, { action: 'withdraw', kind: 'consent', recordId: studentId, summary: `撤回学生 ${gone.name}（${gone.studentNo}）的监护人同意` });
    });
    return ok({ studentId }, '已撤回监护人同意');
  });
};
export default privacyRoutes;
