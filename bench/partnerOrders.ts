// Partner orders and settlement figures on the demo database grown to ORDERS more paper orders
// (through the order service, most of them paid by a gateway notice): the /orders list page and its
// filters, the xlsx export of every row, a payment notice through HTTP, the 渠道结算 children
// summary, and building a month's statements — through the real app (HTTP inject), p95 over RUNS.
import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app';
import { rows } from '../server/db/query';
import { DEMO_PASSWORD } from '../server/seed';
import * as t from '../server/db/schema';
import { placeOrder } from '../server/modules/mercury/orders';
import { SandboxGateway } from '../server/modules/mercury/payment/sandbox';
import { NOTIFY_PATH } from '../server/modules/mercury/payment/notifyRoutes';
import { buildStatements, periodOf } from '../server/modules/partner/statements';
import { payInSandbox } from '../server/seed/orders';
import { testConfig } from '../tests/support/testApp';
import { openTestDatabase } from '../tests/support/testDatabase';
import type { BenchRow } from './table';

const ORDERS = 5000;
const RUNS = 60;
const DAY = 24 * 3600_000;

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

export async function benchPartnerOrders(): Promise<BenchRow[]> {
  const database = await openTestDatabase();
  const db = database.db;
  const app = await buildApp({ db, config: testConfig({ dataDir: mkdtempSync(join(tmpdir(), 'xz-bench-orders-')) }) });
  try {
    const gateway = new SandboxGateway({ key: createHmac('sha256', 'bench').digest(), notifyUrl: () => undefined });
    const partners = await db.select().from(t.partners);
    const packs = await db.select().from(t.paperPacks);
    const now = Date.now();
    const t0 = performance.now();
    for (let i = 0; i < ORDERS; i++) {
      const buyer = partners[i % partners.length];
      const at = new Date(now - ((i * 7919) % (85 * DAY)) - DAY);
      const order = await placeOrder(db, gateway, buyer, { items: [{ packId: packs[i % packs.length].id, quantity: 1 + (i % 30) }] }, null, at);
      if (i % 5) await payInSandbox(db, gateway, order.orderNo, new Date(at.getTime() + 60_000));
    }
    const loadMs = performance.now() - t0;

    const login = await app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'partner1', password: DEMO_PASSWORD } });
    const headers = { 'blade-auth': `bearer ${login.json().data.accessToken}` };
    const time = async (url: string) => {
      const s = performance.now();
      const res = await app.inject({ url, headers });
      if (res.statusCode !== 200) throw new Error(`${url} → ${res.statusCode} ${res.body.slice(0, 200)}`);
      return { ms: performance.now() - s, res };
    };
    const [{ n: subtreeOrders }] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM partner_orders`);
    const list: number[] = [];
    const filtered: number[] = [];
    const children: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      list.push((await time(`/api/mercury/v1/order/page?current=${1 + (i % 20)}&size=20`)).ms);
      filtered.push((await time(`/api/mercury/v1/order/page?size=20&payStatus=1&refundStatus=0&dateFrom=2020-01-01&keyword=PO`)).ms);
      children.push((await time('/api/wrongbook/v1.0/partner/channel/children')).ms);
    }
    const exported = await time('/api/mercury/v1/order/export');

    // Payment notices over HTTP: signature check, the order row lock, the payment and the margin.
    const signer = app.payments as SandboxGateway;
    const notices: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const order = await placeOrder(db, app.payments, partners[1 + (i % (partners.length - 1))], { items: [{ packId: packs[0].id, quantity: 2 }] }, null);
      const { body, headers: h } = signer.signed({ kind: 'paid', outTradeNo: order.orderNo, transactionId: `BENCH${order.orderNo}`, amountFen: order.amountFen, paidAt: new Date() });
      const s = performance.now();
      const res = await app.inject({ method: 'POST', url: NOTIFY_PATH, payload: body, headers: h });
      notices.push(performance.now() - s);
      if (res.statusCode !== 200) throw new Error(`notify → ${res.statusCode} ${res.body}`);
    }
    const b0 = performance.now();
    await buildStatements(db, periodOf(new Date()), new Date(now + 40 * DAY));
    const buildMs = performance.now() - b0;
    return [
      { name: 'partner_orders_total', value: subtreeOrders, unit: 'orders', target: '' },
      { name: 'partner_orders_load_per_order_ms', value: loadMs / ORDERS, unit: 'ms', target: '' },
      { name: 'partner_orders_list_p95_ms', value: percentile(list, 0.95), unit: 'ms', target: '≤ 100' },
      { name: 'partner_orders_list_filtered_p95_ms', value: percentile(filtered, 0.95), unit: 'ms', target: '≤ 100' },
      { name: 'partner_orders_export_ms', value: exported.ms, unit: 'ms', target: '≤ 3000' },
      { name: 'partner_orders_notify_p95_ms', value: percentile(notices, 0.95), unit: 'ms', target: '≤ 50' },
      { name: 'partner_channel_children_p95_ms', value: percentile(children, 0.95), unit: 'ms', target: '≤ 100' },
      { name: 'partner_statements_build_ms', value: buildMs, unit: 'ms', target: '≤ 1000' },
    ];
  } finally {
    await app.close();
    await database.close();
  }
}
