// The demo's paper orders, recharges and settlement, made through the order service and the
// sandbox gateway (as a payer and its notices would), so the ledger and the statements agree
// with the orders: every partner of the chain has orders in each pay and refund state over the
// last 90 days, and the level-1 partner a few recharges.
import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../index';
import * as t from '../schema';
import { random } from './draft';
import { SandboxGateway } from '../../modules/mercury/payment/sandbox';
import { applyNotice } from '../../modules/mercury/payment/notices';
import { cancelOrder, closeExpiredOrders, placeOrder, requestRefund } from '../../modules/mercury/orders';
import { placeRecharge } from '../../modules/partner/recharges';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** What happens to a demo order after it is placed. */
type Fate = 'paid' | 'refunding' | 'refunded' | 'cancelled' | 'closed' | 'pending' | 'paidAfterCancel';

/** Per partner: how many orders of each fate, oldest first; the last ones are the most recent. */
const FATES: Fate[] = ['paid', 'paid', 'refunded', 'paid', 'cancelled', 'paid', 'closed', 'paid', 'paidAfterCancel', 'paid', 'paid', 'refunded', 'paid', 'refunding', 'pending'];

const REMARKS = ['请尽快发货', '送到学校门卫室', '开学备货', null, null, '期中考试用纸', null, '发票抬头同公司名称'];

export async function seedOrders(tx: Tx, ids: Record<string, number>, now = new Date()): Promise<void> {
  const db = tx as unknown as Db;
  const next = random(20261126);
  // The demo's gateway sends no notices: the seed applies them itself, in this transaction.
  const gateway = new SandboxGateway({ key: createHmac('sha256', 'demo').digest(), notifyUrl: () => undefined });
  const packs = await db.select().from(t.paperPacks);

  const pay = async (orderNo: string, at: Date) => {
    await gateway.pay(db, orderNo, at);
    const trade = await gateway.queryPayment(db, orderNo, at);
    await applyNotice(db, gateway, { kind: 'paid', outTradeNo: orderNo, transactionId: trade.transactionId!, amountFen: trade.amountFen!, paidAt: at });
  };
  const finishRefund = async (orderNo: string, at: Date) => {
    const [refund] = await db.select().from(t.orderRefunds).innerJoin(t.partnerOrders, eq(t.partnerOrders.id, t.orderRefunds.orderId)).where(eq(t.partnerOrders.orderNo, orderNo));
    await gateway.completeRefund(db, refund.order_refunds.refundNo, at);
    await applyNotice(db, gateway, { kind: 'refunded', outTradeNo: orderNo, outRefundNo: refund.order_refunds.refundNo, amountFen: refund.order_refunds.amountFen, refundedAt: at });
  };

  for (const key of ['p1', 'p2', 'p2b', 'p3', 'p3b']) {
    const [buyer] = await db.select().from(t.partners).where(eq(t.partners.id, ids[key]));
    const [user] = await db.select({ id: t.users.id }).from(t.users).where(eq(t.users.partnerId, buyer.id));
    for (const [i, fate] of FATES.entries()) {
      // Spread over 90 days, oldest first; the pending one was placed ten minutes ago.
      const placedAt = fate === 'pending' ? new Date(now.getTime() - 10 * MINUTE) : new Date(now.getTime() - (88 - i * 6) * DAY - Math.floor(next() * 8 * 60) * MINUTE);
      const lines = packs.filter(() => next() < 0.45).slice(0, 3);
      const items = (lines.length ? lines : [packs[0]]).map((p) => ({ packId: p.id, quantity: 1 + Math.floor(next() * (key === 'p1' ? 40 : 12)) }));
      const order = await placeOrder(db, gateway, buyer, { items, remark: REMARKS[i % REMARKS.length] ?? undefined }, user?.id ?? null, placedAt);
      const paidAt = new Date(placedAt.getTime() + (2 + Math.floor(next() * 20)) * MINUTE);
      switch (fate) {
        case 'paid':
          await pay(order.orderNo, paidAt);
          break;
        case 'refunding':
        case 'refunded':
          await pay(order.orderNo, paidAt);
          await requestRefund(db, gateway, order.orderNo, buyer.id, i % 2 ? '学校停课，纸张暂不需要' : '规格订错，申请退款', user?.id ?? null, new Date(paidAt.getTime() + 2 * DAY));
          if (fate === 'refunded') await finishRefund(order.orderNo, new Date(paidAt.getTime() + 3 * DAY));
          break;
        case 'cancelled':
          await cancelOrder(db, gateway, order.orderNo, new Date(placedAt.getTime() + 6 * MINUTE));
          break;
        case 'paidAfterCancel':
          // The payer paid on the gateway just before the partner cancelled; the late notice
          // finds a cancelled order, and the money goes back.
          await gateway.pay(db, order.orderNo, new Date(placedAt.getTime() + 4 * MINUTE));
          await cancelOrder(db, gateway, order.orderNo, new Date(placedAt.getTime() + 5 * MINUTE));
          await pay(order.orderNo, new Date(placedAt.getTime() + 4 * MINUTE));
          await finishRefund(order.orderNo, new Date(placedAt.getTime() + 1 * DAY));
          break;
        case 'closed':
        case 'pending':
          break;
      }
    }
  }
  await closeExpiredOrders(db, gateway, now);

  // The level-1 partner tops up its account every few weeks; one top-up was never paid.
  const [p1User] = await db.select({ id: t.users.id }).from(t.users).where(eq(t.users.partnerId, ids.p1));
  for (const [i, yuan] of [20_000, 50_000, 30_000, 10_000, 50_000, 20_000].entries()) {
    const at = new Date(now.getTime() - (85 - i * 15) * DAY);
    const recharge = await placeRecharge(db, gateway, ids.p1, yuan * 100, p1User?.id ?? null, at);
    if (i !== 3) await pay(recharge.rechargeNo, new Date(at.getTime() + 3 * MINUTE));
  }
}
