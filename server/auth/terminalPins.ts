// Students' terminal PINs: six digits a student types at a print terminal to prove that a named
// 学生心声 is theirs (the terminal signs students in by number alone, which anyone can type).
//
// Six digits are a million possibilities, so a slow hash would not protect them from someone
// holding the table: what does is the key. The stored value is an HMAC-SHA256 keyed with the
// server's PIN key (TERMINAL_PIN_KEY or DATA_DIR/terminal-pin-key), which is not in the database;
// the student's id is in the message, so one hash is useless for another student. Guessing
// online is stopped by the per-student lockout (pinAttempts.ts in the heart-voice module).
import { createHash, createHmac, randomInt, timingSafeEqual } from 'node:crypto';

export const PIN_PATTERN = /^\d{6}$/;

export const hashPin = (key: Uint8Array, studentId: number, pin: string): string =>
  createHmac('sha256', key).update(`terminal-pin:${studentId}:${pin}`).digest('hex');

/** Constant-time check of a typed PIN against the stored hash. */
export function pinMatches(key: Uint8Array, studentId: number, pin: string, stored: string | null): boolean {
  if (!stored || !PIN_PATTERN.test(pin)) return false;
  const a = Buffer.from(hashPin(key, studentId, pin), 'hex');
  const b = Buffer.from(stored, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** PINs anyone would try first: one digit six times, or a run up or down (123456, 987654). */
export function isWeakPin(pin: string): boolean {
  const digits = [...pin].map(Number);
  const steps = new Set(digits.slice(1).map((d, i) => (d - digits[i] + 10) % 10));
  return steps.size === 1 && [0, 1, 9].includes([...steps][0]);
}

/** A random PIN that is not a weak one. */
export function randomPin(): string {
  for (;;) {
    const pin = String(randomInt(0, 1_000_000)).padStart(6, '0');
    if (!isWeakPin(pin)) return pin;
  }
}

/**
 * The demo students' PINs, from the student number: like the demo accounts' published password,
 * for the demo only (the simulator posts named messages with them). Real PINs are set or imported
 * by the school admin, or drawn by randomPin.
 */
export function demoStudentPin(studentNo: string): string {
  const n = createHash('sha256').update(`xuezhu-demo-pin:${studentNo}`).digest().readUInt32BE(0) % 1_000_000;
  const pin = String(n).padStart(6, '0');
  return isWeakPin(pin) ? '258147' : pin;
}
