// The balance calls (docs/api-partner-balance.md): a partner's own balance (every level; levels 1
// and 2 earn margins), its withdrawals (levels 1 and 2), and the platform administrator's 提现审核.
// A partner reads and asks only for itself; only the platform decides; another partner's
// withdrawal number is "not found".
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { allow } from '../../auth/plugin';
import { isoTime, rows } from '../../db/query';
import { badRequest, ok } from '../../http/envelope';
import { PagingQuery, page, pageWindow } from '../../http/paging';
import { EnvelopeSchema, PageSchema } from '../../../src/domain/envelope';
import {
  ACCOUNT_NAME_MAX,
  ACCOUNT_NO_PATTERN,
  BalanceSchema,
  BANK_NAME_MAX,
  TRANSFER_REF_MAX,
  WITHDRAWAL_MAX_FEN,
  WITHDRAWAL_MIN_FEN,
  WITHDRAWAL_NO_PATTERN,
  WithdrawalRecordSchema,
  WithdrawalStatus,
  type WithdrawalRecord,
} from '../../../src/domain/balance';
import { REASON_MAX_LENGTH } from '../../../src/domain/orders';
import { yuan } from '../../../src/domain/partner';
import { recordAudit } from '../audit/record';
import { anyPartner, channelPartner } from './scope';
import { balanceOf, decideWithdrawal, requestWithdrawal } from './balance';

const platformOnly = allow({ roles: ['admin'] });
const BASE = '/api/wrongbook/v1.0/partner';
const ADMIN = '/api/wrongbook/v1.0/platform/withdrawals';

const WithdrawalNo = Type.String({ pattern: WITHDRAWAL_NO_PATTERN.source, maxLength: 22 });
const StatusFilter = Type.Optional(Type.Union([Type.Literal(WithdrawalStatus.pending), Type.Literal(WithdrawalStatus.paid), Type.Literal(WithdrawalStatus.rejected)]));

/** The last four digits: enough for the partner to know which card, nothing more on a screen. */
const masked = (accountNo: string) => `**** ${accountNo.slice(-4)}`;

const selectWithdrawals = sql`
  SELECT w.withdrawal_no AS id, w.withdrawal_no AS "withdrawalNo", w.partner_id AS "partnerId", p.name AS "partnerName",
         (length(p.ancestors) - length(replace(p.ancestors, ',', '')) + 1) AS "partnerLevel",
         w.amount_fen AS "amountFen", w.bank_name AS "bankName", w.account_name AS "accountName", w.account_no AS "accountNo",
         w.status, w.transfer_ref AS "transferRef", w.reject_reason AS "rejectReason",
         ${isoTime(sql`w.created_at`)} AS "createdAt", ${isoTime(sql`w.decided_at`)} AS "decidedAt"
    FROM partner_withdrawals w JOIN partners p ON p.id = w.partner_id`;

const balanceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get(`${BASE}/getPartnerBalance`, { preHandler: anyPartner, schema: { response: { 200: EnvelopeSchema(BalanceSchema) } } }, async (request) =>
    ok(await balanceOf(db, request.principal.partnerId!)),
  );

  app.get(
    `${BASE}/withdrawals`,
    { preHandler: channelPartner, schema: { querystring: Type.Object({ ...PagingQuery, status: StatusFilter }), response: { 200: EnvelopeSchema(PageSchema(WithdrawalRecordSchema)) } } },
    async (request) => {
      const partnerId = request.principal.partnerId!;
      const { current, size, offset } = pageWindow(request.query);
      const where = sql`w.partner_id = ${partnerId} ${request.query.status ? sql`AND w.status = ${request.query.status}` : sql``}`;
      const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM partner_withdrawals w WHERE ${where}`);
      const records = total > offset ? await rows<WithdrawalRecord>(db, sql`${selectWithdrawals} WHERE ${where} ORDER BY w.created_at DESC, w.id DESC LIMIT ${size} OFFSET ${offset}`) : [];
      return ok(page(records.map((r) => ({ ...r, accountNo: masked(r.accountNo) })), total, current, size));
    },
  );

  app.post(
    `${BASE}/addWithdrawal`,
    {
      preHandler: channelPartner,
      schema: {
        body: Type.Object({
          amountFen: Type.Integer({ minimum: WITHDRAWAL_MIN_FEN, maximum: WITHDRAWAL_MAX_FEN }),
          bankName: Type.String({ minLength: 1, maxLength: BANK_NAME_MAX }),
          accountName: Type.String({ minLength: 1, maxLength: ACCOUNT_NAME_MAX }),
          accountNo: Type.String({ minLength: 1, maxLength: 40 }),
        }),
      },
      config: { fieldLabels: { amountFen: '提现金额', bankName: '开户银行', accountName: '户名', accountNo: '银行账号' } },
    },
    async (request) => {
      const bankName = request.body.bankName.trim();
      const accountName = request.body.accountName.trim();
      const accountNo = request.body.accountNo.replace(/\s+/g, '');
      if (!bankName) throw badRequest('开户银行不能为空');
      if (!accountName) throw badRequest('户名不能为空');
      if (!ACCOUNT_NO_PATTERN.test(accountNo)) throw badRequest('银行账号应为 8 到 30 位数字');
      const { amountFen } = request.body;
      const w = await requestWithdrawal(db, request.principal.partnerId!, { amountFen, bankName, accountName, accountNo }, request.principal.userId, new Date(), (t, row) =>
        recordAudit(t, request, { action: 'create', kind: 'withdrawal', recordId: row.withdrawalNo, summary: `申请提现 ${row.withdrawalNo}（¥${yuan(amountFen)}，${bankName} ${masked(accountNo)}）` }),
      );
      return ok({ withdrawalNo: w.withdrawalNo, amountFen: w.amountFen, status: w.status }, '提现申请已提交，金额已冻结，待平台审核');
    },
  );

  app.get(
    ADMIN,
    { preHandler: platformOnly, schema: { querystring: Type.Object({ ...PagingQuery, status: StatusFilter }), response: { 200: EnvelopeSchema(PageSchema(WithdrawalRecordSchema)) } } },
    async (request) => {
      const { current, size, offset } = pageWindow(request.query);
      const where = request.query.status ? sql`w.status = ${request.query.status}` : sql`TRUE`;
      const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM partner_withdrawals w WHERE ${where}`);
      // Pending first (oldest first: first come, first paid), then the decided, newest first.
      const records = total > offset
        ? await rows<WithdrawalRecord>(db, sql`${selectWithdrawals} WHERE ${where}
            ORDER BY (w.status = ${WithdrawalStatus.pending}) DESC, CASE WHEN w.status = ${WithdrawalStatus.pending} THEN w.created_at END ASC, w.created_at DESC, w.id DESC
            LIMIT ${size} OFFSET ${offset}`)
        : [];
      return ok(page(records, total, current, size));
    },
  );

  app.post(
    `${ADMIN}/approve`,
    { preHandler: platformOnly, schema: { body: Type.Object({ withdrawalNo: WithdrawalNo, transferRef: Type.String({ minLength: 1, maxLength: TRANSFER_REF_MAX }) }) }, config: { fieldLabels: { transferRef: '转账流水号' } } },
    async (request) => {
      const transferRef = request.body.transferRef.trim();
      if (!/^[0-9A-Za-z-]{4,64}$/.test(transferRef)) throw badRequest('转账流水号应为 4 到 64 位字母、数字或短横线');
      const w = await decideWithdrawal(db, request.body.withdrawalNo, { approve: true, transferRef }, request.principal.userId, new Date(), (t, row) =>
        recordAudit(t, request, { action: 'approve', kind: 'withdrawal', recordId: row.withdrawalNo, summary: `提现 ${row.withdrawalNo} 审核通过，已打款 ¥${yuan(row.amountFen)}（转账流水号 ${transferRef}）` }),
      );
      return ok({ withdrawalNo: w.withdrawalNo, status: w.status }, '已审核通过，记为已打款');
    },
  );

  app.post(
    `${ADMIN}/reject`,
    { preHandler: platformOnly, schema: { body: Type.Object({ withdrawalNo: WithdrawalNo, reason: Type.String({ minLength: 1, maxLength: REASON_MAX_LENGTH }) }) }, config: { fieldLabels: { reason: '驳回原因' } } },
    async (request) => {
      const reason = request.body.reason.trim();
      if (!reason) throw badRequest('驳回原因不能为空');
      const w = await decideWithdrawal(db, request.body.withdrawalNo, { approve: false, reason }, request.principal.userId, new Date(), (t, row) =>
        recordAudit(t, request, { action: 'reject', kind: 'withdrawal', recordId: row.withdrawalNo, summary: `驳回提现 ${row.withdrawalNo}（¥${yuan(row.amountFen)}）：${reason}` }),
      );
      return ok({ withdrawalNo: w.withdrawalNo, status: w.status }, '已驳回，金额已解冻');
    },
  );
};

export default balanceRoutes;
