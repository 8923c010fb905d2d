// The demo students' terminal PINs (server/auth/terminalPins.ts): every student of the demo gets
// the PIN demoStudentPin computes from their number, so the device simulator can post named
// 学生心声 and the demo stays the same from one seeding to the next. Hashed with the server's PIN
// key, like a PIN the school admin sets.
import { sql } from 'drizzle-orm';
import type { Db } from '../db';
import { rows } from '../db/query';
import { demoStudentPin, hashPin } from '../auth/terminalPins';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export async function seedStudentPins(tx: Tx, pinKey: Uint8Array) {
  const students = await rows<{ id: number; studentNo: string }>(tx, sql`SELECT id, student_no AS "studentNo" FROM students ORDER BY id`);
  for (let i = 0; i < students.length; i += 2000) {
    const chunk = students.slice(i, i + 2000).map((s) => ({ i: s.id, h: hashPin(pinKey, s.id, demoStudentPin(s.studentNo)) }));
    await tx.execute(sql`
      UPDATE students s SET terminal_pin_hash = x.h
        FROM jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) AS x(i int, h text) WHERE s.id = x.i`);
  }
}
