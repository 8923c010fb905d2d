CREATE TABLE "order_returns" (
	"id" serial PRIMARY KEY NOT NULL,
	"return_no" text NOT NULL,
	"order_id" integer NOT NULL,
	"lines" jsonb NOT NULL,
	"amount_fen" integer NOT NULL,
	"margin_fen" integer DEFAULT 0 NOT NULL,
	"reason" text NOT NULL,
	"carrier" text NOT NULL,
	"tracking_no" text NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"refund_id" integer,
	"requested_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"received_by" integer,
	"received_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "order_shipments" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"carrier" text NOT NULL,
	"tracking_no" text NOT NULL,
	"lines" jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"partner_id" integer NOT NULL,
	"receiver" text NOT NULL,
	"phone" text NOT NULL,
	"province" text NOT NULL,
	"city" text NOT NULL,
	"district" text NOT NULL,
	"detail" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "order_refunds_order_uq";--> statement-breakpoint
DROP INDEX "settlement_entries_order_kind_uq";--> statement-breakpoint
ALTER TABLE "order_refunds" ADD COLUMN "balance_fen" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD COLUMN "reversal_fen" integer;--> statement-breakpoint
ALTER TABLE "partner_order_items" ADD COLUMN "shipped_quantity" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "partner_order_items" ADD COLUMN "returned_quantity" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "partner_orders" ADD COLUMN "fulfil_status" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "partner_orders" ADD COLUMN "ship_to" jsonb;--> statement-breakpoint
ALTER TABLE "partner_orders" ADD COLUMN "shipped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "partner_orders" ADD COLUMN "received_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "partner_orders" ADD COLUMN "received_by" integer;--> statement-breakpoint
ALTER TABLE "order_returns" ADD CONSTRAINT "order_returns_order_id_partner_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."partner_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_returns" ADD CONSTRAINT "order_returns_refund_id_order_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."order_refunds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_returns" ADD CONSTRAINT "order_returns_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_returns" ADD CONSTRAINT "order_returns_received_by_users_id_fk" FOREIGN KEY ("received_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_shipments" ADD CONSTRAINT "order_shipments_order_id_partner_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."partner_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_shipments" ADD CONSTRAINT "order_shipments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_addresses" ADD CONSTRAINT "partner_addresses_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_returns_no_uq" ON "order_returns" USING btree ("return_no");--> statement-breakpoint
CREATE INDEX "order_returns_order_idx" ON "order_returns" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_shipments_order_idx" ON "order_shipments" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "partner_addresses_partner_idx" ON "partner_addresses" USING btree ("partner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_addresses_default_uq" ON "partner_addresses" USING btree ("partner_id") WHERE is_default;--> statement-breakpoint
ALTER TABLE "partner_orders" ADD CONSTRAINT "partner_orders_received_by_users_id_fk" FOREIGN KEY ("received_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_refunds_order_idx" ON "order_refunds" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "partner_orders_fulfil_idx" ON "partner_orders" USING btree ("fulfil_status","shipped_at");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_entries_margin_uq" ON "settlement_entries" USING btree ("order_id") WHERE kind = 1;--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_entries_refund_uq" ON "settlement_entries" USING btree ("refund_id");--> statement-breakpoint
-- A refund made before this migration took back the order's whole balance part with it.
UPDATE "order_refunds" r SET "balance_fen" = o."balance_fen" FROM "partner_orders" o WHERE o."id" = r."order_id";
