// Our notify endpoint: the gateway's signed HTTP POST. The body is read raw, since the signature
// is over its exact bytes; nothing in it is believed before the signature verifies. Each gateway
// gets the answer it expects: the sandbox our envelope; WeChat Pay 200 with no body, or a 4xx/5xx
// with {code: 'FAIL', message}; Alipay the text "success", or "fail". A refused notice is retried by
// the gateway; a repeated one changes nothing (one payment per gateway transaction, one refund per
// refund number). A notice naming another amount than ours is refused and written to 操作日志.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError, ok } from '../../../http/envelope';
import { auditLogs } from '../../../db/schema';
import { yuan } from '../../../../src/domain/partner';
import { clip } from '../../audit/record';
import { AUDIT_LIMITS } from '../../../../src/domain/auditFields';
import { applyNotice } from './notices';
import { AmountMismatchError, type GatewayNotice } from './provider';

export const NOTIFY_PATH = '/api/mercury/v1/pay/notify/sandbox';

export type NoticeAnswer = 'sandbox' | 'wechat' | 'alipay';
const GATEWAY_NAMES: Record<NoticeAnswer, string> = { sandbox: '沙箱支付', wechat: '微信支付', alipay: '支付宝' };

const SIGNATURE_FAILED = '通知签名验证失败';

function succeed(reply: FastifyReply, answer: NoticeAnswer, outcome: string) {
  if (answer === 'wechat') return reply.code(200).send();
  if (answer === 'alipay') return reply.code(200).type('text/plain; charset=utf-8').send('success');
  return reply.send(ok({ outcome }, '成功'));
}

function fail(reply: FastifyReply, answer: NoticeAnswer, status: number, message: string) {
  if (answer === 'wechat') return reply.code(status).type('application/json; charset=utf-8').send({ code: 'FAIL', message });
  if (answer === 'alipay') return reply.code(status).type('text/plain; charset=utf-8').send('fail');
  throw new ApiError(status, message);
}

const notifyRoutes: FastifyPluginAsyncTypebox<{ path: string; answer: NoticeAnswer }> = async (app, { path, answer }) => {
  // Encapsulated: only this plugin's routes read JSON and forms as text.
  const asText = (_request: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => done(null, body);
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 16 * 1024 }, asText);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, asText);

  /** The wrong amount, for a person to look at: in the log and in 操作日志 (the platform's). */
  async function recordMismatch(request: FastifyRequest, notice: GatewayNotice, error: AmountMismatchError) {
    if (notice.kind === 'ignored') return;
    const what = notice.kind === 'refunded' ? `退款单 ${notice.outRefundNo}` : notice.outTradeNo.startsWith('RC') ? `充值单 ${notice.outTradeNo}` : `订单 ${notice.outTradeNo}`;
    const summary = `拒收${GATEWAY_NAMES[answer]}通知：${what} 的${notice.kind === 'refunded' ? '退款' : '支付'}金额 ¥${yuan(error.givenFen)} 与应为的 ¥${yuan(error.expectedFen)} 不一致`;
    request.log.warn({ gateway: answer, outTradeNo: notice.outTradeNo, expectedFen: error.expectedFen, givenFen: error.givenFen }, summary);
    await app.db.insert(auditLogs).values({
      userName: GATEWAY_NAMES[answer],
      role: '',
      action: 'reject',
      kind: notice.outTradeNo.startsWith('RC') ? 'recharge' : 'order',
      recordId: notice.outTradeNo,
      summary: clip(summary, AUDIT_LIMITS.summary),
      ip: request.ip ? clip(request.ip, 64) : null,
    });
  }

  app.post(path, { config: { public: true } }, async (request, reply) => {
    const raw = typeof request.body === 'string' ? request.body : '';
    let notice: GatewayNotice | null;
    try {
      notice = app.payments.readNotice(request.headers, raw);
    } catch (error) {
      if (error instanceof ApiError) return fail(reply, answer, error.code, error.message);
      throw error;
    }
    // 400, not 401: a 401 would read as "not signed in"; this is a request that proves nothing.
    if (!notice) {
      request.log.warn({ gateway: answer }, SIGNATURE_FAILED);
      return fail(reply, answer, 400, SIGNATURE_FAILED);
    }
    try {
      const outcome = await applyNotice(app.db, app.payments, notice);
      return succeed(reply, answer, outcome);
    } catch (error) {
      if (error instanceof AmountMismatchError) await recordMismatch(request, notice, error);
      if (error instanceof ApiError) return fail(reply, answer, error.code, error.message);
      if (answer === 'sandbox') throw error;
      request.log.error({ err: error, gateway: answer }, '处理支付通知失败');
      return fail(reply, answer, 500, '处理失败');
    }
  });
};

export default notifyRoutes;
