import { describe, expect, it } from 'vitest';
import type { Degradation } from '../../server/grading/corpus/degrade.js';
import { CLEAN_MIX, LIGHT_STUDENT_MIX, PENCIL_MIX, randomFilling, type Filling } from '../../server/grading/corpus/generate.js';
import type { MarkStyle } from '../../server/grading/corpus/marks.js';
import { rng } from '../../server/grading/corpus/random.js';
import type { ItemReading } from '../../server/grading/index.js';
import { corpusFilling, math, read, silentErrors } from './omrSheet';

// Pencil marks as students really make them: ticks instead of fills, a student who writes
// lightly, a light second mark, the ghost an eraser leaves. A wrong reading may be flagged for
// the teacher, but never passed on silently.

const PHONE: Degradation = { perspective: 0.7, rotateDeg: 5, shadow: 0.3, noise: 5, blur: 0.8, jpegQuality: 70 };

type Marks = Record<number, [string, MarkStyle][]>;

/** A clean filling (one full mark per item) with the given items replaced. */
function filling(seed: number, marks: Marks, base = CLEAN_MIX): Filling {
  const f = randomFilling(math, { sheetId: math.sheetId, page: 1, studentId: '20240101' }, rng(seed), base);
  for (const [no, m] of Object.entries(marks)) f.objective[Number(no)] = m.map(([label, style]) => ({ label, style }));
  return f;
}

const item = (items: ItemReading[], no: number) => items.find((i) => i.no === no)!;

describe('ticks (✓) instead of fills', () => {
  const marks: Marks = {
    1: [['B', 'tick']], // a lone tick: the student's answer
    2: [['A', 'full'], ['D', 'tick']], // filled A and ticked D on a single-choice item
    7: [['A', 'full'], ['C', 'full'], ['D', 'full'], ['E', 'tick']], // truth ACDE
    9: [['√', 'tick']],
    14: [['B', 'tick'], ['D', 'tick']],
  };
  for (const [name, d, seed] of [['清晰扫描', { jpegQuality: 85 }, 31], ['手机拍照', PHONE, 32]] as const) {
    it(`${name}: a tick beside a fill is read or flagged, a lone tick is read`, async () => {
      const f = filling(seed, marks);
      const items = await read(f, d, seed);
      expect(silentErrors(f, items)).toEqual([]);
      expect(item(items, 1)).toMatchObject({ answer: 'B', flags: [] });
      expect(item(items, 2).flags).toContain('multiple');
      const acde = item(items, 7);
      expect(acde.answer === 'ACDE' || acde.flags.length > 0, `第 7 题读成 ${acde.answer}`).toBe(true);
      expect(item(items, 9).answer).toBe('√');
      expect(item(items, 14).answer === 'BD' || item(items, 14).flags.length > 0).toBe(true);
    });
  }
});

describe('a stray stroke', () => {
  it('leaving a blank item\'s bubble to the right (not up and right, as a tick does) is not read as a tick', async () => {
    // The tuning corpus page where this happened (server/grading/bench/omrTune.ts, seed 11300,
    // sheet 62, a 200 dpi scan): a stray line starts on the letter of item 11's D and runs right.
    const { f, r } = corpusFilling(11362);
    const d: Degradation = { rotateDeg: (r() - 0.5) * 4, noise: 3 + r() * 3, blur: r() < 0.5 ? 0.6 : 0, jpegQuality: 75 };
    expect(f.objective[11]).toEqual([]);
    const it11 = item(await read(f, d, 11362), 11);
    expect(it11.answer === '' || it11.flags.length > 0, `第 11 题读成 ${it11.answer}`).toBe(true);
  });
});

describe('a student who writes lightly', () => {
  it('is read item by item without sending every item to the teacher', async () => {
    const f = randomFilling(math, { sheetId: math.sheetId, page: 1, studentId: '20240101' }, rng(41), LIGHT_STUDENT_MIX);
    const items = await read(f, { fade: 0.2, rotateDeg: 2, noise: 4, jpegQuality: 80 }, 41);
    expect(silentErrors(f, items)).toEqual([]);
    // Items that need a teacher whatever the reader does: blank, or two answers on a single choice.
    const needed = items.filter((it) => {
      const intended = (f.objective[it.no] ?? []).filter((m) => m.style !== 'erased');
      return intended.length === 0 || (intended.length > 1 && it.type !== 'multiple');
    }).length;
    const flagged = items.filter((it) => it.flags.length > 0).length;
    expect(flagged, `${flagged} 题需复核，其中必须复核 ${needed} 题`).toBeLessThanOrEqual(needed + 4);
  });

  it('keeps an erased ghost empty on a light page, beside a light answer or alone', async () => {
    const f = filling(42, { 3: [['A', 'faint'], ['C', 'erased']], 4: [['D', 'erased']], 5: [['B', 'faint']] }, { ...CLEAN_MIX, blank: 0, lightStudent: true });
    const items = await read(f, { fade: 0.25, noise: 4, jpegQuality: 80 }, 42);
    expect(silentErrors(f, items)).toEqual([]);
    expect(item(items, 3).bubbles.find((b) => b.label === 'C')!.state).not.toBe('marked');
    expect(item(items, 4).answer).toBe('');
    expect(item(items, 4).flags.length).toBeGreaterThan(0);
    expect(item(items, 5)).toMatchObject({ answer: 'B', flags: [] });
  });
});

describe('a light second mark', () => {
  it('is flagged as a possible double, not read as a single answer', async () => {
    const f = filling(51, { 1: [['A', 'full'], ['C', 'faint']], 2: [['B', 'full'], ['D', 'faint']], 14: [['A', 'full'], ['E', 'faint']] });
    for (const [d, seed] of [[{ jpegQuality: 85 }, 51], [PHONE, 52]] as const) {
      const items = await read(f, d, seed);
      expect(silentErrors(f, items)).toEqual([]);
      for (const no of [1, 2, 14]) expect(item(items, no).flags.length, `第 ${no} 题`).toBeGreaterThan(0);
    }
  });

  it('a ghost beside a full mark is not read as a second answer', async () => {
    const f = filling(53, { 1: [['A', 'full'], ['C', 'erased']], 7: [['B', 'full'], ['D', 'erased']] });
    const items = await read(f, { rotateDeg: 3, noise: 5, jpegQuality: 75 }, 53);
    expect(silentErrors(f, items)).toEqual([]);
    expect(item(items, 1).answer).toBe('A');
    expect(item(items, 7).answer).toBe('B');
  });
});

describe('marks a teacher would not need to see', () => {
  it('a lone light fill as dark as a mark is read without a flag, a half fill still goes to the teacher', async () => {
    const light: Marks = { 1: [['B', 'light']], 3: [['D', 'light']], 5: [['A', 'light']], 8: [['C', 'light']] };
    const f = filling(71, { ...light, 2: [['A', 'half']], 6: [['C', 'half']] });
    for (const [d, seed] of [[{ jpegQuality: 85 }, 71], [{ rotateDeg: -2, noise: 5, blur: 0.6, jpegQuality: 75 }, 72]] as const) {
      const items = await read(f, d, seed);
      expect(silentErrors(f, items)).toEqual([]);
      // A light fill that reads as marked (fill 0.6–0.75, once always flagged as unsure) stands
      // alone and even: it is the answer. Lighter ones may still go to the teacher.
      let readUnflagged = 0;
      for (const [no, [[label]]] of Object.entries(light) as [string, [string, MarkStyle][]][]) {
        const it = item(items, Number(no));
        if (it.bubbles.find((b) => b.label === label)!.state !== 'marked') continue;
        expect(it, `第 ${no} 题`).toMatchObject({ answer: label, flags: [] });
        readUnflagged++;
      }
      expect(readUnflagged).toBeGreaterThan(0);
      for (const no of [2, 6]) expect(item(items, no).flags.length, `第 ${no} 题`).toBeGreaterThan(0);
    }
  });

  it('a lone HB fill (about 0.55 of a 2B answer, even) is read without a flag', async () => {
    const light: Marks = { 1: [['B', 'light']], 3: [['D', 'light']], 5: [['A', 'light']], 8: [['C', 'light']], 10: [['√', 'light']], 14: [['E', 'light']] };
    // Seeds whose HB fills include some under 0.6 in page terms (once always sent to the teacher).
    for (const seed of [75, 76]) {
      const f = filling(seed, light);
      const items = await read(f, { rotateDeg: 1.5, noise: 4, jpegQuality: 80 }, seed);
      expect(silentErrors(f, items)).toEqual([]);
      for (const [no, [[label]]] of Object.entries(light) as [string, [string, MarkStyle][]][]) expect(item(items, Number(no)), `第 ${no} 题`).toMatchObject({ answer: label, flags: [] });
    }
  });

  it('an erased ghost beside a full answer does not flag it, a tick there does', async () => {
    const ghosts: Marks = { 1: [['A', 'full'], ['C', 'erased']], 3: [['B', 'full'], ['D', 'erased']], 7: [['E', 'full'], ['A', 'erased']], 9: [['√', 'full'], ['×', 'erased']] };
    const f = filling(73, { ...ghosts, 2: [['A', 'full'], ['D', 'tick']] });
    const items = await read(f, { rotateDeg: 2, noise: 4, jpegQuality: 80 }, 73);
    expect(silentErrors(f, items)).toEqual([]);
    for (const [no, [[label]]] of Object.entries(ghosts) as [string, [string, MarkStyle][]][]) expect(item(items, Number(no)), `第 ${no} 题`).toMatchObject({ answer: label, flags: [] });
    expect(item(items, 2).flags.length).toBeGreaterThan(0);
  });
});

describe('a whole class of pencil-marked sheets', () => {
  it('has no silent error on scans and phone photos', async () => {
    const captures: Degradation[] = [{ jpegQuality: 85 }, { rotateDeg: -2, noise: 5, blur: 0.6, jpegQuality: 75 }, PHONE];
    for (const [i, d] of captures.entries()) {
      const f = randomFilling(math, { sheetId: math.sheetId, page: 1, studentId: '20240101' }, rng(60 + i), PENCIL_MIX);
      f.strayStrokes = 2;
      expect(silentErrors(f, await read(f, d, 60 + i))).toEqual([]);
    }
  });
});
