// Answer groups of the by-question review: the students whose fill-in or short answer reads the
// same once normalized (full-width to half-width, spaces and case ignored), so one decision can
// mark them all. A student taken out of their group is left to be marked alone.
import { normalizeAnswer } from '../../domain/answerGroups';

export { normalizeAnswer };

export interface AnswerGroup {
  key: string;
  /** The reading as the first student of the group wrote it ('' for no answer). */
  shown: string;
  resultIds: number[];
}

/** Groups of two or more students with the same reading, largest first; `detached` students stay out. */
export function answerGroups(rows: { resultId: number; given: string }[], detached: ReadonlySet<number>): AnswerGroup[] {
  const groups = new Map<string, AnswerGroup>();
  for (const row of rows) {
    if (detached.has(row.resultId)) continue;
    const key = normalizeAnswer(row.given);
    const group = groups.get(key) ?? { key, shown: row.given.trim(), resultIds: [] };
    group.resultIds.push(row.resultId);
    groups.set(key, group);
  }
  return [...groups.values()].filter((g) => g.resultIds.length > 1).sort((a, b) => b.resultIds.length - a.resultIds.length || a.key.localeCompare(b.key));
}
