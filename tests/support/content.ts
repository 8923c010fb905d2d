// Helpers for the teaching-content API tests: raw reads of the answer records, so figures the
// server reports can be checked against an independent computation.
import { sql } from 'drizzle-orm';
import type { TestApp } from './testApp';

export interface RawRecord {
  studentId: number;
  classId: number;
  questionId: number;
  score: number;
  maxScore: number;
  isCorrect: boolean;
  answer: string | null;
}

export async function rawRecords(t: TestApp, sourceType: number, sourceId: number): Promise<RawRecord[]> {
  const result = (await t.database.db.execute(sql`
    SELECT student_id AS "studentId", class_id AS "classId", question_id AS "questionId", score, max_score AS "maxScore",
           is_correct AS "isCorrect", answer
      FROM answer_records WHERE source_type = ${sourceType} AND source_id = ${sourceId}`)) as unknown as { rows: RawRecord[] };
  return result.rows;
}

export async function query<T>(t: TestApp, text: ReturnType<typeof sql>): Promise<T[]> {
  return ((await t.database.db.execute(text)) as unknown as { rows: T[] }).rows;
}

/** Every rollup of a tenant, as sorted text, to compare upkeep on write with a rebuild. */
export async function rollupSnapshot(t: TestApp, tenantId: number): Promise<string> {
  const tables = ['work_question_stats', 'work_student_stats', 'class_knowledge_stats', 'student_knowledge_stats'];
  const parts: string[] = [];
  for (const table of tables) {
    const rows = await query<Record<string, unknown>>(t, sql`SELECT * FROM ${sql.identifier(table)} WHERE tenant_id = ${tenantId}`);
    parts.push(table, ...rows.map((r) => JSON.stringify(Object.keys(r).sort().map((k) => [k, typeof r[k] === 'number' ? Math.round((r[k] as number) * 1000) / 1000 : r[k]]))).sort());
  }
  return parts.join('\n');
}
