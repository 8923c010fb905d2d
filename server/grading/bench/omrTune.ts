import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Degradation } from '../corpus/degrade.js';
import { decodeGray } from '../image/gray.js';
import { LIGHT_STUDENT_MIX, makeScan, PENCIL_MIX, randomFilling } from '../corpus/generate.js';
import { pick, rng } from '../corpus/random.js';
import { sampleMathSheet } from '../corpus/sampleSheets.js';
import { buildLayout } from '../layout/build.js';
import type { SheetLayout } from '../layout/types.js';
import { measureBubble, type BubbleMeasure } from '../omr/bubbles.js';
import { readMeasured, recognisePage } from '../omr/recognise.js';

// Calibration of the OMR review decisions on the engine's own pencil corpus (corpus/generate.ts,
// PENCIL_MIX and light-pencil students, the captures of the benchmark's hard set), seeds apart from
// the benchmark's. Measuring a page (decode, register, sample bubbles) is slow; deciding is not:
// the measures are cached, then every decision rule is replayed on them in milliseconds.
//
//   [SEED=7300] [HARD_SHADOWS=0] npx tsx server/grading/bench/omrTune.ts [sheets] [cacheDir]
//
// Prints flagged share, needless flags (flags on right readings that no teacher needed) and
// silent errors (wrong, or needing a teacher, without a flag), and lists the needless flags.

interface CachedItem {
  no: number;
  answer: string;
  mustFlag: boolean;
  marks: string;
}
interface CachedSheet {
  ms: BubbleMeasure[];
  items: CachedItem[];
  light: boolean;
  capture: number;
  /** Depth of the hard shadow edge on the page, 0 when none. */
  hardShadow?: number;
}

/** The hard set's captures (bench/corpus.ts): clean, 200 and 300 dpi scans, phone photos. */
function hardCapture(i: number, r: () => number): { d: Degradation; dpi: number } {
  switch (i % 4) {
    case 0:
      return { d: { jpegQuality: 85 }, dpi: 200 };
    case 1:
      return { d: { rotateDeg: (r() - 0.5) * 4, noise: 3 + r() * 3, blur: r() < 0.5 ? 0.6 : 0, jpegQuality: 75 }, dpi: 200 };
    case 2:
      return { d: { rotateDeg: (r() - 0.5) * 4, noise: 3 + r() * 3, jpegQuality: 80 }, dpi: 300 };
    default:
      return {
        d: {
          rotateDeg: (r() * 2 - 1) * 15,
          perspective: 0.4 + r() * 0.6,
          blur: r() < 0.5 ? 0.5 + r() * 1.2 : 0,
          noise: 3 + r() * 8,
          shadow: r() < 0.4 ? 0.2 + r() * 0.35 : 0,
          jpegQuality: r() < 0.5 ? 50 : 80,
        },
        dpi: 200,
      };
  }
}

/**
 * Hard shadow edges (a hand or the phone over the page, a scanner lid left open) on 40 % of the
 * photos and 20 % of the scans, drawn from a stream of their own so every other page stays as it
 * was. Their depths span what a phone photo under a desk lamp shows (0.25–0.55 of the light).
 */
function hardShadowOf(capture: number, seed: number, i: number): Degradation['hardShadow'] {
  const r = rng(seed * 31 + i + 0x5eed);
  const photo = capture % 4 === 3;
  if (capture % 4 === 0 || r() >= (photo ? 0.4 : 0.2)) return undefined;
  const depth = photo ? 0.25 + r() * 0.3 : 0.2 + r() * 0.25;
  return { depth, angle: r() * Math.PI * 2, at: [0.15 + r() * 0.7, 0.18 + r() * 0.32] };
}

export async function tuningSheets(count: number, dir: string, seed = 7300, hardShadows = true): Promise<{ layout: SheetLayout; sheets: CachedSheet[] }> {
  const layout = buildLayout(sampleMathSheet());
  const file = join(dir, `tune-${seed}-${count}${hardShadows ? '-hs' : ''}.json`);
  if (existsSync(file)) return { layout, sheets: JSON.parse(readFileSync(file, 'utf8')) as CachedSheet[] };
  mkdirSync(dir, { recursive: true });
  const students = layout.identity.mode === 'roster' ? layout.identity.students : [];
  const lookup = (id: string) => (id === layout.sheetId ? layout : undefined);
  const page = layout.pages[0]!;
  const sheets: CachedSheet[] = [];
  for (let i = 0; i < count; i++) {
    const r = rng(seed + i);
    const light = i % 4 === 3;
    const filling = randomFilling(layout, { sheetId: layout.sheetId, page: 1, studentId: pick(r, students).id }, r, light ? LIGHT_STUDENT_MIX : PENCIL_MIX);
    filling.strayStrokes = Math.floor(r() * 3);
    const capture = Math.floor(i / 4) + i;
    const { d, dpi } = hardCapture(capture, r);
    if (light) d.fade = 0.1 + r() * 0.2;
    const shadow = hardShadows ? hardShadowOf(capture, seed, i) : undefined;
    if (shadow) d.hardShadow = shadow;
    const jpg = await makeScan(layout, filling, d, seed + i, dpi);
    const reading = recognisePage(await decodeGray(jpg), lookup);
    if (!reading.ok) {
      console.error(`sheet ${i}: ${reading.error}`);
      continue;
    }
    const all = [...page.objective.flatMap((it) => it.bubbles), ...(page.studentNumber?.digits ?? []).flat()];
    const ms = all.map((b) => measureBubble(reading.image, reading.h, b));
    const items = page.objective.map((it) => {
      const marks = filling.objective[it.no] ?? [];
      // As the benchmark's hard set counts them: a teacher must see blank, half-filled and doubles.
      const intended = marks.filter((m) => m.style !== 'erased' && m.style !== 'half');
      const mustFlag = marks.filter((m) => m.style !== 'erased').length === 0 || marks.some((m) => m.style === 'half') || (intended.length > 1 && it.type !== 'multiple');
      const answer = it.bubbles.filter((b) => intended.some((m) => m.label === b.label)).map((b) => b.label).join('');
      return { no: it.no, answer, mustFlag, marks: marks.map((m) => `${m.label}:${m.style}`).join(' ') };
    });
    sheets.push({ ms, items, light, capture: capture % 4, hardShadow: shadow?.depth ?? 0 });
    if (i % 10 === 9) console.error(`${i + 1}/${count}`);
  }
  writeFileSync(file, JSON.stringify(sheets));
  return { layout, sheets };
}

export function evaluate(layout: SheetLayout, sheets: CachedSheet[], verbose: boolean) {
  const f = { items: 0, flagged: 0, mustFlag: 0, silent: 0, needless: 0 };
  const lines: string[] = [];
  sheets.forEach((s, si) => {
    const items = readMeasured(layout.pages[0]!, s.ms);
    for (const truth of s.items) {
      const it = items.find((x) => x.no === truth.no)!;
      f.items++;
      const flagged = it.flags.length > 0;
      if (flagged) f.flagged++;
      if (truth.mustFlag) f.mustFlag++;
      if (!flagged && (it.answer !== truth.answer || truth.mustFlag)) {
        f.silent++;
        lines.push(`SILENT s${si}${s.light ? 'L' : ''}c${s.capture} #${truth.no} ${it.answer}→${truth.answer} [${truth.marks}] ${it.bubbles.map((b) => `${b.label}${b.fill.toFixed(2)}`).join(' ')}`);
      }
      if (flagged && !truth.mustFlag && it.answer === truth.answer) {
        f.needless++;
        lines.push(`needless s${si}${s.light ? 'L' : ''}c${s.capture} #${truth.no} ${it.answer} [${truth.marks}] conf ${it.confidence.toFixed(2)} ${it.bubbles.map((b) => `${b.label}${b.fill.toFixed(2)}${b.state[0]}`).join(' ')}`);
      }
    }
  });
  if (verbose) console.log(lines.join('\n'));
  return f;
}

if (process.argv[1]?.endsWith('omrTune.ts')) {
  const count = Number(process.argv[2] ?? 80);
  const dir = process.argv[3] ?? join(process.env.TMPDIR ?? '/tmp', 'omr-tune');
  const { layout, sheets } = await tuningSheets(count, dir, Number(process.env.SEED ?? 7300), process.env.HARD_SHADOWS !== '0');
  const f = evaluate(layout, sheets, process.env.VERBOSE === '1');
  const p = (x: number) => `${((100 * x) / f.items).toFixed(1)} %`;
  console.log(`tuning corpus: ${sheets.length} sheets, ${f.items} items; flagged ${p(f.flagged)} (needed ${p(f.mustFlag)}), needless ${p(f.needless)}, silent ${f.silent}`);
}
