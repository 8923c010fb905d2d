// minerva: teaching content (knowledge points, the question bank, exercise books, papers) and
// school work (homework, exams, answer records and their reports).
import fp from 'fastify-plugin';
import contentRoutes from './content';
import bookRoutes from './books';
import bookImportRoutes from './bookImport';
import homeworkRoutes from './homework';
import homeworkFileRoutes from './homeworkFiles';
import examRoutes from './exams';
import examLeaderRoutes from './examLeaders';
import examLeaderDetailRoutes from './examLeaderDetail';
import examExportRoutes from './examExport';
import paperRoutes from './papers';
import reviewRoutes from './review';

export default fp(async (app) => {
  await app.register(contentRoutes);
  await app.register(bookRoutes);
  await app.register(bookImportRoutes);
  await app.register(homeworkRoutes);
  await app.register(homeworkFileRoutes);
  await app.register(examRoutes);
  await app.register(examLeaderRoutes);
  await app.register(examLeaderDetailRoutes);
  await app.register(examExportRoutes);
  await app.register(paperRoutes);
  await app.register(reviewRoutes);
});
