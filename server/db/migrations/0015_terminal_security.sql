ALTER TABLE "heart_voices" ADD COLUMN "pin_verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "terminal_pin_hash" text;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "pin_failures" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "pin_locked_until" timestamp with time zone;