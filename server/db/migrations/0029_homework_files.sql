CREATE TABLE "homework_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"teacher_id" integer NOT NULL,
	"file_hash" text NOT NULL,
	"file_name" text NOT NULL,
	"mime" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "homeworks" ADD COLUMN "file_id" integer;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "homework_batch_id" integer;--> statement-breakpoint
ALTER TABLE "homework_files" ADD CONSTRAINT "homework_files_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "homework_files" ADD CONSTRAINT "homework_files_teacher_id_teachers_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."teachers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "homework_files_teacher_idx" ON "homework_files" USING btree ("tenant_id","teacher_id");--> statement-breakpoint
ALTER TABLE "homeworks" ADD CONSTRAINT "homeworks_file_id_homework_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."homework_files"("id") ON DELETE no action ON UPDATE no action;