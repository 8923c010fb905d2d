// WeChat Pay API v3 end to end against a local HTTP server that speaks its protocol with keys made
// here: it checks our WECHATPAY2-SHA256-RSA2048 signature on every call, answers signed with the
// "platform" key, and posts AES-256-GCM encrypted, signed notices to our real notify endpoint over
// HTTP. Covered: the QR code's code_url, a paid notice (order paid, seller's margin), a replayed
// notice, a stale one, a tampered signature, a wrong amount (refused, in 操作日志), a lost notice
// found by the status query (after a dropped connection, retried), close, refund, and a gateway that
// does not answer (a Chinese 503, no order left behind).
import { createCipheriv, createSign, createVerify, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';
import { client } from '../support/school';
import { rows } from '../../server/db/query';
import { WECHAT_NOTIFY_PATH, type WechatPaySettings } from '../../server/modules/mercury/payment/wechat';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../server/config';
import { REFUND_RESEND_AFTER_MS, REFUND_RESEND_MAX, resendStuckRefunds } from '../../server/modules/mercury/refundResend';

const MCHID = '1900009191';
const APPID = 'wxd678efh567hg6787';
const MERCHANT_SERIAL = '5157F09EFDC096DE15EBE81A47057A7232F1B8E1';
const PLATFORM_SERIAL = 'PUB_KEY_ID_0119000091912025112700000000000001';
const API_V3_KEY = randomBytes(16).toString('hex'); // 32 characters

const ADD = '/api/wrongbook/v1.0/partner/addPaperOrder';
const STATUS = '/api/mercury/v1/order/getOrderPayStatus';
const CANCEL = '/api/mercury/v1/order/cancelByOrderNo';
const REFUND = '/api/mercury/v1/order/applyRefund';
const DETAIL = '/api/mercury/v1/order/detail';
const PAY_CODE = '/api/mercury/v1/order/payCode';

const merchant = generateKeyPairSync('rsa', { modulusLength: 2048 });
const platform = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = (key: KeyObject, type: 'pkcs8' | 'spki') => key.export({ type, format: 'pem' }).toString();

interface Trade {
  amount: number;
  state: 'NOTPAY' | 'SUCCESS' | 'CLOSED' | 'REFUND';
  transactionId: string;
  successTime?: string;
  notifyUrl: string;
  description: string;
  timeExpire: string;
}

/** The local WeChat Pay: its books, what it was asked, and switches for trouble. */
class FakeWechatPay {
  server: Server;
  trades = new Map<string, Trade>();
  refunds = new Map<string, { outTradeNo: string; refund: number; total: number; notifyUrl: string }>();
  calls: { method: string; path: string; signed: boolean }[] = [];
  /** Milliseconds to wait before answering a Native order (a gateway that hangs). */
  createDelayMs = 0;
  /** Queries whose connection is cut before any answer. */
  dropQueries = 0;
  /** Refund calls answered with a 500 (the gateway down while a refund is asked). */
  failRefunds = 0;
  url = '';

  constructor() {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  async start() {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  /** WeChat Pay's signature over an answer or a notice. */
  signed(body: string, timestamp = Math.floor(Date.now() / 1000)) {
    const nonce = randomBytes(16).toString('hex');
    const signature = createSign('RSA-SHA256').update(`${timestamp}\n${nonce}\n${body}\n`).sign(platform.privateKey, 'base64');
    return { 'wechatpay-timestamp': String(timestamp), 'wechatpay-nonce': nonce, 'wechatpay-signature': signature, 'wechatpay-serial': PLATFORM_SERIAL, 'wechatpay-signature-type': 'WECHATPAY2-SHA256-RSA2048' };
  }

  /** Our Authorization header, checked as WeChat Pay checks it. */
  private authorized(req: IncomingMessage, body: string): boolean {
    const header = req.headers.authorization ?? '';
    if (!header.startsWith('WECHATPAY2-SHA256-RSA2048 ')) return false;
    const fields = Object.fromEntries([...header.slice(26).matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (fields.mchid !== MCHID || fields.serial_no !== MERCHANT_SERIAL || Math.abs(Date.now() / 1000 - Number(fields.timestamp)) > 300) return false;
    const message = `${req.method}\n${req.url}\n${fields.timestamp}\n${fields.nonce_str}\n${body}\n`;
    return createVerify('RSA-SHA256').update(message).verify(merchant.publicKey, fields.signature, 'base64');
  }

  private answer(res: ServerResponse, status: number, json?: unknown) {
    const body = json === undefined ? '' : JSON.stringify(json);
    res.writeHead(status, { ...(body ? { 'content-type': 'application/json' } : {}), 'request-id': randomBytes(8).toString('hex'), ...this.signed(body) });
    res.end(body);
  }

  private transaction(outTradeNo: string, t: Trade) {
    return {
      appid: APPID,
      mchid: MCHID,
      out_trade_no: outTradeNo,
      transaction_id: t.transactionId,
      trade_type: 'NATIVE',
      trade_state: t.state,
      trade_state_desc: t.state === 'SUCCESS' ? '支付成功' : '未支付',
      bank_type: 'OTHERS',
      success_time: t.successTime,
      payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' },
      amount: { total: t.amount, payer_total: t.amount, currency: 'CNY', payer_currency: 'CNY' },
    };
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url!, 'http://x');
    const signed = this.authorized(req, body);
    this.calls.push({ method: req.method!, path: url.pathname, signed });
    if (!signed) return this.answer(res, 401, { code: 'SIGN_ERROR', message: '签名错误' });
    const json = body ? JSON.parse(body) : {};
    if (req.method === 'POST' && url.pathname === '/v3/pay/transactions/native') {
      if (this.createDelayMs) await new Promise((r) => setTimeout(r, this.createDelayMs));
      if (json.appid !== APPID || json.mchid !== MCHID || !Number.isInteger(json.amount?.total) || json.amount.currency !== 'CNY' || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/.test(json.time_expire)) {
        return this.answer(res, 400, { code: 'PARAM_ERROR', message: '参数错误' });
      }
      this.trades.set(json.out_trade_no, { amount: json.amount.total, state: 'NOTPAY', transactionId: `42000${Date.now()}${randomBytes(3).toString('hex')}`, notifyUrl: json.notify_url, description: json.description, timeExpire: json.time_expire });
      return this.answer(res, 200, { code_url: `weixin://wxpay/bizpayurl?pr=${randomBytes(6).toString('base64url')}` });
    }
    let m = url.pathname.match(/^\/v3\/pay\/transactions\/out-trade-no\/(\w+)$/);
    if (req.method === 'GET' && m) {
      if (this.dropQueries > 0) {
        this.dropQueries--;
        return req.socket.destroy();
      }
      if (url.searchParams.get('mchid') !== MCHID) return this.answer(res, 400, { code: 'PARAM_ERROR', message: 'mchid' });
      const t = this.trades.get(m[1]);
      return t ? this.answer(res, 200, this.transaction(m[1], t)) : this.answer(res, 404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
    }
    m = url.pathname.match(/^\/v3\/pay\/transactions\/out-trade-no\/(\w+)\/close$/);
    if (req.method === 'POST' && m) {
      const t = this.trades.get(m[1]);
      if (t?.state === 'NOTPAY') t.state = 'CLOSED';
      return this.answer(res, 204);
    }
    if (req.method === 'POST' && url.pathname === '/v3/refund/domestic/refunds') {
      if (this.failRefunds > 0) {
        this.failRefunds--;
        return this.answer(res, 500, { code: 'SYSTEM_ERROR', message: '系统繁忙，请稍后再试' });
      }
      const t = this.trades.get(json.out_trade_no);
      if (!t || t.state !== 'SUCCESS') return this.answer(res, 400, { code: 'INVALID_REQUEST', message: '订单未支付' });
      if (json.amount.total !== t.amount || json.amount.refund > t.amount) return this.answer(res, 400, { code: 'PARAM_ERROR', message: '金额错误' });
      this.refunds.set(json.out_refund_no, { outTradeNo: json.out_trade_no, refund: json.amount.refund, total: json.amount.total, notifyUrl: json.notify_url });
      return this.answer(res, 200, {
        refund_id: `50300${Date.now()}`,
        out_refund_no: json.out_refund_no,
        transaction_id: t.transactionId,
        out_trade_no: json.out_trade_no,
        channel: 'ORIGINAL',
        user_received_account: '支付用户零钱',
        status: 'PROCESSING',
        create_time: new Date().toISOString(),
        amount: { total: t.amount, refund: json.amount.refund, payer_total: t.amount, payer_refund: json.amount.refund, currency: 'CNY' },
      });
    }
    return this.answer(res, 404, { code: 'NOT_FOUND', message: '无此接口' });
  }

  /** The payer scans and pays (the trade only; the notice is sent separately, or lost). */
  pay(outTradeNo: string) {
    const t = this.trades.get(outTradeNo)!;
    t.state = 'SUCCESS';
    t.successTime = new Date().toISOString().replace(/\.\d+Z$/, '+00:00');
    return t;
  }

  /** A notice as WeChat Pay posts it: the resource encrypted with the APIv3 key, the body signed. */
  notice(eventType: string, originalType: string, content: object, { key = API_V3_KEY, timestamp }: { key?: string; timestamp?: number } = {}) {
    const nonce = randomBytes(6).toString('hex');
    const associated = originalType;
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(key), Buffer.from(nonce));
    cipher.setAAD(Buffer.from(associated));
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(content), 'utf8'), cipher.final(), cipher.getAuthTag()]).toString('base64');
    const body = JSON.stringify({
      id: randomBytes(8).toString('hex'),
      create_time: new Date().toISOString(),
      resource_type: 'encrypt-resource',
      event_type: eventType,
      summary: eventType === 'TRANSACTION.SUCCESS' ? '支付成功' : '退款成功',
      resource: { original_type: originalType, algorithm: 'AEAD_AES_256_GCM', ciphertext, associated_data: associated, nonce },
    });
    return { body, headers: { 'content-type': 'application/json', ...this.signed(body, timestamp) } };
  }

  paidNotice(outTradeNo: string, override: Partial<Trade> = {}) {
    const t = { ...this.trades.get(outTradeNo)!, ...override };
    return this.notice('TRANSACTION.SUCCESS', 'transaction', this.transaction(outTradeNo, t));
  }

  refundNotice(outRefundNo: string) {
    const r = this.refunds.get(outRefundNo)!;
    const t = this.trades.get(r.outTradeNo)!;
    return this.notice('REFUND.SUCCESS', 'refund', {
      mchid: MCHID,
      out_trade_no: r.outTradeNo,
      transaction_id: t.transactionId,
      out_refund_no: outRefundNo,
      refund_id: `50300${Date.now()}`,
      refund_status: 'SUCCESS',
      success_time: new Date().toISOString().replace(/\.\d+Z$/, '+00:00'),
      user_received_account: '支付用户零钱',
      amount: { total: r.total, refund: r.refund, payer_total: r.total, payer_refund: r.refund },
    });
  }

  /** Posts a notice to the notify URL the order was created with, over HTTP. */
  async send(url: string, notice: { body: string; headers: Record<string, string> }) {
    const res = await fetch(url, { method: 'POST', body: notice.body, headers: notice.headers });
    return { status: res.status, text: await res.text() };
  }

  close() {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(r));
  }
}

let t: TestApp;
let c: ReturnType<typeof client>;
let wechat: FakeWechatPay;
let notifyUrl: string;
let packId: number;

beforeAll(async () => {
  wechat = new FakeWechatPay();
  await wechat.start();
  // The notify URL is only known once our app listens; the settings object is read per call.
  const settings: WechatPaySettings = {
    mchId: MCHID,
    appId: APPID,
    serialNo: MERCHANT_SERIAL,
    privateKeyPem: pem(merchant.privateKey, 'pkcs8'),
    platformKeyPem: pem(platform.publicKey, 'spki'),
    platformSerial: PLATFORM_SERIAL,
    apiV3Key: API_V3_KEY,
    baseUrl: wechat.url,
    notifyUrl: '',
    http: { timeoutMs: 2500, retryDelayMs: 20 },
  };
  t = await createTestApp({ paymentGateway: 'wechat', wechatPay: settings, backgroundSweeps: false });
  c = client(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  notifyUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}${WECHAT_NOTIFY_PATH}`;
  settings.notifyUrl = notifyUrl;
  [{ packId }] = await rows<{ packId: number }>(t.database.db, sql`SELECT id AS "packId" FROM paper_packs ORDER BY sort LIMIT 1`);
}, 300_000);
afterAll(async () => {
  await t?.close();
  await wechat?.close();
});

const order = (user = 'partner2', quantity = 2) => c.done(user, ADD, { items: [{ packId, quantity }] });
const orderRow = async (orderNo: string) =>
  (await rows<{ status: number; payStatus: number; refundStatus: number; provider: string }>(t.database.db, sql`
    SELECT status, pay_status AS "payStatus", refund_status AS "refundStatus", provider FROM partner_orders WHERE order_no = ${orderNo}`))[0];
const count = async (query: ReturnType<typeof sql>) => (await rows<{ n: number }>(t.database.db, query))[0].n;
const margins = (orderNo: string) =>
  rows<{ amountFen: number }>(t.database.db, sql`SELECT e.amount_fen AS "amountFen" FROM settlement_entries e JOIN partner_orders o ON o.id = e.order_id WHERE o.order_no = ${orderNo} ORDER BY e.id`);

describe('WeChat Pay Native', () => {
  it('places a Native order signed with the merchant key and shows its code_url as the QR code', async () => {
    const created = await order();
    expect(created.codeUrl).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=[\w-]+$/);
    const trade = wechat.trades.get(created.orderNo)!;
    expect(trade).toMatchObject({ amount: created.amountFen, state: 'NOTPAY', notifyUrl });
    expect(trade.description).toContain(created.orderNo);
    // time_expire is the order's 30 minutes, in China time.
    expect(new Date(trade.timeExpire).getTime()).toBe(Math.floor(new Date(created.expiresAt).getTime() / 1000) * 1000);
    expect(wechat.calls.every((call) => call.signed)).toBe(true);
    const code = await c.data('partner2', `${PAY_CODE}?orderNo=${created.orderNo}`);
    expect(code.codeUrl).toBe(created.codeUrl);
    expect((await orderRow(created.orderNo)).provider).toBe('wechat');
  });

  it('marks the order paid on the verified notice and books the seller\'s margin; a replay changes nothing', async () => {
    const created = await order();
    wechat.pay(created.orderNo);
    const notice = wechat.paidNotice(created.orderNo);
    const first = await wechat.send(notifyUrl, notice);
    // WeChat Pay wants 200 or 204 and no body.
    expect(first).toEqual({ status: 200, text: '' });
    expect(await orderRow(created.orderNo)).toMatchObject({ status: 2, payStatus: 1 });
    const margin = await margins(created.orderNo);
    expect(margin).toHaveLength(1);
    expect(margin[0].amountFen).toBeGreaterThan(0);
    // The same notice again (WeChat retries): acknowledged, nothing doubled.
    const replay = await wechat.send(notifyUrl, notice);
    expect(replay.status).toBe(200);
    expect(await count(sql`SELECT count(*)::int AS n FROM payments WHERE out_trade_no = ${created.orderNo}`)).toBe(1);
    expect(await margins(created.orderNo)).toHaveLength(1);
    const detail = await c.data('partner2', `${DETAIL}?orderNo=${created.orderNo}`);
    expect(detail.payments).toHaveLength(1);
    expect(detail.payments[0]).toMatchObject({ transactionId: wechat.trades.get(created.orderNo)!.transactionId, amountFen: created.amountFen });
  });

  it('refuses a tampered body, another key\'s signature, a stale notice and an undecryptable resource', async () => {
    const created = await order();
    wechat.pay(created.orderNo);
    const good = wechat.paidNotice(created.orderNo);
    const tampered = await wechat.send(notifyUrl, { ...good, body: good.body.replace('"TRANSACTION.SUCCESS"', '"TRANSACTION.SUCCESS" ') });
    expect(tampered.status).toBe(400);
    expect(JSON.parse(tampered.text)).toEqual({ code: 'FAIL', message: '通知签名验证失败' });
    const forged = { ...good, headers: { ...good.headers, 'wechatpay-signature': createSign('RSA-SHA256').update('x').sign(merchant.privateKey, 'base64') } };
    expect((await wechat.send(notifyUrl, forged)).status).toBe(400);
    const otherSerial = { ...good, headers: { ...good.headers, 'wechatpay-serial': 'PUB_KEY_ID_OTHER' } };
    expect((await wechat.send(notifyUrl, otherSerial)).status).toBe(400);
    // Signed correctly but six minutes ago: a captured notice replayed later.
    const t0 = wechat.trades.get(created.orderNo)!;
    const stale = wechat.notice('TRANSACTION.SUCCESS', 'transaction', { appid: APPID, mchid: MCHID, out_trade_no: created.orderNo, transaction_id: t0.transactionId, trade_state: 'SUCCESS', success_time: t0.successTime, amount: { total: created.amountFen } }, { timestamp: Math.floor(Date.now() / 1000) - 360 });
    expect((await wechat.send(notifyUrl, stale)).status).toBe(400);
    const wrongKey = wechat.notice('TRANSACTION.SUCCESS', 'transaction', { appid: APPID, mchid: MCHID, out_trade_no: created.orderNo }, { key: randomBytes(16).toString('hex') });
    expect((await wechat.send(notifyUrl, wrongKey)).status).toBe(400);
    expect(await orderRow(created.orderNo)).toMatchObject({ status: 1, payStatus: 0 });
    expect(await count(sql`SELECT count(*)::int AS n FROM payments WHERE out_trade_no = ${created.orderNo}`)).toBe(0);
  });

  it('refuses a notice with another amount than the order\'s and writes it to 操作日志', async () => {
    const created = await order();
    wechat.pay(created.orderNo);
    const res = await wechat.send(notifyUrl, wechat.paidNotice(created.orderNo, { amount: 1 }));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({ code: 'FAIL', message: '支付金额与订单金额不一致' });
    expect(await orderRow(created.orderNo)).toMatchObject({ status: 1, payStatus: 0 });
    const [entry] = await rows<{ userName: string; action: string; summary: string }>(t.database.db, sql`
      SELECT user_name AS "userName", action, summary FROM audit_logs WHERE record_id = ${created.orderNo} ORDER BY id DESC LIMIT 1`);
    expect(entry).toMatchObject({ userName: '微信支付', action: 'reject' });
    expect(entry.summary).toContain('¥0.01');
    // The platform admin reads it in 操作日志; the partner, whose subtree it is not in, does not.
    const logs = (await c.data('admin', `/api/audit/v1/logs?size=20&kind=order&action=reject`)).records;
    expect(logs[0]).toMatchObject({ userName: '微信支付', orgName: '平台', recordId: created.orderNo });
    expect(logs[0].summary).toMatch(new RegExp(`^拒收微信支付通知：订单 ${created.orderNo} 的支付金额 ¥0\\.01 与应为的 ¥[\\d,.]+ 不一致$`));
    const own = (await c.data('partner2', `/api/audit/v1/logs?size=20&action=reject`)).records;
    expect(own.map((e: { recordId: string }) => e.recordId)).not.toContain(created.orderNo);
  });

  it('finds a payment whose notice was lost by querying, retrying a dropped connection', async () => {
    const created = await order('partner3');
    wechat.pay(created.orderNo);
    wechat.dropQueries = 1;
    const before = wechat.calls.filter((call) => call.method === 'GET').length;
    const status = await c.data('partner3', `${STATUS}?orderNo=${created.orderNo}`);
    expect(status).toMatchObject({ orderNo: created.orderNo, status: 2, payStatus: 1, paidAt: expect.any(String) });
    expect(wechat.calls.filter((call) => call.method === 'GET').length - before).toBe(2);
    // The notice arriving after all: a duplicate.
    expect((await wechat.send(notifyUrl, wechat.paidNotice(created.orderNo))).status).toBe(200);
    expect(await count(sql`SELECT count(*)::int AS n FROM payments WHERE out_trade_no = ${created.orderNo}`)).toBe(1);
  });

  it('keeps answering the pay status when the gateway is unreachable for every retry', async () => {
    const created = await order('partner3');
    wechat.dropQueries = 3;
    const status = await c.data('partner3', `${STATUS}?orderNo=${created.orderNo}`);
    expect(status).toMatchObject({ status: 1, payStatus: 0 });
    expect(wechat.dropQueries).toBe(0);
  });

  it('closes the trade at WeChat Pay when the order is cancelled', async () => {
    const created = await order();
    await c.done('partner2', CANCEL, { orderNo: created.orderNo });
    expect(wechat.trades.get(created.orderNo)!.state).toBe('CLOSED');
    expect(wechat.calls.some((call) => call.path === `/v3/pay/transactions/out-trade-no/${created.orderNo}/close` && call.signed)).toBe(true);
  });

  it('refunds through WeChat Pay: 退款中 until the REFUND.SUCCESS notice, then 已退款 with the margin reversed; a replay changes nothing', async () => {
    const created = await order();
    wechat.pay(created.orderNo);
    expect((await wechat.send(notifyUrl, wechat.paidNotice(created.orderNo))).status).toBe(200);
    const refund = await c.done('partner2', REFUND, { orderNo: created.orderNo, reason: '规格订错' });
    expect(wechat.refunds.get(refund.refundNo)).toMatchObject({ outTradeNo: created.orderNo, refund: created.amountFen, total: created.amountFen, notifyUrl });
    expect(await orderRow(created.orderNo)).toMatchObject({ refundStatus: 1 });
    const notice = wechat.refundNotice(refund.refundNo);
    expect((await wechat.send(notifyUrl, notice)).status).toBe(200);
    expect(await orderRow(created.orderNo)).toMatchObject({ status: 2, refundStatus: 2 });
    const entries = await margins(created.orderNo);
    expect(entries.map((e) => e.amountFen)).toEqual([entries[0].amountFen, -entries[0].amountFen]);
    expect((await wechat.send(notifyUrl, notice)).status).toBe(200);
    expect(await margins(created.orderNo)).toHaveLength(2);
  });

  it('asks WeChat Pay again for a refund whose call failed: backing off, recorded on the refund, bounded', async () => {
    const created = await order();
    wechat.pay(created.orderNo);
    expect((await wechat.send(notifyUrl, wechat.paidNotice(created.orderNo))).status).toBe(200);
    wechat.failRefunds = 1000;
    let refundNo: string;
    try {
      const res = await c.post('partner2', REFUND, { orderNo: created.orderNo, reason: '规格订错' });
      expect(res.statusCode).toBeGreaterThanOrEqual(500);
      [{ refundNo }] = await rows<{ refundNo: string }>(t.database.db, sql`SELECT r.refund_no AS "refundNo" FROM order_refunds r JOIN partner_orders o ON o.id = r.order_id WHERE o.order_no = ${created.orderNo}`);
      expect(wechat.refunds.has(refundNo)).toBe(false);
      expect(await orderRow(created.orderNo)).toMatchObject({ refundStatus: 1 });
      const refundRow = async () =>
        (await rows<{ resendCount: number; lastResendError: string | null }>(t.database.db, sql`SELECT resend_count AS "resendCount", last_resend_error AS "lastResendError" FROM order_refunds WHERE refund_no = ${refundNo}`))[0];
      const later = (ms: number) => new Date(Date.now() + ms);
      // Other refunds of the demo (and of tests above) may be swept too: only this one is looked at.
      const resend = async (at: Date) => (await resendStuckRefunds(t.database.db, t.app.payments, at)).filter((r) => r.refundNo === refundNo);
      // Too soon: nothing is asked (the notice may still be on its way).
      expect(await resend(later(60_000))).toEqual([]);
      // Past the wait, with the gateway still down: tried, the failure recorded.
      const failed = await resend(later(REFUND_RESEND_AFTER_MS + 1000));
      expect(failed).toEqual([{ refundNo, ok: false, error: expect.any(String) }]);
      expect(await refundRow()).toMatchObject({ resendCount: 1, lastResendError: expect.any(String) });
      // The next try waits twice as long.
      expect(await resend(later(REFUND_RESEND_AFTER_MS * 2))).toEqual([]);
      // The gateway is back: asked again with the same refund number, the error cleared.
      wechat.failRefunds = 0;
      const sent = await resend(later(REFUND_RESEND_AFTER_MS * 4));
      expect(sent).toEqual([{ refundNo, ok: true }]);
      expect(wechat.refunds.get(refundNo)).toMatchObject({ outTradeNo: created.orderNo, refund: created.amountFen });
      expect(await refundRow()).toEqual({ resendCount: 2, lastResendError: null });
    } finally {
      wechat.failRefunds = 0;
    }
    // The notice completes it as any refund.
    expect((await wechat.send(notifyUrl, wechat.refundNotice(refundNo))).status).toBe(200);
    expect(await orderRow(created.orderNo)).toMatchObject({ refundStatus: 2 });
    // Done: never asked again.
    expect((await resendStuckRefunds(t.database.db, t.app.payments, new Date(Date.now() + 365 * 24 * 3600_000))).map((r) => r.refundNo)).not.toContain(refundNo);
  });

  it('gives up after REFUND_RESEND_MAX tries, leaving the last error on the refund', async () => {
    const created = await order();
    wechat.pay(created.orderNo);
    expect((await wechat.send(notifyUrl, wechat.paidNotice(created.orderNo))).status).toBe(200);
    wechat.failRefunds = 100_000;
    try {
      await c.post('partner2', REFUND, { orderNo: created.orderNo, reason: '重复下单' });
      const [{ refundNo }] = await rows<{ refundNo: string }>(t.database.db, sql`SELECT r.refund_no AS "refundNo" FROM order_refunds r JOIN partner_orders o ON o.id = r.order_id WHERE o.order_no = ${created.orderNo}`);
      const resend = async (at: number) => (await resendStuckRefunds(t.database.db, t.app.payments, new Date(at))).filter((r) => r.refundNo === refundNo);
      let at = Date.now();
      for (let i = 0; i < REFUND_RESEND_MAX; i++) {
        at += REFUND_RESEND_AFTER_MS * 2 ** i + 1000;
        expect(await resend(at)).toEqual([{ refundNo, ok: false, error: expect.any(String) }]);
      }
      expect(await resend(at + 365 * 24 * 3600_000)).toEqual([]);
      const [row] = await rows<{ resendCount: number; lastResendError: string | null; status: number }>(t.database.db, sql`
        SELECT r.resend_count AS "resendCount", r.last_resend_error AS "lastResendError", r.status FROM order_refunds r JOIN partner_orders o ON o.id = r.order_id WHERE o.order_no = ${created.orderNo}`);
      expect(row).toMatchObject({ resendCount: REFUND_RESEND_MAX, status: 1 });
      expect(row.lastResendError).toBeTruthy();
    } finally {
      wechat.failRefunds = 0;
    }
  });

  it('answers a Chinese 503 when WeChat Pay does not answer in time, and keeps no order', async () => {
    const before = await count(sql`SELECT count(*)::int AS n FROM partner_orders`);
    wechat.createDelayMs = 6000;
    try {
      const res = await c.post('partner2', ADD, { items: [{ packId, quantity: 1 }] });
      expect(res.statusCode).toBe(503);
      expect(res.json().msg).toBe('支付通道响应超时，请稍后重试');
    } finally {
      wechat.createDelayMs = 0;
    }
    expect(await count(sql`SELECT count(*)::int AS n FROM partner_orders`)).toBe(before);
  });

  it('answers a Chinese 502 when WeChat Pay\'s answer is not signed by the platform key', async () => {
    const original = wechat.signed.bind(wechat);
    wechat.signed = (body: string) => ({ ...original(body), 'wechatpay-signature': createSign('RSA-SHA256').update(body).sign(merchant.privateKey, 'base64') });
    try {
      const res = await c.post('partner2', ADD, { items: [{ packId, quantity: 1 }] });
      expect(res.statusCode).toBe(502);
      expect(res.json().msg).toBe('支付通道返回异常，请稍后重试');
    } finally {
      wechat.signed = original;
    }
  });
});

describe('WeChat Pay configuration', () => {
  const base = { JWT_SECRET: 'unit-test-secret', TERMINAL_PIN_KEY: 'unit-test-pin-key', DATA_DIR: '/nonexistent' };
  let complete: Record<string, string>;
  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'wechat-merchant-'));
    writeFileSync(join(dir, 'apiclient_key.pem'), pem(merchant.privateKey, 'pkcs8'));
    complete = { WECHATPAY_MCHID: MCHID, WECHATPAY_APPID: APPID, WECHATPAY_SERIAL_NO: MERCHANT_SERIAL, WECHATPAY_PRIVATE_KEY_FILE: join(dir, 'apiclient_key.pem'), WECHATPAY_API_V3_KEY: API_V3_KEY, WECHATPAY_NOTIFY_URL: 'https://x.example.com/api/mercury/v1/pay/notify/wechat' };
  });
  it('refuses to start half-configured, naming what is missing in Chinese', () => {
    expect(() => loadConfig({ ...base, PAYMENT_GATEWAY: 'wechat', WECHATPAY_MCHID: MCHID })).toThrow(/微信支付配置不完整，缺少：WECHATPAY_APPID、WECHATPAY_SERIAL_NO、WECHATPAY_PRIVATE_KEY_FILE、WECHATPAY_API_V3_KEY、WECHATPAY_NOTIFY_URL/);
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', WECHATPAY_MCHID: MCHID })).toThrow(/设置了 WECHATPAY_MCHID，但 PAYMENT_GATEWAY 不是对应的支付通道/);
    expect(() => loadConfig({ ...base, PAYMENT_GATEWAY: 'wechat', ...complete, WECHATPAY_API_V3_KEY: 'short' })).toThrow(/WECHATPAY_API_V3_KEY 应为商户平台设置的 32 位 APIv3 密钥/);
  });

  it('takes the platform certificate\'s serial number from the certificate itself', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wechat-keys-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'platform.key'), '-out', join(dir, 'platform.pem'), '-days', '1', '-subj', '/CN=Tenpay.com Root CA', '-set_serial', '0x5157F09EFDC096DE'], { stdio: 'ignore' });
    const config = loadConfig({ ...base, PAYMENT_GATEWAY: 'wechat', ...complete, WECHATPAY_PLATFORM_CERT_FILE: join(dir, 'platform.pem') });
    expect(config.wechatPay).toMatchObject({ mchId: MCHID, platformSerial: '5157F09EFDC096DE', baseUrl: 'https://api.mch.weixin.qq.com' });
    rmSync(dir, { recursive: true });
  });
});
