// Answer records are partitioned by term (migration 0034, server/modules/minerva/answerPartitions.ts):
// each term's rows live in that term's partition, a report of one term reads one partition, and a
// row of a term with no partition yet waits in the default one until its partition is made.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../server/db/query';
import { ensureAnswerPartitions, termsAround } from '../../server/modules/minerva/answerPartitions';
import { openTestDatabase } from '../support/testDatabase';

describe('answer records partitioned by term', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => database?.close());

  const where = () =>
    rows<{ part: string; term: string; n: number }>(database.db, sql`SELECT tableoid::regclass::text AS part, term, count(*)::int AS n FROM answer_records GROUP BY 1, 2 ORDER BY 2`);

  it("keeps each of the demo's terms in its own partition, none in the default one", async () => {
    const [{ parts }] = await rows<{ parts: number }>(database.db, sql`SELECT count(*)::int AS parts FROM pg_inherits WHERE inhparent = 'answer_records'::regclass`);
    expect(parts).toBeGreaterThanOrEqual(termsAround().length + 1);
    const found = await where();
    expect(found.length).toBeGreaterThan(0);
    for (const f of found) expect(f.part).toBe(`answer_records_${f.term}`);
    const [{ n }] = await rows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM answer_records_default`);
    expect(n).toBe(0);
  });

  it('reads one partition for a report of one term', async () => {
    const [{ term }] = await where();
    const plan = (await rows<{ 'QUERY PLAN': string }>(database.db, sql`EXPLAIN SELECT count(*) FROM answer_records WHERE tenant_id = 1 AND term = ${term}`)).map((r) => r['QUERY PLAN']).join('\n');
    // Partitions by name (answer_records_202601, answer_records_default), not their indexes (…_pkey).
    const scanned = [...plan.matchAll(/answer_records_(default|\d{6})\b/g)].map((m) => m[1]);
    // Without pruning the plan would scan every term's partition (eight around today) and the default.
    expect(new Set(scanned)).toEqual(new Set([term]));
  });

  it('moves a term that arrived before its partition into a partition of its own', async () => {
    const future = new Date(Date.UTC(2031, 9, 1));
    const term = '203101';
    expect(termsAround(future)).toContain(term);
    // A record of a term far ahead: no partition yet, so it lands in the default one.
    await database.db.execute(sql`
      INSERT INTO answer_records (tenant_id, source_type, source_id, student_id, question_id, school_id, class_id, subject_id, term,
                                  knowledge_point_ids, is_correct, score, max_score, answer, graded_by, answered_at)
      SELECT tenant_id, source_type, source_id, student_id, question_id, school_id, class_id, subject_id, ${term},
             knowledge_point_ids, is_correct, score, max_score, answer, graded_by, answered_at
        FROM answer_records LIMIT 3`);
    expect((await where()).filter((f) => f.term === term)).toEqual([{ part: 'answer_records_default', term, n: 3 }]);

    expect(await ensureAnswerPartitions(database.db, future)).toContain(term);
    expect((await where()).filter((f) => f.term === term)).toEqual([{ part: `answer_records_${term}`, term, n: 3 }]);
    // Made once: a second call has nothing to do.
    expect(await ensureAnswerPartitions(database.db, future)).toEqual([]);
  });
});
