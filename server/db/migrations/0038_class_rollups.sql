CREATE TABLE "class_participants" (
	"tenant_id" integer NOT NULL,
	"term" text NOT NULL,
	"class_id" integer NOT NULL,
	"course_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	CONSTRAINT "class_participants_tenant_id_term_course_id_class_id_student_id_pk" PRIMARY KEY("tenant_id","term","course_id","class_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "school_question_stats" (
	"tenant_id" integer NOT NULL,
	"term" text NOT NULL,
	"school_id" integer NOT NULL,
	"course_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"answered" integer DEFAULT 0 NOT NULL,
	"correct" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "school_question_stats_tenant_id_term_school_id_course_id_question_id_pk" PRIMARY KEY("tenant_id","term","school_id","course_id","question_id")
);
--> statement-breakpoint
CREATE TABLE "work_class_stats" (
	"tenant_id" integer NOT NULL,
	"source_type" smallint NOT NULL,
	"source_id" integer NOT NULL,
	"class_id" integer NOT NULL,
	"submitted" integer DEFAULT 0 NOT NULL,
	"score" double precision DEFAULT 0 NOT NULL,
	"max_score" double precision DEFAULT 0 NOT NULL,
	"excellent" integer DEFAULT 0 NOT NULL,
	"good" integer DEFAULT 0 NOT NULL,
	"pass" integer DEFAULT 0 NOT NULL,
	"fail" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "work_class_stats_tenant_id_source_type_source_id_class_id_pk" PRIMARY KEY("tenant_id","source_type","source_id","class_id")
);
--> statement-breakpoint
-- Filled from the rollups already kept (hand-written): the class sums of work_student_stats, the
-- students who handed in each term's work of each course and (course 0) of any course, and the
-- school sums of work_question_stats. From here on the write of answer records keeps all three
-- (server/modules/minerva/answers.ts).
INSERT INTO "work_class_stats" (tenant_id, source_type, source_id, class_id, submitted, score, max_score, excellent, good, pass, fail)
SELECT tenant_id, source_type, source_id, class_id, count(*), sum(score::float8), sum(max_score::float8),
       count(*) FILTER (WHERE max_score > 0 AND score >= 0.9 * max_score),
       count(*) FILTER (WHERE max_score > 0 AND score >= 0.7 * max_score AND score < 0.9 * max_score),
       count(*) FILTER (WHERE max_score > 0 AND score >= 0.6 * max_score AND score < 0.7 * max_score),
       count(*) FILTER (WHERE max_score > 0 AND score < 0.6 * max_score)
  FROM "work_student_stats" GROUP BY tenant_id, source_type, source_id, class_id;--> statement-breakpoint
INSERT INTO "class_participants" (tenant_id, term, class_id, course_id, student_id)
SELECT DISTINCT s.tenant_id, w.term, s.class_id, x.course_id, s.student_id
  FROM "work_student_stats" s
  JOIN (SELECT tenant_id, source_type, id, term, course_id FROM homeworks
        UNION ALL SELECT tenant_id, 2::smallint, id, term, course_id FROM exams) w
    ON w.tenant_id = s.tenant_id AND w.source_type = s.source_type AND w.id = s.source_id,
       LATERAL (VALUES (w.course_id), (0)) x(course_id);
--> statement-breakpoint
INSERT INTO "school_question_stats" (tenant_id, term, school_id, course_id, question_id, answered, correct)
SELECT s.tenant_id, w.term, c.school_id, w.course_id, s.question_id, sum(s.answered), sum(s.correct)
  FROM "work_question_stats" s
  JOIN classes c ON c.id = s.class_id
  JOIN (SELECT tenant_id, source_type, id, term, course_id FROM homeworks
        UNION ALL SELECT tenant_id, 2::smallint, id, term, course_id FROM exams) w
    ON w.tenant_id = s.tenant_id AND w.source_type = s.source_type AND w.id = s.source_id
 GROUP BY s.tenant_id, w.term, c.school_id, w.course_id, s.question_id;
