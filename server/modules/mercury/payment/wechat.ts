// WeChat Pay API v3 (微信支付 Native 支付) behind PaymentProvider: a Native order gives the code URL
// for the QR code; query, close and refund by our numbers. Every request is signed with the
// merchant's private key (Authorization: WECHATPAY2-SHA256-RSA2048 …, over
// "METHOD\nURL\nTIMESTAMP\nNONCE\nBODY\n"); every 2xx answer and every notice is verified with the
// platform certificate's (or WeChat Pay public key's) RSA key over "TIMESTAMP\nNONCE\nBODY\n", and a
// notice's resource is decrypted with the API v3 key (AEAD_AES_256_GCM). Amounts are fen.
import { constants, createDecipheriv, createPrivateKey, createPublicKey, createSign, createVerify, randomBytes, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import { badRequest } from '../../../http/envelope';
import { GATEWAY_BAD_ANSWER, GATEWAY_REFUSED, GatewayError, gatewayFetch, type GatewayHttpOptions } from './gatewayHttp';
import type { GatewayNotice, PaymentNotice, PaymentProvider, PaymentRequest, RefundedNotice, TradeState } from './provider';

export const WECHAT_NOTIFY_PATH = '/api/mercury/v1/pay/notify/wechat';
export const WECHAT_DEFAULT_BASE_URL = 'https://api.mch.weixin.qq.com';
/** A notice signed longer ago than this (or ahead of our clock) is refused: a captured one cannot be replayed. */
export const WECHAT_NOTICE_MAX_AGE_SECONDS = 5 * 60;
const SCHEMA = 'WECHATPAY2-SHA256-RSA2048';

export interface WechatPaySettings {
  mchId: string;
  appId: string;
  /** The merchant API certificate's serial number (商户API证书序列号). */
  serialNo: string;
  /** The merchant API private key, PEM. */
  privateKeyPem: string;
  /** The platform certificate (PEM, X.509) or the WeChat Pay public key (PEM). */
  platformKeyPem: string;
  /** The serial the answers and notices name in Wechatpay-Serial: the certificate's, or the public key's id (PUB_KEY_ID_…). */
  platformSerial: string;
  /** The APIv3 key (32 characters) that encrypts notices. */
  apiV3Key: string;
  baseUrl: string;
  /** Our public notify address, https, which WeChat Pay posts notices to. */
  notifyUrl: string;
  http?: GatewayHttpOptions;
}

type Log = Pick<FastifyBaseLogger, 'warn'>;

const TRADE_NO = /^(PO|RC)\d{20}$/;
const REFUND_NO = /^RF\d{20}$/;
const text = (v: unknown, max: number) => (typeof v === 'string' && v.length > 0 && v.length <= max ? v : undefined);
const fen = (v: unknown) => (Number.isSafeInteger(v) && (v as number) > 0 ? (v as number) : undefined);

/** RFC 3339 in China time, as WeChat Pay writes times: 2026-11-27T10:34:56+08:00. */
export function chinaRfc3339(at: Date): string {
  return `${new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 19)}+08:00`;
}

export class WechatPayGateway implements PaymentProvider {
  readonly name = 'wechat';
  private readonly privateKey: KeyObject;
  private readonly platformKey: KeyObject;

  constructor(
    private readonly settings: WechatPaySettings,
    private readonly log?: Log,
  ) {
    this.privateKey = createPrivateKey(settings.privateKeyPem);
    this.platformKey = settings.platformKeyPem.includes('CERTIFICATE') ? new X509Certificate(settings.platformKeyPem).publicKey : createPublicKey(settings.platformKeyPem);
    if (Buffer.byteLength(settings.apiV3Key) !== 32) throw new Error('WECHATPAY_API_V3_KEY must be 32 bytes');
  }

  /** The Authorization header of one request (exported for the tests' gateway, which checks it). */
  authorization(method: string, pathAndQuery: string, body: string, timestamp = Math.floor(Date.now() / 1000), nonce = randomBytes(16).toString('hex')): string {
    const message = `${method}\n${pathAndQuery}\n${timestamp}\n${nonce}\n${body}\n`;
    const signature = createSign('RSA-SHA256').update(message).sign(this.privateKey, 'base64');
    return `${SCHEMA} mchid="${this.settings.mchId}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${this.settings.serialNo}"`;
  }

  /** Whether WeChat Pay signed this body (an answer's or a notice's), recently, with the platform key. */
  verify(headers: (name: string) => string | undefined, body: string, now = Date.now()): boolean {
    const timestamp = headers('wechatpay-timestamp') ?? '';
    const nonce = headers('wechatpay-nonce') ?? '';
    const signature = headers('wechatpay-signature') ?? '';
    const serial = headers('wechatpay-serial') ?? '';
    if (!/^\d{1,12}$/.test(timestamp) || !nonce || nonce.length > 64 || !signature || signature.length > 1024) return false;
    // The key rotates: a notice signed with another certificate than ours is not believed.
    if (serial !== this.settings.platformSerial) return false;
    if (Math.abs(now / 1000 - Number(timestamp)) > WECHAT_NOTICE_MAX_AGE_SECONDS) return false;
    try {
      return createVerify('RSA-SHA256').update(`${timestamp}\n${nonce}\n${body}\n`).verify({ key: this.platformKey, padding: constants.RSA_PKCS1_PADDING }, signature, 'base64');
    } catch {
      return false;
    }
  }

  /** One signed call; a 2xx answer must carry WeChat Pay's signature, else it proves nothing. */
  private async call(method: 'GET' | 'POST', pathAndQuery: string, payload: unknown, what: string, repeatable: boolean): Promise<{ status: number; json: Record<string, unknown> }> {
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const answer = await gatewayFetch(
      `${this.settings.baseUrl.replace(/\/$/, '')}${pathAndQuery}`,
      {
        method,
        headers: {
          authorization: this.authorization(method, pathAndQuery, body),
          accept: 'application/json',
          'user-agent': 'xuezhu-payment/1.0',
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: payload === undefined ? undefined : body,
      },
      { repeatable, options: this.settings.http ?? {}, what: `wechat ${what}` },
    );
    let json: Record<string, unknown> = {};
    if (answer.text) {
      try {
        json = JSON.parse(answer.text);
      } catch {
        throw new GatewayError(502, GATEWAY_BAD_ANSWER, `wechat ${what}: HTTP ${answer.status}, not JSON`);
      }
    }
    if (answer.status >= 200 && answer.status < 300 && !this.verify((n) => answer.headers.get(n) ?? undefined, answer.text)) {
      throw new GatewayError(502, GATEWAY_BAD_ANSWER, `wechat ${what}: answer signature does not verify`);
    }
    return { status: answer.status, json };
  }

  private refused(what: string, status: number, json: Record<string, unknown>): GatewayError {
    // WeChat's error code and message go to the log (never a key or a signature); the user reads ours.
    this.log?.warn({ gateway: 'wechat', what, status, code: text(json.code, 64), message: text(json.message, 200) }, '微信支付拒绝了请求');
    return new GatewayError(502, GATEWAY_REFUSED, `wechat ${what}: HTTP ${status} ${text(json.code, 64) ?? ''}`);
  }

  async createPayment(_db: unknown, request: PaymentRequest): Promise<{ codeUrl: string }> {
    const { status, json } = await this.call(
      'POST',
      '/v3/pay/transactions/native',
      {
        appid: this.settings.appId,
        mchid: this.settings.mchId,
        description: request.subject.slice(0, 127),
        out_trade_no: request.outTradeNo,
        time_expire: chinaRfc3339(request.expiresAt),
        notify_url: this.settings.notifyUrl,
        amount: { total: request.amountFen, currency: 'CNY' },
      },
      'native order',
      false,
    );
    const codeUrl = text(json.code_url, 512);
    if (status !== 200 || !codeUrl) throw this.refused('native order', status, json);
    return { codeUrl };
  }

  async queryPayment(_db: unknown, outTradeNo: string): Promise<TradeState> {
    const path = `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}?mchid=${encodeURIComponent(this.settings.mchId)}`;
    const { status, json } = await this.call('GET', path, undefined, 'query', true);
    if (status === 404 && json.code === 'ORDER_NOT_EXIST') return { state: 'CLOSED' };
    if (status !== 200) throw this.refused('query', status, json);
    if (json.out_trade_no !== outTradeNo || json.mchid !== this.settings.mchId) throw new GatewayError(502, GATEWAY_BAD_ANSWER, 'wechat query: another trade in the answer');
    switch (json.trade_state) {
      // REFUND: it was paid, and has been refunded since.
      case 'SUCCESS':
      case 'REFUND': {
        const paid = this.paid(json);
        if (!paid) throw new GatewayError(502, GATEWAY_BAD_ANSWER, 'wechat query: paid trade without its transaction');
        return { state: 'SUCCESS', transactionId: paid.transactionId, amountFen: paid.amountFen, paidAt: paid.paidAt };
      }
      case 'NOTPAY':
      case 'USERPAYING':
        return { state: 'NOTPAY' };
      default:
        return { state: 'CLOSED' };
    }
  }

  /** Best effort: a trade not closed is still guarded (a late payment of a closed order is refunded). */
  async closePayment(_db: unknown, outTradeNo: string): Promise<void> {
    try {
      const { status, json } = await this.call('POST', `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}/close`, { mchid: this.settings.mchId }, 'close', true);
      if (status !== 204 && status !== 200) throw this.refused('close', status, json);
    } catch (error) {
      this.log?.warn({ gateway: 'wechat', outTradeNo, detail: (error as GatewayError).detail ?? String(error) }, '微信支付关单未成功');
    }
  }

  async refund(_db: unknown, request: { outTradeNo: string; outRefundNo: string; amountFen: number; totalFen?: number }): Promise<RefundedNotice | void> {
    const { status, json } = await this.call(
      'POST',
      '/v3/refund/domestic/refunds',
      {
        out_trade_no: request.outTradeNo,
        out_refund_no: request.outRefundNo,
        notify_url: this.settings.notifyUrl,
        // Always the whole payment: an order or a payment goes back in one piece.
        amount: { refund: request.amountFen, total: request.totalFen ?? request.amountFen, currency: 'CNY' },
      },
      'refund',
      true,
    );
    if (status !== 200) throw this.refused('refund', status, json);
    if (json.status === 'SUCCESS') return this.refunded(json) ?? undefined;
    // PROCESSING: the REFUND.SUCCESS notice tells the outcome.
  }

  private paid(tx: Record<string, unknown>): Extract<PaymentNotice, { kind: 'paid' }> | null {
    const outTradeNo = text(tx.out_trade_no, 32);
    const transactionId = text(tx.transaction_id, 64);
    const amountFen = fen((tx.amount as Record<string, unknown> | undefined)?.total);
    const paidAt = new Date(text(tx.success_time, 40) ?? 'invalid');
    if (!outTradeNo || !TRADE_NO.test(outTradeNo) || !transactionId || !amountFen || Number.isNaN(paidAt.getTime())) return null;
    return { kind: 'paid', outTradeNo, transactionId, amountFen, paidAt };
  }

  private refunded(r: Record<string, unknown>): RefundedNotice | null {
    const outTradeNo = text(r.out_trade_no, 32);
    const outRefundNo = text(r.out_refund_no, 64);
    const amountFen = fen((r.amount as Record<string, unknown> | undefined)?.refund);
    const refundedAt = new Date(text(r.success_time, 40) ?? 'invalid');
    if (!outTradeNo || !TRADE_NO.test(outTradeNo) || !outRefundNo || !REFUND_NO.test(outRefundNo) || !amountFen || Number.isNaN(refundedAt.getTime())) return null;
    return { kind: 'refunded', outTradeNo, outRefundNo, amountFen, refundedAt };
  }

  /** The resource of a notice: AEAD_AES_256_GCM with the APIv3 key; the last 16 bytes are the tag. */
  decrypt(resource: { ciphertext: string; nonce: string; associated_data?: string }): string | null {
    try {
      const data = Buffer.from(resource.ciphertext, 'base64');
      if (data.length <= 16) return null;
      const decipher = createDecipheriv('aes-256-gcm', Buffer.from(this.settings.apiV3Key), Buffer.from(resource.nonce));
      decipher.setAuthTag(data.subarray(data.length - 16));
      if (resource.associated_data) decipher.setAAD(Buffer.from(resource.associated_data));
      return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }

  readNotice(headers: Record<string, string | string[] | undefined>, rawBody: string): GatewayNotice | null {
    const one = (name: string) => (typeof headers[name] === 'string' ? (headers[name] as string) : undefined);
    if (!this.verify(one, rawBody)) return null;
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(rawBody);
    } catch {
      throw badRequest('通知内容格式不正确');
    }
    const resource = body?.resource as Record<string, unknown> | undefined;
    const ciphertext = text(resource?.ciphertext, 16 * 1024);
    const nonce = text(resource?.nonce, 64);
    if (!resource || resource.algorithm !== 'AEAD_AES_256_GCM' || !ciphertext || !nonce) throw badRequest('通知内容格式不正确');
    const plain = this.decrypt({ ciphertext, nonce, associated_data: text(resource.associated_data, 256) });
    // Signed by WeChat Pay but not readable with our APIv3 key: our key is wrong; nothing is believed.
    if (plain === null) {
      this.log?.warn({ gateway: 'wechat', event: text(body.event_type, 64) }, '微信支付通知无法用 APIv3 密钥解密');
      return null;
    }
    let content: Record<string, unknown>;
    try {
      content = JSON.parse(plain);
    } catch {
      throw badRequest('通知内容格式不正确');
    }
    if (content.mchid !== this.settings.mchId) throw badRequest('通知不属于本商户');
    if (body.event_type === 'TRANSACTION.SUCCESS') {
      if (content.appid !== this.settings.appId || content.trade_state !== 'SUCCESS') return { kind: 'ignored', what: `transaction ${text(content.trade_state, 32)}` };
      const paid = this.paid(content);
      if (!paid) throw badRequest('通知内容格式不正确');
      return paid;
    }
    if (body.event_type === 'REFUND.SUCCESS' && content.refund_status === 'SUCCESS') {
      const refunded = this.refunded(content);
      if (!refunded) throw badRequest('通知内容格式不正确');
      return refunded;
    }
    // REFUND.ABNORMAL / REFUND.CLOSED: a person handles them in the merchant platform.
    this.log?.warn({ gateway: 'wechat', event: text(body.event_type, 64), outTradeNo: text(content.out_trade_no, 32) }, '微信支付通知未处理');
    return { kind: 'ignored', what: text(body.event_type, 64) ?? 'unknown' };
  }
}

/** The env variables of WeChat Pay, and what is missing or wrong in them (Chinese, for the operator). */
export const WECHAT_ENV = ['WECHATPAY_MCHID', 'WECHATPAY_APPID', 'WECHATPAY_SERIAL_NO', 'WECHATPAY_PRIVATE_KEY_FILE', 'WECHATPAY_API_V3_KEY', 'WECHATPAY_NOTIFY_URL'] as const;

export function wechatSettingsFromEnv(env: NodeJS.ProcessEnv): { settings?: WechatPaySettings; problems: string[] } {
  const problems: string[] = [];
  const missing = WECHAT_ENV.filter((name) => !env[name]);
  const certFile = env.WECHATPAY_PLATFORM_CERT_FILE;
  const keyFile = env.WECHATPAY_PUBLIC_KEY_FILE;
  if (!certFile && !keyFile) missing.push('WECHATPAY_PLATFORM_CERT_FILE 或 WECHATPAY_PUBLIC_KEY_FILE' as never);
  if (keyFile && !certFile && !env.WECHATPAY_PUBLIC_KEY_ID) missing.push('WECHATPAY_PUBLIC_KEY_ID' as never);
  if (missing.length) problems.push(`微信支付配置不完整，缺少：${missing.join('、')}`);
  const apiV3Key = env.WECHATPAY_API_V3_KEY ?? '';
  if (apiV3Key && Buffer.byteLength(apiV3Key) !== 32) problems.push('WECHATPAY_API_V3_KEY 应为商户平台设置的 32 位 APIv3 密钥');
  const notifyUrl = env.WECHATPAY_NOTIFY_URL ?? '';
  if (notifyUrl && !/^https:\/\/[^/]+\//.test(notifyUrl)) problems.push('WECHATPAY_NOTIFY_URL 应为 https:// 开头的公网地址（例如 https://xuezhu.example.com/api/mercury/v1/pay/notify/wechat）');
  const privateKeyPem = readPem(env.WECHATPAY_PRIVATE_KEY_FILE, 'WECHATPAY_PRIVATE_KEY_FILE', problems, (pem) => createPrivateKey(pem));
  const platformFile = certFile ? 'WECHATPAY_PLATFORM_CERT_FILE' : 'WECHATPAY_PUBLIC_KEY_FILE';
  let platformSerial = env.WECHATPAY_PUBLIC_KEY_ID ?? '';
  const platformKeyPem = readPem(certFile ?? keyFile, platformFile, problems, (pem) => {
    if (certFile) platformSerial = new X509Certificate(pem).serialNumber.toUpperCase();
    else createPublicKey(pem);
  });
  if (problems.length || !privateKeyPem || !platformKeyPem) return { problems };
  return {
    problems,
    settings: {
      mchId: env.WECHATPAY_MCHID!,
      appId: env.WECHATPAY_APPID!,
      serialNo: env.WECHATPAY_SERIAL_NO!,
      privateKeyPem,
      platformKeyPem,
      platformSerial,
      apiV3Key,
      baseUrl: env.WECHATPAY_BASE_URL || WECHAT_DEFAULT_BASE_URL,
      notifyUrl,
    },
  };
}

/**
 * A PEM file that the check can read (its content is never printed). A bare base64 key, as Alipay's
 * key tool saves it, is taken as `bare` (PRIVATE KEY: PKCS#8, PUBLIC KEY: SPKI).
 */
export function readPem(file: string | undefined, name: string, problems: string[], check: (pem: string) => void, bare?: 'PRIVATE KEY' | 'PUBLIC KEY'): string | undefined {
  if (!file) return undefined;
  try {
    let pem = readFileSync(file, 'utf8').trim();
    if (bare && !pem.startsWith('-----BEGIN')) pem = `-----BEGIN ${bare}-----\n${pem.replace(/\s+/g, '').replace(/(.{64})/g, '$1\n')}\n-----END ${bare}-----\n`;
    check(pem);
    return pem;
  } catch {
    problems.push(`${name} 指向的文件无法读取或不是有效的 PEM 密钥/证书：${file}`);
    return undefined;
  }
}
