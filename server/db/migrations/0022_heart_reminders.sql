ALTER TABLE "heart_voice_reads" ADD COLUMN "visit_id" text;--> statement-breakpoint
ALTER TABLE "heart_voices" ADD COLUMN "reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "heart_voices" ADD COLUMN "escalated_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "heart_voice_reads_visit_idx" ON "heart_voice_reads" USING btree ("voice_id","user_id","visit_id") WHERE visit_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "heart_voices_unconfirmed_idx" ON "heart_voices" USING btree ("created_at") WHERE confirmed_level IS NULL AND suggested_level = 3;