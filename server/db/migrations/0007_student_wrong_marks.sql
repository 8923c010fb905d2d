CREATE TABLE "student_wrong_marks" (
	"tenant_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"mastery" smallint,
	"mastery_at" timestamp with time zone,
	"cause" smallint,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "student_wrong_marks_tenant_id_student_id_question_id_pk" PRIMARY KEY("tenant_id","student_id","question_id")
);
--> statement-breakpoint
ALTER TABLE "student_wrong_marks" ADD CONSTRAINT "student_wrong_marks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_wrong_marks" ADD CONSTRAINT "student_wrong_marks_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_wrong_marks" ADD CONSTRAINT "student_wrong_marks_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;