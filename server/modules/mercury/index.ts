// 订单与支付 (mercury): partners' paper orders and their payment through a gateway behind the
// PaymentProvider interface; the built-in sandbox gateway serves its own pay page. Unpaid orders
// close after PAY_TIMEOUT_MINUTES: on every read, and by a sweep every minute, which also builds
// last month's settlement statements when the month is over.
import { createHmac } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { PaymentProvider } from './payment/provider';
import { SandboxGateway } from './payment/sandbox';
import { NoGateway } from './payment/noGateway';
import notifyRoutes, { NOTIFY_PATH } from './payment/notifyRoutes';
import sandboxPageRoutes from './payment/sandboxPage';
import orderRoutes from './orderRoutes';
import { closeExpiredOrders } from './orders';
import { buildDueStatements } from '../partner/statements';

declare module 'fastify' {
  interface FastifyInstance {
    payments: PaymentProvider;
  }
}

const SWEEP_MS = 60_000;

/** The gateway posts its notices to this server's own listening address. */
function selfNotifyUrl(app: FastifyInstance): string | undefined {
  const address = app.server.address();
  if (!address || typeof address === 'string') return undefined;
  const host = ['0.0.0.0', '::'].includes(address.address) ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}${NOTIFY_PATH}`;
}

export default fp(async (app) => {
  // The sandbox is for the demo only: in production (or with PAYMENT_GATEWAY=none) its page and
  // its pay routes do not exist, and paying online is refused until a real gateway is connected.
  if ((app.config.paymentGateway ?? 'sandbox') === 'sandbox' && !app.config.production) {
    // The sandbox's signing key comes from the server's own secret: nobody outside can forge a notice.
    const key = createHmac('sha256', app.config.jwtSecret).update('sandbox-payment-gateway').digest();
    const gateway = new SandboxGateway({ key, notifyUrl: () => selfNotifyUrl(app) });
    app.decorate('payments', gateway as PaymentProvider);
    await app.register(notifyRoutes);
    await app.register(sandboxPageRoutes, { gateway });
  } else {
    app.decorate('payments', new NoGateway() as PaymentProvider);
  }
  await app.register(orderRoutes);

  let sweep: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    if (app.config.backgroundSweeps === false) return;
    sweep = setInterval(() => {
      closeExpiredOrders(app.db, app.payments).catch((error) => app.log.error({ err: error }, '关闭超时订单失败'));
      // Last month's statements, once it is over (a no-op when they exist).
      buildDueStatements(app.db).catch((error) => app.log.error({ err: error }, '生成结算单失败'));
    }, SWEEP_MS);
    sweep.unref();
  });
  app.addHook('onClose', async () => clearInterval(sweep));
});
