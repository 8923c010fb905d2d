-- Answer records partitioned by term (PostgreSQL declarative partitioning, LIST on term): a
-- region's years of history stay out of the way of this term's reports, which read one partition,
-- and an old term can be detached or archived whole. One partition per term ('answer_records_202601'),
-- and a default partition for a term whose partition does not exist yet;
-- answer_records_term_partition(term) makes a term's partition and moves that term's rows out of the
-- default one (the server calls it at start for the running and the next term).
ALTER TABLE "answer_records" RENAME TO "answer_records_unpartitioned";--> statement-breakpoint
ALTER TABLE "answer_records_unpartitioned" RENAME CONSTRAINT "answer_records_tenant_id_source_type_source_id_student_id_question_id_pk" TO "answer_records_unpartitioned_pk";--> statement-breakpoint
ALTER TABLE "answer_records_unpartitioned" DROP CONSTRAINT "answer_records_student_id_students_id_fk";--> statement-breakpoint
DROP INDEX "answer_records_student_wrong_idx";--> statement-breakpoint
DROP INDEX "answer_records_class_wrong_idx";--> statement-breakpoint
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
	CONSTRAINT "answer_records_tenant_id_source_type_source_id_student_id_question_id_term_pk" PRIMARY KEY("tenant_id","source_type","source_id","student_id","question_id","term")
) PARTITION BY LIST ("term");--> statement-breakpoint
CREATE TABLE "answer_records_default" PARTITION OF "answer_records" DEFAULT;--> statement-breakpoint
CREATE FUNCTION answer_records_term_partition(t text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  part text := 'answer_records_' || t;
BEGIN
  -- Terms are 'YYYY01' or 'YYYY02'; anything else stays in the default partition.
  IF t !~ '^[0-9]{4}0[12]$' OR to_regclass(part) IS NOT NULL THEN
    RETURN false;
  END IF;
  -- No row of this term may reach the default partition while its rows move out.
  LOCK TABLE answer_records_default IN SHARE ROW EXCLUSIVE MODE;
  EXECUTE format('CREATE TABLE %I (LIKE answer_records INCLUDING DEFAULTS)', part);
  EXECUTE format('INSERT INTO %I SELECT * FROM answer_records_default WHERE term = %L', part, t);
  DELETE FROM answer_records_default WHERE term = t;
  EXECUTE format('ALTER TABLE answer_records ATTACH PARTITION %I FOR VALUES IN (%L)', part, t);
  RETURN true;
END
$$;--> statement-breakpoint
SELECT answer_records_term_partition(term) FROM (SELECT DISTINCT term FROM "answer_records_unpartitioned") terms;--> statement-breakpoint
INSERT INTO "answer_records" SELECT * FROM "answer_records_unpartitioned";--> statement-breakpoint
DROP TABLE "answer_records_unpartitioned";--> statement-breakpoint
ALTER TABLE "answer_records" ADD CONSTRAINT "answer_records_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "answer_records_student_wrong_idx" ON "answer_records" USING btree ("tenant_id","student_id","answered_at") WHERE NOT is_correct;--> statement-breakpoint
CREATE INDEX "answer_records_class_wrong_idx" ON "answer_records" USING btree ("tenant_id","class_id","answered_at") WHERE NOT is_correct;
