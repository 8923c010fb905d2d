CREATE TABLE "partner_pack_prices" (
	"partner_id" integer NOT NULL,
	"pack_id" integer NOT NULL,
	"price_fen" integer NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "partner_pack_prices_partner_id_pack_id_pk" PRIMARY KEY("partner_id","pack_id")
);
--> statement-breakpoint
ALTER TABLE "order_refunds" ADD COLUMN "resend_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD COLUMN "last_resend_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD COLUMN "last_resend_error" text;--> statement-breakpoint
ALTER TABLE "paper_packs" ADD COLUMN "list_price_fen" integer;--> statement-breakpoint
-- The packs on sale get their 建议零售价: the level-3 price and some 30 %, to the yuan.
UPDATE "paper_packs" SET "list_price_fen" = round("price_l3_fen" * 1.3 / 100) * 100;--> statement-breakpoint
ALTER TABLE "paper_packs" ALTER COLUMN "list_price_fen" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "status" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "partner_pack_prices" ADD CONSTRAINT "partner_pack_prices_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_pack_prices" ADD CONSTRAINT "partner_pack_prices_pack_id_paper_packs_id_fk" FOREIGN KEY ("pack_id") REFERENCES "public"."paper_packs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_pack_prices" ADD CONSTRAINT "partner_pack_prices_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;