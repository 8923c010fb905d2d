// The marking screen's model, free of React: which paper comes next after a score, the buttons of
// the score pad, and what a typed score means.
import type { MarkingPaper } from '../../../domain/marking';

/** The next paper without a score or waiting for 仲裁 after `from` (wrapping round); null when every one is done. */
export function nextUnmarked(papers: Pick<MarkingPaper, 'score' | 'pending'>[], from: number): number | null {
  for (let step = 1; step <= papers.length; step++) {
    const i = (from + step) % papers.length;
    if (papers[i]!.score === null || papers[i]!.pending) return i;
  }
  return null;
}

/** The pad's buttons: every whole point up to full marks, in halves for small questions. */
export function padValues(fullMarks: number): number[] {
  const step = fullMarks <= 3 ? 0.5 : 1;
  const out: number[] = [];
  for (let v = 0; v <= fullMarks + 1e-9 && out.length < 31; v += step) out.push(Math.round(v * 2) / 2);
  if (out[out.length - 1] !== fullMarks) out.push(fullMarks);
  return out;
}

/** A typed score: a number from 0 to full marks in halves, or the reason it is not, in Chinese. */
export function parseScore(text: string, fullMarks: number): { score: number } | { error: string } {
  const t = text.trim();
  if (!/^\d+(\.\d+)?$/.test(t)) return { error: '请输入分数' };
  const score = Number(t);
  if (score > fullMarks) return { error: `不能超过满分 ${fullMarks} 分` };
  if (!Number.isInteger(score * 2)) return { error: '分数只能是整数或 0.5 分' };
  return { score };
}
