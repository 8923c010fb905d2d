// The exam report's figures (definitions in docs/api-content.md), as pure functions of scores.
import { scoreBand, type ScoreBand } from '../../../src/domain/content';

export const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;

export interface Summary {
  participants: number;
  average: number | null;
  highest: number | null;
  lowest: number | null;
  /** Population standard deviation. */
  stdDev: number | null;
}

export function summary(scores: number[]): Summary {
  const n = scores.length;
  if (!n) return { participants: 0, average: null, highest: null, lowest: null, stdDev: null };
  const mean = scores.reduce((s, x) => s + x, 0) / n;
  const variance = scores.reduce((s, x) => s + (x - mean) ** 2, 0) / n;
  return { participants: n, average: round(mean, 2), highest: Math.max(...scores), lowest: Math.min(...scores), stdDev: round(Math.sqrt(variance), 2) };
}

/** Population variance from a count, a sum and a sum of squares (what the rollups keep). */
export const varianceOf = (n: number, sum: number, squares: number) => (n > 0 ? Math.max(0, squares / n - (sum / n) ** 2) : 0);

export function bands(scores: number[], fullMarks: number): Record<ScoreBand, { count: number; rate: number }> {
  const out = { excellent: { count: 0, rate: 0 }, good: { count: 0, rate: 0 }, pass: { count: 0, rate: 0 }, fail: { count: 0, rate: 0 } };
  for (const s of scores) out[scoreBand(s, fullMarks)].count++;
  for (const band of Object.values(out)) band.rate = scores.length ? round(band.count / scores.length) : 0;
  return out;
}

/** Ten bins of 10 % of full marks; full marks fall in the last. */
export function distribution(scores: number[], fullMarks: number): { from: number; to: number; count: number }[] {
  const bins = Array.from({ length: 10 }, (_, k) => ({ from: round((fullMarks * k) / 10, 2), to: round((fullMarks * (k + 1)) / 10, 2), count: 0 }));
  for (const s of scores) bins[Math.min(9, Math.floor((s / fullMarks) * 10))].count++;
  return bins;
}

/** Competition ranking: equal scores share a rank, the next rank skips (1, 1, 3). */
export function rank<T extends { score: number; studentId: number }>(rowsIn: T[]): (T & { rank: number })[] {
  const sorted = [...rowsIn].sort((a, b) => b.score - a.score || a.studentId - b.studentId);
  let rankOfScore = 0;
  return sorted.map((r, k) => {
    if (k === 0 || sorted[k - 1].score !== r.score) rankOfScore = k + 1;
    return { ...r, rank: rankOfScore };
  });
}

/** Upper and lower 27 % groups by total score (ties by student id, so the groups are stable). */
export function extremeGroups(totals: { studentId: number; score: number }[]): { upper: number[]; lower: number[] } {
  const sorted = [...totals].sort((a, b) => b.score - a.score || a.studentId - b.studentId);
  const size = sorted.length ? Math.max(1, Math.round(sorted.length * 0.27)) : 0;
  return { upper: sorted.slice(0, size).map((t) => t.studentId), lower: sorted.slice(sorted.length - size).map((t) => t.studentId) };
}

/** Cronbach's α = k/(k−1) · (1 − Σ item variances / total variance); null when undefined. */
export function cronbachAlpha(itemVariances: number[], totalVariance: number): number | null {
  const k = itemVariances.length;
  if (k < 2 || totalVariance <= 0) return null;
  return round((k / (k - 1)) * (1 - itemVariances.reduce((s, v) => s + v, 0) / totalVariance));
}
