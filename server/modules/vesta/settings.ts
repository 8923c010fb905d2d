// A school's own settings, kept by its administrators: what people other than a student's teachers
// see of that student's exam results (ScoreDisclosure), and the school's time zone, the clock every
// date the server makes for the school is read on (exports, PDFs, notices, day filters).
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SCORE_DISCLOSURES } from '../../../src/domain/content';
import { EnvelopeSchema } from '../../../src/domain/envelope';
import { DEFAULT_ZONE, isTimeZone, ZONE_MAX_LENGTH, zoneLabel } from '../../../src/domain/format';
import { SchoolSettingsSchema } from '../../../src/domain/school';
import { rows } from '../../db/query';
import { badRequest, notFound, ok } from '../../http/envelope';
import { adminOnly, schoolOf } from './access';
import { recordAudit } from '../audit/record';

const settingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get('/api/vesta/school/settings', { preHandler: adminOnly, schema: { response: { 200: EnvelopeSchema(SchoolSettingsSchema) } } }, async (request) => {
    const s = schoolOf(request.principal);
    const [settings] = await rows<{ scoreDisclosure: number; timeZone: string }>(db, sql`
      SELECT score_disclosure AS "scoreDisclosure", time_zone AS "timeZone" FROM schools WHERE id = ${s.schoolId} AND tenant_id = ${s.tenantId}`);
    // The reply's schema names every field: a school that is gone is a 404, not a half reply.
    if (!settings) throw notFound('学校不存在');
    return ok({ ...settings, timeZone: isTimeZone(settings.timeZone) ? settings.timeZone : DEFAULT_ZONE, scoreDisclosureOptions: SCORE_DISCLOSURES });
  });

  app.put(
    '/api/vesta/school/settings',
    {
      preHandler: adminOnly,
      schema: {
        // Either setting, or both; each is saved and audited on its own.
        body: Type.Object(
          {
            scoreDisclosure: Type.Optional(Type.Integer({ minimum: 0, maximum: SCORE_DISCLOSURES.length - 1 })),
            timeZone: Type.Optional(Type.String({ minLength: 1, maxLength: ZONE_MAX_LENGTH })),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const s = schoolOf(request.principal);
      const { scoreDisclosure, timeZone } = request.body;
      if (scoreDisclosure === undefined && timeZone === undefined) throw badRequest('请选择要修改的设置');
      if (timeZone !== undefined && !isTimeZone(timeZone)) throw badRequest('时区无效，请从列表中选择');
      const choice = SCORE_DISCLOSURES.find((o) => o.value === scoreDisclosure)?.label ?? String(scoreDisclosure);
      await db.transaction(async (tx) => {
        if (scoreDisclosure !== undefined) {
          await tx.execute(sql`UPDATE schools SET score_disclosure = ${scoreDisclosure} WHERE id = ${s.schoolId} AND tenant_id = ${s.tenantId}`);
          await recordAudit(tx, request, { action: 'update', kind: 'setting', recordId: s.schoolId, summary: `修改成绩公开范围为“${choice}”` });
        }
        if (timeZone !== undefined) {
          await tx.execute(sql`UPDATE schools SET time_zone = ${timeZone} WHERE id = ${s.schoolId} AND tenant_id = ${s.tenantId}`);
          await recordAudit(tx, request, { action: 'update', kind: 'setting', recordId: s.schoolId, summary: `修改学校时区为“${zoneLabel(timeZone)}”` });
        }
      });
      return ok({ ...(scoreDisclosure !== undefined ? { scoreDisclosure } : {}), ...(timeZone !== undefined ? { timeZone } : {}) }, '设置已保存');
    },
  );
};
export default settingsRoutes;
