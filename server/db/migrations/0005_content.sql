CREATE TABLE "answer_records" (
	"tenant_id" integer NOT NULL,
	"source_type" smallint NOT NULL,
	"source_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"school_id" integer NOT NULL,
	"class_id" integer NOT NULL,
	"subject_id" integer NOT NULL,
	"term" text NOT NULL,
	"knowledge_point_ids" integer[] NOT NULL,
	"is_correct" boolean NOT NULL,
	"score" real NOT NULL,
	"max_score" real NOT NULL,
	"answer" text,
	"graded_by" smallint NOT NULL,
	"reviewer_id" integer,
	"answered_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "answer_records_tenant_id_source_type_source_id_student_id_question_id_pk" PRIMARY KEY("tenant_id","source_type","source_id","student_id","question_id")
);
--> statement-breakpoint
CREATE TABLE "book_chapters" (
	"id" serial PRIMARY KEY NOT NULL,
	"book_id" integer NOT NULL,
	"title" text NOT NULL,
	"sort_order" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "book_page_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"page_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"sort_order" integer NOT NULL,
	"answer_area" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "book_pages" (
	"id" serial PRIMARY KEY NOT NULL,
	"book_id" integer NOT NULL,
	"section_id" integer NOT NULL,
	"page_no" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "book_sections" (
	"id" serial PRIMARY KEY NOT NULL,
	"book_id" integer NOT NULL,
	"chapter_id" integer NOT NULL,
	"title" text NOT NULL,
	"sort_order" integer NOT NULL,
	"knowledge_point_id" integer
);
--> statement-breakpoint
CREATE TABLE "class_books" (
	"tenant_id" integer NOT NULL,
	"class_id" integer NOT NULL,
	"book_id" integer NOT NULL,
	"course_id" integer NOT NULL,
	CONSTRAINT "class_books_class_id_book_id_pk" PRIMARY KEY("class_id","book_id")
);
--> statement-breakpoint
CREATE TABLE "class_knowledge_stats" (
	"tenant_id" integer NOT NULL,
	"class_id" integer NOT NULL,
	"knowledge_point_id" integer NOT NULL,
	"day" date NOT NULL,
	"subject_id" integer NOT NULL,
	"term" text NOT NULL,
	"answered" integer DEFAULT 0 NOT NULL,
	"correct" integer DEFAULT 0 NOT NULL,
	"score" real DEFAULT 0 NOT NULL,
	"max_score" real DEFAULT 0 NOT NULL,
	CONSTRAINT "class_knowledge_stats_tenant_id_class_id_knowledge_point_id_day_pk" PRIMARY KEY("tenant_id","class_id","knowledge_point_id","day")
);
--> statement-breakpoint
CREATE TABLE "exam_classes" (
	"tenant_id" integer NOT NULL,
	"exam_id" integer NOT NULL,
	"class_id" integer NOT NULL,
	CONSTRAINT "exam_classes_exam_id_class_id_pk" PRIMARY KEY("exam_id","class_id")
);
--> statement-breakpoint
CREATE TABLE "exams" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"school_id" integer NOT NULL,
	"paper_id" integer,
	"grade_id" integer NOT NULL,
	"course_id" integer NOT NULL,
	"title" text NOT NULL,
	"exam_date" date NOT NULL,
	"term" text NOT NULL,
	"full_marks" real NOT NULL,
	"items" jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exercise_books" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer,
	"title" text NOT NULL,
	"subject_id" integer NOT NULL,
	"grade_level" smallint NOT NULL,
	"term" smallint NOT NULL,
	"edition" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_points" (
	"id" serial PRIMARY KEY NOT NULL,
	"subject_id" integer NOT NULL,
	"stage" smallint NOT NULL,
	"parent_id" integer,
	"name" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paper_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"paper_id" integer NOT NULL,
	"section_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"sort_order" integer NOT NULL,
	"points" real NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paper_sections" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"paper_id" integer NOT NULL,
	"title" text NOT NULL,
	"sort_order" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "papers" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"school_id" integer NOT NULL,
	"created_by" integer NOT NULL,
	"title" text NOT NULL,
	"subject_id" integer NOT NULL,
	"grade_level" smallint NOT NULL,
	"duration_minutes" integer NOT NULL,
	"total_points" real NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer,
	"subject_id" integer NOT NULL,
	"stage" smallint DEFAULT 2 NOT NULL,
	"grade_level" smallint,
	"type" smallint NOT NULL,
	"stem" text NOT NULL,
	"options" jsonb,
	"answer" text DEFAULT '' NOT NULL,
	"analysis" text DEFAULT '' NOT NULL,
	"difficulty" smallint NOT NULL,
	"points" real NOT NULL,
	"knowledge_point_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"source" text,
	"parent_id" integer,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "student_knowledge_stats" (
	"tenant_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"knowledge_point_id" integer NOT NULL,
	"term" text NOT NULL,
	"subject_id" integer NOT NULL,
	"answered" integer DEFAULT 0 NOT NULL,
	"correct" integer DEFAULT 0 NOT NULL,
	"score" real DEFAULT 0 NOT NULL,
	"max_score" real DEFAULT 0 NOT NULL,
	CONSTRAINT "student_knowledge_stats_tenant_id_student_id_term_knowledge_point_id_pk" PRIMARY KEY("tenant_id","student_id","term","knowledge_point_id")
);
--> statement-breakpoint
CREATE TABLE "work_question_stats" (
	"tenant_id" integer NOT NULL,
	"source_type" smallint NOT NULL,
	"source_id" integer NOT NULL,
	"class_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"answered" integer DEFAULT 0 NOT NULL,
	"correct" integer DEFAULT 0 NOT NULL,
	"score" real DEFAULT 0 NOT NULL,
	"max_score" real DEFAULT 0 NOT NULL,
	"score_squares" real DEFAULT 0 NOT NULL,
	CONSTRAINT "work_question_stats_tenant_id_source_type_source_id_class_id_question_id_pk" PRIMARY KEY("tenant_id","source_type","source_id","class_id","question_id")
);
--> statement-breakpoint
CREATE TABLE "work_student_stats" (
	"tenant_id" integer NOT NULL,
	"source_type" smallint NOT NULL,
	"source_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"class_id" integer NOT NULL,
	"answered" integer DEFAULT 0 NOT NULL,
	"correct" integer DEFAULT 0 NOT NULL,
	"score" real DEFAULT 0 NOT NULL,
	"max_score" real DEFAULT 0 NOT NULL,
	CONSTRAINT "work_student_stats_tenant_id_source_type_source_id_student_id_pk" PRIMARY KEY("tenant_id","source_type","source_id","student_id")
);
--> statement-breakpoint
ALTER TABLE "homeworks" ADD COLUMN "source_type" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "homeworks" ADD COLUMN "book_id" integer;--> statement-breakpoint
ALTER TABLE "homeworks" ADD COLUMN "selection" jsonb;--> statement-breakpoint
ALTER TABLE "homeworks" ADD COLUMN "items" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "homeworks" ADD COLUMN "term" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "homeworks" ADD COLUMN "batch_id" integer;--> statement-breakpoint
ALTER TABLE "answer_records" ADD CONSTRAINT "answer_records_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "book_chapters" ADD CONSTRAINT "book_chapters_book_id_exercise_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."exercise_books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "book_page_questions" ADD CONSTRAINT "book_page_questions_page_id_book_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."book_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "book_page_questions" ADD CONSTRAINT "book_page_questions_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "book_pages" ADD CONSTRAINT "book_pages_book_id_exercise_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."exercise_books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "book_pages" ADD CONSTRAINT "book_pages_section_id_book_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."book_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "book_sections" ADD CONSTRAINT "book_sections_book_id_exercise_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."exercise_books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "book_sections" ADD CONSTRAINT "book_sections_chapter_id_book_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."book_chapters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "book_sections" ADD CONSTRAINT "book_sections_knowledge_point_id_knowledge_points_id_fk" FOREIGN KEY ("knowledge_point_id") REFERENCES "public"."knowledge_points"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_books" ADD CONSTRAINT "class_books_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_books" ADD CONSTRAINT "class_books_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_books" ADD CONSTRAINT "class_books_book_id_exercise_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."exercise_books"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_books" ADD CONSTRAINT "class_books_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_classes" ADD CONSTRAINT "exam_classes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_classes" ADD CONSTRAINT "exam_classes_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_classes" ADD CONSTRAINT "exam_classes_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exams" ADD CONSTRAINT "exams_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exams" ADD CONSTRAINT "exams_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exams" ADD CONSTRAINT "exams_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exams" ADD CONSTRAINT "exams_grade_id_grades_id_fk" FOREIGN KEY ("grade_id") REFERENCES "public"."grades"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exams" ADD CONSTRAINT "exams_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exams" ADD CONSTRAINT "exams_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exercise_books" ADD CONSTRAINT "exercise_books_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exercise_books" ADD CONSTRAINT "exercise_books_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_points" ADD CONSTRAINT "knowledge_points_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_questions" ADD CONSTRAINT "paper_questions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_questions" ADD CONSTRAINT "paper_questions_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_questions" ADD CONSTRAINT "paper_questions_section_id_paper_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."paper_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_questions" ADD CONSTRAINT "paper_questions_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_sections" ADD CONSTRAINT "paper_sections_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_sections" ADD CONSTRAINT "paper_sections_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "papers" ADD CONSTRAINT "papers_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "papers" ADD CONSTRAINT "papers_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "papers" ADD CONSTRAINT "papers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "papers" ADD CONSTRAINT "papers_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "answer_records_student_wrong_idx" ON "answer_records" USING btree ("tenant_id","student_id","answered_at") WHERE NOT is_correct;--> statement-breakpoint
CREATE INDEX "answer_records_class_wrong_idx" ON "answer_records" USING btree ("tenant_id","class_id","answered_at") WHERE NOT is_correct;--> statement-breakpoint
CREATE INDEX "book_chapters_book_idx" ON "book_chapters" USING btree ("book_id");--> statement-breakpoint
CREATE UNIQUE INDEX "book_page_questions_uq" ON "book_page_questions" USING btree ("page_id","question_id");--> statement-breakpoint
CREATE INDEX "book_page_questions_question_idx" ON "book_page_questions" USING btree ("question_id");--> statement-breakpoint
CREATE UNIQUE INDEX "book_pages_no_uq" ON "book_pages" USING btree ("book_id","page_no");--> statement-breakpoint
CREATE INDEX "book_pages_section_idx" ON "book_pages" USING btree ("section_id");--> statement-breakpoint
CREATE INDEX "book_sections_book_idx" ON "book_sections" USING btree ("book_id");--> statement-breakpoint
CREATE INDEX "exam_classes_class_idx" ON "exam_classes" USING btree ("tenant_id","class_id");--> statement-breakpoint
CREATE INDEX "exams_school_idx" ON "exams" USING btree ("tenant_id","school_id","exam_date");--> statement-breakpoint
CREATE INDEX "exercise_books_grade_idx" ON "exercise_books" USING btree ("grade_level","subject_id");--> statement-breakpoint
CREATE INDEX "knowledge_points_subject_idx" ON "knowledge_points" USING btree ("subject_id","stage","parent_id");--> statement-breakpoint
CREATE INDEX "paper_questions_paper_idx" ON "paper_questions" USING btree ("paper_id");--> statement-breakpoint
CREATE INDEX "paper_questions_question_idx" ON "paper_questions" USING btree ("question_id");--> statement-breakpoint
CREATE INDEX "paper_sections_paper_idx" ON "paper_sections" USING btree ("paper_id");--> statement-breakpoint
CREATE INDEX "papers_school_idx" ON "papers" USING btree ("tenant_id","school_id","created_by");--> statement-breakpoint
CREATE INDEX "questions_search_idx" ON "questions" USING btree ("subject_id","stage","type","difficulty");--> statement-breakpoint
CREATE INDEX "questions_kp_idx" ON "questions" USING gin ("knowledge_point_ids");--> statement-breakpoint
CREATE INDEX "questions_parent_idx" ON "questions" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "work_question_stats_question_idx" ON "work_question_stats" USING btree ("question_id");--> statement-breakpoint
CREATE INDEX "work_student_stats_class_idx" ON "work_student_stats" USING btree ("tenant_id","source_type","source_id","class_id");--> statement-breakpoint
ALTER TABLE "homeworks" ADD CONSTRAINT "homeworks_book_id_exercise_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."exercise_books"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "homeworks_class_idx" ON "homeworks" USING btree ("tenant_id","class_id","assigned_at");