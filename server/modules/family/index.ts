// family: a student's read-only page for the student and the family (家长查看链接), reachable without
// an account through a signed, expiring link, and the family's regrade requests (复核申请).
import fp from 'fastify-plugin';
import linkRoutes from './links';
import publicRoutes from './publicRoutes';
import regradeRoutes from './regrades';

export default fp(async (app) => {
  await app.register(linkRoutes);
  // Encapsulated: the page's form parser stays with the page's routes.
  await app.register(publicRoutes);
  await app.register(regradeRoutes);
});
