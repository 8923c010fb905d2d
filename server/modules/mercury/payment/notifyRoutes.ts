// Our notify endpoint: the gateway's signed HTTP POST. The body is read raw, since the signature
// is over its exact bytes; nothing in it is believed before the signature verifies.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { badRequest, ok } from '../../../http/envelope';
import { applyNotice } from './notices';

export const NOTIFY_PATH = '/api/mercury/v1/pay/notify/sandbox';

const notifyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Encapsulated: only this plugin's routes read JSON as text.
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) => done(null, body));
  app.post(NOTIFY_PATH, { config: { public: true } }, async (request) => {
    const raw = typeof request.body === 'string' ? request.body : '';
    const notice = app.payments.readNotice(request.headers, raw);
    // 400, not 401: a 401 would read as "not signed in"; this is a request that proves nothing.
    if (!notice) throw badRequest('通知签名验证失败');
    const outcome = await applyNotice(app.db, app.payments, notice);
    return ok({ outcome }, '成功');
  });
};

export default notifyRoutes;
