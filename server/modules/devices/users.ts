// Who uses a terminal: students (by student number, 在读 only) and teachers (by phone number) of
// the school it stands in. Sign-in answers the name and class only; the roster is the same for the
// whole school, for a terminal that signs users in while offline; buffered sign-ins are uploaded.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { badRequest, notFound, ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { classLabel, STUDENT_NO_PATTERN } from '../../../src/domain/school';
import { UserKind } from '../../../src/domain/partner';
import { MAX_UPLOAD_RECORDS } from '../../../src/domain/devices';
import { deployedDevice } from './auth';
import { backfillProblem, Instant } from './window';
import { recordSignIn, recordSignIns } from './usage';

export const UserKindSchema = Type.Union([Type.Literal(UserKind.student), Type.Literal(UserKind.teacher)]);

const SignIn = Type.Object({
  userKind: UserKindSchema,
  studentNo: Type.Optional(Type.String({ minLength: 1, maxLength: 32, pattern: STUDENT_NO_PATTERN.source })),
  phone: Type.Optional(Type.String({ minLength: 11, maxLength: 11, pattern: '^1[3-9]\\d{9}$' })),
});

const SignIns = Type.Object({
  signIns: Type.Array(Type.Object({ userKind: UserKindSchema, userId: Id, signedInAt: Instant }), {
    minItems: 1,
    maxItems: MAX_UPLOAD_RECORDS,
  }),
});

interface SignedInUser {
  userKind: number;
  userId: number;
  name: string;
  className: string | null;
  gradeName?: string | null;
}

/**
 * The position (0-based) of the first record whose user is not of the school, or -1: one query
 * for the whole batch.
 */
export async function firstForeignUser(db: Db, schoolId: number, users: readonly { userKind: number; userId: number }[]): Promise<number> {
  const input = JSON.stringify(users.map((u, i) => ({ i, k: u.userKind, u: u.userId })));
  const [row] = await rows<{ i: number }>(
    db,
    sql`SELECT x.i FROM jsonb_to_recordset(${input}::jsonb) AS x(i int, k int, u int)
         WHERE NOT CASE x.k
           WHEN ${UserKind.student} THEN EXISTS (SELECT 1 FROM students s WHERE s.id = x.u AND s.school_id = ${schoolId})
           WHEN ${UserKind.teacher} THEN EXISTS (SELECT 1 FROM teachers t WHERE t.id = x.u AND t.school_id = ${schoolId})
           ELSE false END
         ORDER BY x.i LIMIT 1`,
  );
  return row?.i ?? -1;
}

const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.post('/api/device/v1/signIn', { config: { public: true, deviceLimit: 'signIn' }, schema: { body: SignIn } }, async (request) => {
    const body = request.body;
    const device = deployedDevice(request);
    let user: SignedInUser | undefined;
    if (body.userKind === UserKind.student) {
      if (!body.studentNo) throw badRequest('学号不能为空');
      [user] = await rows<SignedInUser>(
        db,
        sql`SELECT ${UserKind.student}::int AS "userKind", s.id AS "userId", s.name, g.name AS "gradeName", c.name AS "className"
              FROM students s LEFT JOIN classes c ON c.id = s.class_id LEFT JOIN grades g ON g.id = c.grade_id
             WHERE s.school_id = ${device.schoolId} AND s.student_no = ${body.studentNo} AND s.status = 0`,
      );
      if (!user) throw notFound('本校没有该学号的在读学生');
      user = { userKind: user.userKind, userId: user.userId, name: user.name, className: user.className && classLabel(user.gradeName ?? '', user.className) };
    } else {
      if (!body.phone) throw badRequest('手机号不能为空');
      [user] = await rows<SignedInUser>(
        db,
        sql`SELECT ${UserKind.teacher}::int AS "userKind", t.id AS "userId", t.name, NULL AS "className"
              FROM teachers t WHERE t.school_id = ${device.schoolId} AND t.phone = ${body.phone} ORDER BY t.id LIMIT 1`,
      );
      if (!user) throw notFound('本校没有使用该手机号的教师');
    }
    await recordSignIn(db, device, user, new Date());
    return ok(user);
  });

  app.get('/api/device/v1/roster', { config: { public: true, deviceLimit: 'roster' } }, async (request) => {
    const device = deployedDevice(request);
    const [school] = await rows<{ name: string }>(db, sql`SELECT name FROM schools WHERE id = ${device.schoolId}`);
    const students = await rows<{ userId: number; studentNo: string; name: string; gradeName: string | null; className: string | null }>(
      db,
      sql`SELECT s.id AS "userId", s.student_no AS "studentNo", s.name, g.name AS "gradeName", c.name AS "className"
            FROM students s LEFT JOIN classes c ON c.id = s.class_id LEFT JOIN grades g ON g.id = c.grade_id
           WHERE s.school_id = ${device.schoolId} AND s.status = 0 ORDER BY s.student_no`,
    );
    const teachers = await rows<{ userId: number; name: string }>(
      db,
      sql`SELECT t.id AS "userId", t.name FROM teachers t WHERE t.school_id = ${device.schoolId} ORDER BY t.id`,
    );
    // The school's taught subjects; a school without courses yet prints for any subject.
    const subjects = await rows<{ subjectId: number; name: string }>(
      db,
      sql`SELECT sj.id AS "subjectId", sj.name FROM subjects sj
           WHERE EXISTS (SELECT 1 FROM courses c WHERE c.school_id = ${device.schoolId} AND c.subject_id = sj.id)
              OR NOT EXISTS (SELECT 1 FROM courses c WHERE c.school_id = ${device.schoolId})
           ORDER BY sj.id`,
    );
    return ok({
      schoolName: school.name,
      students: students.map(({ gradeName, className, ...s }) => ({ ...s, className: className && classLabel(gradeName ?? '', className) })),
      teachers,
      subjects,
    });
  });

  app.post('/api/device/v1/signIns', { config: { public: true, deviceLimit: 'signIns' }, schema: { body: SignIns } }, async (request) => {
    const { signIns } = request.body;
    const device = deployedDevice(request);
    const now = Date.now();
    const list = signIns.map((s, i) => {
      const at = new Date(s.signedInAt);
      const problem = backfillProblem(at, now);
      if (problem) throw badRequest(`第${i + 1}条登录记录的${problem}`);
      return { userKind: s.userKind, userId: s.userId, at };
    });
    const foreign = await firstForeignUser(db, device.schoolId, list);
    if (foreign >= 0) throw badRequest(`第${foreign + 1}条登录记录的用户不是本校师生`);
    const recorded = await recordSignIns(db, device, list);
    return ok({ received: list.length, recorded });
  });
};
export default userRoutes;
