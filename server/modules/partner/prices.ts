// Pack prices along a partner chain (docs/api-partner-children.md). Each partner buys a pack at its
// own price: the one its parent set for it (partner_pack_prices), else its level's price. It never
// pays less than its seller does (a parent that raised its own price lifts its children's defaults
// with it), so a seller's margin on a child is never negative. The platform's ceiling is the pack's
// 建议零售价: no parent sets a child's price above it.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { ancestorIds } from '../../../src/domain/partner';

export interface PackPrice {
  packId: number;
  name: string;
  sheets: number;
  listPriceFen: number;
  /** The partner's price (what it pays). */
  priceFen: number;
  /** What its seller pays for the pack (its parent's price); null when the platform sells. */
  costFen: number | null;
  /** The price its parent set for it; null: the level's price. */
  setFen: number | null;
  /** The level's price, used when none is set. */
  levelFen: number;
}

const LEVEL_COLUMN = ['price_l1_fen', 'price_l2_fen', 'price_l3_fen'] as const;

/** Every pack at the prices of each partner of the chain down to `partner`, in sale order. */
export async function priceBook(db: Db, partner: { id: number; ancestors: string }): Promise<PackPrice[]> {
  const chain = [...ancestorIds(partner.ancestors), partner.id].slice(-3);
  const packs = await rows<{ id: number; name: string; sheets: number; listPriceFen: number; l1: number; l2: number; l3: number }>(db, sql`
    SELECT id, name, sheets, list_price_fen AS "listPriceFen", ${sql.raw(LEVEL_COLUMN[0])} AS l1, ${sql.raw(LEVEL_COLUMN[1])} AS l2, ${sql.raw(LEVEL_COLUMN[2])} AS l3
      FROM paper_packs ORDER BY sort, id`);
  const set = await rows<{ partnerId: number; packId: number; priceFen: number }>(db, sql`
    SELECT partner_id AS "partnerId", pack_id AS "packId", price_fen AS "priceFen" FROM partner_pack_prices
     WHERE partner_id IN (${sql.join(chain.map((id) => sql`${id}`), sql`, `)})`);
  return packs.map((pack) => {
    let price = 0;
    let cost: number | null = null;
    let own: number | null = null;
    let level = pack.l1;
    chain.forEach((id, i) => {
      level = [pack.l1, pack.l2, pack.l3][i];
      own = set.find((s) => s.partnerId === id && s.packId === pack.id)?.priceFen ?? null;
      cost = i === 0 ? null : price;
      price = Math.max(own ?? level, price);
    });
    return { packId: pack.id, name: pack.name, sheets: pack.sheets, listPriceFen: pack.listPriceFen, priceFen: price, costFen: cost, setFen: own, levelFen: level };
  });
}
