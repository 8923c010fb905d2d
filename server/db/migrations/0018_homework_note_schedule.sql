ALTER TABLE "homeworks" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "homeworks" ADD COLUMN "start_at" timestamp with time zone;