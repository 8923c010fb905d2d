-- The student wrong-answer book reads a class's students' records of a term in a subject; with
-- these columns included it reads them from the index alone (server/modules/wrongbook/students.ts).
CREATE INDEX "answer_records_student_term_idx" ON "answer_records" USING btree ("tenant_id","student_id","term","subject_id") INCLUDE ("question_id","is_correct","answered_at","source_type","source_id");
