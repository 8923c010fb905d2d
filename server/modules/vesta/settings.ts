// A school's own settings, kept by its administrators. Today one: what people other than a
// student's teachers see of that student's exam results (ScoreDisclosure).
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SCORE_DISCLOSURES } from '../../../src/domain/content';
import { EnvelopeSchema } from '../../../src/domain/envelope';
import { SchoolSettingsSchema } from '../../../src/domain/school';
import { rows } from '../../db/query';
import { notFound, ok } from '../../http/envelope';
import { adminOnly, schoolOf } from './access';
import { recordAudit } from '../audit/record';

const settingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get('/api/vesta/school/settings', { preHandler: adminOnly, schema: { response: { 200: EnvelopeSchema(SchoolSettingsSchema) } } }, async (request) => {
    const s = schoolOf(request.principal);
    const [settings] = await rows<{ scoreDisclosure: number }>(db, sql`
      SELECT score_disclosure AS "scoreDisclosure" FROM schools WHERE id = ${s.schoolId} AND tenant_id = ${s.tenantId}`);
    // The reply's schema names every field: a school that is gone is a 404, not a half reply.
    if (!settings) throw notFound('学校不存在');
    return ok({ ...settings, scoreDisclosureOptions: SCORE_DISCLOSURES });
  });

  app.put(
    '/api/vesta/school/settings',
    {
      preHandler: adminOnly,
      schema: { body: Type.Object({ scoreDisclosure: Type.Integer({ minimum: 0, maximum: SCORE_DISCLOSURES.length - 1 }) }, { additionalProperties: false }) },
    },
    async (request) => {
      const s = schoolOf(request.principal);
      const { scoreDisclosure } = request.body;
      const choice = SCORE_DISCLOSURES.find((o) => o.value === scoreDisclosure)?.label ?? String(scoreDisclosure);
      await db.transaction(async (tx) => {
        await tx.execute(sql`UPDATE schools SET score_disclosure = ${scoreDisclosure} WHERE id = ${s.schoolId} AND tenant_id = ${s.tenantId}`);
        await recordAudit(tx, request, { action: 'update', kind: 'setting', recordId: s.schoolId, summary: `修改成绩公开范围为“${choice}”` });
      });
      return ok({ scoreDisclosure }, '设置已保存');
    },
  );
};
export default settingsRoutes;
