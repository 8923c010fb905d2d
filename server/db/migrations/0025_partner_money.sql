ALTER TABLE "partner_order_items" ADD COLUMN "unit_cost_fen" integer;--> statement-breakpoint
UPDATE "partner_order_items" i SET "unit_cost_fen" = CASE o."buyer_level" WHEN 2 THEN p."price_l1_fen" WHEN 3 THEN p."price_l2_fen" END FROM "partner_orders" o, "paper_packs" p WHERE o."id" = i."order_id" AND p."id" = i."pack_id" AND o."seller_id" IS NOT NULL;--> statement-breakpoint
CREATE TABLE "list_columns" (
	"user_id" integer NOT NULL,
	"resource" text NOT NULL,
	"columns" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "list_columns_user_id_resource_pk" PRIMARY KEY("user_id","resource")
);--> statement-breakpoint
ALTER TABLE "list_columns" ADD CONSTRAINT "list_columns_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
