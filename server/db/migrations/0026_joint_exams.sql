CREATE TABLE "joint_exams" (
	"id" serial PRIMARY KEY NOT NULL,
	"region" text NOT NULL,
	"title" text NOT NULL,
	"subject_id" integer NOT NULL,
	"grade_level" smallint NOT NULL,
	"exam_date" date NOT NULL,
	"term" text NOT NULL,
	"full_marks" real NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "joint_exam_id" integer;--> statement-breakpoint
ALTER TABLE "joint_exams" ADD CONSTRAINT "joint_exams_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "joint_exams_region_idx" ON "joint_exams" USING btree ("region","exam_date");--> statement-breakpoint
ALTER TABLE "exams" ADD CONSTRAINT "exams_joint_exam_id_joint_exams_id_fk" FOREIGN KEY ("joint_exam_id") REFERENCES "public"."joint_exams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exams_joint_idx" ON "exams" USING btree ("joint_exam_id");
