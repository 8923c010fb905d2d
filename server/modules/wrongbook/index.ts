// wrongbook: the teacher-side navigation statistics and the wrong-answer books (class and student) and the 错题卷 made from them.
import fp from 'fastify-plugin';
import navRoutes from './nav';
import orgRoutes from './org';
import classBookRoutes from './classBook';
import platformRoutes from './platform';
import studentRoutes from './students';
import volumePaperRoutes from './volumePaper';

export default fp(async (app) => {
  await app.register(navRoutes);
  await app.register(orgRoutes);
  await app.register(classBookRoutes);
  await app.register(platformRoutes);
  await app.register(studentRoutes);
  await app.register(volumePaperRoutes);
});
