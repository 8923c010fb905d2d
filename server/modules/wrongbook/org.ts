// Enabling students in the wrong-answer book organisation (SPEC §7 batchEnableStudentOrg):
// the school admin binds (or unbinds) a batch of students, which sets their bindingStatus.
import { inArray } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../http/envelope';
import { students } from '../../db/schema';
import { adminOnly, checkStudentIds } from '../vesta/access';
import { Id } from '../../http/schemas';


const orgRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api/wrongbook/v1.0/web/org/batchEnableStudentOrg',
    {
      preHandler: adminOnly,
      schema: {
        body: Type.Object({
          studentIds: Type.Array(Id, { minItems: 1, maxItems: 5000 }),
          bindingStatus: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
        }),
      },
    },
    async (request) => {
      const { studentIds, bindingStatus = 1 } = request.body;
      await checkStudentIds(app.db, request.principal, studentIds);
      const changed = await app.db.update(students).set({ bindingStatus }).where(inArray(students.id, studentIds)).returning({ id: students.id });
      return ok({ count: changed.length, bindingStatus }, bindingStatus === 1 ? '已开通' : '已取消开通');
    },
  );
};
export default orgRoutes;
