// The sample maths answer sheet, read back from a generated scan, for the OMR tests: how a page
// is made and read, and which readings nobody flagged.
import type { Degradation } from '../../server/grading/corpus/degrade.js';
import { bubbleTruth, makeScan, PENCIL_MIX, randomFilling, type Filling } from '../../server/grading/corpus/generate.js';
import { pick, rng } from '../../server/grading/corpus/random.js';
import { sampleMathSheet } from '../../server/grading/corpus/sampleSheets.js';
import { buildLayout, decodeGray, recognisePage, type ItemReading } from '../../server/grading/index.js';

export const math = buildLayout(sampleMathSheet());
export const lookup = (id: string) => (id === math.sheetId ? math : undefined);

/** The items read from a scan of the sheet filled as `f`, degraded as `d`. */
export async function read(f: Filling, d: Degradation, seed: number, dpi?: number): Promise<ItemReading[]> {
  const res = recognisePage(await decodeGray(await makeScan(math, f, d, seed, dpi)), lookup);
  if (!res.ok) throw new Error(res.error);
  return res.items;
}

/** Bubbles read differently from the truth on an item nobody flagged. */
export function silentErrors(f: Filling, items: ItemReading[]): string[] {
  const truth = bubbleTruth(math, f);
  const out: string[] = [];
  for (const it of items)
    for (const b of it.bubbles) {
      const t = truth.get(`${it.no}:${b.label}`)!;
      const ok = t === 'ambiguous' ? b.state === 'uncertain' : b.state === t;
      if (!ok && it.flags.length === 0) out.push(`第 ${it.no} 题 ${b.label}：应为 ${t}，读成 ${b.state}`);
    }
  return out;
}

/** A page of the tuning corpus (server/grading/bench/omrTune.ts) as it draws one: a student of the roster, pencil marks, stray strokes. */
export function corpusFilling(seed: number): { f: Filling; r: () => number } {
  const r = rng(seed);
  const students = math.identity.mode === 'roster' ? math.identity.students : [];
  const f = randomFilling(math, { sheetId: math.sheetId, page: 1, studentId: pick(r, students).id }, r, PENCIL_MIX);
  f.strayStrokes = Math.floor(r() * 3);
  return { f, r };
}
