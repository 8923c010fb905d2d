// AI correction: answer sheets, grading tasks and their results, on the durable job queue.
import fp from 'fastify-plugin';
import files from '../../files/plugin';
import correctRoutes from './routes';

export default fp(async (app) => {
  await app.register(files);
  await app.register(correctRoutes);
});
