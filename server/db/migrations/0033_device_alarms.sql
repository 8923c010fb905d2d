CREATE TABLE "device_alarms" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"partner_id" integer NOT NULL,
	"school_id" integer,
	"kind" text NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"detail" jsonb,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" integer,
	"resolved_at" timestamp with time zone,
	"resolved_by" integer,
	"auto_resolved" boolean DEFAULT false NOT NULL,
	"note" text
);
--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "offline_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "device_alarms" ADD CONSTRAINT "device_alarms_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_alarms" ADD CONSTRAINT "device_alarms_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_alarms" ADD CONSTRAINT "device_alarms_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_alarms" ADD CONSTRAINT "device_alarms_acknowledged_by_users_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_alarms" ADD CONSTRAINT "device_alarms_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_alarms_episode_uq" ON "device_alarms" USING btree ("device_id","kind","since");--> statement-breakpoint
CREATE INDEX "device_alarms_partner_idx" ON "device_alarms" USING btree ("partner_id","opened_at");--> statement-breakpoint
CREATE INDEX "device_alarms_open_idx" ON "device_alarms" USING btree ("device_id") WHERE resolved_at IS NULL;