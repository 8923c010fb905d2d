// AI correction: answer sheets, grading tasks and their results, on the durable job queue.
import fp from 'fastify-plugin';
import files from '../../files/plugin';
import sheetRoutes from './sheetRoutes';
import taskRoutes from './taskRoutes';
import fileRoutes from './fileRoutes';
import resultRoutes from './resultRoutes';
import markingRoutes from './markingRoutes';
import rubricRoutes from './rubricRoutes';
import markerRoutes from './markerRoutes';
import lectureRoutes from './lectureSamples';
import groupRoutes from './groupRoutes';
import feedbackRoutes from './feedback';
import familyQrRoutes from './familyQr';
import gradingHooks from './gradingHooks';

export default fp(async (app) => {
  await app.register(files);
  await app.register(sheetRoutes);
  await app.register(taskRoutes);
  await app.register(fileRoutes);
  await app.register(resultRoutes);
  await app.register(markingRoutes);
  await app.register(rubricRoutes);
  await app.register(markerRoutes);
  await app.register(lectureRoutes);
  await app.register(groupRoutes);
  await app.register(feedbackRoutes);
  await app.register(familyQrRoutes);
  await app.register(gradingHooks);
});
