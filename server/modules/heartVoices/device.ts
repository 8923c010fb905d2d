// POST /api/device/v1/heartVoices: a student signed in on a terminal sends a message (心声) to the
// school's psychology teachers. Checked: the student is enrolled in the terminal's school; a named
// message carries the student's terminal PIN (anyone can sign in with a student number, only the
// student knows the PIN: pinCheck.ts); one under 14 has a recorded guardian consent (PIPL art. 31);
// a few messages per student in ten minutes, and per terminal (limits.ts). Screened on arrival: a
// suspected 高危 message alerts the school's psychology teachers at once (notices.ts).
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rows } from '../../db/query';
import { badRequest, forbidden, ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { ageOn, CONSENT_AGE, MAX_VOICE_CHARS, RiskLevel, VOICE_CATEGORIES } from '../../../src/domain/heartVoices';
import { STUDENT_VOICE_LIMIT } from '../../../src/domain/devices';
import { deployedDevice } from '../devices/auth';
import { HOTLINE, tooFrequent, type WindowLimiter } from '../devices/limits';
import { backfillProblem, Instant } from '../devices/window';
import { screen } from './lexicon';
import { alertPsychologists } from './notices';
import { checkStudentPin } from './pinCheck';

const Voice = Type.Object({
  studentId: Id,
  /** The student's terminal PIN: required for a named message; checked when given with an anonymous one. */
  pin: Type.Optional(Type.String({ minLength: 6, maxLength: 6, pattern: '^[0-9]{6}$' })),
  content: Type.String({ minLength: 1, maxLength: MAX_VOICE_CHARS, pattern: '\\S' }),
  mood: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 5 }), Type.Null()])),
  anonymous: Type.Boolean(),
  category: Type.Union(VOICE_CATEGORIES.map((c) => Type.Literal(c.value))),
  /** When written, for a message the terminal kept while offline; now when absent. */
  writtenAt: Type.Optional(Instant),
});

/** What the terminal shows after sending; a message that may be a crisis also gets the hotline. */
const RECEIVED = '心声已送达学校心理老师';

const heartVoiceDeviceRoutes: FastifyPluginAsyncTypebox<{ limiter: WindowLimiter }> = async (app, { limiter }) => {
  app.post('/api/device/v1/heartVoices', { config: { public: true, deviceLimit: 'heartVoice' }, schema: { body: Voice } }, async (request) => {
    const body = request.body;
    const device = deployedDevice(request);
    const writtenAt = body.writtenAt ? new Date(body.writtenAt) : new Date();
    const problem = backfillProblem(writtenAt);
    if (problem) throw badRequest(`写下${problem}`);
    const [student] = await rows<{ birthDate: string | null; consented: boolean; gradeId: number | null; classId: number | null }>(
      app.db,
      sql`SELECT to_char(s.birth_date, 'YYYY-MM-DD') AS "birthDate", c.grade_id AS "gradeId", s.class_id AS "classId",
                 EXISTS (SELECT 1 FROM guardian_consents gc WHERE gc.student_id = s.id) AS consented
            FROM students s LEFT JOIN classes c ON c.id = s.class_id
           WHERE s.id = ${body.studentId} AND s.school_id = ${device.schoolId} AND s.status = 0`,
    );
    if (!student) throw forbidden('该学生不是本校在读学生，不能提交心声');
    // A named message must be the student's own; an anonymous one may be sent without the PIN (a
    // student who forgot it can still reach the teacher), and is then marked as not proved.
    const proved = !body.anonymous || body.pin !== undefined;
    if (proved) await checkStudentPin(app.db, app.config.pinKey, body.studentId, body.pin);
    // An unknown birth date counts as under 14: the consent is what makes writing lawful.
    const underAge = !student.birthDate || ageOn(student.birthDate, new Date()) < CONSENT_AGE;
    if (underAge && !student.consented) throw forbidden('未满14周岁的学生需监护人同意后才能提交心声，请联系学校登记监护人同意书');
    const taken = limiter.take(`student:${body.studentId}`, STUDENT_VOICE_LIMIT);
    if (!taken.allowed) throw tooFrequent('该学生提交心声', taken.retryAfter, `。${HOTLINE}`);
    const { level, types } = screen(body.content);
    const [voice] = await rows<{ id: number }>(
      app.db,
      sql`INSERT INTO heart_voices (tenant_id, school_id, student_id, grade_id, class_id, device_id, anonymous, pin_verified, category, mood, content, suggested_level, risk_types, created_at)
          VALUES (${device.tenantId}, ${device.schoolId}, ${body.studentId}, ${student.gradeId}, ${student.classId}, ${device.id},
                  ${body.anonymous}, ${proved}, ${body.category}, ${body.mood ?? null}, ${body.content}, ${level}, ${JSON.stringify(types)}::jsonb, ${writtenAt.toISOString()})
          RETURNING id`,
    );
    if (level === RiskLevel.high) await alertPsychologists(app.db, device.schoolId, voice.id);
    return ok({ id: voice.id, message: level === RiskLevel.high ? `${RECEIVED}。${HOTLINE}` : RECEIVED });
  });
};
export default heartVoiceDeviceRoutes;
