CREATE TABLE "guardian_consents" (
	"student_id" integer PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"school_id" integer NOT NULL,
	"guardian_name" text NOT NULL,
	"consented_on" date NOT NULL,
	"recorded_by" integer,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "heart_notices" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"voice_id" integer,
	"kind" smallint NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seen_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "heart_voice_follow_ups" (
	"id" serial PRIMARY KEY NOT NULL,
	"voice_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"kind" smallint NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "heart_voice_reads" (
	"id" serial PRIMARY KEY NOT NULL,
	"school_id" integer NOT NULL,
	"voice_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"action" smallint NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "heart_voices" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"school_id" integer NOT NULL,
	"student_id" integer,
	"grade_id" integer,
	"class_id" integer,
	"device_id" integer,
	"anonymous" boolean NOT NULL,
	"category" smallint NOT NULL,
	"mood" smallint,
	"content" text,
	"suggested_level" smallint NOT NULL,
	"risk_types" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"confirmed_level" smallint,
	"status" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"handled_at" timestamp with time zone,
	"purged_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "birth_date" date;--> statement-breakpoint
ALTER TABLE "guardian_consents" ADD CONSTRAINT "guardian_consents_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guardian_consents" ADD CONSTRAINT "guardian_consents_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guardian_consents" ADD CONSTRAINT "guardian_consents_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guardian_consents" ADD CONSTRAINT "guardian_consents_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heart_notices" ADD CONSTRAINT "heart_notices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heart_notices" ADD CONSTRAINT "heart_notices_voice_id_heart_voices_id_fk" FOREIGN KEY ("voice_id") REFERENCES "public"."heart_voices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heart_voice_follow_ups" ADD CONSTRAINT "heart_voice_follow_ups_voice_id_heart_voices_id_fk" FOREIGN KEY ("voice_id") REFERENCES "public"."heart_voices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heart_voice_follow_ups" ADD CONSTRAINT "heart_voice_follow_ups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heart_voice_reads" ADD CONSTRAINT "heart_voice_reads_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heart_voice_reads" ADD CONSTRAINT "heart_voice_reads_voice_id_heart_voices_id_fk" FOREIGN KEY ("voice_id") REFERENCES "public"."heart_voices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heart_voice_reads" ADD CONSTRAINT "heart_voice_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heart_voices" ADD CONSTRAINT "heart_voices_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heart_voices" ADD CONSTRAINT "heart_voices_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heart_voices" ADD CONSTRAINT "heart_voices_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heart_voices" ADD CONSTRAINT "heart_voices_grade_id_grades_id_fk" FOREIGN KEY ("grade_id") REFERENCES "public"."grades"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heart_voices" ADD CONSTRAINT "heart_voices_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heart_voices" ADD CONSTRAINT "heart_voices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "heart_notices_user_idx" ON "heart_notices" USING btree ("user_id","seen_at");--> statement-breakpoint
CREATE INDEX "heart_voice_follow_ups_voice_idx" ON "heart_voice_follow_ups" USING btree ("voice_id");--> statement-breakpoint
CREATE INDEX "heart_voice_reads_school_idx" ON "heart_voice_reads" USING btree ("school_id","created_at");--> statement-breakpoint
CREATE INDEX "heart_voices_school_idx" ON "heart_voices" USING btree ("school_id","created_at");--> statement-breakpoint
CREATE INDEX "heart_voices_purge_idx" ON "heart_voices" USING btree ("status","handled_at");