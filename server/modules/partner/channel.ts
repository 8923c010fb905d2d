// 渠道结算 (/channel-info, partner levels 1 and 2; docs/api-partner-settlement.md): the direct
// children with what they bought and sold in a period and the margin the caller earned on them,
// and the monthly statements the caller earns or pays, with their flow and xlsx exports. The
// platform (administrator) reads and settles level-1 partners' statements through the same calls.
import { sql, type SQL } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { allow } from '../../auth/plugin';
import type { Db } from '../../db';
import { isoTime, rows } from '../../db/query';
import { sendWorkbook } from '../../http/download';
import { badRequest, forbidden, ok } from '../../http/envelope';
import { PagingQuery, page, pageWindow } from '../../http/paging';
import { buildWorkbook, buildWorkbookSheets, cellYuan, YUAN_FORMAT } from '../../files/xlsx';
import { cellTime, chinaDayStart, exportFileName, fileStamp } from '../../../src/domain/format';
import { EntryKind, REASON_MAX_LENGTH, RefundStatus, STATEMENT_NO_PATTERN, STATEMENT_STATUSES, StatementRecordSchema, labelOf, type StatementRecord } from '../../../src/domain/orders';
import { EnvelopeSchema, PageSchema } from '../../../src/domain/envelope';
import { yuan } from '../../../src/domain/partner';
import { OrderFilter } from '../mercury/orderQueries';
import { validDay } from '../../../src/domain/boardRange';
import { confirmStatement, findStatement, reissueStatement, rejectStatement, settleStatement, type Party } from './statements';
import { recordAudit } from '../audit/record';
import { AUDIT_ACTIONS, type AuditAction } from '../../../src/domain/auditFields';

/** Level-1 and level-2 partners, and the platform's administrators for level-1 statements. */
/** An entry's order has a refund in progress (alias o: partner_orders). */
const REFUNDING = sql`(o.refund_status = ${RefundStatus.refunding})`;

const channelOrPlatform = allow({ roles: ['partner', 'admin'], levels: [1, 2] });
const channelOnly = allow({ roles: ['partner'], levels: [1, 2] });

const BASE = '/api/wrongbook/v1.0/partner/channel';
const DAY_MS = 24 * 3600 * 1000;
const StatementNo = Type.String({ pattern: STATEMENT_NO_PATTERN.source, maxLength: 22 });
const Period = Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$', maxLength: 7 });
const Side = Type.Union([Type.Literal('earned'), Type.Literal('payable')]);
const StatementFilter = {
  side: Type.Optional(Side),
  status: Type.Optional(Type.Union(STATEMENT_STATUSES.map((o) => Type.Literal(o.value)))),
  period: Type.Optional(Period),
};
type StatementQuery = { side?: 'earned' | 'payable'; status?: number; period?: string };

function partyOf(request: FastifyRequest): Party {
  if (request.principal.activeRole === 'admin') return { platform: true };
  if (!request.principal.partnerId) throw forbidden();
  return { partnerId: request.principal.partnerId };
}

/** Statements the party earns (side earned) or pays (side payable; the platform only pays). */
function statementWhere(party: Party, q: StatementQuery): SQL {
  const side = 'platform' in party ? 'payable' : (q.side ?? 'earned');
  const parts: SQL[] = [
    'platform' in party ? sql`s.payer_id IS NULL` : side === 'earned' ? sql`s.partner_id = ${party.partnerId}` : sql`s.payer_id = ${party.partnerId}`,
  ];
  if (q.status !== undefined) parts.push(sql`s.status = ${q.status}`);
  if (q.period) parts.push(sql`s.period = ${q.period}`);
  return sql.join(parts, sql` AND `);
}

const selectStatements = (party: Party) => sql`
  SELECT s.statement_no AS id, s.statement_no AS "statementNo", p.name AS "partnerName", COALESCE(q.name, '平台') AS "payerName", s.period,
         s.amount_fen AS "amountFen", s.entry_count AS "entryCount", s.status, s.reject_reason AS "rejectReason",
         ${isoTime(sql`s.created_at`)} AS "createdAt", ${isoTime(sql`s.confirmed_at`)} AS "confirmedAt", ${isoTime(sql`s.settled_at`)} AS "settledAt",
         (s.partner_id = ${'partnerId' in party ? party.partnerId : 0}) AS earned
    FROM settlement_statements s JOIN partners p ON p.id = s.partner_id LEFT JOIN partners q ON q.id = s.payer_id`;

interface ChildRow {
  partnerId: number;
  name: string;
  level: number;
  boughtFen: number;
  refundedFen: number;
  soldFen: number;
  marginFen: number;
}

/**
 * Per direct child in [from, to): its paid purchases, the refunds of its purchases, what its own
 * children bought from it, and the caller's margin on it (ledger entries of the child's orders,
 * refunds included as reversals).
 */
async function childrenSummary(db: Db, partnerId: number, from: Date, to: Date): Promise<ChildRow[]> {
  return rows<ChildRow>(db, sql`
    SELECT c.id AS "partnerId", c.name, (length(c.ancestors) - length(replace(c.ancestors, ',', '')) + 1) AS level,
      (SELECT COALESCE(sum(o.amount_fen), 0)::int FROM partner_orders o WHERE o.buyer_id = c.id AND o.status = 2 AND o.paid_at >= ${from} AND o.paid_at < ${to}) AS "boughtFen",
      (SELECT COALESCE(sum(r.amount_fen), 0)::int FROM order_refunds r JOIN partner_orders o ON o.id = r.order_id
         WHERE o.buyer_id = c.id AND o.status = 2 AND r.status = 2 AND r.refunded_at >= ${from} AND r.refunded_at < ${to}) AS "refundedFen",
      (SELECT COALESCE(sum(o.amount_fen), 0)::int FROM partner_orders o WHERE o.seller_id = c.id AND o.status = 2 AND o.paid_at >= ${from} AND o.paid_at < ${to}) AS "soldFen",
      (SELECT COALESCE(sum(e.amount_fen), 0)::int FROM settlement_entries e JOIN partner_orders o ON o.id = e.order_id
         WHERE e.partner_id = ${partnerId} AND o.buyer_id = c.id AND e.occurred_at >= ${from} AND e.occurred_at < ${to}) AS "marginFen"
      FROM partners c WHERE c.parent_id = ${partnerId} ORDER BY c.id`);
}

/**
 * Where the caller's margin of the period's days stands (entries by the day they were booked, so
 * the four add up to the period's 渠道收入): on a statement already; waiting on a refund the buyer
 * asked for (退款中: it may be reversed, so it is not settled yet); in its freeze; or due on the next
 * statement (待出账).
 */
export function ledgerOfPeriod(db: Db, partnerId: number, from: Date, to: Date) {
  return rows<{ frozenFen: number; refundingFen: number; settleableFen: number; onStatementFen: number }>(db, sql`
    SELECT COALESCE(sum(e.amount_fen) FILTER (WHERE e.statement_id IS NULL AND NOT ${REFUNDING} AND e.settleable_at > now()), 0)::int AS "frozenFen",
           COALESCE(sum(e.amount_fen) FILTER (WHERE e.statement_id IS NULL AND ${REFUNDING}), 0)::int AS "refundingFen",
           COALESCE(sum(e.amount_fen) FILTER (WHERE e.statement_id IS NULL AND NOT ${REFUNDING} AND e.settleable_at <= now()), 0)::int AS "settleableFen",
           COALESCE(sum(e.amount_fen) FILTER (WHERE e.statement_id IS NOT NULL), 0)::int AS "onStatementFen"
      FROM settlement_entries e JOIN partner_orders o ON o.id = e.order_id
     WHERE e.partner_id = ${partnerId} AND e.occurred_at >= ${from} AND e.occurred_at < ${to}`);
}

/** The period's China days, both included; by default the last 90 days, today included (the screen's 近90天). */
function periodRange(q: { dateFrom?: string; dateTo?: string }): { from: Date; to: Date } {
  for (const day of [q.dateFrom, q.dateTo]) if (day !== undefined && !validDay(day)) throw badRequest(`日期 ${day} 不存在`);
  const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
  const to = new Date(chinaDayStart(q.dateTo ?? today).getTime() + DAY_MS);
  const from = q.dateFrom ? chinaDayStart(q.dateFrom) : new Date(to.getTime() - 90 * DAY_MS);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) throw badRequest('日期格式不正确');
  if (from >= to) throw badRequest('开始日期不能晚于结束日期');
  return { from, to };
}


const channelRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;
  const Range = Type.Object({ dateFrom: OrderFilter.dateFrom, dateTo: OrderFilter.dateTo });

  app.get(`${BASE}/children`, { preHandler: channelOnly, schema: { querystring: Range } }, async (request) => {
    const { from, to } = periodRange(request.query);
    const partnerId = request.principal.partnerId!;
    const children = await childrenSummary(db, partnerId, from, to);
    const [ledger] = await ledgerOfPeriod(db, partnerId, from, to);
    const total = (key: keyof ChildRow) => children.reduce((s, c) => s + (c[key] as number), 0);
    return ok({
      children,
      totals: { boughtFen: total('boughtFen'), refundedFen: total('refundedFen'), soldFen: total('soldFen'), marginFen: total('marginFen') },
      ledger,
    });
  });

  app.get(`${BASE}/exportChildren`, { preHandler: channelOnly, schema: { querystring: Range } }, async (request, reply) => {
    const { from, to } = periodRange(request.query);
    const children = await childrenSummary(db, request.principal.partnerId!, from, to);
    const bytes = await buildWorkbook(
      '下级渠道',
      [
        { header: '渠道名称', width: 30 },
        { header: '级别', width: 8 },
        { header: '进货额（元）', numFmt: YUAN_FORMAT },
        { header: '退款额（元）', numFmt: YUAN_FORMAT },
        { header: '其下级进货额（元）', width: 20, numFmt: YUAN_FORMAT },
        { header: '我的渠道收入（元）', width: 20, numFmt: YUAN_FORMAT },
      ],
      children.map((c) => [c.name, `${c.level}级`, cellYuan(c.boughtFen), cellYuan(c.refundedFen), cellYuan(c.soldFen), cellYuan(c.marginFen)]),
    );
    return sendWorkbook(reply, bytes, exportFileName('下级渠道', fileStamp(), 'xlsx'));
  });

  app.get(
    `${BASE}/statements`,
    { preHandler: channelOrPlatform, schema: { querystring: Type.Object({ ...PagingQuery, ...StatementFilter }), response: { 200: EnvelopeSchema(PageSchema(StatementRecordSchema)) } } },
    async (request) => {
      const q = request.query;
      const party = partyOf(request);
      const { current, size, offset } = pageWindow(q);
      const where = statementWhere(party, q);
      const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM settlement_statements s WHERE ${where}`);
      const records = total > offset ? await rows<StatementRecord>(db, sql`${selectStatements(party)} WHERE ${where} ORDER BY s.period DESC, s.id DESC LIMIT ${size} OFFSET ${offset}`) : [];
      return ok(page(records, total, current, size));
    },
  );

  app.get(`${BASE}/exportStatements`, { preHandler: channelOrPlatform, schema: { querystring: Type.Object(StatementFilter) } }, async (request, reply) => {
    const party = partyOf(request);
    const list = await rows<StatementRecord>(db, sql`${selectStatements(party)} WHERE ${statementWhere(party, request.query)} ORDER BY s.period DESC, s.id DESC`);
    // The second sheet: every line of those statements (order, pack, quantity, both prices, margin),
    // so an accountant can check each statement's amount against its lines.
    const lines = await rows<{ statementNo: string; orderNo: string; buyerName: string; kind: number; refundNo: string | null; name: string; quantity: number; unitPriceFen: number; unitCostFen: number | null; marginFen: number; occurredAt: string }>(db, sql`
      SELECT s.statement_no AS "statementNo", o.order_no AS "orderNo", b.name AS "buyerName", e.kind, r.refund_no AS "refundNo",
             i.name, i.quantity, i.unit_price_fen AS "unitPriceFen", i.unit_cost_fen AS "unitCostFen",
             (CASE WHEN e.kind = ${EntryKind.reversal} THEN -1 ELSE 1 END) * (i.unit_price_fen - COALESCE(i.unit_cost_fen, i.unit_price_fen)) * i.quantity AS "marginFen",
             ${isoTime(sql`e.occurred_at`)} AS "occurredAt"
        FROM settlement_statements s JOIN settlement_entries e ON e.statement_id = s.id JOIN partner_orders o ON o.id = e.order_id
        JOIN partners b ON b.id = o.buyer_id JOIN partner_order_items i ON i.order_id = o.id LEFT JOIN order_refunds r ON r.id = e.refund_id
       WHERE ${statementWhere(party, request.query)}
       ORDER BY s.period DESC, s.id DESC, e.occurred_at, e.id, i.id`);
    const bytes = await buildWorkbookSheets([
      {
        name: '结算单',
        headers: [
          { header: '结算单号', width: 26 },
          { header: '结算月份', width: 10 },
          { header: '收款方', width: 28 },
          { header: '付款方', width: 28 },
          { header: '金额（元）', width: 12, numFmt: YUAN_FORMAT },
          { header: '明细条数', width: 10, numFmt: '0' },
          { header: '状态', width: 10 },
          { header: '驳回原因', width: 30 },
          { header: '生成时间', width: 20 },
          { header: '结算时间', width: 20 },
        ],
        data: list.map((s) => [s.statementNo, s.period, s.partnerName, s.payerName, cellYuan(s.amountFen), s.entryCount, labelOf(STATEMENT_STATUSES, s.status), s.rejectReason ?? '', cellTime(s.createdAt), cellTime(s.settledAt)]),
      },
      {
        name: '明细',
        headers: [
          { header: '结算单号', width: 26 },
          { header: '订单号', width: 26 },
          { header: '下单方', width: 28 },
          { header: '类型', width: 10 },
          { header: '退款单号', width: 26 },
          { header: '纸张规格', width: 24 },
          { header: '数量', width: 8, numFmt: '0' },
          { header: '进货单价（元）', width: 14, numFmt: YUAN_FORMAT },
          { header: '成本单价（元）', width: 14, numFmt: YUAN_FORMAT },
          { header: '差价（元）', width: 12, numFmt: YUAN_FORMAT },
          { header: '发生时间', width: 20 },
        ],
        data: lines.map((l) => [
          l.statementNo,
          l.orderNo,
          l.buyerName,
          l.kind === EntryKind.margin ? '进货差价' : '退款冲减',
          l.refundNo ?? '',
          l.name,
          l.quantity,
          cellYuan(l.unitPriceFen),
          cellYuan(l.unitCostFen),
          cellYuan(l.marginFen),
          cellTime(l.occurredAt),
        ]),
      },
    ]);
    return sendWorkbook(reply, bytes, exportFileName('结算单', fileStamp(), 'xlsx'));
  });

  const ByNo = Type.Object({ statementNo: StatementNo });

  app.get(`${BASE}/statementDetail`, { preHandler: channelOrPlatform, schema: { querystring: ByNo } }, async (request) => {
    const party = partyOf(request);
    const statement = await findStatement(db, party, request.query.statementNo);
    const [record] = await rows<StatementRecord>(db, sql`${selectStatements(party)} WHERE s.id = ${statement.id}`);
    const entries = await rows<{ id: number }>(db, sql`
      SELECT e.id, o.order_no AS "orderNo", b.name AS "buyerName", e.kind, e.amount_fen AS "amountFen", r.refund_no AS "refundNo",
             ${isoTime(sql`e.occurred_at`)} AS "occurredAt"
        FROM settlement_entries e JOIN partner_orders o ON o.id = e.order_id JOIN partners b ON b.id = o.buyer_id
        LEFT JOIN order_refunds r ON r.id = e.refund_id
       WHERE e.statement_id = ${statement.id} ORDER BY e.occurred_at, e.id`);
    // Each entry's packs with both prices: the buyer's unit price and the seller's unit cost; a
    // line's margin is (price − cost) × quantity, negative on a reversal, so the lines of an entry
    // add up to the entry and the entries to the statement.
    const lines = await rows<{ entryId: number; name: string; sheets: number; quantity: number; unitPriceFen: number; unitCostFen: number | null; marginFen: number }>(db, sql`
      SELECT e.id AS "entryId", i.name, i.sheets, i.quantity, i.unit_price_fen AS "unitPriceFen", i.unit_cost_fen AS "unitCostFen",
             (CASE WHEN e.kind = ${EntryKind.reversal} THEN -1 ELSE 1 END) * (i.unit_price_fen - COALESCE(i.unit_cost_fen, i.unit_price_fen)) * i.quantity AS "marginFen"
        FROM settlement_entries e JOIN partner_order_items i ON i.order_id = e.order_id
       WHERE e.statement_id = ${statement.id} ORDER BY e.occurred_at, e.id, i.id`);
    // The statement's history: built by the system, then every confirmation, rejection (with its
    // reason), settlement and reissue from the 操作日志, with who and when. A statement moved
    // without the API (the demo's seeded months) has no log: its own timestamps tell the steps.
    const logged = await rows<{ at: string; action: string; userName: string; summary: string }>(db, sql`
      SELECT ${isoTime(sql`a.created_at`)} AS at, a.action, a.user_name AS "userName", a.summary
        FROM audit_logs a WHERE a.kind = 'statement' AND a.record_id = ${statement.statementNo} ORDER BY a.created_at, a.id`);
    const iso = (at: Date | null) => (at ? new Date(at).toISOString() : null);
    const fromColumns = [
      { at: iso(statement.confirmedAt), action: 'confirm', userName: record.partnerName, summary: '收款方确认' },
      { at: iso(statement.rejectedAt), action: 'reject', userName: record.partnerName, summary: `收款方驳回：${statement.rejectReason ?? ''}` },
      { at: iso(statement.settledAt), action: 'settle', userName: record.payerName, summary: '付款方标记已结算' },
    ].filter((step): step is { at: string; action: string; userName: string; summary: string } => step.at !== null);
    const history = [
      { at: record.createdAt, action: 'build', userName: '系统', summary: `生成${statement.period}结算单` },
      ...(logged.length ? logged : fromColumns.sort((a, b) => a.at.localeCompare(b.at))),
    ];
    return ok({
      ...record,
      entries: entries.map((e) => ({ ...e, lines: lines.filter((l) => l.entryId === e.id).map(({ entryId: _, ...l }) => l) })),
      history,
      kinds: { margin: EntryKind.margin, reversal: EntryKind.reversal },
    });
  });

  // A statement's move and its 操作日志 entry are one transaction.
  const answer = async (request: FastifyRequest, statementNo: string, action: AuditAction, work: (tx: Db, party: Party, no: string) => Promise<unknown>, msg: string, note = '') => {
    const party = partyOf(request);
    await db.transaction(async (tx) => {
      await work(tx, party, statementNo);
      const [s] = await rows<{ partnerName: string; period: string; amountFen: number }>(tx, sql`
        SELECT p.name AS "partnerName", s.period, s.amount_fen AS "amountFen" FROM settlement_statements s JOIN partners p ON p.id = s.partner_id WHERE s.statement_no = ${statementNo}`);
      await recordAudit(tx, request, { action, kind: 'statement', recordId: statementNo, summary: `${AUDIT_ACTIONS[action]}结算单 ${statementNo}（${s.partnerName}，${s.period}，¥${yuan(s.amountFen)}）${note}` });
    });
    const [record] = await rows<StatementRecord>(db, sql`${selectStatements(party)} WHERE s.statement_no = ${statementNo}`);
    return ok(record, msg);
  };
  app.post(`${BASE}/confirmStatement`, { preHandler: channelOnly, schema: { body: ByNo } }, (request) =>
    answer(request, request.body.statementNo, 'confirm', (tx, party, no) => confirmStatement(tx, party, no), '已确认结算单'),
  );
  app.post(
    `${BASE}/rejectStatement`,
    { preHandler: channelOnly, schema: { body: Type.Object({ statementNo: StatementNo, reason: Type.String({ minLength: 1, maxLength: REASON_MAX_LENGTH }) }) }, config: { fieldLabels: { reason: '驳回原因' } } },
    (request) => {
      const reason = request.body.reason.trim();
      if (!reason) throw badRequest('驳回原因不能为空');
      return answer(request, request.body.statementNo, 'reject', (tx, party, no) => rejectStatement(tx, party, no, reason), '已驳回结算单', `：${reason}`);
    },
  );
  app.post(`${BASE}/settleStatement`, { preHandler: channelOrPlatform, schema: { body: ByNo } }, (request) =>
    answer(request, request.body.statementNo, 'settle', (tx, party, no) => settleStatement(tx, party, no), '已标记结算'),
  );
  app.post(`${BASE}/reissueStatement`, { preHandler: channelOrPlatform, schema: { body: ByNo } }, (request) =>
    answer(request, request.body.statementNo, 'reissue', (tx, party, no) => reissueStatement(tx, party, no), '已重新提交结算单'),
  );
};

export default channelRoutes;
