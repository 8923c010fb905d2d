// vesta: school structure and teaching.
import fp from 'fastify-plugin';
import files from '../../files/plugin';
import teachingRoutes from './teaching';
import classRoutes from './classes';
import studentRoutes from './students';
import teacherRoutes from './teachers';
import roleRoutes from './roles';
import teacherAccountRoutes from './teacherAccounts';
import resourceRoutes from './resources';
import overviewRoutes from './overview';
import settingsRoutes from './settings';
import schoolYearRoutes from './schoolYear';
import studentStatusRoutes from './studentStatus';

export default fp(async (app) => {
  await app.register(files);
  await app.register(teachingRoutes);
  await app.register(classRoutes);
  await app.register(studentRoutes);
  await app.register(teacherRoutes);
  await app.register(roleRoutes);
  await app.register(teacherAccountRoutes);
  await app.register(resourceRoutes);
  await app.register(overviewRoutes);
  await app.register(settingsRoutes);
  await app.register(schoolYearRoutes);
  await app.register(studentStatusRoutes);
});
