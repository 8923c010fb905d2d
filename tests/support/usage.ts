// Deterministic terminal usage for board tests and screenshots: on every deployed terminal of the
// seed, some of its school's students and teachers sign in on some days and print a few jobs,
// written through the device API's own recorders (so the rollups are the real ones).
import { sql } from 'drizzle-orm';
import type { Db } from '../../server/db';
import { rows } from '../../server/db/query';
import { random } from '../../server/seed/draft';
import { recordPrintJobs, recordSignIn, type DeviceRef, type PrintJobInput } from '../../server/modules/devices/usage';
import { PRINT_APPS, UserKind } from '../../src/domain/partner';

const DAY = 86_400_000;

export interface UsageOptions {
  /** Days back from `now`, today included. */
  days?: number;
  seed?: number;
  now?: Date;
}

/** Writes the usage; returns how many sign-ins and print jobs it recorded. */
export async function generateUsage(db: Db, { days = 40, seed = 7, now = new Date() }: UsageOptions = {}): Promise<{ signIns: number; jobs: number }> {
  const next = random(seed);
  const devices = await rows<DeviceRef>(db, sql`
    SELECT id, partner_id AS "partnerId", school_id AS "schoolId", tenant_id AS "tenantId" FROM devices WHERE school_id IS NOT NULL ORDER BY id`);
  const subjects = (await rows<{ id: number }>(db, sql`SELECT id FROM subjects ORDER BY id`)).map((s) => s.id);
  const people = new Map<number, { kind: number; id: number }[]>();
  for (const d of devices) {
    if (people.has(d.schoolId)) continue;
    // Every fourth student, so each class has some users and some who never print.
    const students = await rows<{ id: number }>(db, sql`SELECT id FROM students WHERE school_id = ${d.schoolId} AND status = 0 AND id % 4 = 0 ORDER BY id`);
    const teachers = await rows<{ id: number }>(db, sql`SELECT id FROM teachers WHERE school_id = ${d.schoolId} ORDER BY id LIMIT 4`);
    people.set(d.schoolId, [...students.map((s) => ({ kind: UserKind.student, id: s.id })), ...teachers.map((t) => ({ kind: UserKind.teacher, id: t.id }))]);
  }
  let signIns = 0;
  let jobs = 0;
  for (const d of devices) {
    const users = people.get(d.schoolId)!;
    for (let back = days - 1; back >= 0; back--) {
      if (next() < 0.35) continue; // a quiet day for this terminal
      const dayStart = Math.floor((now.getTime() + 8 * 3600_000) / DAY) * DAY - 8 * 3600_000 - back * DAY;
      const visitors = 1 + Math.floor(next() * 4);
      const batch: PrintJobInput[] = [];
      for (let v = 0; v < visitors; v++) {
        const user = users[Math.floor(next() * users.length)];
        // School hours 07:30–17:30 China time, and never after `now`.
        const at = new Date(Math.min(dayStart + (7.5 + next() * 10) * 3600_000, now.getTime() - 60_000 * (v + 1)));
        await recordSignIn(db, d, { userKind: user.kind, userId: user.id }, at);
        signIns++;
        const printed = Math.floor(next() * 3);
        for (let j = 0; j < printed; j++) {
          batch.push({
            clientJobId: `gen-${seed}-${d.id}-${back}-${v}-${j}`,
            userKind: user.kind,
            userId: user.id,
            app: PRINT_APPS[Math.floor(next() * PRINT_APPS.length)].value,
            subjectId: next() < 0.15 ? null : subjects[Math.floor(next() * Math.min(5, subjects.length))],
            pages: 1 + Math.floor(next() * 6),
            printedAt: new Date(at.getTime() + (j + 1) * 30_000),
          });
        }
      }
      jobs += await recordPrintJobs(db, d, batch);
    }
  }
  return { signIns, jobs };
}
