// The one write path of answer records. Grading (answer sheets, homework photos, essays) and a
// teacher's review call recordAnswers; it validates every row against the piece of work, writes
// the records and moves the rollups by the exact difference, all in one transaction, so reports
// never read a half-applied change. rebuildRollups recomputes the rollups from the records (the
// demo seed's bulk path, and the check that incremental upkeep never drifts).
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { GradedBy } from '../../db/schema';
import { SourceType } from '../../../src/domain/content';
import { ApiError } from '../../http/envelope';
import { pgErrorCode } from '../../db/errors';

export interface AnswerInput {
  /** SPEC §3: 0 custom homework, 1 homework book (both homeworks.id), 2 exam (exams.id). */
  sourceType: number;
  sourceId: number;
  studentId: number;
  questionId: number;
  score: number;
  /** Defaults to full points on the item. */
  isCorrect?: boolean;
  answer?: string | null;
  answeredAt?: Date;
}

export interface RecordOptions {
  /** A review overrides grading; grading never overrides a review. */
  by: 'machine' | 'review';
  reviewerId?: number;
}

interface Resolved {
  source_type: number;
  source_id: number;
  student_id: number;
  question_id: number;
  school_id: number;
  class_id: number;
  subject_id: number;
  course_id: number;
  term: string;
  knowledge_point_ids: number[];
  max_score: number;
  is_correct: boolean;
  score: number;
  answer: string | null;
  answered_at: string;
}

const keyOf = (r: { sourceType: number; sourceId: number; studentId: number; questionId: number }) =>
  `${r.sourceType}:${r.sourceId}:${r.studentId}:${r.questionId}`;

/**
 * Every input row, tied to the caller's tenant: the work exists in it, the question is one of its
 * items (which gives the points), and the student is in one of its classes — or already has a
 * record there (a student who changed class keeps their past work).
 */
async function resolve(db: Db, tenantId: number, input: AnswerInput[]): Promise<Resolved[]> {
  const payload = JSON.stringify(
    input.map((r) => ({
      source_type: r.sourceType,
      source_id: r.sourceId,
      student_id: r.studentId,
      question_id: r.questionId,
      score: r.score,
      is_correct: r.isCorrect ?? null,
      answer: r.answer ?? null,
      answered_at: (r.answeredAt ?? new Date()).toISOString(),
    })),
  );
  return rows<Resolved>(db, sql`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${payload}::jsonb)
        AS x(source_type smallint, source_id int, student_id int, question_id int, score real, is_correct boolean, answer text, answered_at timestamptz)
    ),
    work AS (
      SELECT h.source_type, h.id AS source_id, h.class_id, h.term, co.subject_id, co.id AS course_id, h.items
        FROM homeworks h JOIN courses co ON co.id = h.course_id
       WHERE h.tenant_id = ${tenantId} AND (h.source_type, h.id) IN (SELECT source_type, source_id FROM input WHERE source_type IN (${SourceType.customHomework}, ${SourceType.bookHomework}))
      UNION ALL
      SELECT ${SourceType.exam}::smallint, e.id, ec.class_id, e.term, co.subject_id, co.id, e.items
        FROM exams e JOIN exam_classes ec ON ec.exam_id = e.id JOIN courses co ON co.id = e.course_id
       WHERE e.tenant_id = ${tenantId} AND e.id IN (SELECT source_id FROM input WHERE source_type = ${SourceType.exam})
    )
    SELECT i.source_type, i.source_id, i.student_id, i.question_id, s.school_id,
           coalesce(old.class_id, s.class_id) AS class_id, w.subject_id, w.course_id, w.term, q.knowledge_point_ids,
           item.points AS max_score,
           coalesce(i.is_correct, i.score >= item.points) AS is_correct,
           i.score, i.answer, i.answered_at
      FROM input i
      JOIN students s ON s.id = i.student_id AND s.tenant_id = ${tenantId}
      JOIN questions q ON q.id = i.question_id
      LEFT JOIN answer_records old
        ON old.tenant_id = ${tenantId} AND old.source_type = i.source_type AND old.source_id = i.source_id
       AND old.student_id = i.student_id AND old.question_id = i.question_id
      JOIN work w ON w.source_type = i.source_type AND w.source_id = i.source_id AND w.class_id = coalesce(old.class_id, s.class_id)
      JOIN LATERAL (SELECT (it->>'points')::real AS points FROM jsonb_array_elements(w.items) it
                     WHERE (it->>'questionId')::int = i.question_id LIMIT 1) item ON TRUE`);
}

/**
 * Writes graded answers and moves every rollup by the difference, in one transaction.
 * Rows that do not belong to the tenant's work are refused as a whole (404), scores outside
 * 0…points as a whole (400). Returns how many records changed (a machine grade that meets a
 * review changes nothing).
 */
export async function recordAnswers(db: Db, tenantId: number, input: AnswerInput[], options: RecordOptions): Promise<number> {
  if (!input.length) return 0;
  // The same answer twice in one call: the later one counts. Scores are kept to the hundredth of a
  // point: finer values mean nothing to a teacher and underflow the `real` columns.
  const unique = [...new Map(input.map((r) => [keyOf(r), { ...r, score: Math.round(r.score * 100) / 100 }])).values()];
  const gradedBy = options.by === 'review' ? GradedBy.review : GradedBy.machine;
  // Writers of different students share rollup rows (a class's, a school's); each locks them in
  // key order, but a deadlock with another kind of writer rolls the whole write back, and it is
  // safe to write it again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeOnce(db, tenantId, unique, gradedBy, options);
    } catch (error) {
      if (attempt >= 3 || pgErrorCode(error) !== '40P01') throw error;
    }
  }
}

async function writeOnce(db: Db, tenantId: number, unique: AnswerInput[], gradedBy: number, options: RecordOptions): Promise<number> {
  return db.transaction(async (tx) => {
    // Writers of one student's work take turns, so each computes its difference from what the
    // other committed (a plain upsert cannot say what it replaced).
    const lockKeys = [...new Set(unique.map((r) => `answers:${tenantId}:${r.sourceType}:${r.sourceId}:${r.studentId}`))].sort();
    await tx.execute(sql`
      SELECT pg_advisory_xact_lock(hashtextextended(k, 0))
        FROM (SELECT k FROM unnest(${`{${lockKeys.map((k) => `"${k}"`).join(',')}}`}::text[]) k ORDER BY k) keys`);
    const resolved = await resolve(tx, tenantId, unique);
    if (resolved.length !== unique.length) throw new ApiError(404, '作答记录中有不属于本校作业或考试的学生或题目');
    const bad = resolved.find((r) => !(r.score >= 0 && r.score <= r.max_score));
    if (bad) throw new ApiError(400, `得分须在 0 到 ${bad.max_score} 分之间`);
    const [{ changed }] = await rows<{ changed: number }>(tx, sql`
      WITH input AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(resolved)}::jsonb)
          AS x(source_type smallint, source_id int, student_id int, question_id int, school_id int, class_id int, subject_id int,
               course_id int, term text, knowledge_point_ids int[], max_score real, is_correct boolean, score real, answer text, answered_at timestamptz)
      ),
      old AS (
        SELECT r.* FROM answer_records r
          JOIN input i ON r.tenant_id = ${tenantId} AND r.source_type = i.source_type AND r.source_id = i.source_id
                      AND r.student_id = i.student_id AND r.question_id = i.question_id
      ),
      written AS (
        INSERT INTO answer_records AS r (tenant_id, source_type, source_id, student_id, question_id, school_id, class_id, subject_id, term,
                                         knowledge_point_ids, is_correct, score, max_score, answer, graded_by, reviewer_id, answered_at)
        SELECT ${tenantId}, source_type, source_id, student_id, question_id, school_id, class_id, subject_id, term,
               knowledge_point_ids, is_correct, score, max_score, answer, ${gradedBy}, ${options.reviewerId ?? null}::int, answered_at
          FROM input
        ON CONFLICT (tenant_id, source_type, source_id, student_id, question_id, term) DO UPDATE
           SET is_correct = EXCLUDED.is_correct, score = EXCLUDED.score, max_score = EXCLUDED.max_score,
               answer = coalesce(EXCLUDED.answer, r.answer), graded_by = EXCLUDED.graded_by,
               reviewer_id = EXCLUDED.reviewer_id, updated_at = now()
         WHERE r.graded_by <= EXCLUDED.graded_by
        RETURNING r.tenant_id, r.source_type, r.source_id, r.student_id, r.question_id, r.class_id, r.subject_id, r.term,
                  r.knowledge_point_ids, r.answered_at, r.is_correct, r.score, r.max_score
      ),
      delta AS (
        SELECT w.tenant_id, w.source_type, w.source_id, w.student_id, w.question_id, w.class_id, w.subject_id, w.term,
               w.knowledge_point_ids, ((w.answered_at AT TIME ZONE 'UTC') + interval '8 hours')::date AS day,
               (o.student_id IS NULL)::int AS answered,
               w.is_correct::int - coalesce(o.is_correct::int, 0) AS correct,
               w.score - coalesce(o.score, 0) AS score,
               w.max_score - coalesce(o.max_score, 0) AS max_score,
               w.score * w.score - coalesce(o.score * o.score, 0) AS score_squares
          FROM written w
          LEFT JOIN old o ON o.source_type = w.source_type AND o.source_id = w.source_id AND o.student_id = w.student_id AND o.question_id = w.question_id
      ),
      by_question AS (
        INSERT INTO work_question_stats AS s (tenant_id, source_type, source_id, class_id, question_id, answered, correct, score, max_score, score_squares)
        SELECT tenant_id, source_type, source_id, class_id, question_id, sum(answered), sum(correct), sum(score), sum(max_score), sum(score_squares)
          FROM delta GROUP BY tenant_id, source_type, source_id, class_id, question_id ORDER BY 1, 2, 3, 4, 5
        ON CONFLICT (tenant_id, source_type, source_id, class_id, question_id) DO UPDATE
           SET answered = s.answered + EXCLUDED.answered, correct = s.correct + EXCLUDED.correct, score = s.score + EXCLUDED.score,
               max_score = s.max_score + EXCLUDED.max_score, score_squares = s.score_squares + EXCLUDED.score_squares
      ),
      by_student AS (
        INSERT INTO work_student_stats AS s (tenant_id, source_type, source_id, student_id, class_id, answered, correct, score, max_score)
        SELECT tenant_id, source_type, source_id, student_id, min(class_id), sum(answered), sum(correct), sum(score), sum(max_score)
          FROM delta GROUP BY tenant_id, source_type, source_id, student_id ORDER BY 1, 2, 3, 4
        ON CONFLICT (tenant_id, source_type, source_id, student_id) DO UPDATE
           SET answered = s.answered + EXCLUDED.answered, correct = s.correct + EXCLUDED.correct, score = s.score + EXCLUDED.score,
               max_score = s.max_score + EXCLUDED.max_score
        RETURNING s.tenant_id, s.source_type, s.source_id, s.student_id, s.class_id, s.score, s.max_score
      ),
      work_course AS (SELECT DISTINCT source_type, source_id, course_id FROM input),
      by_school_question AS (
        INSERT INTO school_question_stats AS s (tenant_id, term, school_id, course_id, question_id, answered, correct)
        SELECT d.tenant_id, d.term, c.school_id, wc.course_id, d.question_id, sum(d.answered), sum(d.correct)
          FROM delta d JOIN work_course wc ON wc.source_type = d.source_type AND wc.source_id = d.source_id
          JOIN classes c ON c.id = d.class_id
         GROUP BY d.tenant_id, d.term, c.school_id, wc.course_id, d.question_id ORDER BY 1, 2, 3, 4, 5
        ON CONFLICT (tenant_id, term, school_id, course_id, question_id) DO UPDATE
           SET answered = s.answered + EXCLUDED.answered, correct = s.correct + EXCLUDED.correct
      ),
      -- A student's totals on the work before this write (the statement's snapshot) and after it
      -- (as by_student stored them, so a band is judged on exactly the total a rebuild sums): the
      -- class rollup moves by the difference, and the student from one band to another.
      student_change AS (
        SELECT n.tenant_id, n.source_type, n.source_id, n.student_id, n.class_id, w.term, w.course_id,
               o.student_id IS NULL AS first, coalesce(o.score, 0) AS old_score, coalesce(o.max_score, 0) AS old_max,
               n.score AS new_score, n.max_score AS new_max
          FROM by_student n
          JOIN (SELECT delta.source_type, delta.source_id, min(delta.term) AS term, min(wc.course_id) AS course_id
                  FROM delta JOIN work_course wc ON wc.source_type = delta.source_type AND wc.source_id = delta.source_id
                 GROUP BY 1, 2) w ON w.source_type = n.source_type AND w.source_id = n.source_id
          LEFT JOIN work_student_stats o ON o.tenant_id = n.tenant_id AND o.source_type = n.source_type AND o.source_id = n.source_id AND o.student_id = n.student_id
      ),
      by_class AS (
        INSERT INTO work_class_stats AS s (tenant_id, source_type, source_id, class_id, submitted, score, max_score, excellent, good, pass, fail)
        SELECT tenant_id, source_type, source_id, class_id, count(*) FILTER (WHERE first),
               sum(new_score::float8 - old_score::float8), sum(new_max::float8 - old_max::float8),
               ${bandChange('excellent')}, ${bandChange('good')}, ${bandChange('pass')}, ${bandChange('fail')}
          FROM student_change GROUP BY tenant_id, source_type, source_id, class_id ORDER BY 1, 2, 3, 4
        ON CONFLICT (tenant_id, source_type, source_id, class_id) DO UPDATE
           SET submitted = s.submitted + EXCLUDED.submitted, score = s.score + EXCLUDED.score, max_score = s.max_score + EXCLUDED.max_score,
               excellent = s.excellent + EXCLUDED.excellent, good = s.good + EXCLUDED.good, pass = s.pass + EXCLUDED.pass, fail = s.fail + EXCLUDED.fail
      ),
      by_participant AS (
        INSERT INTO class_participants (tenant_id, term, class_id, course_id, student_id)
        SELECT DISTINCT c.tenant_id, c.term, c.class_id, x.course_id, c.student_id
          FROM student_change c, LATERAL (VALUES (c.course_id), (0)) x(course_id) WHERE c.first
        ON CONFLICT DO NOTHING
      ),
      by_class_point AS (
        INSERT INTO class_knowledge_stats AS s (tenant_id, class_id, knowledge_point_id, day, subject_id, term, answered, correct, score, max_score)
        SELECT tenant_id, class_id, kp, day, min(subject_id), min(term), sum(answered), sum(correct), sum(score), sum(max_score)
          FROM delta, unnest(knowledge_point_ids) kp GROUP BY tenant_id, class_id, kp, day ORDER BY 1, 2, 3, 4
        ON CONFLICT (tenant_id, class_id, knowledge_point_id, day) DO UPDATE
           SET answered = s.answered + EXCLUDED.answered, correct = s.correct + EXCLUDED.correct, score = s.score + EXCLUDED.score,
               max_score = s.max_score + EXCLUDED.max_score
      ),
      by_student_point AS (
        INSERT INTO student_knowledge_stats AS s (tenant_id, student_id, knowledge_point_id, term, subject_id, answered, correct, score, max_score)
        SELECT tenant_id, student_id, kp, term, min(subject_id), sum(answered), sum(correct), sum(score), sum(max_score)
          FROM delta, unnest(knowledge_point_ids) kp GROUP BY tenant_id, student_id, kp, term ORDER BY 1, 2, 3, 4
        ON CONFLICT (tenant_id, student_id, term, knowledge_point_id) DO UPDATE
           SET answered = s.answered + EXCLUDED.answered, correct = s.correct + EXCLUDED.correct, score = s.score + EXCLUDED.score,
               max_score = s.max_score + EXCLUDED.max_score
      )
      SELECT count(*)::int AS changed FROM delta`);
    return changed;
  });
}

/** Every rollup kept from the answer records, each with its tenant column. */
export const ROLLUPS = ['work_question_stats', 'school_question_stats', 'work_student_stats', 'work_class_stats', 'class_participants', 'class_knowledge_stats', 'student_knowledge_stats'] as const;

/**
 * A student's band on a piece of work by their score rate (docs/analysis-figures.md): excellent
 * ≥ 90 %, good 70–90 %, pass 60–70 %, fail below; with no points to score, none. The one
 * definition for the write path, the rebuild and the migration that filled work_class_stats.
 */
const BANDS = { excellent: [0.9, null], good: [0.7, 0.9], pass: [0.6, 0.7], fail: [null, 0.6] } as const;
type Band = keyof typeof BANDS;
function inBand(band: Band, score: SQL, max: SQL): SQL {
  const [low, high] = BANDS[band];
  return sql`(${max} > 0${low === null ? sql`` : sql` AND ${score} >= ${sql.raw(String(low))} * ${max}`}${high === null ? sql`` : sql` AND ${score} < ${sql.raw(String(high))} * ${max}`})`;
}
const bandCount = (band: Band) => sql`count(*) FILTER (WHERE ${inBand(band, sql`score`, sql`max_score`)})`;
/** Students entering the band minus those leaving it (a first hand-in was in no band before). */
const bandChange = (band: Band) =>
  sql`(count(*) FILTER (WHERE ${inBand(band, sql`new_score`, sql`new_max`)}) - count(*) FILTER (WHERE NOT first AND ${inBand(band, sql`old_score`, sql`old_max`)}))::int`;

/** Recomputes a tenant's rollups from its answer records (bulk loads, and to check upkeep). */
export async function rebuildRollups(db: Db, tenantId: number): Promise<void> {
  const t = tenantId;
  await db.transaction(async (tx) => {
    for (const table of ROLLUPS) {
      await tx.execute(sql`DELETE FROM ${sql.identifier(table)} WHERE tenant_id = ${t}`);
    }
    const tally = sql`count(*), count(*) FILTER (WHERE is_correct), sum(score), sum(max_score)`;
    await tx.execute(sql`
      INSERT INTO work_question_stats (tenant_id, source_type, source_id, class_id, question_id, answered, correct, score, max_score, score_squares)
      SELECT tenant_id, source_type, source_id, class_id, question_id, ${tally}, sum(score * score)
        FROM answer_records WHERE tenant_id = ${t} GROUP BY tenant_id, source_type, source_id, class_id, question_id`);
    await tx.execute(sql`
      INSERT INTO work_student_stats (tenant_id, source_type, source_id, student_id, class_id, answered, correct, score, max_score)
      SELECT tenant_id, source_type, source_id, student_id, min(class_id), ${tally}
        FROM answer_records WHERE tenant_id = ${t} GROUP BY tenant_id, source_type, source_id, student_id`);
    await tx.execute(sql`
      INSERT INTO work_class_stats (tenant_id, source_type, source_id, class_id, submitted, score, max_score, excellent, good, pass, fail)
      SELECT tenant_id, source_type, source_id, class_id, count(*), sum(score::float8), sum(max_score::float8),
             ${bandCount('excellent')}, ${bandCount('good')}, ${bandCount('pass')}, ${bandCount('fail')}
        FROM work_student_stats WHERE tenant_id = ${t} GROUP BY tenant_id, source_type, source_id, class_id`);
    await tx.execute(sql`
      INSERT INTO class_participants (tenant_id, term, class_id, course_id, student_id)
      SELECT DISTINCT s.tenant_id, w.term, s.class_id, x.course_id, s.student_id
        FROM work_student_stats s
        JOIN (SELECT source_type, id, term, course_id FROM homeworks WHERE tenant_id = ${t}
              UNION ALL SELECT ${SourceType.exam}::smallint, id, term, course_id FROM exams WHERE tenant_id = ${t}) w
          ON w.source_type = s.source_type AND w.id = s.source_id,
             LATERAL (VALUES (w.course_id), (0)) x(course_id)
       WHERE s.tenant_id = ${t}`);
    await tx.execute(sql`
      INSERT INTO school_question_stats (tenant_id, term, school_id, course_id, question_id, answered, correct)
      SELECT s.tenant_id, w.term, c.school_id, w.course_id, s.question_id, sum(s.answered), sum(s.correct)
        FROM work_question_stats s JOIN classes c ON c.id = s.class_id
        JOIN (SELECT source_type, id, term, course_id FROM homeworks WHERE tenant_id = ${t}
              UNION ALL SELECT ${SourceType.exam}::smallint, id, term, course_id FROM exams WHERE tenant_id = ${t}) w
          ON w.source_type = s.source_type AND w.id = s.source_id
       WHERE s.tenant_id = ${t}
       GROUP BY s.tenant_id, w.term, c.school_id, w.course_id, s.question_id`);
    await tx.execute(sql`
      INSERT INTO class_knowledge_stats (tenant_id, class_id, knowledge_point_id, day, subject_id, term, answered, correct, score, max_score)
      SELECT tenant_id, class_id, kp, ((answered_at AT TIME ZONE 'UTC') + interval '8 hours')::date, min(subject_id), min(term), ${tally}
        FROM answer_records, unnest(knowledge_point_ids) kp WHERE tenant_id = ${t}
       GROUP BY tenant_id, class_id, kp, ((answered_at AT TIME ZONE 'UTC') + interval '8 hours')::date`);
    await tx.execute(sql`
      INSERT INTO student_knowledge_stats (tenant_id, student_id, knowledge_point_id, term, subject_id, answered, correct, score, max_score)
      SELECT tenant_id, student_id, kp, term, min(subject_id), ${tally}
        FROM answer_records, unnest(knowledge_point_ids) kp WHERE tenant_id = ${t} GROUP BY tenant_id, student_id, kp, term`);
  });
}
