CREATE TABLE "device_bindings" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"school_id" integer NOT NULL,
	"bound_by" integer,
	"bound_at" timestamp with time zone DEFAULT now() NOT NULL,
	"unbound_by" integer,
	"unbound_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "device_daily" (
	"device_id" integer NOT NULL,
	"day" date NOT NULL,
	"partner_id" integer NOT NULL,
	"school_id" integer NOT NULL,
	"jobs" integer DEFAULT 0 NOT NULL,
	"pages" integer DEFAULT 0 NOT NULL,
	"sign_ins" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "device_daily_device_id_day_pk" PRIMARY KEY("device_id","day")
);
--> statement-breakpoint
CREATE TABLE "device_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"detail" jsonb
);
--> statement-breakpoint
CREATE TABLE "device_nonces" (
	"device_id" integer NOT NULL,
	"nonce" text NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_nonces_device_id_nonce_pk" PRIMARY KEY("device_id","nonce")
);
--> statement-breakpoint
CREATE TABLE "device_sign_ins" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"partner_id" integer NOT NULL,
	"school_id" integer NOT NULL,
	"tenant_id" integer NOT NULL,
	"user_kind" smallint NOT NULL,
	"user_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"serial" text NOT NULL,
	"model" text NOT NULL,
	"partner_id" integer NOT NULL,
	"school_id" integer,
	"tenant_id" integer,
	"secret" text NOT NULL,
	"firmware" text NOT NULL,
	"paper_capacity" integer DEFAULT 500 NOT NULL,
	"paper_left" integer DEFAULT 0 NOT NULL,
	"jammed" boolean DEFAULT false NOT NULL,
	"last_heartbeat_at" timestamp with time zone,
	"last_seen_at" timestamp with time zone,
	"bound_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "print_daily" (
	"partner_id" integer NOT NULL,
	"school_id" integer NOT NULL,
	"day" date NOT NULL,
	"app" smallint NOT NULL,
	"subject_id" integer NOT NULL,
	"user_kind" smallint NOT NULL,
	"jobs" integer NOT NULL,
	"pages" integer NOT NULL,
	CONSTRAINT "print_daily_partner_id_day_school_id_app_subject_id_user_kind_pk" PRIMARY KEY("partner_id","day","school_id","app","subject_id","user_kind")
);
--> statement-breakpoint
CREATE TABLE "print_jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"client_job_id" text NOT NULL,
	"partner_id" integer NOT NULL,
	"school_id" integer NOT NULL,
	"tenant_id" integer NOT NULL,
	"user_kind" smallint NOT NULL,
	"user_id" integer NOT NULL,
	"app" smallint NOT NULL,
	"subject_id" integer,
	"pages" integer NOT NULL,
	"printed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saved_filters" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"resource" text NOT NULL,
	"name" text NOT NULL,
	"filter" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_daily" (
	"partner_id" integer NOT NULL,
	"school_id" integer NOT NULL,
	"day" date NOT NULL,
	"user_kind" smallint NOT NULL,
	"users" integer DEFAULT 0 NOT NULL,
	"uses" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_daily_partner_id_day_school_id_user_kind_pk" PRIMARY KEY("partner_id","day","school_id","user_kind")
);
--> statement-breakpoint
CREATE TABLE "usage_user_days" (
	"day" date NOT NULL,
	"tenant_id" integer NOT NULL,
	"user_kind" smallint NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "usage_user_days_day_tenant_id_user_kind_user_id_pk" PRIMARY KEY("day","tenant_id","user_kind","user_id")
);
--> statement-breakpoint
ALTER TABLE "device_bindings" ADD CONSTRAINT "device_bindings_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_bindings" ADD CONSTRAINT "device_bindings_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_bindings" ADD CONSTRAINT "device_bindings_bound_by_users_id_fk" FOREIGN KEY ("bound_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_bindings" ADD CONSTRAINT "device_bindings_unbound_by_users_id_fk" FOREIGN KEY ("unbound_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_events" ADD CONSTRAINT "device_events_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_sign_ins" ADD CONSTRAINT "device_sign_ins_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_jobs" ADD CONSTRAINT "print_jobs_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_filters" ADD CONSTRAINT "saved_filters_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_bindings_device_idx" ON "device_bindings" USING btree ("device_id","bound_at");--> statement-breakpoint
CREATE INDEX "device_daily_partner_idx" ON "device_daily" USING btree ("partner_id","day");--> statement-breakpoint
CREATE INDEX "device_events_device_idx" ON "device_events" USING btree ("device_id","at");--> statement-breakpoint
CREATE INDEX "device_nonces_seen_idx" ON "device_nonces" USING btree ("seen_at");--> statement-breakpoint
CREATE INDEX "device_sign_ins_school_idx" ON "device_sign_ins" USING btree ("school_id","at");--> statement-breakpoint
CREATE INDEX "device_sign_ins_user_idx" ON "device_sign_ins" USING btree ("tenant_id","user_kind","user_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_serial_uq" ON "devices" USING btree ("serial");--> statement-breakpoint
CREATE INDEX "devices_partner_idx" ON "devices" USING btree ("partner_id","id");--> statement-breakpoint
CREATE INDEX "devices_school_idx" ON "devices" USING btree ("school_id");--> statement-breakpoint
CREATE INDEX "print_daily_school_idx" ON "print_daily" USING btree ("school_id","day");--> statement-breakpoint
CREATE UNIQUE INDEX "print_jobs_client_uq" ON "print_jobs" USING btree ("device_id","client_job_id");--> statement-breakpoint
CREATE INDEX "print_jobs_device_idx" ON "print_jobs" USING btree ("device_id","printed_at");--> statement-breakpoint
CREATE INDEX "print_jobs_school_idx" ON "print_jobs" USING btree ("school_id","printed_at");--> statement-breakpoint
CREATE INDEX "print_jobs_user_idx" ON "print_jobs" USING btree ("tenant_id","user_kind","user_id","printed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "saved_filters_uq" ON "saved_filters" USING btree ("user_id","resource","name");--> statement-breakpoint
CREATE INDEX "usage_daily_school_idx" ON "usage_daily" USING btree ("school_id","day");