// The demo's paper orders, recharges and settlement, made through the order service and the
// sandbox gateway (as a payer and its notices would), so the ledger and the statements agree
// with the orders: every partner of the chain has orders in each pay and refund state over the
// last 90 days, the level-1 partner a few recharges, and the past months' statements are built on
// the first of each month and went through the flow (the oldest settled, one rejected).
import { createHmac } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db';
import * as t from '../db/schema';
import { random } from './draft';
import { SandboxGateway } from '../modules/mercury/payment/sandbox';
import { applyNotice } from '../modules/mercury/payment/notices';
import { cancelOrder, closeExpiredOrders, placeOrder, requestRefund } from '../modules/mercury/orders';
import { confirmReceipt, dispatchOrder, requestReturn, type Seller } from '../modules/mercury/fulfilment';
import { AUTO_RECEIVE_DAYS } from '../../src/domain/fulfilment';
import { placeRecharge } from '../modules/partner/recharges';
import { buildStatements, confirmStatement, periodEnd, periodOf, previousPeriod, rejectStatement, settleStatement, type Party } from '../modules/partner/statements';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** What happens to a demo order after it is placed. */
type Fate = 'paid' | 'refunding' | 'refunded' | 'cancelled' | 'closed' | 'pending' | 'paidAfterCancel';

/** Per partner: how many orders of each fate, oldest first; the last ones are the most recent. */
const FATES: Fate[] = ['paid', 'paid', 'refunded', 'paid', 'cancelled', 'paid', 'closed', 'paid', 'paidAfterCancel', 'paid', 'paid', 'refunded', 'refunding', 'paid', 'pending'];

/** Each partner's 收货地址 book: a warehouse or office (the default) and a school's door. */
const ADDRESSES: Record<string, { receiver: string; phone: string; province: string; city: string; district: string; detail: string }[]> = {
  p1: [
    { receiver: '周明', phone: '13905710001', province: '浙江省', city: '杭州市', district: '西湖区', detail: '文三路 478 号华星时代广场 B 座 11 楼' },
    { receiver: '何建国', phone: '13605710288', province: '浙江省', city: '杭州市', district: '余杭区', detail: '良渚街道好运街 9 号仓储中心 3 号库' },
  ],
  p2: [
    { receiver: '吴芳', phone: '13857120452', province: '浙江省', city: '杭州市', district: '拱墅区', detail: '莫干山路 1418 号上城工业园 2 幢 302 室' },
    { receiver: '陈立新', phone: '15968103377', province: '浙江省', city: '杭州市', district: '拱墅区', detail: '文澜中学门卫室（大关路 28 号）' },
  ],
  p2b: [{ receiver: '孔磊', phone: '13780561209', province: '浙江省', city: '宁波市', district: '鄞州区', detail: '天童南路 588 号宁波文化广场 C 座 806 室' }],
  p3: [
    { receiver: '郑凯', phone: '18757103316', province: '浙江省', city: '杭州市', district: '拱墅区', detail: '湖州街 63 号湖墅科技园 5 楼 512' },
    { receiver: '郑凯', phone: '18757103316', province: '浙江省', city: '杭州市', district: '拱墅区', detail: '大关实验学校教务处（大关西六苑 8 号）' },
  ],
  p3b: [{ receiver: '施雯', phone: '13967195520', province: '浙江省', city: '杭州市', district: '拱墅区', detail: '登云路 639 号 3 幢 2 单元 101' }],
};

/** Carriers and the shape of their numbers, for the demo's shipments. */
const PARCELS: [string, (n: () => number) => string][] = [
  ['顺丰速运', (n) => `SF${digits(n, 13)}`],
  ['中通快递', (n) => `7${digits(n, 14)}`],
  ['圆通速递', (n) => `YT${digits(n, 13)}`],
  ['韵达快递', (n) => `43${digits(n, 13)}`],
  ['京东物流', (n) => `JDVA${digits(n, 11)}`],
];
const digits = (n: () => number, count: number) => Array.from({ length: count }, () => Math.floor(n() * 10)).join('');

/**
 * What became of a paid order's goods, by its place in FATES (index) — the old ones received (some
 * confirmed by the buyer, some automatically), the newest one (six days old) per partner in a
 * different state, so every 发货状态 shows up in the demo.
 */
const NEWEST_PAID = 13;
const NEWEST_STATE: Record<string, 'awaiting' | 'partial' | 'shipped'> = { p1: 'shipped', p2: 'partial', p2b: 'shipped', p3: 'awaiting', p3b: 'partial' };
const AUTO_RECEIVED = new Set([0, 5]);

const REMARKS = ['请尽快发货', '送到学校门卫室', '开学备货', null, null, '期中考试用纸', null, '发票抬头同公司名称'];

/** A payer pays on the sandbox page at `at` (if the gateway still takes it), and its notice arrives (applied here, not over HTTP). */
export async function payInSandbox(db: Db, gateway: SandboxGateway, outTradeNo: string, at: Date) {
  await gateway.pay(db, outTradeNo, at);
  const trade = await gateway.queryPayment(db, outTradeNo, at);
  if (trade.state !== 'SUCCESS') return undefined;
  return applyNotice(db, gateway, { kind: 'paid', outTradeNo, transactionId: trade.transactionId!, amountFen: trade.amountFen!, paidAt: at });
}

/** The sandbox completes an order's refund at `at`, and its notice arrives. */
export async function completeSandboxRefund(db: Db, gateway: SandboxGateway, orderNo: string, at: Date) {
  const [refund] = await db.select().from(t.orderRefunds).innerJoin(t.partnerOrders, eq(t.partnerOrders.id, t.orderRefunds.orderId)).where(eq(t.partnerOrders.orderNo, orderNo));
  await gateway.completeRefund(db, refund.order_refunds.refundNo, at);
  return applyNotice(db, gateway, { kind: 'refunded', outTradeNo: orderNo, outRefundNo: refund.order_refunds.refundNo, amountFen: refund.order_refunds.amountFen, refundedAt: at });
}

export async function seedOrders(tx: Tx, ids: Record<string, number>, now = new Date()): Promise<void> {
  const db = tx as unknown as Db;
  const next = random(20261126);
  // The demo's gateway sends no notices: the seed applies them itself, in this transaction.
  const gateway = new SandboxGateway({ key: createHmac('sha256', 'demo').digest(), notifyUrl: () => undefined });
  const packs = await db.select().from(t.paperPacks);

  const pay = (no: string, at: Date) => payInSandbox(db, gateway, no, at);
  const finishRefund = (orderNo: string, at: Date) => completeSandboxRefund(db, gateway, orderNo, at);

  const [platformUser] = await db.select({ id: t.users.id }).from(t.users).where(eq(t.users.username, 'admin'));
  for (const key of ['p1', 'p2', 'p2b', 'p3', 'p3b']) {
    await db.insert(t.partnerAddresses).values(ADDRESSES[key].map((a, i) => ({ partnerId: ids[key], ...a, isDefault: i === 0, createdAt: new Date(now.getTime() - 95 * DAY) })));
  }

  for (const key of ['p1', 'p2', 'p2b', 'p3', 'p3b']) {
    const [buyer] = await db.select().from(t.partners).where(eq(t.partners.id, ids[key]));
    const [user] = await db.select({ id: t.users.id }).from(t.users).where(eq(t.users.partnerId, buyer.id));
    const seller: Seller = buyer.parentId === null ? { platform: true } : { partnerId: buyer.parentId };
    const [sellerUser] = buyer.parentId === null ? [platformUser] : await db.select({ id: t.users.id }).from(t.users).where(eq(t.users.partnerId, buyer.parentId));
    const ship = async (orderNo: string, lines: { itemId: number; quantity: number }[], at: Date) => {
      const [carrier, number] = PARCELS[Math.floor(next() * PARCELS.length)];
      await dispatchOrder(db, seller, orderNo, { carrier, trackingNo: number(next), lines }, sellerUser?.id ?? null, at);
    };
    for (const [i, fate] of FATES.entries()) {
      // Spread over 90 days, oldest first (the last paid one still in its freeze); the pending one
      // was placed ten minutes ago.
      const placedAt = fate === 'pending' ? new Date(now.getTime() - 10 * MINUTE) : new Date(now.getTime() - (89 - i * 6.4) * DAY - Math.floor(next() * 8 * 60) * MINUTE);
      const lines = packs.filter(() => next() < 0.45).slice(0, 3);
      const items = (lines.length ? lines : [packs[0]]).map((p) => ({ packId: p.id, quantity: 1 + Math.floor(next() * (key === 'p1' ? 40 : 12)) }));
      const shipTo = ADDRESSES[key][i % 3 === 2 && ADDRESSES[key].length > 1 ? 1 : 0];
      const order = await placeOrder(db, gateway, buyer, { items, remark: REMARKS[i % REMARKS.length] ?? undefined, shipTo }, user?.id ?? null, placedAt);
      const paidAt = new Date(placedAt.getTime() + (2 + Math.floor(next() * 20)) * MINUTE);
      switch (fate) {
        case 'paid': {
          await pay(order.orderNo, paidAt);
          const lines = await db.select().from(t.partnerOrderItems).where(eq(t.partnerOrderItems.orderId, order.id));
          const all = lines.map((l) => ({ itemId: l.id, quantity: l.quantity }));
          const shippedAt = new Date(paidAt.getTime() + (1 + Math.floor(next() * 2)) * DAY);
          if (i === NEWEST_PAID) {
            const state = NEWEST_STATE[key];
            if (state === 'awaiting') break;
            // Partial: the first line, or part of a single line, has left; the rest waits for stock.
            const first = all.length > 1 ? [all[0]] : all[0].quantity > 1 ? [{ ...all[0], quantity: Math.ceil(all[0].quantity / 2) }] : all;
            await ship(order.orderNo, state === 'partial' && first !== all ? first : all, shippedAt);
            break;
          }
          await ship(order.orderNo, all, shippedAt);
          if (AUTO_RECEIVED.has(i)) break; // the sweep confirms it on start, AUTO_RECEIVE_DAYS after shipping
          await confirmReceipt(db, buyer.id, order.orderNo, user?.id ?? null, new Date(shippedAt.getTime() + (2 + Math.floor(next() * 3)) * DAY));
          // The level-3 partner sends one pack of a recent order back (damp in transit); its seller has not confirmed it yet.
          if (key === 'p3' && i === 10)
            await requestReturn(db, buyer.id, order.orderNo, { carrier: '中通快递', trackingNo: `7${digits(next, 14)}`, reason: '运输途中受潮，一包纸张起皱无法使用', lines: [{ itemId: all[0].itemId, quantity: 1 }] }, user?.id ?? null, new Date(shippedAt.getTime() + 4 * DAY));
          break;
        }
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
  // Shipped long ago and never confirmed: received automatically, as the sweep does.
  await db.execute(sql`UPDATE partner_orders SET fulfil_status = 4, received_at = shipped_at + ${`${AUTO_RECEIVE_DAYS} days`}::interval
                        WHERE fulfil_status = 3 AND shipped_at <= ${new Date(now.getTime() - AUTO_RECEIVE_DAYS * DAY)}`);

  // The level-1 partner tops up its account every few weeks; one top-up was never paid.
  const [p1User] = await db.select({ id: t.users.id }).from(t.users).where(eq(t.users.partnerId, ids.p1));
  for (const [i, yuan] of [20_000, 50_000, 30_000, 10_000, 50_000, 20_000].entries()) {
    const at = new Date(now.getTime() - (85 - i * 15) * DAY);
    const recharge = await placeRecharge(db, gateway, ids.p1, yuan * 100, p1User?.id ?? null, at);
    if (i !== 3) await pay(recharge.rechargeNo, new Date(at.getTime() + 3 * MINUTE));
  }

  await seedStatements(db, now);
}

/**
 * Statements of the last three months, built on each month's first day. Per earning partner, the
 * newest is 已确认 (level 1, waiting for the platform) or 待确认 (level 2); the one before 已结算
 * (level 1) or 已驳回 (level 2); older ones 已结算.
 */
async function seedStatements(db: Db, now: Date): Promise<void> {
  const periods = [3, 2, 1].map((back) => {
    let p = periodOf(now);
    for (let i = 0; i < back; i++) p = previousPeriod(p);
    return p;
  });
  const built = [];
  for (const period of periods) {
    const builtAt = new Date(periodEnd(period).getTime() + 3600_000);
    if (builtAt <= now) built.push(...(await buildStatements(db, period, builtAt)).map((s) => ({ s, builtAt })));
  }
  for (const [i, { s, builtAt }] of built.entries()) {
    const fromNewest = built.slice(i + 1).filter((b) => b.s.partnerId === s.partnerId).length;
    const earner: Party = { partnerId: s.partnerId };
    const payer: Party = s.payerId === null ? { platform: true } : { partnerId: s.payerId };
    const later = (days: number) => new Date(builtAt.getTime() + days * DAY);
    const levelOne = s.payerId === null;
    if (fromNewest === 0 && !levelOne) continue;
    if (fromNewest === 1 && !levelOne) {
      await rejectStatement(db, earner, s.statementNo, '金额与我方记录不一致，请核对', later(3));
      continue;
    }
    await confirmStatement(db, earner, s.statementNo, later(2));
    if (fromNewest > 0) await settleStatement(db, payer, s.statementNo, later(5));
  }
}
