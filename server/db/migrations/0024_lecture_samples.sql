CREATE TABLE "lecture_samples" (
	"tenant_id" integer NOT NULL,
	"task_id" integer NOT NULL,
	"no" smallint NOT NULL,
	"result_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lecture_samples_task_id_no_result_id_pk" PRIMARY KEY("task_id","no","result_id")
);--> statement-breakpoint
ALTER TABLE "lecture_samples" ADD CONSTRAINT "lecture_samples_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lecture_samples" ADD CONSTRAINT "lecture_samples_task_id_grading_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."grading_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lecture_samples" ADD CONSTRAINT "lecture_samples_result_id_grading_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."grading_results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lecture_samples" ADD CONSTRAINT "lecture_samples_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;