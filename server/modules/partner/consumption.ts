// 纸张消耗 (GET /api/wrongbook/v1.0/partner/devices/consumption, levels 1–3): pages the subtree's
// terminals printed against the paper the subtree bought, the days of paper left in each school
// at the last CONSUMPTION_DAYS days' pace, and a 补货建议: the packs that would carry the schools
// running low through REORDER_COVER_DAYS. Read only; orders are read, never written, here.
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rows } from '../../db/query';
import { ok } from '../../http/envelope';
import { CONSUMPTION_DAYS, REORDER_BELOW_DAYS, REORDER_COVER_DAYS } from '../../../src/domain/alarms';
import { ORDER_MAX_QUANTITY, OrderStatus, RefundStatus } from '../../../src/domain/orders';
import type { Consumption, ReorderItem } from '../../../src/domain/consumption';
import { anyPartner, inSubtree, scopeOf } from './scope';

/** Packs that cover `sheets`: the largest first, then one of the smallest for the rest. */
export function packsFor(sheets: number, packs: { packId: number; name: string; sheets: number }[]): ReorderItem[] {
  if (sheets <= 0 || !packs.length) return [];
  const bySize = [...packs].sort((a, b) => b.sheets - a.sheets);
  const items = new Map<number, ReorderItem>();
  let rest = sheets;
  for (const p of bySize) {
    const n = Math.min(ORDER_MAX_QUANTITY, Math.floor(rest / p.sheets));
    if (n > 0) {
      items.set(p.packId, { packId: p.packId, name: p.name, sheets: p.sheets, quantity: n });
      rest -= n * p.sheets;
    }
  }
  if (rest > 0) {
    const smallest = bySize[bySize.length - 1];
    const item = items.get(smallest.packId) ?? { packId: smallest.packId, name: smallest.name, sheets: smallest.sheets, quantity: 0 };
    item.quantity = Math.min(ORDER_MAX_QUANTITY, item.quantity + 1);
    items.set(smallest.packId, item);
  }
  return [...items.values()];
}

const consumptionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;
  app.get('/api/wrongbook/v1.0/partner/devices/consumption', { preHandler: anyPartner }, async (request) => {
    const scope = await scopeOf(request);
    const mine = inSubtree(scope, sql`d.partner_id`);
    // The last CONSUMPTION_DAYS whole China days, today (still going) left out.
    const today = sql`(now() AT TIME ZONE 'Asia/Shanghai')::date`;
    const terminals = await rows<Consumption['terminals'][number]>(
      db,
      sql`SELECT d.id AS "deviceId", d.serial, d.school_id AS "schoolId", s.name AS "schoolName", d.paper_left AS "paperLeft",
                 coalesce((SELECT sum(dd.pages) FROM device_daily dd WHERE dd.device_id = d.id AND dd.day >= ${today} - ${CONSUMPTION_DAYS}::int AND dd.day < ${today}), 0)::int AS "recentPages",
                 coalesce((SELECT sum(dd.pages) FROM device_daily dd WHERE dd.device_id = d.id), 0)::int AS "totalPages"
            FROM devices d JOIN schools s ON s.id = d.school_id
           WHERE ${mine} ORDER BY s.name, d.serial`,
    );
    const perDay = (pages: number) => Math.round((pages / CONSUMPTION_DAYS) * 10) / 10;
    const daysLeft = (paper: number, pages: number) => (pages > 0 ? Math.floor(paper / (pages / CONSUMPTION_DAYS)) : null);
    const bySchool = new Map<number, Consumption['schools'][number]>();
    for (const t of terminals) {
      const s = bySchool.get(t.schoolId) ?? { schoolId: t.schoolId, schoolName: t.schoolName, terminals: 0, paperLeft: 0, recentPages: 0, pagesPerDay: 0, daysLeft: null, needSheets: 0 };
      s.terminals += 1;
      s.paperLeft += t.paperLeft;
      s.recentPages += t.recentPages;
      bySchool.set(t.schoolId, s);
      t.daysLeft = daysLeft(t.paperLeft, t.recentPages);
    }
    const schools = [...bySchool.values()].map((s) => {
      const days = daysLeft(s.paperLeft, s.recentPages);
      const need = days !== null && days < REORDER_BELOW_DAYS ? Math.ceil((s.recentPages / CONSUMPTION_DAYS) * REORDER_COVER_DAYS - s.paperLeft) : 0;
      return { ...s, pagesPerDay: perDay(s.recentPages), daysLeft: days, needSheets: Math.max(0, need) };
    });
    schools.sort((a, b) => (a.daysLeft ?? Infinity) - (b.daysLeft ?? Infinity) || a.schoolName.localeCompare(b.schoolName, 'zh'));
    // Paper that came into the subtree: paid, not refunded orders of its partners bought from
    // outside it (a level-1 partner's from the platform); a child's purchase from its parent is a
    // move inside the subtree, counted once already.
    const [paper] = await rows<{ boughtSheets: number; printedPages: number }>(
      db,
      sql`SELECT coalesce((SELECT sum(i.sheets * i.quantity) FROM partner_orders o JOIN partner_order_items i ON i.order_id = o.id
                            WHERE ${inSubtree(scope, sql`o.buyer_id`)} AND (o.seller_id IS NULL OR NOT ${inSubtree(scope, sql`o.seller_id`)})
                              AND o.status = ${OrderStatus.paid} AND o.refund_status <> ${RefundStatus.refunded}), 0)::int AS "boughtSheets",
                 coalesce((SELECT sum(dd.pages) FROM device_daily dd JOIN devices d ON d.id = dd.device_id WHERE ${mine}), 0)::int AS "printedPages"`,
    );
    const allPacks = await rows<{ packId: number; name: string; sheets: number }>(db, sql`SELECT id AS "packId", name, sheets FROM paper_packs ORDER BY sort, id`);
    // The suggestion is of the standard paper only (the first pack on sale and its bigger boxes,
    // named alike: 错题打印纸 …), not the A3 or double-sided papers other terminals take.
    const family = allPacks[0]?.name.split(/\s/)[0] ?? '';
    const packs = allPacks.filter((p) => p.name.split(/\s/)[0] === family);
    const needSheets = schools.reduce((sum, s) => sum + s.needSheets, 0);
    const result: Consumption = {
      days: CONSUMPTION_DAYS,
      boughtSheets: paper.boughtSheets,
      printedPages: paper.printedPages,
      schools,
      terminals,
      reorder: { needSheets, schools: schools.filter((s) => s.needSheets > 0).length, items: packsFor(needSheets, packs) },
    };
    return ok(result);
  });
};
export default consumptionRoutes;
