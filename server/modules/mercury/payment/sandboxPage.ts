// The sandbox gateway's page, which the code URL opens (on a phone, or a browser here): the
// amount, and a 确认支付 button that pays the trade on the gateway side, which then sends our
// notify endpoint its signed notice. Plain HTML and a form: no script, under our CSP.
// Like a real gateway's page it pays only what the QR code names: the code URL's signed pay token
// must match the trade and its amount, and the confirmed amount must be the trade's own.
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sandboxTrades } from '../../../db/schema';
import { eq } from 'drizzle-orm';
import { yuan } from '../../../../src/domain/partner';
import { SANDBOX_PAGE_PATH, type SandboxGateway } from './sandbox';

const TRADE_NO = /^(PO|PB|RC)\d{20}$/;

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(reply: FastifyReply, status: number, title: string, body: string) {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(`<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · 沙箱支付</title>
<style>
body{margin:0;font-family:"Noto Sans CJK SC","PingFang SC","Microsoft YaHei",sans-serif;background:#f2f4f7;color:#1f2329}
.card{max-width:420px;margin:48px auto;background:#fff;border-radius:12px;padding:32px;box-shadow:0 2px 12px rgba(0,0,0,.06);text-align:center}
.tag{display:inline-block;font-size:12px;color:#b26a00;background:#fff4e0;border-radius:4px;padding:2px 8px}
.amount{font-size:40px;font-weight:600;margin:20px 0 4px}.muted{color:#646a73;font-size:14px;word-break:break-all}
button{margin-top:28px;width:100%;height:48px;border:0;border-radius:8px;background:#07c160;color:#fff;font-size:17px;cursor:pointer}
.ok{color:#07c160;font-size:22px;font-weight:600;margin-top:16px}.bad{color:#d93026;font-size:20px;font-weight:600;margin-top:16px}
</style></head><body><main class="card"><span class="tag">沙箱环境 · 不会产生真实扣款</span>${body}</main></body></html>`);
}

/** The confirm form's fields: the QR code's token and the amount shown, in fen. */
const ConfirmForm = Type.Object({ token: Type.Optional(Type.String({ maxLength: 64 })), amount_fen: Type.Optional(Type.String({ maxLength: 12 })) });
const PageQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 64 })) });
const TradeParams = Type.Object({ tradeNo: Type.String({ maxLength: 32 }) });

const sandboxPageRoutes: FastifyPluginAsyncTypebox<{ gateway: SandboxGateway }> = async (app, { gateway }) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => {
    const form = new URLSearchParams(String(body));
    done(null, { token: form.get('token') ?? undefined, amount_fen: form.get('amount_fen') ?? undefined });
  });
  const trade = async (no: string) => (TRADE_NO.test(no) ? (await app.db.select().from(sandboxTrades).where(eq(sandboxTrades.outTradeNo, no)))[0] : undefined);
  // Without the QR code's token the page tells nothing, not even whether the trade exists.
  const invalidLink = (reply: FastifyReply) => page(reply, 403, '付款码无效', '<p class="bad">付款码无效</p><p class="muted">请回到学助，重新打开订单的付款码</p>');

  app.get(`${SANDBOX_PAGE_PATH}/:tradeNo`, { schema: { params: TradeParams, querystring: PageQuery } }, async (request, reply) => {
    const { tradeNo } = request.params;
    const t = await trade(tradeNo);
    if (!t || !gateway.tokenMatches(tradeNo, t.amountFen, request.query.token)) return invalidLink(reply);
    const state = await gateway.queryPayment(app.db, tradeNo);
    const head = `<div class="amount">¥${yuan(t.amountFen)}</div><p class="muted">${escape(t.subject)}</p>`;
    if (state.state === 'SUCCESS') return page(reply, 200, '已支付', `${head}<p class="ok">该笔交易已支付</p>`);
    if (state.state === 'CLOSED') return page(reply, 200, '交易已关闭', `${head}<p class="bad">交易已关闭，请回到订单重新下单</p>`);
    const fields = `<input type="hidden" name="token" value="${escape(String(request.query.token))}"><input type="hidden" name="amount_fen" value="${t.amountFen}">`;
    return page(reply, 200, '确认支付', `${head}<form method="post" action="${SANDBOX_PAGE_PATH}/${tradeNo}/confirm">${fields}<button type="submit">确认支付</button></form>`);
  });

  app.post(`${SANDBOX_PAGE_PATH}/:tradeNo/confirm`, { schema: { params: TradeParams, body: ConfirmForm } }, async (request, reply) => {
    const { tradeNo } = request.params;
    const form = request.body;
    const t = await trade(tradeNo);
    if (!t || !gateway.tokenMatches(tradeNo, t.amountFen, form.token)) return invalidLink(reply);
    const head = `<div class="amount">¥${yuan(t.amountFen)}</div><p class="muted">${escape(t.subject)}</p>`;
    if (form.amount_fen !== String(t.amountFen)) return page(reply, 400, '金额不符', `${head}<p class="bad">支付金额与订单金额不一致，未扣款</p>`);
    const outcome = await gateway.pay(app.db, tradeNo);
    if (outcome === 'paid' || outcome === 'already') return page(reply, 200, '支付成功', `${head}<p class="ok">支付成功</p><p class="muted">请回到学助查看订单状态</p>`);
    return page(reply, 409, '交易已关闭', `${head}<p class="bad">交易已关闭，未扣款</p>`);
  });
};

export default sandboxPageRoutes;
