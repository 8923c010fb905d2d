import { sample, type GrayImage } from '../image/gray.js';
import type { Bubble } from '../layout/types.js';
import { apply, type Homography } from './homography.js';

// A bubble's ink is measured against the paper right next to it (so shadows and uneven light
// cancel out), then normalised against this page's own empty and filled levels: the same pencil
// reads the same on a dark photo and a bright scan, with no global threshold to tune.

export type BubbleState = 'marked' | 'empty' | 'uncertain';

export interface BubbleMeasure {
  /** Raw ink fraction of the bubble interior, 0 = paper, 1 = black. */
  ink: number;
}

export interface PageLevels {
  empty: number;
  full: number;
}

/** Normalised fill at or above which a bubble is read as marked, and at or below which as empty. */
export const MARKED_AT = 0.6;
export const EMPTY_AT = 0.3;

// Interior sample grid (fractions of the radii), kept inside the printed outline.
const INTERIOR: [number, number][] = [];
for (let i = -3; i <= 3; i++)
  for (let j = -2; j <= 2; j++) {
    const u = (i / 3) * 0.72;
    const v = (j / 2) * 0.62;
    if (u * u + v * v <= 0.62) INTERIOR.push([u, v]);
  }

export function measureBubble(img: GrayImage, h: Homography, b: Bubble): BubbleMeasure {
  // Paper reference: the brightest of eight points in the gaps around the bubble.
  let paper = 0;
  const gx = b.rx + 0.9;
  const gy = b.ry + 1.3;
  for (const [u, v] of [[-1, 0], [1, 0], [0, -1], [0, 1], [-1, -1], [1, -1], [1, 1], [-1, 1]] as const) {
    const p = apply(h, b.cx + u * gx, b.cy + v * gy);
    paper = Math.max(paper, sample(img, p.x, p.y));
  }
  paper = Math.max(paper, 60);
  let ink = 0;
  for (const [u, v] of INTERIOR) {
    const p = apply(h, b.cx + u * b.rx, b.cy + v * b.ry);
    ink += Math.max(0, 1 - sample(img, p.x, p.y) / paper);
  }
  return { ink: ink / INTERIOR.length };
}

/**
 * Splits the page's bubbles into two clusters (Otsu) and takes each cluster's median as the
 * page's empty and filled levels. Only when the page has no second cluster (a blank sheet, or a
 * sheet where every bubble is filled) does a nominal pencil contrast decide which one it is, so
 * faint marks on a blank page become "uncertain" rather than "marked".
 */
export function pageLevels(inks: number[]): PageLevels {
  const sorted = [...inks].sort((a, b) => a - b);
  const n = sorted.length;
  const median = (lo: number, hi: number) => sorted[Math.floor((lo + hi) / 2)] ?? 0;
  const prefix = [0];
  for (const v of sorted) prefix.push(prefix[prefix.length - 1]! + v);
  let split = 0;
  let bestVar = -1;
  for (let k = 1; k < n; k++) {
    const m0 = prefix[k]! / k;
    const m1 = (prefix[n]! - prefix[k]!) / (n - k);
    const between = k * (n - k) * (m1 - m0) ** 2;
    if (between > bestVar) {
      bestVar = between;
      split = k;
    }
  }
  // A 2B pencil fill measures about 0.65–0.75 above an empty bubble on our scans; a second
  // cluster must show at least half of that to count as "the marks on this page".
  const NOMINAL = 0.6;
  if (split > 0) {
    const empty = median(0, split);
    const full = median(split, n);
    if (full - empty > NOMINAL / 2) return { empty, full };
  }
  const all = median(0, n);
  return all < NOMINAL / 2 ? { empty: all, full: all + NOMINAL } : { empty: Math.max(0, all - NOMINAL), full: all };
}

export function normalise(m: BubbleMeasure, levels: PageLevels): number {
  return (m.ink - levels.empty) / (levels.full - levels.empty);
}

export function stateOf(fill: number): BubbleState {
  if (fill >= MARKED_AT) return 'marked';
  if (fill <= EMPTY_AT) return 'empty';
  return 'uncertain';
}

/** Above 0.5 for a clear reading (1 when far from the thresholds), below 0.5 for an uncertain one. */
export function bubbleConfidence(fill: number): number {
  if (fill >= MARKED_AT) return 0.5 + 0.5 * Math.min(1, (fill - MARKED_AT) / 0.4);
  if (fill <= EMPTY_AT) return 0.5 + 0.5 * Math.min(1, (EMPTY_AT - fill) / 0.3);
  const mid = (MARKED_AT + EMPTY_AT) / 2;
  return (0.5 * Math.abs(fill - mid)) / (MARKED_AT - mid);
}
