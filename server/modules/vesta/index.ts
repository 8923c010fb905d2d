// vesta: school structure and teaching.
import fp from 'fastify-plugin';
import teachingRoutes from './teaching';

export default fp(async (app) => {
  await app.register(teachingRoutes);
});
