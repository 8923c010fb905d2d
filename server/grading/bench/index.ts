import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { calibrationFigures } from './calibrate.js';
import { writeCorpus } from './corpus.js';
import type { WorkerFigures } from './worker.js';

// Benchmark of the grading engine on a corpus generated on the spot (deleted afterwards):
//   npx tsx server/grading/bench/index.ts [--quick]
// Prints a table, then one "name: value" line per figure for tools to parse. Measurements run in
// a separate process (bench/worker.ts) so speed and memory are those of a grading worker.

export interface GradingFigure {
  name: string;
  label: string;
  value: number;
  target: string;
}

function fmt(v: number): string {
  if (Number.isInteger(v)) return String(v);
  return v < 1 ? v.toFixed(4) : v.toFixed(1);
}

/** Generates the corpus, measures it in a worker process, and returns the figures. */
export async function gradingFigures(quick = false): Promise<{ figures: GradingFigure[]; load: number; bubbles: number; sizes: { clean: number; degraded: number; hard: number; ocr: number } }> {
  const sizes = quick ? { clean: 6, degraded: 10, hard: 12, ocr: 2 } : { clean: 20, degraded: 40, hard: 60, ocr: 4 };
  const dir = mkdtempSync(join(tmpdir(), 'grading-bench-'));
  try {
    const t0 = performance.now();
    const m = await writeCorpus(dir, sizes);
    console.error(`已生成语料 ${m.omr.length + 2 * m.ocr.length} 张（${((performance.now() - t0) / 1000).toFixed(1)} 秒），开始测量…`);
    const load = loadavg()[0]!;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'worker.ts'), dir], {
      maxBuffer: 1 << 20,
    });
    const w = JSON.parse(stdout.trim().split('\n').pop()!) as WorkerFigures;
    const bubbles = w.clean.total + w.degraded.total;
    // Fill-in answers rendered apart from any page (bench/calibrate.ts), read at the default threshold.
    const cal = await calibrationFigures();
    const figures: [string, string, number, string][] = [
      ['omr_sheets_per_s', 'OMR 速度（A4，200 dpi，张/秒）', w.sheetsPerS, '≥ 20'],
      ['omr_bubble_accuracy_clean', '气泡识别正确率（清晰）', w.clean.correct / w.clean.total, '≥ 0.999'],
      ['omr_bubble_accuracy_degraded', '气泡识别正确率（降质）', w.degraded.correct / w.degraded.total, '≥ 0.99'],
      ['omr_silent_errors', '未标记的错误（个，含困难组）', w.silent, '= 0'],
      ['omr_silent_errors_hard', '困难组（勾选、轻涂、擦除痕迹）未标记的错误（个）', w.hard.silent, '= 0'],
      ['omr_flag_rate', '困难组需复核的题目占比', w.hard.flagged / w.hard.items, '接近下一行'],
      ['omr_flag_rate_needed', '困难组必须复核的题目占比（空题、半涂、单选多涂）', w.hard.mustFlag / w.hard.items, ''],
      ['omr_failed_pages', '无法识别的页（张）', w.failedPages, '= 0'],
      ['ocr_box_ms', '填空框 OCR（毫秒/框）', w.boxMs, '≤ 150'],
      ['ocr_essay_page_ms', '作文整页 OCR（毫秒/页）', w.essayMs, '≤ 3000'],
      ['ocr_essay_page_cpu_ms', '作文整页 OCR 的 CPU 时间（毫秒/页）', w.essayCpuMs, ''],
      ['fillin_char_accuracy_kai', '填空字符正确率（楷体手写风格）', w.fillAccuracy, ''],
      ['essay_char_accuracy_kai', '作文字符正确率（楷体手写风格）', w.essayAccuracy, ''],
      ['ocr_fill_silent_wrong_heldout', `填空误读且未提示复核（个，共 ${cal.samples} 个）`, cal.silentWrong, '= 0'],
      ['ocr_fill_flag_rate_heldout', '填空读对但因置信度低需复核的占比', cal.flagRate, '≤ 0.05'],
      ['worker_rss_mb', '测量进程内存峰值（MB）', w.peakRssMb, '≤ 600'],
    ];
    return { figures: figures.map(([name, label, value, target]) => ({ name, label, value, target })), load, bubbles, sizes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { figures, load, bubbles, sizes } = await gradingFigures(process.argv.includes('--quick'));
  console.log(`机器：${cpus().length} 核，测量开始时负载 ${load.toFixed(1)}（其他进程会拖慢速度）`);
  console.log(
    `语料：清晰 ${sizes.clean} 张、降质 ${sizes.degraded} 张（共 ${bubbles} 个气泡），困难组 ${sizes.hard} 张，OCR ${sizes.ocr} 组（填空页 + 作文页）`,
  );
  const wide = (s: string) => s.length + (s.match(/[^\x00-\xff]/g)?.length ?? 0);
  console.log('指标' + ' '.repeat(50 - 4) + '数值'.padStart(10) + '   目标');
  for (const f of figures) console.log(f.label + ' '.repeat(Math.max(1, 50 - wide(f.label))) + fmt(f.value).padStart(12) + '   ' + f.target);
  console.log('');
  for (const f of figures) console.log(`${f.name}: ${fmt(f.value)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
