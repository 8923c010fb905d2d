// 数据看板's money: what the subtree's partners bought (paper orders paid, less refunds completed)
// and what they earned on the channel (ledger entries: margins less reversals), in the range and
// per bucket. Orders and entries are few (a partner orders paper a few times a month), so they are
// read directly by their timestamps. Definitions: docs/api-partner-boards.md.
import { sql } from 'drizzle-orm';
import type { BoardRange, BoardRevenue } from '../../../src/domain/boardRange';
import { OrderStatus, RefundStatus } from '../../../src/domain/orders';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { bucketOf, chinaDayOf, fill, inRangeAt } from './boardQuery';
import { inSubtree, type PartnerScope } from './scope';

export async function revenue(db: Db, scope: PartnerScope, range: BoardRange): Promise<BoardRevenue> {
  const found = await rows<{ b: string; bought: unknown; refunded: unknown; margin: unknown }>(db, sql`
    SELECT b, sum(bought)::bigint AS bought, sum(refunded)::bigint AS refunded, sum(margin)::bigint AS margin FROM (
      SELECT ${bucketOf(range.bucket, chinaDayOf(sql`o.paid_at`))} AS b, o.amount_fen AS bought, 0 AS refunded, 0 AS margin
        FROM partner_orders o
       WHERE ${inSubtree(scope, sql`o.buyer_id`)} AND o.status = ${OrderStatus.paid} AND ${inRangeAt(range, sql`o.paid_at`)}
      UNION ALL
      SELECT ${bucketOf(range.bucket, chinaDayOf(sql`r.refunded_at`))}, 0, r.amount_fen, 0
        FROM order_refunds r JOIN partner_orders o ON o.id = r.order_id
       WHERE ${inSubtree(scope, sql`o.buyer_id`)} AND o.status = ${OrderStatus.paid} AND r.status = ${RefundStatus.refunded} AND ${inRangeAt(range, sql`r.refunded_at`)}
      UNION ALL
      SELECT ${bucketOf(range.bucket, chinaDayOf(sql`e.occurred_at`))}, 0, 0, e.amount_fen
        FROM settlement_entries e
       WHERE ${inSubtree(scope, sql`e.partner_id`)} AND ${inRangeAt(range, sql`e.occurred_at`)}
    ) x GROUP BY b`);
  const n = (v: unknown) => Number(v ?? 0);
  const sum = (key: 'bought' | 'refunded' | 'margin') => found.reduce((a, r) => a + n(r[key]), 0);
  return {
    boughtFen: sum('bought'),
    refundedFen: sum('refunded'),
    marginFen: sum('margin'),
    net: fill(range, new Map(found.map((r) => [r.b, n(r.bought) - n(r.refunded)]))),
    margin: fill(range, new Map(found.map((r) => [r.b, n(r.margin)]))),
  };
}
