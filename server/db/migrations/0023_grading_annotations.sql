CREATE TABLE "grading_annotations" (
	"result_id" integer NOT NULL,
	"no" integer NOT NULL,
	"teacher_id" integer NOT NULL,
	"marks" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "grading_annotations_result_id_no_pk" PRIMARY KEY("result_id","no")
);
--> statement-breakpoint
ALTER TABLE "grading_annotations" ADD CONSTRAINT "grading_annotations_result_id_grading_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."grading_results"("id") ON DELETE cascade ON UPDATE no action;