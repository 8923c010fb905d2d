ALTER TABLE "leader_scopes" ADD COLUMN "class_id" integer;--> statement-breakpoint
ALTER TABLE "leader_scopes" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "leader_scopes" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "teachers" ADD COLUMN "status" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "teachers" ADD COLUMN "status_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "leader_scopes" ADD CONSTRAINT "leader_scopes_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leader_scopes" ADD CONSTRAINT "leader_scopes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leader_scopes_user_idx" ON "leader_scopes" USING btree ("user_id","role");--> statement-breakpoint
CREATE UNIQUE INDEX "leader_scopes_head_teacher_uq" ON "leader_scopes" USING btree ("class_id") WHERE "leader_scopes"."role" = 'headTeacher';