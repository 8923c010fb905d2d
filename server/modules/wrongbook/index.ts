// wrongbook: partner back office, the teacher-side navigation statistics and the class wrong-answer book.
import fp from 'fastify-plugin';
import navRoutes from './nav';
import partnerRoutes from './partner';
import orgRoutes from './org';
import classBookRoutes from './classBook';

export default fp(async (app) => {
  await app.register(partnerRoutes);
  await app.register(navRoutes);
  await app.register(orgRoutes);
  await app.register(classBookRoutes);
});
