CREATE TABLE "student_counts" (
	"tenant_id" integer NOT NULL,
	"school_id" integer NOT NULL,
	"class_id" integer NOT NULL,
	"status" smallint NOT NULL,
	"binding_status" smallint NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "student_counts_tenant_id_school_id_class_id_status_binding_status_pk" PRIMARY KEY("tenant_id","school_id","class_id","status","binding_status")
);
--> statement-breakpoint
-- Hand-written: triggers keep student_counts, so every write of students (the list's forms, the
-- import, the school year, the seed) moves it in the same transaction. Statement triggers with
-- transition tables: a 5,000-row import moves each count once, not 5,000 times, and an update
-- that changes no counted column (a name, a phone) writes nothing. Counts are written in key order,
-- so two writers of the same classes take their row locks in the same order.
CREATE FUNCTION "student_counts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO student_counts AS c (tenant_id, school_id, class_id, status, binding_status, n)
    SELECT tenant_id, school_id, coalesce(class_id, 0), status, binding_status, count(*) FROM new_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (tenant_id, school_id, class_id, status, binding_status) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO student_counts AS c (tenant_id, school_id, class_id, status, binding_status, n)
    SELECT tenant_id, school_id, coalesce(class_id, 0), status, binding_status, -count(*) FROM old_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (tenant_id, school_id, class_id, status, binding_status) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSE
    INSERT INTO student_counts AS c (tenant_id, school_id, class_id, status, binding_status, n)
    SELECT tenant_id, school_id, class_id, status, binding_status, sum(d) FROM (
      SELECT tenant_id, school_id, coalesce(class_id, 0) AS class_id, status, binding_status, -1 AS d FROM old_rows
      UNION ALL
      SELECT tenant_id, school_id, coalesce(class_id, 0), status, binding_status, 1 FROM new_rows) x
     GROUP BY 1, 2, 3, 4, 5 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (tenant_id, school_id, class_id, status, binding_status) DO UPDATE SET n = c.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "students_counted_insert" AFTER INSERT ON "students" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION student_counts_follow();--> statement-breakpoint
CREATE TRIGGER "students_counted_update" AFTER UPDATE ON "students" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION student_counts_follow();--> statement-breakpoint
CREATE TRIGGER "students_counted_delete" AFTER DELETE ON "students" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION student_counts_follow();--> statement-breakpoint
INSERT INTO "student_counts" (tenant_id, school_id, class_id, status, binding_status, n)
SELECT tenant_id, school_id, coalesce(class_id, 0), status, binding_status, count(*) FROM "students" GROUP BY 1, 2, 3, 4, 5;
