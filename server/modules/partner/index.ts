// The partner back office (SPEC §2.4 partner routes, §7 partner calls): the partner's own record,
// its subtree's schools, terminals, orders, settlement and data boards. Every call is guarded by
// role and partner level, and every id is checked against the caller's subtree (scope.ts).
import fp from 'fastify-plugin';
import boardRoutes from './boards';
import currentRoutes from './current';
import deviceRoutes from './devices';
import deviceHistoryRoutes from './deviceHistory';
import deviceSecretRoutes from './deviceSecrets';
import accountRoutes from './account';
import channelRoutes from './channel';
import balanceRoutes from './balanceRoutes';
import addressRoutes from './addresses';
import childrenRoutes from './children';
import alarmRoutes from './alarms';
import liveStreamRoutes from './liveStream';
import consumptionRoutes from './consumption';
import fleetWatch from './fleetWatch';

export default fp(async (app) => {
  await app.register(currentRoutes);
  await app.register(deviceRoutes);
  await app.register(deviceHistoryRoutes);
  await app.register(deviceSecretRoutes);
  await app.register(accountRoutes);
  await app.register(channelRoutes);
  await app.register(balanceRoutes);
  await app.register(addressRoutes);
  await app.register(childrenRoutes);
  await app.register(boardRoutes);
  await app.register(alarmRoutes);
  await app.register(liveStreamRoutes);
  await app.register(consumptionRoutes);
  await app.register(fleetWatch);
});
