// The fleet's watch in the server: the periodic sweep (modules/devices/alarms.ts) and, with
// TEST_HOOKS=1 outside production only, a route that makes a terminal fall silent as if its last
// beat were `minutes` older, then sweeps, so an end-to-end test sees an offline alarm arrive
// without waiting half an hour.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rows } from '../../db/query';
import { notFound, ok } from '../../http/envelope';
import { startSweeps, sweep } from '../devices/alarms';
import { SWEEP_SECONDS } from '../../../src/domain/alarms';

const fleetWatch: FastifyPluginAsyncTypebox = async (app) => {
  let sweeps: { stop(): Promise<void> } | undefined;
  app.addHook('onReady', async () => {
    if (app.config.backgroundSweeps === false) return;
    sweeps = startSweeps(app.db, app.liveBus, app.config.deviceSweepSeconds ?? SWEEP_SECONDS, (error) => app.log.error({ err: error }, '设备巡检失败'));
  });
  app.addHook('onClose', async () => sweeps?.stop());

  if (!app.config.testHooks || app.config.production) return;
  app.post(
    '/api/test/devices/silence',
    { config: { public: true }, schema: { body: Type.Object({ serial: Type.String({ maxLength: 32 }), minutes: Type.Integer({ minimum: 1, maximum: 100_000 }) }) } },
    async (request) => {
      const { serial, minutes } = request.body;
      const [device] = await rows<{ id: number }>(
        app.db,
        sql`UPDATE devices SET last_heartbeat_at = last_heartbeat_at - make_interval(mins => ${minutes}), last_seen_at = last_seen_at - make_interval(mins => ${minutes})
             WHERE serial = ${serial} AND last_heartbeat_at IS NOT NULL RETURNING id`,
      );
      if (!device) throw notFound('设备不存在');
      return ok(await sweep(app.db, new Date(), app.liveBus));
    },
  );
};
export default fleetWatch;
