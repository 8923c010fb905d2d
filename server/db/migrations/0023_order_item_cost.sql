ALTER TABLE "partner_order_items" ADD COLUMN "unit_cost_fen" integer;--> statement-breakpoint
UPDATE "partner_order_items" i SET "unit_cost_fen" = CASE o."buyer_level" WHEN 2 THEN p."price_l1_fen" WHEN 3 THEN p."price_l2_fen" END FROM "partner_orders" o, "paper_packs" p WHERE o."id" = i."order_id" AND p."id" = i."pack_id" AND o."seller_id" IS NOT NULL;
