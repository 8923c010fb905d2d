// POST /api/device/v1/heartbeat: the terminal's state every minute. The beat joins the server's
// heartbeat queue (heartbeatWriter.ts), which records the nonce, updates the terminal and writes
// an event for each transition only, many beats to a statement when many arrive at once.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError, ok } from '../../http/envelope';
import { replayed } from './auth';
import { heartbeatWriter } from './heartbeatWriter';

const Heartbeat = Type.Object({
  paperLeft: Type.Integer({ minimum: 0, maximum: 10_000 }),
  jammed: Type.Boolean(),
  firmware: Type.String({ minLength: 1, maxLength: 32, pattern: '^[0-9A-Za-z._-]+$' }),
});

const heartbeatRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const beats = heartbeatWriter(app.db);
  app.post('/api/device/v1/heartbeat', { config: { public: true, deviceNonceInline: true, deviceLimit: 'heartbeat' }, schema: { body: Heartbeat } }, async (request) => {
    const { paperLeft, jammed, firmware } = request.body;
    const result = await beats.write({ deviceId: request.device.id, nonce: request.device.nonce, paperLeft, jammed, firmware });
    if (result.outcome === 'replayed') throw replayed();
    if (result.outcome === 'unknown') throw new ApiError(401, '设备未注册');
    return ok({ serverTime: new Date().toISOString(), events: result.events });
  });
};
export default heartbeatRoutes;
