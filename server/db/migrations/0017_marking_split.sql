CREATE TABLE "grading_markers" (
	"tenant_id" integer NOT NULL,
	"task_id" integer NOT NULL,
	"no" smallint NOT NULL,
	"teacher_id" integer NOT NULL,
	CONSTRAINT "grading_markers_task_id_no_teacher_id_pk" PRIMARY KEY("task_id","no","teacher_id")
);
--> statement-breakpoint
CREATE TABLE "grading_marks" (
	"result_id" integer NOT NULL,
	"no" smallint NOT NULL,
	"kind" text NOT NULL,
	"teacher_id" integer NOT NULL,
	"score" real NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "grading_marks_result_id_no_kind_teacher_id_pk" PRIMARY KEY("result_id","no","kind","teacher_id")
);
--> statement-breakpoint
ALTER TABLE "grading_tasks" ADD COLUMN "marking_double" jsonb;--> statement-breakpoint
ALTER TABLE "grading_markers" ADD CONSTRAINT "grading_markers_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grading_markers" ADD CONSTRAINT "grading_markers_task_id_grading_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."grading_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grading_markers" ADD CONSTRAINT "grading_markers_teacher_id_teachers_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."teachers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grading_marks" ADD CONSTRAINT "grading_marks_result_id_grading_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."grading_results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grading_marks" ADD CONSTRAINT "grading_marks_teacher_id_teachers_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."teachers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "grading_markers_teacher_idx" ON "grading_markers" USING btree ("teacher_id");