CREATE TABLE "answer_sheets" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"teacher_id" integer NOT NULL,
	"class_id" integer,
	"title" text NOT NULL,
	"layout" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "grading_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"task_id" integer NOT NULL,
	"student_id" integer,
	"file_hash" text NOT NULL,
	"file_name" text NOT NULL,
	"mime" text NOT NULL,
	"size" integer NOT NULL,
	"recognition_status" smallint DEFAULT 0 NOT NULL,
	"reading" jsonb,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "grading_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"task_id" integer NOT NULL,
	"student_id" integer,
	"student_key" text,
	"result" jsonb NOT NULL,
	"review" jsonb,
	"score" real,
	"max_score" real,
	"needs_review" boolean DEFAULT false NOT NULL,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "grading_tasks" ADD COLUMN "sheet_id" text;--> statement-breakpoint
ALTER TABLE "grading_tasks" ADD COLUMN "answer_key" jsonb;--> statement-breakpoint
ALTER TABLE "grading_tasks" ADD COLUMN "questions" jsonb;--> statement-breakpoint
ALTER TABLE "grading_tasks" ADD COLUMN "essay_brief" jsonb;--> statement-breakpoint
ALTER TABLE "grading_tasks" ADD COLUMN "fail_reason" text;--> statement-breakpoint
ALTER TABLE "grading_tasks" ADD COLUMN "submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "answer_sheets" ADD CONSTRAINT "answer_sheets_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answer_sheets" ADD CONSTRAINT "answer_sheets_teacher_id_teachers_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."teachers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answer_sheets" ADD CONSTRAINT "answer_sheets_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grading_files" ADD CONSTRAINT "grading_files_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grading_files" ADD CONSTRAINT "grading_files_task_id_grading_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."grading_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grading_files" ADD CONSTRAINT "grading_files_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grading_results" ADD CONSTRAINT "grading_results_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grading_results" ADD CONSTRAINT "grading_results_task_id_grading_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."grading_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grading_results" ADD CONSTRAINT "grading_results_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "answer_sheets_teacher_idx" ON "answer_sheets" USING btree ("tenant_id","teacher_id");--> statement-breakpoint
CREATE INDEX "grading_files_task_idx" ON "grading_files" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "grading_results_task_idx" ON "grading_results" USING btree ("task_id");