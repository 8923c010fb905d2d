// The reseller's own record (SPEC §7 getCurrentPartner).
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound, ok } from '../../http/envelope';
import { partners } from '../../db/schema';
import { anyPartner } from './scope';
import { partnerLevel } from '../../../src/domain/roles';

const currentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/api/wrongbook/v1.0/partner/getCurrentPartner', { preHandler: anyPartner }, async (request) => {
    const id = request.principal.partnerId;
    const [partner] = id ? await app.db.select().from(partners).where(eq(partners.id, id)) : [];
    if (!partner) throw notFound('合作伙伴不存在');
    return ok({
      id: partner.id,
      name: partner.name,
      ancestors: partner.ancestors,
      level: partnerLevel(partner.ancestors),
      parentId: partner.parentId,
      contactName: partner.contactName,
      phone: partner.phone,
      region: partner.region,
    });
  });
};

export default currentRoutes;
