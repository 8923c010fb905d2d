// wrongbook: partner back office and the teacher-side navigation statistics.
import fp from 'fastify-plugin';
import navRoutes from './nav';
import partnerRoutes from './partner';
import orgRoutes from './org';
import volumePaperRoutes from './volumePaper';

export default fp(async (app) => {
  await app.register(partnerRoutes);
  await app.register(navRoutes);
  await app.register(orgRoutes);
  await app.register(volumePaperRoutes);
});
