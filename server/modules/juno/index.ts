// juno: the account service (sign-in, sessions, who am I).
import fp from 'fastify-plugin';
import authRoutes from './auth';
import personalRoutes from './personal';

export default fp(async (app) => {
  await app.register(authRoutes);
  await app.register(personalRoutes);
});
