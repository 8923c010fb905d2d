-- The student list's keyword search ('%王喆%', '%G00123%') read every student of the school: a
-- LIKE with a leading % cannot use a b-tree. Each student keeps the single characters and the pairs
-- of characters of their name and student number; a keyword's pairs (its character, if it has only
-- one) must all be among them, which a GIN index answers, and the LIKE then checks the few found.
-- (A trigram index does not serve Chinese names of two or three characters.)
CREATE FUNCTION "student_search_grams"(name text, student_no text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT coalesce(array_agg(DISTINCT substr(t, i, n)), '{}')
    FROM unnest(ARRAY[name, student_no]) AS t,
         (VALUES (1), (2)) AS sizes(n),
         generate_series(1, length(t) - n + 1) AS i
$$;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "search_grams" text[] GENERATED ALWAYS AS (student_search_grams(name, student_no)) STORED;--> statement-breakpoint
CREATE INDEX "students_search_grams_idx" ON "students" USING gin ("search_grams");
