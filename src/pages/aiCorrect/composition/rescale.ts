// The printed rubric dimensions after the teacher set the total (e.g. 16/20): each dimension's
// points move so that they add up to the teacher's total, none below 0 or above its own full
// marks. Points added go where there was room (max − score), points taken where there were points,
// so the machine's judgement of which dimension was stronger survives the teacher's total.
import type { EssayDimension } from '../../../dataProvider/correct';

/** Rounds to steps (0.5 when the total allows, else 0.1) keeping the sum exact (largest remainder). */
function apportion(values: number[], caps: number[], total: number): number[] {
  const step = Number.isInteger(total * 2) ? 0.5 : 0.1;
  const units = Math.round(total / step);
  const floors = values.map((v) => Math.floor(v / step + 1e-9));
  let left = units - floors.reduce((a, b) => a + b, 0);
  const order = values.map((v, i) => ({ i, frac: v / step - floors[i]! })).sort((a, b) => b.frac - a.frac);
  for (const { i } of order) {
    if (left <= 0) break;
    if ((floors[i]! + 1) * step <= caps[i]! + 1e-9) {
      floors[i]!++;
      left--;
    }
  }
  return floors.map((u) => Math.round(u * step * 10) / 10);
}

export function rescaleDimensions(dims: EssayDimension[], total: number | null, maxScore: number | null): EssayDimension[] {
  const fullMarks = dims.reduce((s, d) => s + d.max, 0);
  if (total === null || !dims.length || fullMarks <= 0) return dims;
  // Full marks of the task first (the rubric's own total may differ from the task's).
  const k = maxScore && maxScore > 0 ? maxScore / fullMarks : 1;
  const max = dims.map((d) => d.max * k);
  const score = dims.map((d, i) => Math.min(max[i]!, d.score * k));
  const target = Math.max(0, Math.min(total, max.reduce((a, b) => a + b, 0)));
  const sum = score.reduce((a, b) => a + b, 0);
  let next: number[];
  if (target >= sum) {
    const room = max.map((m, i) => m - score[i]!);
    const rooms = room.reduce((a, b) => a + b, 0);
    next = score.map((s, i) => (rooms > 0 ? s + ((target - sum) * room[i]!) / rooms : s));
  } else {
    next = score.map((s) => (sum > 0 ? s - ((sum - target) * s) / sum : 0));
  }
  const maxes = apportion(max, max, max.reduce((a, b) => a + b, 0));
  const points = apportion(next, maxes, target);
  return dims.map((d, i) => ({ ...d, score: points[i]!, max: maxes[i]! }));
}
