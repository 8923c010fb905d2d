import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Degradation } from '../corpus/degrade.js';
import { CLEAN_MIX, HARD_MIX, LIGHT_STUDENT_MIX, makeScan, PENCIL_MIX, randomFilling, type Filling } from '../corpus/generate.js';
import { essayText, FILL_ANSWERS } from '../corpus/phrases.js';
import { pick, rng } from '../corpus/random.js';
import { sampleChineseSheet, sampleMathSheet } from '../corpus/sampleSheets.js';
import { buildLayout } from '../layout/build.js';
import type { SheetLayout } from '../layout/types.js';

// Writes the benchmark corpus (JPEG scans + ground truth) to a folder, so the measuring worker
// process never pays for rendering and its memory reflects grading alone.

export interface BenchManifest {
  layouts: SheetLayout[];
  /** `hard`: pencil-marked sheets with ticks, light doubles, ghosts and light-pencil students. */
  omr: { file: string; filling: Filling; degraded: boolean; set: 'clean' | 'degraded' | 'hard' }[];
  ocr: { fillFile: string; answers: string[]; essayFile: string; essay: string }[];
}

function randomDegradation(r: () => number): Degradation {
  return {
    rotateDeg: (r() * 2 - 1) * 15,
    upsideDown: r() < 0.25,
    perspective: r() < 0.35 ? 0.5 + r() * 0.5 : 0,
    blur: r() < 0.5 ? 0.5 + r() * 1.2 : 0,
    noise: 3 + r() * 8,
    shadow: r() < 0.4 ? 0.2 + r() * 0.35 : 0,
    jpegQuality: r() < 0.5 ? 50 : 80,
  };
}

/** The hard set cycles through what a class hands in: clean scans, 200 and 300 dpi scans, phone photos. */
function hardCapture(i: number, r: () => number): { d: Degradation; dpi: number } {
  switch (i % 4) {
    case 0:
      return { d: { jpegQuality: 85 }, dpi: 200 };
    case 1:
      return { d: { rotateDeg: (r() - 0.5) * 4, noise: 3 + r() * 3, blur: r() < 0.5 ? 0.6 : 0, jpegQuality: 75 }, dpi: 200 };
    case 2:
      return { d: { rotateDeg: (r() - 0.5) * 4, noise: 3 + r() * 3, jpegQuality: 80 }, dpi: 300 };
    default:
      return { d: { ...randomDegradation(r), perspective: 0.4 + r() * 0.6, upsideDown: false }, dpi: 200 };
  }
}

export async function writeCorpus(dir: string, sizes: { clean: number; degraded: number; hard: number; ocr: number }, hardSeed = 5000): Promise<BenchManifest> {
  const math = buildLayout(sampleMathSheet());
  const chinese = buildLayout(sampleChineseSheet());
  const manifest: BenchManifest = { layouts: [math, chinese], omr: [], ocr: [] };
  const students = math.identity.mode === 'roster' ? math.identity.students : [];
  for (let i = 0; i < sizes.clean + sizes.degraded; i++) {
    const degraded = i >= sizes.clean;
    const r = rng(1000 + i);
    const filling = randomFilling(math, { sheetId: math.sheetId, page: 1, studentId: pick(r, students).id }, r, degraded ? HARD_MIX : CLEAN_MIX);
    if (degraded) filling.strayStrokes = Math.floor(r() * 3);
    const file = `omr-${i}.jpg`;
    writeFileSync(join(dir, file), await makeScan(math, filling, degraded ? randomDegradation(r) : { jpegQuality: 85 }, 1000 + i));
    manifest.omr.push({ file, filling, degraded, set: degraded ? 'degraded' : 'clean' });
  }
  for (let i = 0; i < sizes.hard; i++) {
    const r = rng(hardSeed + i);
    // Every fourth student writes lightly, on a scan that came out a little bright as well.
    const light = i % 4 === 3;
    const filling = randomFilling(math, { sheetId: math.sheetId, page: 1, studentId: pick(r, students).id }, r, light ? LIGHT_STUDENT_MIX : PENCIL_MIX);
    filling.strayStrokes = Math.floor(r() * 3);
    const { d, dpi } = hardCapture(Math.floor(i / 4) + i, r);
    if (light) d.fade = 0.1 + r() * 0.2;
    const file = `hard-${i}.jpg`;
    writeFileSync(join(dir, file), await makeScan(math, filling, d, hardSeed + i, dpi));
    manifest.omr.push({ file, filling, degraded: true, set: 'hard' });
  }
  for (let i = 0; i < sizes.ocr; i++) {
    const r = rng(2000 + i);
    const f1 = randomFilling(chinese, { sheetId: chinese.sheetId, page: 1 }, r, CLEAN_MIX);
    const answers = Array.from({ length: 4 }, () => pick(r, FILL_ANSWERS));
    f1.fill = { 11: answers.slice(0, 2), 12: answers.slice(2) };
    const fillFile = `fill-${i}.jpg`;
    writeFileSync(join(dir, fillFile), await makeScan(chinese, f1, { rotateDeg: (r() - 0.5) * 6, noise: 5, jpegQuality: 80 }, 2000 + i));
    // Page 2 of the language sheet is a full page of essay grid.
    const essay = essayText(800);
    const essayFile = `essay-${i}.jpg`;
    const f2: Filling = { copy: { sheetId: chinese.sheetId, page: 2 }, objective: {}, essay };
    writeFileSync(join(dir, essayFile), await makeScan(chinese, f2, { rotateDeg: (r() - 0.5) * 6, noise: 5, jpegQuality: 80 }, 3000 + i));
    manifest.ocr.push({ fillFile, answers, essayFile, essay });
  }
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  return manifest;
}
