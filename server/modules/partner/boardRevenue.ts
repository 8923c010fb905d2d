// 数据看板's money: what the subtree's partners bought (paper orders paid, less refunds completed)
// and what they earned on the channel (ledger entries: margins less reversals), in the range and
// per bucket, and apart from it the partner's own part (its own purchases, its own margin): the
// own margin is the figure 渠道结算 shows for the same days, the subtree's adds every level's.
// Orders and entries are few (a partner orders paper a few times a month), so they are read
// directly by their timestamps. Definitions: docs/api-partner-boards.md.
import { sql } from 'drizzle-orm';
import type { BoardRange, BoardRevenue } from '../../../src/domain/boardRange';
import { OrderStatus, RefundStatus } from '../../../src/domain/orders';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { bucketOf, chinaDayOf, fill, inRangeAt } from './boardQuery';
import { inSubtree, type PartnerScope } from './scope';

export async function revenue(db: Db, scope: PartnerScope, range: BoardRange): Promise<BoardRevenue> {
  const self = scope.partnerId;
  const found = await rows<{ b: string; own: boolean; bought: unknown; refunded: unknown; margin: unknown }>(db, sql`
    SELECT b, own, sum(bought)::bigint AS bought, sum(refunded)::bigint AS refunded, sum(margin)::bigint AS margin FROM (
      SELECT ${bucketOf(range.bucket, chinaDayOf(sql`o.paid_at`))} AS b, o.buyer_id = ${self} AS own, o.amount_fen AS bought, 0 AS refunded, 0 AS margin
        FROM partner_orders o
       WHERE ${inSubtree(scope, sql`o.buyer_id`)} AND o.status = ${OrderStatus.paid} AND ${inRangeAt(range, sql`o.paid_at`)}
      UNION ALL
      SELECT ${bucketOf(range.bucket, chinaDayOf(sql`r.refunded_at`))}, o.buyer_id = ${self}, 0, r.amount_fen, 0
        FROM order_refunds r JOIN partner_orders o ON o.id = r.order_id
       WHERE ${inSubtree(scope, sql`o.buyer_id`)} AND o.status = ${OrderStatus.paid} AND r.status = ${RefundStatus.refunded} AND ${inRangeAt(range, sql`r.refunded_at`)}
      UNION ALL
      SELECT ${bucketOf(range.bucket, chinaDayOf(sql`e.occurred_at`))}, e.partner_id = ${self}, 0, 0, e.amount_fen
        FROM settlement_entries e
       WHERE ${inSubtree(scope, sql`e.partner_id`)} AND ${inRangeAt(range, sql`e.occurred_at`)}
    ) x GROUP BY b, own`);
  const n = (v: unknown) => Number(v ?? 0);
  const sum = (key: 'bought' | 'refunded' | 'margin', onlyOwn = false) => found.reduce((a, r) => a + (onlyOwn && !r.own ? 0 : n(r[key])), 0);
  const perBucket = (value: (r: (typeof found)[number]) => number) => {
    const by = new Map<string, number>();
    for (const r of found) by.set(r.b, (by.get(r.b) ?? 0) + value(r));
    return fill(range, by);
  };
  return {
    boughtFen: sum('bought'),
    refundedFen: sum('refunded'),
    marginFen: sum('margin'),
    own: { boughtFen: sum('bought', true), refundedFen: sum('refunded', true), marginFen: sum('margin', true) },
    net: perBucket((r) => n(r.bought) - n(r.refunded)),
    margin: perBucket((r) => n(r.margin)),
  };
}
