// The essay scorer against teachers: quadratic weighted kappa and mean error on the held-out
// essays written for the product (tests/grading/fixtures/essays.ts, never the engine's corpus),
// the highest share any degenerate or gamed text keeps, the lowest share of a decent essay.
import { essayFigures } from '../tests/grading/fixtures/figures';
import type { BenchRow } from './table';

export async function benchEssays(): Promise<BenchRow[]> {
  // First call loads the segmenter's dictionary; time the second.
  essayFigures();
  const f = essayFigures();
  const round = (v: number, d = 3) => Math.round(v * 10 ** d) / 10 ** d;
  return [
    { name: 'essay_heldout_count', value: f.heldOut.length, unit: '篇', target: '20–30 篇，老师评分' },
    { name: 'essay_heldout_qwk', value: round(f.kappa), unit: '', target: '≥ 0.80（二次加权 kappa，10 档）' },
    { name: 'essay_heldout_mean_abs_error', value: round(f.meanAbsError, 1), unit: '分（满分 50）', target: '≤ 5' },
    { name: 'essay_decent_min_share', value: round(f.decentMinShare), unit: '满分比例', target: '≥ 0.60' },
    { name: 'essay_gamed_count', value: f.gamed.length, unit: '篇', target: '' },
    { name: 'essay_gamed_max_share', value: round(f.gamedMaxShare), unit: '满分比例', target: '≤ 0.10' },
    { name: 'essay_ms_per_essay', value: round(f.msPerEssay, 1), unit: 'ms', target: '≤ 50' },
  ];
}
