CREATE TABLE "balance_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"partner_id" integer NOT NULL,
	"kind" smallint NOT NULL,
	"amount_fen" integer DEFAULT 0 NOT NULL,
	"frozen_fen" integer DEFAULT 0 NOT NULL,
	"order_id" integer,
	"withdrawal_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_withdrawals" (
	"id" serial PRIMARY KEY NOT NULL,
	"withdrawal_no" text NOT NULL,
	"partner_id" integer NOT NULL,
	"amount_fen" integer NOT NULL,
	"bank_name" text NOT NULL,
	"account_name" text NOT NULL,
	"account_no" text NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"transfer_ref" text,
	"reject_reason" text,
	"requested_by" integer,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "partner_orders" ADD COLUMN "balance_fen" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "partner_orders" ADD COLUMN "pay_trade_no" text;--> statement-breakpoint
ALTER TABLE "balance_entries" ADD CONSTRAINT "balance_entries_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_entries" ADD CONSTRAINT "balance_entries_order_id_partner_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."partner_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_entries" ADD CONSTRAINT "balance_entries_withdrawal_id_partner_withdrawals_id_fk" FOREIGN KEY ("withdrawal_id") REFERENCES "public"."partner_withdrawals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_withdrawals" ADD CONSTRAINT "partner_withdrawals_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_withdrawals" ADD CONSTRAINT "partner_withdrawals_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_withdrawals" ADD CONSTRAINT "partner_withdrawals_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "balance_entries_partner_idx" ON "balance_entries" USING btree ("partner_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_withdrawals_no_uq" ON "partner_withdrawals" USING btree ("withdrawal_no");--> statement-breakpoint
CREATE INDEX "partner_withdrawals_partner_idx" ON "partner_withdrawals" USING btree ("partner_id","created_at");--> statement-breakpoint
CREATE INDEX "partner_withdrawals_status_idx" ON "partner_withdrawals" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_orders_pay_trade_uq" ON "partner_orders" USING btree ("pay_trade_no");