// 订单与支付 (mercury): partners' paper orders and their payment through a gateway behind the
// PaymentProvider interface; the built-in sandbox gateway serves its own pay page. Unpaid orders
// close after PAY_TIMEOUT_MINUTES: on every read, and by a sweep every minute, which also builds
// last month's settlement statements when the month is over, confirms receipt of orders shipped
// AUTO_RECEIVE_DAYS ago (also once on start), and asks the gateway again for refunds whose first
// call failed (refundResend.ts).
import { createHmac } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { PaymentProvider } from './payment/provider';
import { SandboxGateway } from './payment/sandbox';
import { NoGateway } from './payment/noGateway';
import { WECHAT_NOTIFY_PATH, WechatPayGateway } from './payment/wechat';
import { ALIPAY_NOTIFY_PATH, AlipayGateway } from './payment/alipay';
import notifyRoutes, { NOTIFY_PATH } from './payment/notifyRoutes';
import sandboxPageRoutes from './payment/sandboxPage';
import orderRoutes from './orderRoutes';
import fulfilmentRoutes from './fulfilmentRoutes';
import { closeExpiredOrders } from './orders';
import { autoConfirmReceipts } from './fulfilment';
import { buildDueStatements } from '../partner/statements';
import { resendStuckRefunds } from './refundResend';
import { sweepOnce } from '../../jobs/sweeps';

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
  // WeChat Pay or Alipay when configured (config.ts refuses to start with one half-configured), with
  // its notify endpoint. The sandbox is for the demo only: in production (or with
  // PAYMENT_GATEWAY=none) its page and its pay routes do not exist, and paying online is refused.
  const chosen = app.config.paymentGateway ?? 'sandbox';
  if (chosen === 'wechat' && app.config.wechatPay) {
    app.decorate('payments', new WechatPayGateway(app.config.wechatPay, app.log) as PaymentProvider);
    await app.register(notifyRoutes, { path: WECHAT_NOTIFY_PATH, answer: 'wechat' });
  } else if (chosen === 'alipay' && app.config.alipay) {
    app.decorate('payments', new AlipayGateway(app.config.alipay, app.log) as PaymentProvider);
    await app.register(notifyRoutes, { path: ALIPAY_NOTIFY_PATH, answer: 'alipay' });
  } else if (chosen === 'sandbox' && !app.config.production) {
    // The sandbox's signing key comes from the server's own secret: nobody outside can forge a notice.
    const key = createHmac('sha256', app.config.jwtSecret).update('sandbox-payment-gateway').digest();
    const gateway = new SandboxGateway({ key, notifyUrl: () => selfNotifyUrl(app) });
    app.decorate('payments', gateway as PaymentProvider);
    await app.register(notifyRoutes, { path: NOTIFY_PATH, answer: 'sandbox' });
    await app.register(sandboxPageRoutes, { gateway });
  } else {
    app.decorate('payments', new NoGateway() as PaymentProvider);
  }
  await app.register(orderRoutes);
  await app.register(fulfilmentRoutes);

  let sweep: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    if (app.config.backgroundSweeps === false) return;
    // Shipped orders nobody confirmed in time are received: once on start (a server that was down
    // catches up), then with the minute's sweep.
    // Each step once per minute across all API processes (jobs/sweeps.ts): a refund's gateway call
    // is never sent twice at once by two processes.
    const once = (name: string, work: () => Promise<unknown>) => sweepOnce(app.db, name, SWEEP_MS, work);
    const receive = () => once('order-receipts', () => autoConfirmReceipts(app.db)).catch((error) => app.log.error({ err: error }, '自动确认收货失败'));
    await receive();
    sweep = setInterval(() => {
      receive();
      once('order-expiry', () => closeExpiredOrders(app.db, app.payments)).catch((error) => app.log.error({ err: error }, '关闭超时订单失败'));
      // Last month's statements, once it is over (a no-op when they exist).
      once('statements', () => buildDueStatements(app.db)).catch((error) => app.log.error({ err: error }, '生成结算单失败'));
      // Refunds whose gateway call failed are asked again (bounded, recorded on the refund).
      once('refund-resend', async () => {
        const done = await resendStuckRefunds(app.db, app.payments);
        done.filter((d) => !d.ok).forEach((d) => app.log.warn({ refundNo: d.refundNo, error: d.error }, '退款重新提交失败'));
      }).catch((error) => app.log.error({ err: error }, '退款重新提交失败'));
    }, SWEEP_MS);
    sweep.unref();
  });
  app.addHook('onClose', async () => clearInterval(sweep));
});
