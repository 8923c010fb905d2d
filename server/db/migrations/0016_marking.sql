CREATE TABLE "grading_rubric_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"task_id" integer NOT NULL,
	"no" smallint NOT NULL,
	"label" text NOT NULL,
	"points" real NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "grading_rubric_marks" (
	"result_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	CONSTRAINT "grading_rubric_marks_result_id_item_id_pk" PRIMARY KEY("result_id","item_id")
);
--> statement-breakpoint
ALTER TABLE "grading_tasks" ADD COLUMN "marking_show_names" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "grading_rubric_items" ADD CONSTRAINT "grading_rubric_items_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grading_rubric_items" ADD CONSTRAINT "grading_rubric_items_task_id_grading_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."grading_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grading_rubric_marks" ADD CONSTRAINT "grading_rubric_marks_result_id_grading_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."grading_results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grading_rubric_marks" ADD CONSTRAINT "grading_rubric_marks_item_id_grading_rubric_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."grading_rubric_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "grading_rubric_items_task_idx" ON "grading_rubric_items" USING btree ("task_id","no");--> statement-breakpoint
CREATE INDEX "grading_rubric_marks_item_idx" ON "grading_rubric_marks" USING btree ("item_id");