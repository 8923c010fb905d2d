// With TEST_HOOKS=1 outside production only: where grading runs and how the API's event loop
// fares, so a test can see that grading happens in other processes than the server's (and kill
// one), and a benchmark can tell event-loop stalls from CPU contention. Reading the figures resets
// the event-loop histogram.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../http/envelope';
import { gradingPool } from '../../threads/pool';

const gradingHooks: FastifyPluginAsyncTypebox = async (app) => {
  if (!app.config.testHooks || app.config.production) return;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  app.addHook('onClose', async () => delay.disable());
  app.get('/api/test/grading/processes', { config: { public: true } }, async () => {
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const eventLoop = { p99Ms: ms(delay.percentile(99)), maxMs: ms(delay.max) };
    delay.reset();
    return ok({ serverPid: process.pid, grading: gradingPool().list(), eventLoop });
  });
};
export default gradingHooks;
