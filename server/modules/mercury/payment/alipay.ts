// Alipay (支付宝当面付, 扫码支付) behind PaymentProvider: alipay.trade.precreate gives the QR code's
// content; alipay.trade.query, .close and .refund by our numbers. A request is a form POST to the
// gateway with the common parameters and biz_content, signed RSA2 (SHA256withRSA) with the app's
// private key over the sorted key=value pairs; an answer's `sign` covers the raw JSON text of its
// `alipay_trade_…_response` node, and a notice (form POST, answered "success") is verified over its
// sorted pairs without sign and sign_type — both with Alipay's public key. Amounts are yuan strings
// on the wire, fen here. Alipay refunds synchronously: the refund is done when its answer says so.
import { createPrivateKey, createPublicKey, createSign, createVerify, type KeyObject } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { badRequest } from '../../../http/envelope';
import { GATEWAY_BAD_ANSWER, GATEWAY_REFUSED, GatewayError, gatewayFetch, type GatewayHttpOptions } from './gatewayHttp';
import type { GatewayNotice, PaymentProvider, PaymentRequest, RefundedNotice, TradeState } from './provider';
import { readPem } from './wechat';

export const ALIPAY_NOTIFY_PATH = '/api/mercury/v1/pay/notify/alipay';
export const ALIPAY_DEFAULT_GATEWAY = 'https://openapi.alipay.com/gateway.do';

export interface AlipaySettings {
  appId: string;
  /** The app's private key (应用私钥), PEM (PKCS#8 or PKCS#1). */
  privateKeyPem: string;
  /** Alipay's public key (支付宝公钥), PEM. */
  alipayPublicKeyPem: string;
  gateway: string;
  /** Our public notify address, which Alipay posts notices to. */
  notifyUrl: string;
  http?: GatewayHttpOptions;
}

type Log = Pick<FastifyBaseLogger, 'warn'>;

const TRADE_NO = /^(PO|RC)\d{20}$/;
const REFUND_NO = /^RF\d{20}$/;
const YUAN = /^(0|[1-9]\d{0,9})(\.\d{1,2})?$/;
const text = (v: unknown, max: number) => (typeof v === 'string' && v.length > 0 && v.length <= max ? v : undefined);

/** 12345 fen → "123.45". */
export const fenToYuan = (fen: number) => `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
/** "123.45" → 12345; undefined for anything else. */
export function yuanToFen(value: unknown): number | undefined {
  if (typeof value !== 'string' || !YUAN.test(value)) return undefined;
  const [whole, part = ''] = value.split('.');
  return Number(whole) * 100 + Number(part.padEnd(2, '0'));
}

/** Alipay's time: "yyyy-MM-dd HH:mm:ss" in China time. */
export function chinaTime(at: Date): string {
  return new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
}
export function fromChinaTime(value: unknown): Date | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(value)) return undefined;
  const at = new Date(`${value.replace(' ', 'T')}+08:00`);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/** The string Alipay signs: sorted key=value pairs (no empty value, none of `leaveOut`), joined by &. */
export function signingString(params: Record<string, string>, leaveOut: readonly string[] = ['sign']): string {
  return Object.keys(params)
    .filter((k) => !leaveOut.includes(k) && params[k] !== '' && params[k] !== undefined)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}

/**
 * The exact text of a node's JSON value inside an answer (the signature covers those bytes, not a
 * re-serialisation): the balanced object after `"name":`.
 */
export function rawNode(body: string, name: string): string | undefined {
  const key = body.indexOf(`"${name}"`);
  if (key < 0) return undefined;
  let i = body.indexOf(':', key + name.length + 2);
  if (i < 0) return undefined;
  i++;
  while (body[i] === ' ' || body[i] === '\n' || body[i] === '\r' || body[i] === '\t') i++;
  if (body[i] !== '{') return undefined;
  let depth = 0;
  let inString = false;
  for (let j = i; j < body.length; j++) {
    const c = body[j];
    if (inString) {
      if (c === '\\') j++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return body.slice(i, j + 1);
  }
  return undefined;
}

export class AlipayGateway implements PaymentProvider {
  readonly name = 'alipay';
  private readonly privateKey: KeyObject;
  private readonly alipayKey: KeyObject;

  constructor(
    private readonly settings: AlipaySettings,
    private readonly log?: Log,
  ) {
    this.privateKey = createPrivateKey(settings.privateKeyPem);
    this.alipayKey = createPublicKey(settings.alipayPublicKeyPem);
  }

  private verifyWithAlipay(content: string, sign: string): boolean {
    try {
      return createVerify('RSA-SHA256').update(content, 'utf8').verify(this.alipayKey, sign, 'base64');
    } catch {
      return false;
    }
  }

  /** One signed call of `method`; the answer node is believed only when Alipay's signature verifies. */
  private async call(method: string, biz: Record<string, unknown>, repeatable: boolean, extra: Record<string, string> = {}): Promise<Record<string, unknown>> {
    const params: Record<string, string> = {
      app_id: this.settings.appId,
      method,
      format: 'JSON',
      charset: 'utf-8',
      sign_type: 'RSA2',
      timestamp: chinaTime(new Date()),
      version: '1.0',
      ...extra,
      biz_content: JSON.stringify(biz),
    };
    params.sign = createSign('RSA-SHA256').update(signingString(params), 'utf8').sign(this.privateKey, 'base64');
    const answer = await gatewayFetch(
      this.settings.gateway,
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8', accept: 'application/json' }, body: new URLSearchParams(params).toString() },
      { repeatable, options: this.settings.http ?? {}, what: `alipay ${method}` },
    );
    const nodeName = `${method.replace(/\./g, '_')}_response`;
    const raw = rawNode(answer.text, nodeName);
    let parsed: { sign?: unknown; error_response?: Record<string, unknown> } & Record<string, unknown>;
    try {
      parsed = JSON.parse(answer.text);
    } catch {
      throw new GatewayError(502, GATEWAY_BAD_ANSWER, `alipay ${method}: HTTP ${answer.status}, not JSON`);
    }
    if (!raw) {
      // error_response: the call itself was refused (app id, signature); Alipay may not sign it.
      this.log?.warn({ gateway: 'alipay', method, code: text(parsed.error_response?.code, 16), subCode: text(parsed.error_response?.sub_code, 64) }, '支付宝拒绝了请求');
      throw new GatewayError(502, GATEWAY_REFUSED, `alipay ${method}: no ${nodeName}`);
    }
    const sign = text(parsed.sign, 1024);
    if (!sign || !this.verifyWithAlipay(raw, sign)) throw new GatewayError(502, GATEWAY_BAD_ANSWER, `alipay ${method}: answer signature does not verify`);
    return JSON.parse(raw) as Record<string, unknown>;
  }

  private refused(method: string, node: Record<string, unknown>): GatewayError {
    this.log?.warn({ gateway: 'alipay', method, code: text(node.code, 16), subCode: text(node.sub_code, 64), subMsg: text(node.sub_msg, 200) }, '支付宝拒绝了请求');
    return new GatewayError(502, GATEWAY_REFUSED, `alipay ${method}: ${text(node.code, 16)} ${text(node.sub_code, 64) ?? ''}`);
  }

  async createPayment(_db: unknown, request: PaymentRequest): Promise<{ codeUrl: string }> {
    const node = await this.call(
      'alipay.trade.precreate',
      { out_trade_no: request.outTradeNo, total_amount: fenToYuan(request.amountFen), subject: request.subject.slice(0, 256), time_expire: chinaTime(request.expiresAt) },
      false,
      { notify_url: this.settings.notifyUrl },
    );
    const qrCode = text(node.qr_code, 512);
    if (node.code !== '10000' || !qrCode || node.out_trade_no !== request.outTradeNo) throw this.refused('alipay.trade.precreate', node);
    return { codeUrl: qrCode };
  }

  async queryPayment(_db: unknown, outTradeNo: string): Promise<TradeState> {
    const node = await this.call('alipay.trade.query', { out_trade_no: outTradeNo }, true);
    // A precreated trade exists at Alipay only once the payer has scanned it.
    if (node.code === '40004' && node.sub_code === 'ACQ.TRADE_NOT_EXIST') return { state: 'NOTPAY' };
    if (node.code !== '10000') throw this.refused('alipay.trade.query', node);
    if (node.out_trade_no !== outTradeNo) throw new GatewayError(502, GATEWAY_BAD_ANSWER, 'alipay query: another trade in the answer');
    switch (node.trade_status) {
      case 'TRADE_SUCCESS':
      case 'TRADE_FINISHED': {
        const transactionId = text(node.trade_no, 64);
        const amountFen = yuanToFen(node.total_amount);
        const paidAt = fromChinaTime(node.send_pay_date);
        if (!transactionId || !amountFen || !paidAt) throw new GatewayError(502, GATEWAY_BAD_ANSWER, 'alipay query: paid trade without its details');
        return { state: 'SUCCESS', transactionId, amountFen, paidAt };
      }
      case 'WAIT_BUYER_PAY':
        return { state: 'NOTPAY' };
      default:
        return { state: 'CLOSED' };
    }
  }

  /** Best effort: a trade not closed is still guarded (a late payment of a closed order is refunded). */
  async closePayment(_db: unknown, outTradeNo: string): Promise<void> {
    try {
      const node = await this.call('alipay.trade.close', { out_trade_no: outTradeNo }, true);
      // Never scanned: there is nothing to close at Alipay, and after time_expire nothing to pay.
      if (node.code !== '10000' && node.sub_code !== 'ACQ.TRADE_NOT_EXIST') throw this.refused('alipay.trade.close', node);
    } catch (error) {
      this.log?.warn({ gateway: 'alipay', outTradeNo, detail: (error as GatewayError).detail ?? String(error) }, '支付宝关单未成功');
    }
  }

  async refund(_db: unknown, request: { outTradeNo: string; outRefundNo: string; amountFen: number }): Promise<RefundedNotice | void> {
    // out_request_no makes a repeated call the same refund, so the call may be retried.
    const node = await this.call('alipay.trade.refund', { out_trade_no: request.outTradeNo, refund_amount: fenToYuan(request.amountFen), out_request_no: request.outRefundNo }, true);
    if (node.code !== '10000') throw this.refused('alipay.trade.refund', node);
    return { kind: 'refunded', outTradeNo: request.outTradeNo, outRefundNo: request.outRefundNo, amountFen: request.amountFen, refundedAt: fromChinaTime(node.gmt_refund_pay) ?? new Date() };
  }

  readNotice(_headers: Record<string, string | string[] | undefined>, rawBody: string): GatewayNotice | null {
    const form = new URLSearchParams(rawBody);
    const params: Record<string, string> = {};
    for (const [k, v] of form) {
      if (k in params || k.length > 64 || v.length > 4096) return null;
      params[k] = v;
    }
    const sign = params.sign;
    if (!sign || params.sign_type !== 'RSA2' || !this.verifyWithAlipay(signingString(params, ['sign', 'sign_type']), sign)) return null;
    if (params.app_id !== this.settings.appId) throw badRequest('通知不属于本应用');
    const outTradeNo = params.out_trade_no;
    if (!outTradeNo || !TRADE_NO.test(outTradeNo)) throw badRequest('通知内容格式不正确');
    // A refund's notice names it in out_biz_no, with refund_fee and gmt_refund.
    if (params.out_biz_no && params.refund_fee) {
      const amountFen = yuanToFen(params.refund_fee);
      const refundedAt = fromChinaTime(params.gmt_refund);
      if (!REFUND_NO.test(params.out_biz_no) || !amountFen || !refundedAt) throw badRequest('通知内容格式不正确');
      return { kind: 'refunded', outTradeNo, outRefundNo: params.out_biz_no, amountFen, refundedAt };
    }
    if (params.trade_status === 'TRADE_SUCCESS' || params.trade_status === 'TRADE_FINISHED') {
      const transactionId = text(params.trade_no, 64);
      const amountFen = yuanToFen(params.total_amount);
      const paidAt = fromChinaTime(params.gmt_payment);
      if (!transactionId || !amountFen || !paidAt) throw badRequest('通知内容格式不正确');
      return { kind: 'paid', outTradeNo, transactionId, amountFen, paidAt };
    }
    return { kind: 'ignored', what: text(params.trade_status, 32) ?? 'unknown' };
  }
}

export const ALIPAY_ENV = ['ALIPAY_APP_ID', 'ALIPAY_PRIVATE_KEY_FILE', 'ALIPAY_PUBLIC_KEY_FILE', 'ALIPAY_NOTIFY_URL'] as const;

export function alipaySettingsFromEnv(env: NodeJS.ProcessEnv): { settings?: AlipaySettings; problems: string[] } {
  const problems: string[] = [];
  const missing = ALIPAY_ENV.filter((name) => !env[name]);
  if (missing.length) problems.push(`支付宝配置不完整，缺少：${missing.join('、')}`);
  const notifyUrl = env.ALIPAY_NOTIFY_URL ?? '';
  if (notifyUrl && !/^https?:\/\/[^/]+\//.test(notifyUrl)) problems.push('ALIPAY_NOTIFY_URL 应为公网地址（例如 https://xuezhu.example.com/api/mercury/v1/pay/notify/alipay）');
  const privateKeyPem = readPem(env.ALIPAY_PRIVATE_KEY_FILE, 'ALIPAY_PRIVATE_KEY_FILE', problems, (pem) => createPrivateKey(pem), 'PRIVATE KEY');
  const alipayPublicKeyPem = readPem(env.ALIPAY_PUBLIC_KEY_FILE, 'ALIPAY_PUBLIC_KEY_FILE', problems, (pem) => createPublicKey(pem), 'PUBLIC KEY');
  if (problems.length || !privateKeyPem || !alipayPublicKeyPem) return { problems };
  return { problems, settings: { appId: env.ALIPAY_APP_ID!, privateKeyPem, alipayPublicKeyPem, gateway: env.ALIPAY_GATEWAY || ALIPAY_DEFAULT_GATEWAY, notifyUrl } };
}
