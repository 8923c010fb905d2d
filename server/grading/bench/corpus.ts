import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Degradation } from '../corpus/degrade.js';
import { CLEAN_MIX, HARD_MIX, makeScan, randomFilling, type Filling } from '../corpus/generate.js';
import { essayText, FILL_ANSWERS } from '../corpus/phrases.js';
import { pick, rng } from '../corpus/random.js';
import { sampleChineseSheet, sampleMathSheet } from '../corpus/sampleSheets.js';
import { buildLayout } from '../layout/build.js';
import type { SheetLayout } from '../layout/types.js';

// Writes the benchmark corpus (JPEG scans + ground truth) to a folder, so the measuring worker
// process never pays for rendering and its memory reflects grading alone.

export interface BenchManifest {
  layouts: SheetLayout[];
  omr: { file: string; filling: Filling; degraded: boolean }[];
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

export async function writeCorpus(dir: string, sizes: { clean: number; degraded: number; ocr: number }): Promise<BenchManifest> {
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
    manifest.omr.push({ file, filling, degraded });
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
