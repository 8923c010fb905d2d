// Whose essay is this: a class's essay photos uploaded at once carry no student until the teacher
// names one, but students head their essay with their name or 学号. When the first lines of the
// recognised text name exactly one student of the task's class, the essay is theirs.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db';
import { students } from '../../db/schema';
import type { TaskRow } from './access';

/** Lines of the text looked at: a name is written above the title or beside it, not in the body. */
const HEAD_LINES = 3;

export function studentNamedIn(text: string, roster: { id: number; name: string; studentNo: string | null }[]): number | null {
  const head = text.split(/\n/).slice(0, HEAD_LINES).join('').replace(/\s+/g, '');
  if (!head) return null;
  const named = roster.filter((s) => (s.name.length >= 2 && head.includes(s.name)) || (s.studentNo && s.studentNo.length >= 4 && head.includes(s.studentNo)));
  // Two students named (a name inside a longer one, or both a name and another's number): the teacher decides.
  return named.length === 1 ? named[0]!.id : null;
}

export async function ownerOfEssay(db: Db, task: TaskRow, text: string): Promise<number | null> {
  if (task.classId === null) return null;
  const roster = await db
    .select({ id: students.id, name: students.name, studentNo: students.studentNo })
    .from(students)
    .where(and(eq(students.classId, task.classId), eq(students.tenantId, task.tenantId), eq(students.status, 0)));
  return studentNamedIn(text, roster);
}
