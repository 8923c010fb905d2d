// The sandbox gateway's page, which the code URL opens (on a phone, or a browser here): the
// amount, and a 确认支付 button that pays the trade on the gateway side, which then sends our
// notify endpoint its signed notice. Plain HTML and a form: no script, under our CSP.
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sandboxTrades } from '../../../db/schema';
import { eq } from 'drizzle-orm';
import { yuan } from '../../../../src/domain/partner';
import { SANDBOX_PAGE_PATH, type SandboxGateway } from './sandbox';

const TRADE_NO = /^(PO|RC)\d{20}$/;

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

const sandboxPageRoutes: FastifyPluginAsyncTypebox<{ gateway: SandboxGateway }> = async (app, { gateway }) => {
  // The page's form posts an empty urlencoded body; this plugin's routes do not read it.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, _body, done) => done(null, null));
  const trade = async (no: string) => (TRADE_NO.test(no) ? (await app.db.select().from(sandboxTrades).where(eq(sandboxTrades.outTradeNo, no)))[0] : undefined);

  app.get<{ Params: { tradeNo: string } }>(`${SANDBOX_PAGE_PATH}/:tradeNo`, async (request, reply) => {
    const { tradeNo } = request.params;
    const t = await trade(tradeNo);
    if (!t) return page(reply, 404, '交易不存在', '<p class="bad">交易不存在</p>');
    const state = await gateway.queryPayment(app.db, tradeNo);
    const head = `<div class="amount">¥${yuan(t.amountFen)}</div><p class="muted">${escape(t.subject)}</p>`;
    if (state.state === 'SUCCESS') return page(reply, 200, '已支付', `${head}<p class="ok">该笔交易已支付</p>`);
    if (state.state === 'CLOSED') return page(reply, 200, '交易已关闭', `${head}<p class="bad">交易已关闭，请回到订单重新下单</p>`);
    return page(reply, 200, '确认支付', `${head}<form method="post" action="${SANDBOX_PAGE_PATH}/${tradeNo}/confirm"><button type="submit">确认支付</button></form>`);
  });

  app.post<{ Params: { tradeNo: string } }>(`${SANDBOX_PAGE_PATH}/:tradeNo/confirm`, async (request, reply) => {
    const { tradeNo } = request.params;
    const t = await trade(tradeNo);
    if (!t) return page(reply, 404, '交易不存在', '<p class="bad">交易不存在</p>');
    const outcome = await gateway.pay(app.db, tradeNo);
    const head = `<div class="amount">¥${yuan(t.amountFen)}</div><p class="muted">${escape(t.subject)}</p>`;
    if (outcome === 'paid' || outcome === 'already') return page(reply, 200, '支付成功', `${head}<p class="ok">支付成功</p><p class="muted">请回到学助查看订单状态</p>`);
    return page(reply, 409, '交易已关闭', `${head}<p class="bad">交易已关闭，未扣款</p>`);
  });
};

export default sandboxPageRoutes;
