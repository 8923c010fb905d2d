// POST /api/device/v1/heartVoices: a student signed in on a terminal sends a message (心声) to the
// school's psychology teachers. Checked: the student is enrolled in the terminal's school, and one
// under 14 has a recorded guardian consent (PIPL art. 31). Screened on arrival: a suspected 高危
// message alerts the school's psychology teachers at once (notices.ts).
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rows } from '../../db/query';
import { badRequest, forbidden, ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { ageOn, CONSENT_AGE, MAX_VOICE_CHARS, RiskLevel, VOICE_CATEGORIES } from '../../../src/domain/heartVoices';
import { deployedDevice } from '../devices/auth';
import { backfillProblem, Instant } from '../devices/window';
import { screen } from './lexicon';
import { alertPsychologists } from './notices';

const Voice = Type.Object({
  studentId: Id,
  content: Type.String({ minLength: 1, maxLength: MAX_VOICE_CHARS, pattern: '\\S' }),
  mood: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 5 }), Type.Null()])),
  anonymous: Type.Boolean(),
  category: Type.Union(VOICE_CATEGORIES.map((c) => Type.Literal(c.value))),
  /** When written, for a message the terminal kept while offline; now when absent. */
  writtenAt: Type.Optional(Instant),
});

/** What the terminal shows after sending; a message that may be a crisis also gets the hotline. */
const RECEIVED = '心声已送达学校心理老师';
const HOTLINE = '如果你现在很难受，可以马上告诉身边的老师或家人，也可以拨打青少年心理援助热线 12355。';

const heartVoiceDeviceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/api/device/v1/heartVoices', { config: { public: true }, schema: { body: Voice } }, async (request) => {
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
    // An unknown birth date counts as under 14: the consent is what makes writing lawful.
    const underAge = !student.birthDate || ageOn(student.birthDate, new Date()) < CONSENT_AGE;
    if (underAge && !student.consented) throw forbidden('未满14周岁的学生需监护人同意后才能提交心声，请联系学校登记监护人同意书');
    const { level, types } = screen(body.content);
    const [voice] = await rows<{ id: number }>(
      app.db,
      sql`INSERT INTO heart_voices (tenant_id, school_id, student_id, grade_id, class_id, device_id, anonymous, category, mood, content, suggested_level, risk_types, created_at)
          VALUES (${device.tenantId}, ${device.schoolId}, ${body.studentId}, ${student.gradeId}, ${student.classId}, ${device.id},
                  ${body.anonymous}, ${body.category}, ${body.mood ?? null}, ${body.content}, ${level}, ${JSON.stringify(types)}::jsonb, ${writtenAt.toISOString()})
          RETURNING id`,
    );
    if (level === RiskLevel.high) await alertPsychologists(app.db, device.schoolId, voice.id);
    return ok({ id: voice.id, message: level === RiskLevel.high ? `${RECEIVED}。${HOTLINE}` : RECEIVED });
  });
};
export default heartVoiceDeviceRoutes;
