// Retention of 学生心声 (PIPL: kept no longer than needed): RETENTION_DAYS after a message is
// handled, its words, its follow-up notes, the reasons in its read log and the link to its writer
// are deleted; the row stays with its week, grade, class, category, mood and levels, so the counts
// and the mood chart do not change. Swept at start and daily (index.ts).
import { sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { RETENTION_DAYS, VoiceStatus } from '../../../src/domain/heartVoices';

/** Purges what is past retention at `now`; returns how many messages were purged. */
export async function sweepExpiredVoices(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - RETENTION_DAYS * 24 * 3600 * 1000).toISOString();
  return db.transaction(async (tx) => {
    const purged = await rows<{ id: number }>(
      tx as unknown as Db,
      sql`UPDATE heart_voices SET content = NULL, student_id = NULL, purged_at = ${now.toISOString()}
           WHERE status = ${VoiceStatus.handled} AND handled_at < ${cutoff} AND purged_at IS NULL RETURNING id`,
    );
    if (!purged.length) return 0;
    const ids = JSON.stringify(purged.map((p) => p.id));
    const inPurged = sql`(SELECT jsonb_array_elements_text(${ids}::jsonb)::int)`;
    await tx.execute(sql`UPDATE heart_voice_follow_ups SET note = NULL WHERE voice_id IN ${inPurged}`);
    await tx.execute(sql`UPDATE heart_voice_reads SET reason = NULL WHERE voice_id IN ${inPurged}`);
    await tx.execute(sql`UPDATE heart_notices SET text = '该心声已按保存期限删除' WHERE voice_id IN ${inPurged}`);
    return purged.length;
  });
}
