CREATE TABLE "order_refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"refund_no" text NOT NULL,
	"order_id" integer NOT NULL,
	"amount_fen" integer NOT NULL,
	"reason" text NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"requested_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"refunded_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "paper_packs" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"sheets" integer NOT NULL,
	"price_l1_fen" integer NOT NULL,
	"price_l2_fen" integer NOT NULL,
	"price_l3_fen" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_order_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"pack_id" integer NOT NULL,
	"name" text NOT NULL,
	"sheets" integer NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_fen" integer NOT NULL,
	"amount_fen" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_no" text NOT NULL,
	"buyer_id" integer NOT NULL,
	"seller_id" integer,
	"buyer_level" smallint NOT NULL,
	"amount_fen" integer NOT NULL,
	"seller_cost_fen" integer,
	"status" smallint DEFAULT 1 NOT NULL,
	"pay_status" smallint DEFAULT 0 NOT NULL,
	"refund_status" smallint DEFAULT 0 NOT NULL,
	"remark" text,
	"provider" text NOT NULL,
	"code_url" text,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_recharges" (
	"id" serial PRIMARY KEY NOT NULL,
	"recharge_no" text NOT NULL,
	"partner_id" integer NOT NULL,
	"amount_fen" integer NOT NULL,
	"pay_status" smallint DEFAULT 0 NOT NULL,
	"provider" text NOT NULL,
	"code_url" text,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"out_trade_no" text NOT NULL,
	"provider" text NOT NULL,
	"transaction_id" text NOT NULL,
	"amount_fen" integer NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"outcome" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_refunds" (
	"out_refund_no" text PRIMARY KEY NOT NULL,
	"out_trade_no" text NOT NULL,
	"amount_fen" integer NOT NULL,
	"state" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sandbox_trades" (
	"out_trade_no" text PRIMARY KEY NOT NULL,
	"transaction_id" text NOT NULL,
	"amount_fen" integer NOT NULL,
	"subject" text NOT NULL,
	"state" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settlement_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"partner_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"refund_id" integer,
	"kind" smallint NOT NULL,
	"amount_fen" integer NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"settleable_at" timestamp with time zone NOT NULL,
	"statement_id" integer
);
--> statement-breakpoint
CREATE TABLE "settlement_statements" (
	"id" serial PRIMARY KEY NOT NULL,
	"statement_no" text NOT NULL,
	"partner_id" integer NOT NULL,
	"payer_id" integer,
	"period" text NOT NULL,
	"amount_fen" integer NOT NULL,
	"entry_count" integer NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"reject_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"rejected_at" timestamp with time zone,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_order_id_partner_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."partner_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_order_items" ADD CONSTRAINT "partner_order_items_order_id_partner_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."partner_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_order_items" ADD CONSTRAINT "partner_order_items_pack_id_paper_packs_id_fk" FOREIGN KEY ("pack_id") REFERENCES "public"."paper_packs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_orders" ADD CONSTRAINT "partner_orders_buyer_id_partners_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_orders" ADD CONSTRAINT "partner_orders_seller_id_partners_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_orders" ADD CONSTRAINT "partner_orders_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_recharges" ADD CONSTRAINT "partner_recharges_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_recharges" ADD CONSTRAINT "partner_recharges_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_entries" ADD CONSTRAINT "settlement_entries_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_entries" ADD CONSTRAINT "settlement_entries_order_id_partner_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."partner_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_entries" ADD CONSTRAINT "settlement_entries_refund_id_order_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."order_refunds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_statements" ADD CONSTRAINT "settlement_statements_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_statements" ADD CONSTRAINT "settlement_statements_payer_id_partners_id_fk" FOREIGN KEY ("payer_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_refunds_no_uq" ON "order_refunds" USING btree ("refund_no");--> statement-breakpoint
CREATE UNIQUE INDEX "order_refunds_order_uq" ON "order_refunds" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "partner_order_items_order_idx" ON "partner_order_items" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_orders_no_uq" ON "partner_orders" USING btree ("order_no");--> statement-breakpoint
CREATE INDEX "partner_orders_buyer_idx" ON "partner_orders" USING btree ("buyer_id","created_at");--> statement-breakpoint
CREATE INDEX "partner_orders_seller_idx" ON "partner_orders" USING btree ("seller_id","created_at");--> statement-breakpoint
CREATE INDEX "partner_orders_open_idx" ON "partner_orders" USING btree ("status","expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_recharges_no_uq" ON "partner_recharges" USING btree ("recharge_no");--> statement-breakpoint
CREATE INDEX "partner_recharges_partner_idx" ON "partner_recharges" USING btree ("partner_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_transaction_uq" ON "payments" USING btree ("provider","transaction_id");--> statement-breakpoint
CREATE INDEX "payments_trade_idx" ON "payments" USING btree ("out_trade_no");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_entries_order_kind_uq" ON "settlement_entries" USING btree ("order_id","kind");--> statement-breakpoint
CREATE INDEX "settlement_entries_open_idx" ON "settlement_entries" USING btree ("partner_id","statement_id","settleable_at");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_statements_no_uq" ON "settlement_statements" USING btree ("statement_no");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_statements_period_uq" ON "settlement_statements" USING btree ("partner_id","period");--> statement-breakpoint
-- The packs on sale (prices in fen per level: platform → level 1 → level 2 → level 3).
INSERT INTO "paper_packs" ("name", "sheets", "price_l1_fen", "price_l2_fen", "price_l3_fen", "sort") VALUES
  ('错题打印纸 A4 70g 500张/包', 500, 1800, 2100, 2450, 1),
  ('错题打印纸 A4 70g 2500张/箱（5包）', 2500, 8500, 9900, 11500, 2),
  ('双面打印纸 A4 80g 500张/包', 500, 2600, 2950, 3350, 3),
  ('试卷打印纸 A3 70g 500张/包', 500, 3600, 4100, 4700, 4);
