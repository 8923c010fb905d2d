CREATE TABLE "rooms" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"school_id" integer NOT NULL,
	"name" text NOT NULL,
	"building" text,
	"floor" smallint,
	"capacity" smallint,
	"kind" text NOT NULL,
	"remark" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "rooms_name_uq" ON "rooms" USING btree ("school_id","name");--> statement-breakpoint
CREATE INDEX "rooms_school_idx" ON "rooms" USING btree ("tenant_id","school_id");