// Alipay (当面付 precreate) end to end against a local HTTP server that speaks the open API gateway's
// protocol with keys made here: it checks our RSA2 signature over the sorted parameters, answers
// `alipay_trade_…_response` nodes signed over their raw JSON text, and posts form-encoded RSA2
// notices to our real notify endpoint over HTTP, expecting "success". Covered: the qr_code, a paid
// notice (order paid, seller's margin), a replay, a tampered signature, another app's notice, a
// wrong amount (refused, in 操作日志), a lost notice found by the status query (after a dropped
// connection, retried), close, a synchronous refund, and a gateway that does not answer.
import { createSign, createVerify, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';
import { rows } from '../../server/db/query';
import { ALIPAY_NOTIFY_PATH, chinaTime, type AlipaySettings } from '../../server/modules/mercury/payment/alipay';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../server/config';

const APP_ID = '2021000122671234';
const ADD = '/api/wrongbook/v1.0/partner/addPaperOrder';
const STATUS = '/api/mercury/v1/order/getOrderPayStatus';
const CANCEL = '/api/mercury/v1/order/cancelByOrderNo';
const REFUND = '/api/mercury/v1/order/applyRefund';
const DETAIL = '/api/mercury/v1/order/detail';

const app = generateKeyPairSync('rsa', { modulusLength: 2048 });
const alipay = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = (key: KeyObject, type: 'pkcs8' | 'spki') => key.export({ type, format: 'pem' }).toString();

/** Alipay's signing string: sorted pairs, no empty values, without the names left out. */
const signingString = (params: Record<string, string>, leaveOut: string[]) =>
  Object.keys(params)
    .filter((k) => !leaveOut.includes(k) && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
const yuan = (fen: number) => (fen / 100).toFixed(2);

interface Trade {
  amount: string;
  /** CREATED: precreated, not scanned (Alipay does not know it yet). */
  state: 'CREATED' | 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED';
  tradeNo: string;
  paidAt?: string;
  notifyUrl: string;
  subject: string;
}

class FakeAlipay {
  server: Server;
  trades = new Map<string, Trade>();
  refunds = new Map<string, { outTradeNo: string; amount: string }>();
  calls: { method: string; signed: boolean }[] = [];
  precreateDelayMs = 0;
  dropQueries = 0;
  url = '';

  constructor() {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  async start() {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/gateway.do`;
  }

  /** The answer: the node's text as sent (with Alipay's escaped slashes) and the signature over exactly it. */
  private answer(res: ServerResponse, method: string, node: object) {
    const nodeText = JSON.stringify(node).replace(/\//g, '\\/');
    const sign = createSign('RSA-SHA256').update(nodeText, 'utf8').sign(alipay.privateKey, 'base64');
    res.writeHead(200, { 'content-type': 'text/html;charset=utf-8' });
    res.end(`{"${method.replace(/\./g, '_')}_response":${nodeText},"sign":"${sign}"}`);
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    const signed =
      params.app_id === APP_ID &&
      params.sign_type === 'RSA2' &&
      params.charset === 'utf-8' &&
      params.version === '1.0' &&
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(params.timestamp) &&
      createVerify('RSA-SHA256').update(signingString(params, ['sign']), 'utf8').verify(app.publicKey, params.sign ?? '', 'base64');
    this.calls.push({ method: params.method, signed });
    if (!signed) {
      res.writeHead(200, { 'content-type': 'text/html;charset=utf-8' });
      return res.end(JSON.stringify({ error_response: { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-signature', sub_msg: '验签出错' } }));
    }
    const biz = JSON.parse(params.biz_content);
    const fail = (subCode: string, subMsg: string) => this.answer(res, params.method, { code: '40004', msg: 'Business Failed', sub_code: subCode, sub_msg: subMsg });
    const t = this.trades.get(biz.out_trade_no);
    switch (params.method) {
      case 'alipay.trade.precreate':
        if (this.precreateDelayMs) await new Promise((r) => setTimeout(r, this.precreateDelayMs));
        if (!/^\d+\.\d\d$/.test(biz.total_amount) || !biz.subject) return fail('ACQ.INVALID_PARAMETER', '参数无效');
        this.trades.set(biz.out_trade_no, { amount: biz.total_amount, state: 'CREATED', tradeNo: `2026${Date.now()}${randomBytes(3).toString('hex')}`, notifyUrl: params.notify_url, subject: biz.subject });
        return this.answer(res, params.method, { code: '10000', msg: 'Success', out_trade_no: biz.out_trade_no, qr_code: `https://qr.alipay.com/bax0${randomBytes(8).toString('hex')}` });
      case 'alipay.trade.query':
        if (this.dropQueries > 0) {
          this.dropQueries--;
          return req.socket.destroy();
        }
        if (!t || t.state === 'CREATED') return fail('ACQ.TRADE_NOT_EXIST', '交易不存在');
        return this.answer(res, params.method, {
          code: '10000',
          msg: 'Success',
          trade_no: t.tradeNo,
          out_trade_no: biz.out_trade_no,
          buyer_logon_id: '159****5620',
          trade_status: t.state,
          total_amount: t.amount,
          ...(t.paidAt ? { send_pay_date: t.paidAt } : {}),
          buyer_user_id: '2088101117955611',
        });
      case 'alipay.trade.close':
        if (!t || t.state === 'CREATED') return fail('ACQ.TRADE_NOT_EXIST', '交易不存在');
        if (t.state !== 'WAIT_BUYER_PAY') return fail('ACQ.TRADE_STATUS_ERROR', '交易状态不合法');
        t.state = 'TRADE_CLOSED';
        return this.answer(res, params.method, { code: '10000', msg: 'Success', trade_no: t.tradeNo, out_trade_no: biz.out_trade_no });
      case 'alipay.trade.refund':
        if (!t || t.state !== 'TRADE_SUCCESS') return fail('ACQ.TRADE_STATUS_ERROR', '交易状态不合法');
        if (biz.refund_amount !== t.amount || !biz.out_request_no) return fail('ACQ.REFUND_AMT_NOT_EQUAL_TOTAL', '退款金额超限');
        this.refunds.set(biz.out_request_no, { outTradeNo: biz.out_trade_no, amount: biz.refund_amount });
        return this.answer(res, params.method, { code: '10000', msg: 'Success', trade_no: t.tradeNo, out_trade_no: biz.out_trade_no, buyer_logon_id: '159****5620', fund_change: 'Y', refund_fee: biz.refund_amount, gmt_refund_pay: chinaTime(new Date()) });
      default:
        return fail('ACQ.INVALID_METHOD', '无此接口');
    }
  }

  /** The payer scans (Alipay now knows the trade) and pays. */
  pay(outTradeNo: string) {
    const t = this.trades.get(outTradeNo)!;
    t.state = 'TRADE_SUCCESS';
    t.paidAt = chinaTime(new Date());
    return t;
  }

  /** A notice as Alipay posts it: form-encoded, RSA2 over the sorted pairs without sign and sign_type. */
  notice(fields: Record<string, string>, key: KeyObject = alipay.privateKey) {
    const params: Record<string, string> = { notify_time: chinaTime(new Date()), notify_type: 'trade_status_sync', notify_id: randomBytes(16).toString('hex'), app_id: APP_ID, charset: 'utf-8', version: '1.0', sign_type: 'RSA2', ...fields };
    params.sign = createSign('RSA-SHA256').update(signingString(params, ['sign', 'sign_type']), 'utf8').sign(key, 'base64');
    return new URLSearchParams(params).toString();
  }

  paidNotice(outTradeNo: string, override: Record<string, string> = {}, key?: KeyObject) {
    const t = this.trades.get(outTradeNo)!;
    return this.notice({ trade_no: t.tradeNo, out_trade_no: outTradeNo, buyer_id: '2088102122524333', trade_status: 'TRADE_SUCCESS', total_amount: t.amount, receipt_amount: t.amount, buyer_pay_amount: t.amount, subject: t.subject, gmt_create: t.paidAt!, gmt_payment: t.paidAt!, ...override }, key);
  }

  refundNotice(outRefundNo: string) {
    const r = this.refunds.get(outRefundNo)!;
    const t = this.trades.get(r.outTradeNo)!;
    const now = chinaTime(new Date());
    return this.notice({ trade_no: t.tradeNo, out_trade_no: r.outTradeNo, out_biz_no: outRefundNo, trade_status: 'TRADE_CLOSED', total_amount: t.amount, refund_fee: r.amount, gmt_payment: t.paidAt!, gmt_refund: now, gmt_close: now });
  }

  async send(url: string, body: string) {
    const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' } });
    return { status: res.status, text: await res.text() };
  }

  close() {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(r));
  }
}

let t: TestApp;
let c: ReturnType<typeof client>;
let gateway: FakeAlipay;
let notifyUrl: string;
let packId: number;

beforeAll(async () => {
  gateway = new FakeAlipay();
  await gateway.start();
  const settings: AlipaySettings = {
    appId: APP_ID,
    privateKeyPem: pem(app.privateKey, 'pkcs8'),
    alipayPublicKeyPem: pem(alipay.publicKey, 'spki'),
    gateway: gateway.url,
    notifyUrl: '',
    http: { timeoutMs: 2500, retryDelayMs: 20 },
  };
  t = await createTestApp({ paymentGateway: 'alipay', alipay: settings, backgroundSweeps: false });
  c = client(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  notifyUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}${ALIPAY_NOTIFY_PATH}`;
  settings.notifyUrl = notifyUrl;
  [{ packId }] = await rows<{ packId: number }>(t.database.db, sql`SELECT id AS "packId" FROM paper_packs ORDER BY sort LIMIT 1`);
}, 300_000);
afterAll(async () => {
  await t?.close();
  await gateway?.close();
});

const order = (user = 'partner2', quantity = 2) => c.done(user, ADD, { items: [{ packId, quantity }] });
const orderRow = async (orderNo: string) =>
  (await rows<{ status: number; payStatus: number; refundStatus: number; provider: string }>(t.database.db, sql`
    SELECT status, pay_status AS "payStatus", refund_status AS "refundStatus", provider FROM partner_orders WHERE order_no = ${orderNo}`))[0];
const count = async (query: ReturnType<typeof sql>) => (await rows<{ n: number }>(t.database.db, query))[0].n;
const margins = (orderNo: string) =>
  rows<{ amountFen: number }>(t.database.db, sql`SELECT e.amount_fen AS "amountFen" FROM settlement_entries e JOIN partner_orders o ON o.id = e.order_id WHERE o.order_no = ${orderNo} ORDER BY e.id`);

describe('Alipay precreate', () => {
  it('precreates a trade signed RSA2 with the app key and shows its qr_code as the QR code', async () => {
    const created = await order();
    expect(created.codeUrl).toMatch(/^https:\/\/qr\.alipay\.com\/bax0[0-9a-f]{16}$/);
    expect(gateway.trades.get(created.orderNo)).toMatchObject({ amount: yuan(created.amountFen), state: 'CREATED', notifyUrl });
    expect(gateway.trades.get(created.orderNo)!.subject).toContain(created.orderNo);
    expect(gateway.calls.every((call) => call.signed)).toBe(true);
    expect((await orderRow(created.orderNo)).provider).toBe('alipay');
  });

  it('marks the order paid on the verified notice, answers "success" and books the margin; a replay changes nothing', async () => {
    const created = await order();
    gateway.pay(created.orderNo);
    const notice = gateway.paidNotice(created.orderNo);
    expect(await gateway.send(notifyUrl, notice)).toEqual({ status: 200, text: 'success' });
    expect(await orderRow(created.orderNo)).toMatchObject({ status: 2, payStatus: 1 });
    expect(await margins(created.orderNo)).toHaveLength(1);
    // Alipay retries until it reads "success": the same notice again doubles nothing.
    expect(await gateway.send(notifyUrl, notice)).toEqual({ status: 200, text: 'success' });
    expect(await count(sql`SELECT count(*)::int AS n FROM payments WHERE out_trade_no = ${created.orderNo}`)).toBe(1);
    expect(await margins(created.orderNo)).toHaveLength(1);
    const detail = await c.data('partner2', `${DETAIL}?orderNo=${created.orderNo}`);
    expect(detail.payments[0]).toMatchObject({ transactionId: gateway.trades.get(created.orderNo)!.tradeNo, amountFen: created.amountFen });
  });

  it('refuses a tampered notice, one signed with another key, and another app\'s', async () => {
    const created = await order();
    gateway.pay(created.orderNo);
    const good = gateway.paidNotice(created.orderNo);
    const tampered = good.replace(/total_amount=[\d.]+/, 'total_amount=0.01');
    expect(await gateway.send(notifyUrl, tampered)).toEqual({ status: 400, text: 'fail' });
    expect((await gateway.send(notifyUrl, gateway.paidNotice(created.orderNo, {}, app.privateKey))).text).toBe('fail');
    expect((await gateway.send(notifyUrl, gateway.paidNotice(created.orderNo, { app_id: '2021000000000000' }))).text).toBe('fail');
    expect((await gateway.send(notifyUrl, good.replace(/&sign=[^&]+/, ''))).text).toBe('fail');
    expect(await orderRow(created.orderNo)).toMatchObject({ status: 1, payStatus: 0 });
  });

  it('refuses a signed notice with another amount than the order\'s and writes it to 操作日志', async () => {
    const created = await order();
    gateway.pay(created.orderNo);
    const res = await gateway.send(notifyUrl, gateway.paidNotice(created.orderNo, { total_amount: '0.01', receipt_amount: '0.01' }));
    expect(res).toEqual({ status: 400, text: 'fail' });
    expect(await orderRow(created.orderNo)).toMatchObject({ status: 1, payStatus: 0 });
    const [entry] = await rows<{ userName: string; summary: string }>(t.database.db, sql`
      SELECT user_name AS "userName", summary FROM audit_logs WHERE record_id = ${created.orderNo} AND action = 'reject'`);
    expect(entry.userName).toBe('支付宝');
    expect(entry.summary).toContain('¥0.01');
  });

  it('finds a payment whose notice was lost by querying, retrying a dropped connection; unscanned stays 待支付', async () => {
    const created = await order('partner3');
    expect(await c.data('partner3', `${STATUS}?orderNo=${created.orderNo}`)).toMatchObject({ status: 1, payStatus: 0 });
    gateway.pay(created.orderNo);
    gateway.dropQueries = 1;
    const before = gateway.calls.filter((call) => call.method === 'alipay.trade.query').length;
    expect(await c.data('partner3', `${STATUS}?orderNo=${created.orderNo}`)).toMatchObject({ status: 2, payStatus: 1 });
    // The first attempt's connection was cut; the retry read the payment.
    expect(gateway.calls.filter((call) => call.method === 'alipay.trade.query').length - before).toBe(2);
    expect(await count(sql`SELECT count(*)::int AS n FROM payments WHERE out_trade_no = ${created.orderNo}`)).toBe(1);
  });

  it('closes a scanned trade at Alipay when the order is cancelled, and takes "not scanned" as nothing to close', async () => {
    const scanned = await order();
    gateway.trades.get(scanned.orderNo)!.state = 'WAIT_BUYER_PAY';
    await c.done('partner2', CANCEL, { orderNo: scanned.orderNo });
    expect(gateway.trades.get(scanned.orderNo)!.state).toBe('TRADE_CLOSED');
    const unscanned = await order();
    const res = await c.post('partner2', CANCEL, { orderNo: unscanned.orderNo });
    expect(res.statusCode).toBe(200);
    expect(await orderRow(unscanned.orderNo)).toMatchObject({ status: 3 });
  });

  it('refunds synchronously: 已退款 with the margin reversed at once; Alipay\'s later notice changes nothing', async () => {
    const created = await order();
    gateway.pay(created.orderNo);
    expect((await gateway.send(notifyUrl, gateway.paidNotice(created.orderNo))).text).toBe('success');
    const refund = await c.done('partner2', REFUND, { orderNo: created.orderNo, reason: '规格订错' });
    expect(gateway.refunds.get(refund.refundNo)).toEqual({ outTradeNo: created.orderNo, amount: yuan(created.amountFen) });
    expect(await orderRow(created.orderNo)).toMatchObject({ status: 2, refundStatus: 2 });
    const entries = await margins(created.orderNo);
    expect(entries.map((e) => e.amountFen)).toEqual([entries[0].amountFen, -entries[0].amountFen]);
    expect(await gateway.send(notifyUrl, gateway.refundNotice(refund.refundNo))).toEqual({ status: 200, text: 'success' });
    expect(await margins(created.orderNo)).toHaveLength(2);
  });

  it('answers a Chinese 503 when Alipay does not answer in time, and keeps no order', async () => {
    const before = await count(sql`SELECT count(*)::int AS n FROM partner_orders`);
    gateway.precreateDelayMs = 6000;
    try {
      const res = await c.post('partner2', ADD, { items: [{ packId, quantity: 1 }] });
      expect(res.statusCode).toBe(503);
      expect(res.json().msg).toBe('支付通道响应超时，请稍后重试');
    } finally {
      gateway.precreateDelayMs = 0;
    }
    expect(await count(sql`SELECT count(*)::int AS n FROM partner_orders`)).toBe(before);
  });
});

describe('Alipay configuration', () => {
  const base = { JWT_SECRET: 'unit-test-secret', TERMINAL_PIN_KEY: 'unit-test-pin-key', DATA_DIR: '/nonexistent' };
  it('refuses to start half-configured or with an unreadable key, naming it in Chinese', () => {
    expect(() => loadConfig({ ...base, PAYMENT_GATEWAY: 'alipay', ALIPAY_APP_ID: APP_ID })).toThrow(/支付宝配置不完整，缺少：ALIPAY_PRIVATE_KEY_FILE、ALIPAY_PUBLIC_KEY_FILE、ALIPAY_NOTIFY_URL/);
    expect(() =>
      loadConfig({ ...base, PAYMENT_GATEWAY: 'alipay', ALIPAY_APP_ID: APP_ID, ALIPAY_PRIVATE_KEY_FILE: '/nonexistent/key.pem', ALIPAY_PUBLIC_KEY_FILE: '/nonexistent/pub.pem', ALIPAY_NOTIFY_URL: 'https://x.example.com/n' }),
    ).toThrow(/ALIPAY_PRIVATE_KEY_FILE 指向的文件无法读取/);
  });

  it('reads the keys as Alipay\'s key tool saves them (bare base64) and defaults the gateway', () => {
    const dir = mkdtempSync(join(tmpdir(), 'alipay-keys-'));
    const bare = (text: string) => text.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
    writeFileSync(join(dir, 'app.key'), bare(pem(app.privateKey, 'pkcs8')));
    writeFileSync(join(dir, 'alipay.pub'), bare(pem(alipay.publicKey, 'spki')));
    const config = loadConfig({ ...base, PAYMENT_GATEWAY: 'alipay', ALIPAY_APP_ID: APP_ID, ALIPAY_PRIVATE_KEY_FILE: join(dir, 'app.key'), ALIPAY_PUBLIC_KEY_FILE: join(dir, 'alipay.pub'), ALIPAY_NOTIFY_URL: 'https://x.example.com/api/mercury/v1/pay/notify/alipay' });
    expect(config).toMatchObject({ paymentGateway: 'alipay', alipay: { appId: APP_ID, gateway: 'https://openapi.alipay.com/gateway.do' } });
    rmSync(dir, { recursive: true });
  });
});
