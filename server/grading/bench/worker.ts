import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bubbleTruth } from '../corpus/generate.js';
import { essayCells } from '../corpus/marks.js';
import { charAccuracy } from '../corpus/textMetrics.js';
import { decodeGray } from '../image/gray.js';
import { getOcr } from '../ocr/engine.js';
import { readEssay, readFillBoxes } from '../ocr/regions.js';
import { recognisePage } from '../omr/recognise.js';
import type { BenchManifest } from './corpus.js';

// The measuring side of the benchmark, run as its own process like a grading worker would be:
// reads the corpus folder given as argv[2], prints one JSON object of figures on stdout.

export interface WorkerFigures {
  sheetsPerS: number;
  clean: { total: number; correct: number };
  degraded: { total: number; correct: number };
  silent: number;
  /** The hard set (ticks, light pencil, ghosts): its own silent errors and review load. */
  hard: { silent: number; items: number; flagged: number; mustFlag: number };
  failedPages: number;
  boxMs: number;
  essayMs: number;
  /** CPU time of the essay OCR (all threads): stable when other work shares the machine. */
  essayCpuMs: number;
  fillAccuracy: number;
  essayAccuracy: number;
  peakRssMb: number;
}

async function main(dir: string): Promise<WorkerFigures> {
  const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as BenchManifest;
  const lookup = (id: string) => m.layouts.find((l) => l.sheetId === id);
  const layout = (id: string) => lookup(id)!;
  let peak = 0;
  const sample = () => (peak = Math.max(peak, process.memoryUsage.rss()));
  const timer = setInterval(sample, 20);

  const jpgs = m.omr.map((s) => readFileSync(join(dir, s.file)));
  const acc = { clean: { total: 0, correct: 0 }, degraded: { total: 0, correct: 0 } };
  let silent = 0;
  const hard = { silent: 0, items: 0, flagged: 0, mustFlag: 0 };
  let failedPages = 0;
  for (const [i, s] of m.omr.entries()) {
    const reading = recognisePage(await decodeGray(jpgs[i]!), lookup);
    if (!reading.ok) {
      failedPages++;
      continue;
    }
    const truth = bubbleTruth(layout(s.filling.copy.sheetId), s.filling);
    const isHard = s.set === 'hard';
    const bucket = s.degraded ? acc.degraded : acc.clean;
    for (const it of reading.items) {
      let itemSilent = 0;
      for (const b of it.bubbles) {
        const t = truth.get(`${it.no}:${b.label}`)!;
        const ok = t === 'ambiguous' ? b.state === 'uncertain' : b.state === t;
        if (!isHard) bucket.total++;
        if (ok) {
          if (!isHard) bucket.correct++;
        } else if (it.flags.length === 0) itemSilent++;
      }
      silent += itemSilent;
      if (isHard) {
        hard.items++;
        hard.silent += itemSilent;
        if (it.flags.length > 0) hard.flagged++;
        // Items a teacher has to see whatever the reader does: blank, half-filled, or two marks
        // on a single-choice item.
        const marks = s.filling.objective[it.no] ?? [];
        const intended = marks.filter((mk) => mk.style !== 'erased');
        if (intended.length === 0 || marks.some((mk) => mk.style === 'half') || (intended.length > 1 && it.type !== 'multiple')) hard.mustFlag++;
      }
    }
  }

  // Throughput: decode + register + read, four pages in flight as in pipeline.gradeFiles; on the
  // clean and degraded sets only (200 dpi), so the figure stays comparable from run to run.
  const speedJpgs = jpgs.filter((_, i) => m.omr[i]!.set !== 'hard');
  const n = speedJpgs.length * 2;
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (next < n) recognisePage(await decodeGray(speedJpgs[next++ % speedJpgs.length]!), lookup);
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  const sheetsPerS = n / ((performance.now() - t0) / 1000);

  const ocr = await getOcr();
  let boxMs = 0;
  let boxes = 0;
  let fillAcc = 0;
  let essayMs = 0;
  let essayCpuMs = 0;
  let essayAcc = 0;
  for (const [i, o] of m.ocr.entries()) {
    const p1 = recognisePage(await decodeGray(readFileSync(join(dir, o.fillFile))), lookup);
    if (!p1.ok) throw new Error(p1.error);
    if (i === 0) await readFillBoxes(p1, ocr); // warm-up, not timed
    const t = performance.now();
    const read = await readFillBoxes(p1, ocr);
    boxMs += performance.now() - t;
    boxes += read.length;
    read.forEach((b, k) => (fillAcc += charAccuracy(o.answers[k]!, b.text)));

    const p2 = recognisePage(await decodeGray(readFileSync(join(dir, o.essayFile))), lookup);
    if (!p2.ok) throw new Error(p2.error);
    const te = performance.now();
    const cpu = process.cpuUsage();
    const essays = await readEssay(p2, ocr);
    const used = process.cpuUsage(cpu);
    essayMs += performance.now() - te;
    essayCpuMs += (used.user + used.system) / 1000;
    const first = p2.page.essay[0]!;
    const cells = p2.page.essay.reduce((s, b) => s + b.rows * b.columns, 0);
    const truth = essayCells(o.essay, first.columns).slice(first.firstCell, first.firstCell + cells).join('');
    essayAcc += charAccuracy(truth, (essays[0]?.text ?? '').replace(/\n/g, ''));
  }
  sample();
  clearInterval(timer);
  return {
    sheetsPerS,
    ...acc,
    silent,
    hard,
    failedPages,
    boxMs: boxMs / boxes,
    essayMs: essayMs / m.ocr.length,
    essayCpuMs: essayCpuMs / m.ocr.length,
    fillAccuracy: fillAcc / boxes,
    essayAccuracy: essayAcc / m.ocr.length,
    peakRssMb: peak / 1024 / 1024,
  };
}

process.stdout.write(JSON.stringify(await main(process.argv[2]!)) + '\n');
