// wrongbook: partner back office and the teacher-side navigation statistics.
import fp from 'fastify-plugin';
import navRoutes from './nav';
import partnerRoutes from './partner';

export default fp(async (app) => {
  await app.register(partnerRoutes);
  await app.register(navRoutes);
});
