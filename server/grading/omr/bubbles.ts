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
  /** Mean ink of the darkest sixth of the interior away from the printed letter: a pencil
   *  stroke (a tick) shows here even when it covers little of the bubble. */
  peak?: number;
  /** Dark stretches on a circle just outside the outline: a tick leaves the bubble once (up and
   *  to the right), a stray line drawn across the bubble leaves it on two sides. */
  exits?: number;
  /** Where a single stroke leaves the bubble, in degrees on the bubble's own circle (0 = right,
   *  90 = up): a tick's long stroke leaves up and to the right. */
  exitDeg?: number;
  /** How unevenly lit the paper around the bubble is, (brightest − darkest) / brightest of the
   *  gap points: about 0.05 on a scan, 0.3 and more where a hard shadow edge crosses the bubble. */
  paperSpread?: number;
  /** A straight shadow edge was found crossing the gaps around the bubble, and each sample's ink
   *  was measured against the paper on its own side of the edge. */
  shadowEdge?: boolean;
}

export interface PageLevels {
  empty: number;
  full: number;
}

/** Normalised fill at or above which a bubble is read as marked, and at or below which as empty. */
export const MARKED_AT = 0.6;
// Erased ghosts measure up to ~0.2 of a page's fills, a light second mark from ~0.28: below this
// a bubble is empty, above it (and below MARKED_AT) it goes to the teacher.
export const EMPTY_AT = 0.22;

// Interior sample grid (fractions of the radii), kept inside the printed outline.
const INTERIOR: [number, number][] = [];
for (let i = -3; i <= 3; i++)
  for (let j = -2; j <= 2; j++) {
    const u = (i / 3) * 0.72;
    const v = (j / 2) * 0.62;
    if (u * u + v * v <= 0.62) INTERIOR.push([u, v]);
  }

// Letter-free interior grid for the stroke measure: a ring inside the outline, around the printed
// option letter (which is the same on every bubble and would otherwise look like a stroke).
const RING: [number, number][] = [];
for (let i = -6; i <= 6; i++)
  for (let j = -4; j <= 4; j++) {
    const u = (i / 6) * 0.8;
    const v = (j / 4) * 0.75;
    if (u * u + v * v <= 0.7 && !(Math.abs(u) < 0.38 && Math.abs(v) < 0.62)) RING.push([u, v]);
  }
const PEAK_N = Math.max(1, Math.round(RING.length / 6));
// Circle outside the outline, clear of the item number on the left and of neighbouring bubbles.
// 40 points, about 0.4 mm apart: at 20 (0.85 mm) a 0.35 mm stray stroke could cross the circle
// between two of them and look like a tick leaving the bubble once (it is measured only for
// bubbles with a stroke inside, so the density costs nothing on the rest).
const OUTSIDE_N = 40;
const OUTSIDE: [number, number][] = Array.from({ length: OUTSIDE_N }, (_, i) => [1.25 * Math.cos((2 * i * Math.PI) / OUTSIDE_N), 1.25 * Math.sin((2 * i * Math.PI) / OUTSIDE_N)]);

// The gaps around a bubble walked as a closed ring (in radii, clockwise from the top left): rows
// above and below (clear of the neighbouring rows' marks) and columns between the neighbours.
function gapRing(gxr: number, gyr: number): [number, number][] {
  const out: [number, number][] = [];
  for (let k = 0; k < 12; k++) out.push([-gxr + (2 * gxr * k) / 12, -gyr]);
  for (let k = 0; k < 8; k++) out.push([gxr, -gyr + (2 * gyr * k) / 8]);
  for (let k = 0; k < 12; k++) out.push([gxr - (2 * gxr * k) / 12, gyr]);
  for (let k = 0; k < 8; k++) out.push([-gxr, gyr - (2 * gyr * k) / 8]);
  return out;
}

/** Paper at a point of the bubble (in mm from its centre). */
type PaperAt = (x: number, y: number) => number;

// Half-width of the modelled edge's ramp (mm): a photo's blur and JPEG spread a hard shadow edge
// over about half a millimetre, and the edge is located to a few tenths of one.
const EDGE_RAMP = 0.3;
/** The sharpest ramp modelled (mm): about a pixel of a 200 dpi scan. */
const MIN_RAMP = 0.12;

/** Upper-eighth level of a side's paper: as the brightest of the eight gap points elsewhere. */
function paperLevel(vals: number[]): number {
  vals.sort((a, b) => a - b);
  return vals[Math.min(vals.length - 1, Math.floor((vals.length * 8) / 9))]!;
}

/**
 * A hard shadow edge (a hand, the phone, a book, a scanner lid) crossing a bubble darkens part of
 * it: against the bright paper that part reads as ink. Walking the gaps around the bubble, a
 * straight edge shows as exactly two crossings between a bright and a dark level; the paper of
 * each sample is then that of its own side (ramped across the edge). Anything else (ink on the
 * ring: a neighbour's mark, a stray stroke, the item number, or no clear edge) returns null and
 * the bubble is measured against its brightest gap, as everywhere else.
 */
function shadowPaper(g: (u: number, v: number) => number, b: Bubble): PaperAt | null {
  const ring = gapRing((b.rx + 0.9) / b.rx, (b.ry + 1.3) / b.ry);
  const all = ring.map(([u, v]) => g(u, v));
  const n = ring.length;
  // The whole ring first; then without the column left of the bubble (where an item's number
  // ends beside its first bubble), then without the one on the right: ink on a column adds
  // crossings, and the edge is still found on the rest.
  // (Ring order: top row 0–11, right column 12–19, bottom row 20–31, left column 32–39; an open
  // path keeps both corners of the column it leaves out.)
  const paths = [ring.map((_, i) => i), Array.from({ length: 33 }, (_, i) => i), Array.from({ length: 33 }, (_, i) => (20 + i) % n)];
  for (const [k, path] of paths.entries()) {
    const edge = edgeAlong(ring, all, path, k === 0, b, g);
    if (edge) return edge;
  }
  return null;
}

function edgeAlong(ring: [number, number][], all: number[], path: number[], closed: boolean, b: Bubble, g: (u: number, v: number) => number): PaperAt | null {
  const pts = path.map((i) => ring[i]!);
  const vals = path.map((i) => all[i]!);
  const sorted = [...vals].sort((a, c) => a - c);
  // The bright level from the second brightest point (one may be noise): where the light only
  // clips a corner of the gaps, the bright side is two or three points, below any percentile. The
  // dark level stays a percentile, as ink on the ring (a neighbour's mark, a stray stroke) is dark.
  const hi = sorted[sorted.length - 2]!;
  const lo = sorted[Math.floor(sorted.length * 0.1)]!;
  if (hi - lo < 0.1 * hi) return null;
  const mid = (hi + lo) / 2;
  const hyst = 0.25 * (hi - lo);
  // Hysteresis: a point counts as changing side only when clearly past the middle (noise).
  const n = vals.length;
  const start = vals.findIndex((x) => Math.abs(x - mid) > hyst);
  if (start < 0) return null;
  let dark = vals[start]! < mid;
  const crossings: { x: number; y: number; ramp: number }[] = [];
  for (let k = 1; k <= (closed ? n : n - 1 - start); k++) {
    const i = (start + k) % n;
    const x = vals[i]!;
    const nowDark = x < mid - hyst ? true : x > mid + hyst ? false : dark;
    if (nowDark !== dark) {
      // The edge lies between this point and the previous one: place it where the values cross the middle.
      const j = (i + n - 1) % n;
      const [u0, v0] = pts[j]!;
      const [u1, v1] = pts[i]!;
      const { t, ramp } = crossingAt(g, u0, v0, u1, v1, vals[j]!, x, lo, hi, Math.hypot((u1 - u0) * b.rx, (v1 - v0) * b.ry));
      crossings.push({ x: (u0 + (u1 - u0) * t) * b.rx, y: (v0 + (v1 - v0) * t) * b.ry, ramp });
      dark = nowDark;
    }
  }
  if (crossings.length !== 2) return null;
  const [p, q] = crossings as [{ x: number; y: number; ramp: number }, { x: number; y: number; ramp: number }];
  // The ramp as measured where the edge crosses the gaps most squarely (the other crossing, slanting,
  // measures it longer), within what a sharp scan and a blurred photo show.
  const halfRamp = Math.min(EDGE_RAMP, Math.max(MIN_RAMP, Math.min(p.ramp, q.ramp)));
  const len = Math.hypot(q.x - p.x, q.y - p.y);
  if (len < 1e-6) return null;
  const side = (x: number, y: number) => ((q.x - p.x) * (y - p.y) - (q.y - p.y) * (x - p.x)) / len;
  // Which side is dark: the sign that the darker half of the ring points takes.
  let sum = 0;
  pts.forEach(([u, v], k) => {
    sum += (vals[k]! < mid ? 1 : -1) * Math.sign(side(u * b.rx, v * b.ry));
  });
  const sgn = sum >= 0 ? 1 : -1;
  const darkVals: number[] = [];
  const brightVals: number[] = [];
  pts.forEach(([u, v], k) => {
    const s = sgn * side(u * b.rx, v * b.ry);
    if (s > EDGE_RAMP + 0.2) darkVals.push(vals[k]!);
    else if (s < -EDGE_RAMP - 0.2) brightVals.push(vals[k]!);
  });
  // An edge that only clips a corner of the gaps leaves too little shadow to model: not modelled,
  // so the bubble keeps the shadow-edge check below.
  if (darkVals.length < 2) return null;
  // Two crossings close together are a stroke or a corner of shadow (dark, a few points), not an
  // edge across the bubble. A corner of light is modelled: the bubble lies in the shadow, and
  // measured against the lit corner all of it would read as ink.
  if (len < 2 && brightVals.length >= darkVals.length) return null;
  const darkP = Math.max(60, paperLevel(darkVals));
  const bright = Math.max(60, brightVals.length >= 2 ? paperLevel(brightVals) : darkP);
  return (x, y) => {
    const t = Math.min(1, Math.max(0, 0.5 + (sgn * side(x, y)) / (2 * halfRamp)));
    return bright + (darkP - bright) * t;
  };
}

/**
 * Where between two neighbouring gap points (0.4–0.75 mm apart) the light crosses `mid`. On a
 * scan the edge is sharp, so interpolating the two values alone can place it up to half that gap
 * off, and the misplaced strip of shadow then reads as a pencil stroke along the edge: eight
 * samples between them place it to a tenth of a millimetre.
 */
function crossingAt(g: (u: number, v: number) => number, u0: number, v0: number, u1: number, v1: number, a: number, x: number, lo: number, hi: number, stepMm: number): { t: number; ramp: number } {
  const K = 8;
  const mid = (lo + hi) / 2;
  // How long the light takes to go from a quarter to three quarters of the way across: about the
  // ramp's half-width (a blurred photo's edge, a scan's sharp one).
  const inRamp = (v: number) => v > lo + 0.25 * (hi - lo) && v < hi - 0.25 * (hi - lo);
  let prev = a;
  let t = -1;
  let ramp = 0;
  for (let k = 1; k <= K; k++) {
    const cur = k === K ? x : g(u0 + ((u1 - u0) * k) / K, v0 + ((v1 - v0) * k) / K);
    if (t < 0 && (prev - mid) * (cur - mid) <= 0 && prev !== cur) t = (k - 1 + (prev - mid) / (prev - cur)) / K;
    if (inRamp(cur)) ramp += stepMm / K;
    prev = cur;
  }
  if (t < 0) t = a === x ? 0.5 : Math.min(1, Math.max(0, (a - mid) / (a - x)));
  return { t, ramp };
}

/** The eight gap directions around a bubble, in the order they are sampled (hoisted: one array per
 *  bubble per page was needless garbage). */
const GAP_DIRS = [[-1, 0], [1, 0], [0, -1], [0, 1], [-1, -1], [1, -1], [1, 1], [-1, 1]] as const;

export function measureBubble(img: GrayImage, h: Homography, b: Bubble): BubbleMeasure {
  // Paper reference: the brightest of eight points in the gaps around the bubble (the second
  // brightest where the brightest alone is lit: see paperIn).
  let paper = 0;
  let paper2 = 0;
  let brightest = 0;
  let paper8Lo = 255;
  // Brightest, darkest and second darkest of the points above and below the row (no allocation:
  // this runs for every bubble of every page).
  let hiB = 0;
  let lo1 = 255;
  let lo2 = 255;
  const gx = b.rx + 0.9;
  const gy = b.ry + 1.3;
  for (let k = 0; k < GAP_DIRS.length; k++) {
    const [u, v] = GAP_DIRS[k]!;
    const p = apply(h, b.cx + u * gx, b.cy + v * gy);
    const g = sample(img, p.x, p.y);
    if (v !== 0) {
      hiB = Math.max(hiB, g);
      if (g < lo1) {
        lo2 = lo1;
        lo1 = g;
      } else if (g < lo2) lo2 = g;
    }
    if (g > paper) {
      paper2 = paper;
      paper = g;
      brightest = k;
    } else if (g > paper2) paper2 = g;
    paper8Lo = Math.min(paper8Lo, g);
  }
  const paper8Hi = paper;
  paper = Math.max(paper, 60);
  // One corner gap point far brighter than the seven others: the light of a shadow's edge reaching
  // only that corner, while the bubble lies in the shadow with the rest (no edge is found along the
  // gaps for so small a corner). Against that point the whole bubble would read as pencil. (A side
  // point lies between two corners, so a straight edge cannot light it alone: that is glare.)
  const paperIn = brightest >= 4 && paper8Hi - paper2 > 0.1 * paper8Hi ? Math.max(paper2, 60) : paper;
  // Shadow edge: the points in the gaps above and below the row (clear of neighbours' marks, which
  // sit left and right) lit unevenly. The second darkest, as one may fall on a stray stroke.
  const paperSpread = paperIn < paper ? Math.max(0, (Math.min(hiB, paperIn) - lo2) / paperIn) : Math.max(0, (hiB - lo2) / paper);
  // Within one bubble the page's perspective is an affine map: project the centre and the two
  // radii once, then place each of the ~90 samples by two multiply-adds.
  const o = apply(h, b.cx, b.cy);
  const ex = apply(h, b.cx + b.rx, b.cy);
  const ey = apply(h, b.cx, b.cy + b.ry);
  const ux = ex.x - o.x;
  const uy = ex.y - o.y;
  const vx = ey.x - o.x;
  const vy = ey.y - o.y;
  const grey = (u: number, v: number) => sample(img, o.x + u * ux + v * vx, o.y + u * uy + v * vy);
  // Only where the gaps are lit unevenly is an edge looked for (most bubbles skip it).
  const edge = (paper8Hi - paper8Lo) / paper > 0.1 ? shadowPaper(grey, b) : null;
  const inkAt = edge
    ? (u: number, v: number) => Math.max(0, 1 - grey(u, v) / edge(u * b.rx, v * b.ry))
    : (u: number, v: number) => Math.max(0, 1 - grey(u, v) / paperIn);
  let ink = 0;
  for (const [u, v] of INTERIOR) ink += inkAt(u, v);
  // The darkest PEAK_N samples, kept in ascending order (cheaper than sorting them all).
  const top = new Array<number>(PEAK_N).fill(0);
  for (const [u, v] of RING) {
    const x = inkAt(u, v);
    if (x <= top[0]!) continue;
    let j = 1;
    while (j < PEAK_N && top[j]! < x) {
      top[j - 1] = top[j]!;
      j++;
    }
    top[j - 1] = x;
  }
  let peak = 0;
  for (const x of top) peak += x;
  peak /= PEAK_N;
  // Only worth counting when something stroke-like is inside; the empty majority skips it.
  let exits = 0;
  let exitDeg: number | undefined;
  if (peak > 0.15) {
    const dark = OUTSIDE.map(([u, v]) => inkAt(u, v) >= 0.5 * peak);
    let sx = 0;
    let sy = 0;
    dark.forEach((d, i) => {
      if (d && !dark[(i + dark.length - 1) % dark.length]) exits++;
      if (d) {
        sx += OUTSIDE[i]![0];
        sy -= OUTSIDE[i]![1];
      }
    });
    if (exits === 0 && dark.every(Boolean)) exits = 1;
    // The direction of a single exit: the mean of its dark points (layout y grows downward).
    else if (exits === 1) exitDeg = (Math.atan2(sy, sx) * 180) / Math.PI;
  }
  return { ink: ink / INTERIOR.length, peak, exits, ...(exitDeg !== undefined ? { exitDeg } : {}), paperSpread, ...(edge ? { shadowEdge: true } : {}) };
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

/** What the reader knows about a page before deciding any one item. */
export interface PageContext {
  levels: PageLevels;
  /** Typical `peak` of an empty bubble on this page (the printed outline's blur, paper grain). */
  peakEmpty: number;
  /** Typical ink above the empty level of this page's clear single answers: about 0.7 for a 2B
   *  pencil, 0.2 for a student who writes lightly. */
  markLevel: number;
}

export interface BubbleDecision {
  fill: number;
  state: BubbleState;
  /** Read from a stroke (a tick) rather than a fill. */
  tick: boolean;
  /** As `bubbleConfidence`: above 0.5 for a clear reading. */
  confidence: number;
}

/** Confidence of a bubble read by a rule about its item (a tick, a light-pencil answer, a ghost
 *  beside a clear mark) rather than by its fill alone: sure enough not to flag (FLAG_BELOW). */
export const RULE_READ = 0.75;
/** An item whose least sure bubble is below this goes to the teacher, whatever it was read as: a
 *  fill of 0.6–0.75 (a half fill, a shadow edge across a blank row) is too close to call. */
export const FLAG_BELOW = 0.7;
/** An item with a bubble read as empty less surely than this goes to the teacher: its fill is
 *  within 0.03 of EMPTY_AT, where a faint tick and paper cannot be told apart. */
export const EMPTY_FLAG_BELOW = 0.55;
/** Unevenness up to which ink is a smear (fill, ghost) rather than a stroke, as the ghost rule has
 *  it: the engine's corpus measures most ghosts and light fills at 0.9–1.3 (a few to 1.7), ticks
 *  at 2.4 and more, half fills at 1.7 and more (bench/omrTune.ts). */
const GHOST_EVEN = 1.5;
/** Unevenness up to which a mark read unsurely (fill 0.6–0.75) is an even light fill, not a half
 *  fill: the engine's corpus measures light fills at 1.0–1.12 and half fills at 1.72 and more. A
 *  missed half fill is a silent error and a needless flag only a look, so the bound sits just above
 *  the light fills rather than midway (a blurred photo evens a half fill out to ~1.4). */
const LIGHT_FILL_EVEN = 1.25;
/** Share of this page's usual answer from which a lone mark as even as a fill is read as a light
 *  fill: the engine's corpus measures lone HB fills at 0.56–0.60 and erased ghosts at up to 0.22
 *  (0.41 once in 135) of the page's answers; the bound sits next to the light fills. */
const LIGHT_FILL_SHARE = 0.5;
/** A ghost so faint that paper grain and JPEG make it look uneven (ghostsBesideMarks, ghostsAtEdge):
 *  the engine's corpus measures such ghosts at 1.6–1.96 uneven with 0.20–0.27 of the answer's
 *  darkest stroke, the ticks beside an answer that are as light at 2.29 and more with 0.35 (tuning
 *  seeds 11300 and 4200). A light tick's long stroke also leaves the bubble, which a ghost's smear
 *  does not: smear() asks for both. Bounds on the side of flagging: a tick missed is a silent
 *  error, a ghost flagged only a look. */
const FAINT_GHOST = { uneven: 2.0, stroke: 0.3 };
/** On a light-pencil page, an uncertain bubble beside a light answer with at most this share of its
 *  ink and of its darkest stroke, no more uneven than this and no stroke leaving it, is the ghost
 *  of a rubbed-out answer (lightAnswers). Found on phone photos of light-pencil students, where such
 *  ghosts measure 0.10–0.24 of the answer's ink, 0.12–0.34 of its stroke and 1.6–2.3 uneven (the
 *  engine's corpus draws ghosts as even smears, which never reach this rule); the light ticks of the
 *  engine's corpus (2.29 uneven, 0.35 of the stroke, leaving the bubble) stay outside. */
const GHOST_BESIDE_LIGHT = { ink: 0.3, stroke: 0.34, uneven: 2.2 };

/**
 * Erased ghosts beside a clear answer: an even smear, far lighter than the darkest mark of its own
 * item and than this page's usual answer (so judged against what this student's pencil does, not
 * a global level), is what an eraser left behind. Ticks and half fills are uneven and stay.
 */
function ghostsBesideMarks(ms: BubbleMeasure[], ctx: PageContext, out: BubbleDecision[]): void {
  const contrast = (i: number) => ms[i]!.ink - ctx.levels.empty;
  const clear = out.flatMap((d, i) => (d.state === 'marked' && !d.tick && d.fill >= 0.8 ? [i] : []));
  if (clear.length === 0) return;
  const ref = Math.min(Math.max(...clear.map(contrast)), Math.max(ctx.markLevel, 0.12));
  const markStroke = Math.max(...clear.map((i) => strokeOf(ms[i]!, ctx)));
  out.forEach((d, i) => {
    if (d.state !== 'uncertain' || d.tick || d.fill >= 0.4) return;
    if (smear(ms[i]!, ctx, markStroke) && contrast(i) <= 0.2 * ref) out[i] = { ...d, state: 'empty', confidence: RULE_READ };
  });
}

/**
 * A bubble read as empty at the very edge of empty (see EMPTY_FLAG_BELOW) is a faint tick or a
 * ghost. Beside a mark of its own item read surely, a smear (see smear(): a tick is a thin stroke
 * leaving the bubble, 2.29 and more uneven on the engine's corpus) with at most 0.6 of that mark's ink
 * (what the light-answer rule calls clean paper beside an answer) is what the eraser left: judged
 * against this student's own mark, not a global margin, it no longer sends the item to a teacher.
 */
function ghostsAtEdge(ms: BubbleMeasure[], ctx: PageContext, out: BubbleDecision[]): void {
  const contrast = (i: number) => ms[i]!.ink - ctx.levels.empty;
  const sure = out.flatMap((d, i) => (d.state === 'marked' && !d.tick && d.confidence >= FLAG_BELOW ? [i] : []));
  if (sure.length === 0) return;
  const mark = Math.max(...sure.map(contrast));
  const markStroke = Math.max(...sure.map((i) => strokeOf(ms[i]!, ctx)));
  out.forEach((d, i) => {
    if (d.state !== 'empty' || d.confidence >= EMPTY_FLAG_BELOW) return;
    if (smear(ms[i]!, ctx, markStroke) && contrast(i) <= 0.6 * mark) out[i] = { ...d, confidence: RULE_READ };
  });
}

/** A bubble's darkest part above an empty bubble's: what a pencil stroke leaves. */
function strokeOf(m: BubbleMeasure, ctx: PageContext): number {
  return (m.peak ?? m.ink) - ctx.peakEmpty;
}

/** Ink spread like a smear (a ghost, a fill), not drawn as a stroke, beside a mark whose darkest
 *  part is `markStroke`: even, or so faint that paper grain makes it look uneven while its darkest
 *  part stays far from the mark's (FAINT_GHOST). */
function smear(m: BubbleMeasure, ctx: PageContext, markStroke: number): boolean {
  const uneven = unevenness(m, ctx);
  // No stroke found leaving the bubble either: a tick's long stroke does, an eraser's smear stays
  // inside the outline.
  return uneven <= GHOST_EVEN || (uneven <= FAINT_GHOST.uneven && strokeOf(m, ctx) <= FAINT_GHOST.stroke * markStroke && (m.exits ?? 0) === 0);
}

/** A bubble read as ink where the paper around it is lit unevenly (a hard shadow edge crosses it):
 *  its ink may be the shadow, so the teacher looks. */
function shadowEdges(ms: BubbleMeasure[], ctx: PageContext, out: BubbleDecision[]): void {
  out.forEach((d, i) => {
    const spread = ms[i]!.paperSpread ?? 0;
    // Only ink a shadow could account for (up to its depth and a margin); a fill well beyond the
    // page's filled level is a mark whatever the light.
    if (d.state === 'marked' && !ms[i]!.shadowEdge && spread > 0.18 && d.fill < 1.1 && ms[i]!.ink - ctx.levels.empty < spread + 0.3) out[i] = { ...d, confidence: Math.min(d.confidence, 0.45) };
  });
}

/** Directions (degrees, 0 = right, 90 = up) in which a tick's single stroke may leave the bubble:
 *  the engine's corpus measures ticks at 23–63° (seeds 7300 and 11300, 600 ticks), stray strokes
 *  and erased ghosts read as ticks at −167 to 9° and 108–135° (one stray at 36°, still read). The
 *  window sits next to the ticks; a stroke leaving elsewhere is `uncertain`, for the teacher. */
const TICK_EXIT_DEG: [number, number] = [20, 75];

/** A bubble's stroke contrast counts as a tick from here (raw ink above an empty bubble's peak). */
function tickAt(ctx: PageContext): number {
  // A light-pencil student's tick is as light as the rest of their marks: the page's own contrast
  // sets the level (its typical answer, when that is lighter than its filled level), down to 0.12 (a photo's noise stays well below half of that).
  return Math.max(0.12, 0.35 * Math.min(ctx.levels.full - ctx.levels.empty, ctx.markLevel));
}

/** How much darker the bubble's darkest part is than its average, both above an empty bubble:
 *  about 1 for fills and smears, 2 for a half fill, 2.5 and more for a thin stroke. */
function unevenness(m: BubbleMeasure, ctx: PageContext): number {
  return ((m.peak ?? m.ink) - ctx.peakEmpty) / Math.max(m.ink - ctx.levels.empty, 0.03);
}

/**
 * Page levels, the stroke level of an empty bubble, and the typical ink of this page's answers:
 * the median, over the items (given as groups of bubble indexes), of each item's one clear mark.
 */
export function pageContext(ms: BubbleMeasure[], items: number[][]): PageContext {
  const levels = pageLevels(ms.map((m) => m.ink));
  const peaks = ms.map((m) => m.peak ?? m.ink).sort((a, b) => a - b);
  // Lower quartile: most bubbles on a sheet are empty, even where many items are answered.
  const peakEmpty = peaks[Math.floor(peaks.length / 4)] ?? 0;
  const answers: number[] = [];
  for (const group of items) {
    const c = group.map((i) => ms[i]!.ink - levels.empty).sort((a, b) => b - a);
    const [first = 0, second = 0] = c;
    if (first >= 0.1 && second <= first / 2) answers.push(first);
  }
  answers.sort((a, b) => a - b);
  const markLevel = answers.length >= 3 ? answers[Math.floor(answers.length / 2)]! : levels.full - levels.empty;
  return { levels, peakEmpty, markLevel };
}

/**
 * Reads one item's bubbles (or one student-number column) together. Page terms come first: a
 * fill like the page's marks is marked, one like its empty bubbles is empty. Then the item's own
 * bubbles decide what page terms cannot:
 * - a tick (a strong thin stroke, little fill) is a mark; a weaker stroke is uncertain;
 * - a light but even mark that stands alone in its item, clearly darker than its siblings and as
 *   dark as this page's answers usually are, is read: that is how a light-pencil student answers.
 *   Erased ghosts stay below that (or are recognised beside it: see lightAnswers), and two unlike
 *   light marks, or a light mark beside other ink, stay uncertain for the teacher.
 */
export function readBubbles(ms: BubbleMeasure[], ctx: PageContext): BubbleDecision[] {
  const { levels } = ctx;
  const tick = tickAt(ctx);
  const out = ms.map((m): BubbleDecision => {
    const fill = normalise(m, levels);
    let state = stateOf(fill);
    const stroke = (m.peak ?? m.ink) - ctx.peakEmpty;
    const uneven = unevenness(m, ctx);
    if (fill < 0.35 && uneven >= 2 && stroke >= tick) {
      // A line crossing the whole bubble is more likely a stray stroke than an answer: ask.
      // So is one leaving it anywhere but up and to the right, where a tick's long stroke goes.
      const ticklike = (m.exits ?? 0) === 0 || ((m.exits ?? 0) === 1 && (m.exitDeg === undefined || (m.exitDeg >= TICK_EXIT_DEG[0] && m.exitDeg <= TICK_EXIT_DEG[1])));
      if (ticklike) return { fill, state: 'marked', tick: true, confidence: RULE_READ };
      return { fill, state: 'uncertain', tick: false, confidence: 0.3 };
    }
    // A fainter or blurred stroke: not read, but never silently dropped either.
    if (state === 'empty' && uneven >= 1.6 && stroke >= 0.6 * tick) return { fill, state: 'uncertain', tick: false, confidence: 0.3 };
    return { fill, state, tick: false, confidence: bubbleConfidence(fill) };
  });
  ghostsBesideMarks(ms, ctx, out);
  lightAnswers(ms, ctx, out);
  ghostsAtEdge(ms, ctx, out);
  shadowEdges(ms, ctx, out);
  return out;
}

/**
 * Light marks: every lit bubble of the item is uncertain, even (not a half fill), as dark as this
 * page's answers usually are, and alike; the rest are clean paper. Then they are the answers (two
 * of them on a single-choice item are still flagged as a double by the caller).
 */
function lightAnswers(ms: BubbleMeasure[], ctx: PageContext, out: BubbleDecision[]): void {
  const { levels } = ctx;
  const contrast = (i: number) => ms[i]!.ink - levels.empty;
  const stroke = (i: number) => strokeOf(ms[i]!, ctx);
  // A tick read as a mark is an answer of its own: the item's light marks beside it are judged
  // without it (two answers on a single choice are still flagged as a double by the caller).
  let lit = out.flatMap((d, i) => (d.state === 'empty' || d.tick ? [] : [i]));
  // The ghost of a light-pencil answer rubbed out beside the one kept: an erased scribble keeps a
  // trace of its strokes, so it can read as a faint stroke, yet it has little of the kept mark's
  // ink and of its darkest stroke. A faint tick beside a light answer keeps the pencil's stroke
  // (see GHOST_BESIDE_LIGHT) and stays for the teacher.
  const top = lit.reduce((a, i) => (a < 0 || contrast(i) > contrast(a) ? i : a), -1);
  // Only on a light-pencil page (its usual answer well below its filled level): on a 2B page an
  // unsure mark is a half fill or a smudge, and what is beside it stays for the teacher.
  const lightPage = ctx.markLevel < 0.6 * (levels.full - levels.empty);
  if (top >= 0 && lightPage) {
    // Not a single stroke leaving the bubble (a tick) nor one crossing it (a stray line): an
    // eraser's smear stays inside the outline, or shows as grain all round it (3 and more exits).
    const inside = (i: number) => (ms[i]!.exits ?? 0) === 0 || (ms[i]!.exits ?? 0) >= 3;
    const ghosts = lit.filter((i) => i !== top && out[i]!.state === 'uncertain' && inside(i) && contrast(i) <= GHOST_BESIDE_LIGHT.ink * contrast(top) && stroke(i) <= GHOST_BESIDE_LIGHT.stroke * stroke(top) && unevenness(ms[i]!, ctx) <= GHOST_BESIDE_LIGHT.uneven);
    if (ghosts.length) {
      lit = lit.filter((i) => !ghosts.includes(i));
      // Decided only if the rest of the item reads as light answers (below); otherwise unchanged.
      const before = ghosts.map((i) => out[i]!);
      for (const i of ghosts) out[i] = { ...out[i]!, state: 'empty', confidence: RULE_READ };
      if (!lightAnswersOf(lit, ms, ctx, out)) ghosts.forEach((i, k) => (out[i] = before[k]!));
      return;
    }
  }
  lightAnswersOf(lit, ms, ctx, out);
}

function lightAnswersOf(lit: number[], ms: BubbleMeasure[], ctx: PageContext, out: BubbleDecision[]): boolean {
  const { levels } = ctx;
  // A mark read unsurely (a fill of 0.6–0.75) is a light mark too: judged by the same rule, it is
  // read when even and alone, and stays flagged when uneven (a half fill) or beside other ink.
  const unsure = (d: BubbleDecision) => d.state === 'marked' && d.confidence < FLAG_BELOW;
  const light = (d: BubbleDecision) => !d.tick && (d.state === 'uncertain' || unsure(d));
  if (lit.length === 0 || lit.some((i) => !light(out[i]!))) return false;
  // Such a mark is as dark as a half fill: only a fill as even as the light fills of the engine's
  // corpus (up to 1.12; half fills from 1.72) is read, with the margin on the side of flagging.
  if (lit.some((i) => unsure(out[i]!) && unevenness(ms[i]!, ctx) > LIGHT_FILL_EVEN)) return false;
  const contrast = (i: number) => ms[i]!.ink - levels.empty;
  // At least 0.6 of this page's usual answer too: on a page of dark marks a lone mark half as dark
  // may be a half fill, for the teacher (a light-pencil page's answers are all about its usual level
  // and still read). Marks as even as a fill (LIGHT_FILL_EVEN: half fills are 1.72 and more uneven)
  // need only LIGHT_FILL_SHARE of it: the engine's corpus measures lone HB fills at 0.56–0.60 of the
  // page's answers, erased ghosts at 0.22 at most.
  const fillEven = lit.every((i) => unevenness(ms[i]!, ctx) <= LIGHT_FILL_EVEN);
  const floor = Math.max(Math.min(0.24, Math.max(0.12, 0.65 * ctx.markLevel)), (fillEven ? LIGHT_FILL_SHARE : 0.6) * ctx.markLevel);
  const lo = Math.min(...lit.map(contrast));
  const hi = Math.max(...lit.map(contrast));
  const others = Math.max(0, ...ms.map((_, k) => (lit.includes(k) ? 0 : contrast(k))));
  const even = lit.every((i) => unevenness(ms[i]!, ctx) <= GHOST_EVEN);
  if (!(even && lo >= floor && lo >= 0.6 * hi && others <= 0.6 * lo)) return false;
  for (const i of lit) out[i] = { ...out[i]!, state: 'marked', confidence: RULE_READ };
  return true;
}
