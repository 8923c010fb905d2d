// juno: the account service (sign-in, sessions, who am I, saved list filters).
import fp from 'fastify-plugin';
import authRoutes from './auth';
import personalRoutes from './personal';
import savedFilterRoutes from './savedFilters';
import researcherRoutes from './researchers';

export default fp(async (app) => {
  await app.register(authRoutes);
  await app.register(personalRoutes);
  await app.register(savedFilterRoutes);
  await app.register(researcherRoutes);
});
