import { downscale, type GrayImage } from '../image/gray.js';
import type { Point } from './homography.js';

// Finds the four solid corner squares. Works on a ~600 px copy of the page: they are the largest
// solid, square-ish blobs, and the four that span the largest quadrilateral are the page corners.

interface Blob {
  area: number;
  cx: number;
  cy: number;
  /** area / (12·sqrt(det cov)): 1 for a filled square at any rotation, ≈1.05 for a filled
   *  ellipse, far lower for rings such as QR finder patterns. */
  solidity: number;
  /** sqrt of the covariance eigenvalue ratio: 1 for a square, 1.5 for a filled answer bubble. */
  elongation: number;
  side: number;
}

const WORK_SIZE = 600;

// Working buffers kept between pages (this runs synchronously on every page at 20+ pages/s):
// fresh multi-megabyte typed arrays per page cost their zero-fill and, being off-heap memory,
// push V8 into extra full garbage collections.
let i32a = new Int32Array(0);
let i32b = new Int32Array(0);
let u8a = new Uint8Array(0);
let u8b = new Uint8Array(0);
let u8c = new Uint8Array(0);
const grownI32 = (a: Int32Array<ArrayBuffer>, n: number) => (a.length >= n ? a : new Int32Array(Math.ceil(n * 1.25)));
const grownU8 = (a: Uint8Array<ArrayBuffer>, n: number) => (a.length >= n ? a : new Uint8Array(Math.ceil(n * 1.25)));

/** Dark where darker than 65 % of the local mean: survives shadows and uneven phone lighting. */
function binarize(img: GrayImage, radius: number): Uint8Array {
  const { width: w, height: h, data } = img;
  // Integer sums (a 600 px page is at most ~1e8 ink-levels: well inside int32) and an integer
  // comparison, 100·v·n < 65·sum, instead of a division per pixel: this runs on every page.
  const W = w + 1;
  const integral = (i32a = grownI32(i32a, W * (h + 1)));
  // Row 0 and column 0 are the zero border (the buffer may hold an earlier page).
  integral.fill(0, 0, W);
  for (let y = 0; y < h; y++) {
    let row = 0;
    const src = y * w;
    const up = y * W + 1;
    const at = up + W;
    integral[at - 1] = 0;
    for (let x = 0; x < w; x++) {
      row += data[src + x]!;
      integral[at + x] = integral[up + x]! + row;
    }
  }
  const out = (u8a = grownU8(u8a, w * h));
  out.fill(0, 0, w * h);
  for (let y = 0; y < h; y++) {
    const r0 = Math.max(0, y - radius) * W;
    const r1 = Math.min(h, y + radius + 1) * W;
    const rows = (r1 - r0) / W;
    for (let x = 0; x < w; x++) {
      const v = data[y * w + x]!;
      if (v >= 160) continue;
      const x0 = x > radius ? x - radius : 0;
      const x1 = x + radius + 1 < w ? x + radius + 1 : w;
      const sum = integral[r1 + x1]! - integral[r0 + x1]! - integral[r1 + x0]! + integral[r0 + x0]!;
      if (100 * v * (x1 - x0) * rows < 65 * sum) out[y * w + x] = 1;
    }
  }
  return out;
}

function components(bin: Uint8Array, w: number, h: number, minArea: number, maxArea: number): Blob[] {
  const seen = (u8b = grownU8(u8b, w * h));
  seen.fill(0, 0, w * h);
  const stack = (i32b = grownI32(i32b, w * h));
  const blobs: Blob[] = [];
  for (let start = 0; start < w * h; start++) {
    if (!bin[start] || seen[start]) continue;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    let n = 0;
    let sx = 0;
    let sy = 0;
    let sxx = 0;
    let syy = 0;
    let sxy = 0;
    while (top > 0) {
      const p = stack[--top]!;
      const x = p % w;
      const y = (p - x) / w;
      n++;
      sx += x;
      sy += y;
      sxx += x * x;
      syy += y * y;
      sxy += x * y;
      if (x > 0 && bin[p - 1] && !seen[p - 1]) (seen[p - 1] = 1), (stack[top++] = p - 1);
      if (x < w - 1 && bin[p + 1] && !seen[p + 1]) (seen[p + 1] = 1), (stack[top++] = p + 1);
      if (y > 0 && bin[p - w] && !seen[p - w]) (seen[p - w] = 1), (stack[top++] = p - w);
      if (y < h - 1 && bin[p + w] && !seen[p + w]) (seen[p + w] = 1), (stack[top++] = p + w);
    }
    if (n < minArea || n > maxArea) continue;
    const cx = sx / n;
    const cy = sy / n;
    // +1/12 per axis accounts for pixel extent, which matters for small blobs.
    const vxx = sxx / n - cx * cx + 1 / 12;
    const vyy = syy / n - cy * cy + 1 / 12;
    const vxy = sxy / n - cx * cy;
    const det = vxx * vyy - vxy * vxy;
    const tr = vxx + vyy;
    const disc = Math.sqrt(Math.max(0, (tr * tr) / 4 - det));
    const l1 = tr / 2 + disc;
    const l2 = Math.max(1e-6, tr / 2 - disc);
    blobs.push({ area: n, cx, cy, solidity: n / (12 * Math.sqrt(Math.max(det, 1e-6))), elongation: Math.sqrt(l1 / l2), side: Math.sqrt(n) });
  }
  return blobs;
}

function quadArea(p: Point[]): number {
  let a = 0;
  for (let i = 0; i < p.length; i++) {
    const q = p[(i + 1) % p.length]!;
    a += p[i]!.x * q.y - q.x * p[i]!.y;
  }
  return Math.abs(a) / 2;
}

/** Sorts four points clockwise (in image coordinates, y down) starting from the top-most-left. */
function clockwise(points: Point[]): Point[] {
  const cx = points.reduce((s, p) => s + p.x, 0) / points.length;
  const cy = points.reduce((s, p) => s + p.y, 0) / points.length;
  const sorted = [...points].sort((a, b) => Math.atan2(a.y - cy, a.x - cx) - Math.atan2(b.y - cy, b.x - cx));
  let first = 0;
  sorted.forEach((p, i) => {
    if (p.x + p.y < sorted[first]!.x + sorted[first]!.y) first = i;
  });
  return [...sorted.slice(first), ...sorted.slice(0, first)];
}

/**
 * Refines a centre at full resolution: the centroid of the pixels darker than midway between the
 * mark's ink and the darkest paper around it. That paper is read off a ring just outside the mark,
 * not the window's brightest pixel: where a hard shadow edge (a hand, the phone) crosses the window,
 * the shadowed paper is darker than midway between ink and the lit paper, and counting it pulled
 * the centre towards the shadow. On a held-out phone photo that was 2.6 px at one corner, 0.3 mm
 * across a whole column of bubbles, and every item of that column went to the teacher. A threshold
 * lower than it need be costs nothing: the mark is solid ink, so the centroid of its darker part is
 * still its centre.
 */
function refine(img: GrayImage, c: Point, half: number): Point {
  let p = c;
  for (let iter = 0; iter < 2; iter++) {
    const x0 = Math.max(0, Math.round(p.x - half));
    const x1 = Math.min(img.width - 1, Math.round(p.x + half));
    const y0 = Math.max(0, Math.round(p.y - half));
    const y1 = Math.min(img.height - 1, Math.round(p.y + half));
    let lo = 255;
    let hi = 0;
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) {
        const v = img.data[y * img.width + x]!;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
    const t = (lo + Math.min(hi, ringPaper(img, p, half))) / 2;
    let n = 0;
    let sx = 0;
    let sy = 0;
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) {
        const v = img.data[y * img.width + x]!;
        if (v < t) {
          // Weight by darkness so a blurred edge contributes in proportion.
          const wgt = (t - v) / (t - lo + 1);
          n += wgt;
          sx += wgt * x;
          sy += wgt * y;
        }
      }
    if (n === 0) return p;
    p = { x: sx / n, y: sy / n };
  }
  return p;
}

/**
 * The darker paper around a corner mark: the lower quartile of 64 points on a circle of radius
 * `radius` (the refining window's half-width, 0.75 of the mark's side, outside the square's corners
 * at 0.71). A shadow over a quarter of the circle or more sets it; a quartile rather than the
 * darkest point, so the printed title or a stray stroke crossing the circle does not.
 */
function ringPaper(img: GrayImage, c: Point, radius: number): number {
  const values: number[] = [];
  for (let k = 0; k < 64; k++) {
    const a = (k / 64) * Math.PI * 2;
    const x = Math.round(c.x + radius * Math.cos(a));
    const y = Math.round(c.y + radius * Math.sin(a));
    if (x >= 0 && y >= 0 && x < img.width && y < img.height) values.push(img.data[y * img.width + x]!);
  }
  if (!values.length) return 255;
  values.sort((a, b) => a - b);
  return values[values.length >> 2]!;
}

export interface FiducialResult {
  /** Clockwise from the image's top-left-most corner; which one is the layout's top-left is decided by the QR. */
  centres: Point[];
  /** Approximate side of a fiducial in pixels of the full image. */
  sidePx: number;
}

/** Up to `max` sets of four corner-mark candidates, the largest quadrilateral first. */
export function findFiducialCandidates(img: GrayImage, max = 16): FiducialResult[] {
  const f = Math.max(1, Math.floor(Math.max(img.width, img.height) / WORK_SIZE));
  const small = f > 1 ? downscale(img, f, (u8c = grownU8(u8c, Math.floor(img.width / f) * Math.floor(img.height / f)))) : img;
  const long = Math.max(small.width, small.height);
  // A fiducial is 7 mm on a 297 mm page edge; allow the page to fill 35 %–105 % of the frame.
  const expected = (7 / 297) * long;
  const minSide = expected * 0.35;
  const maxSide = expected * 1.35;
  const bin = binarize(small, Math.max(8, Math.round(expected * 2)));
  const blobs = components(bin, small.width, small.height, minSide * minSide, maxSide * maxSide).filter(
    (b) => b.solidity > 0.75 && b.solidity < 1.2 && b.elongation < 1.3,
  );
  const top = blobs.sort((a, b) => b.area - a.area).slice(0, 12);
  const quads: { pts: Blob[]; area: number }[] = [];
  for (let a = 0; a < top.length; a++)
    for (let b = a + 1; b < top.length; b++)
      for (let c = b + 1; c < top.length; c++)
        for (let d = c + 1; d < top.length; d++) {
          const pts = [top[a]!, top[b]!, top[c]!, top[d]!];
          const areas = pts.map((p) => p.area);
          if (Math.max(...areas) > 2.2 * Math.min(...areas)) continue;
          const ordered = clockwise(pts.map((p) => ({ x: p.cx, y: p.cy })));
          if (!convex(ordered)) continue;
          quads.push({ pts, area: quadArea(ordered) });
        }
  // Largest first: the page corners usually span the largest quadrilateral, but a square-ish
  // stripe segment on a patterned desk can too, so the caller checks each in turn.
  quads.sort((a, b) => b.area - a.area);
  // Refined on first use: the caller nearly always stops at the first candidate, and refining
  // four windows at full resolution for all sixteen cost more than finding them.
  return quads.slice(0, max).map((q) => {
    const side = (q.pts.reduce((s, p) => s + p.side, 0) / 4) * f;
    const coarse = clockwise(q.pts.map((p) => ({ x: (p.cx + 0.5) * f - 0.5, y: (p.cy + 0.5) * f - 0.5 })));
    let centres: Point[] | null = null;
    return {
      get centres() {
        return (centres ??= coarse.map((c) => refine(img, c, side * 0.75)));
      },
      sidePx: side,
    };
  });
}

export function findFiducials(img: GrayImage): FiducialResult | null {
  return findFiducialCandidates(img, 1)[0] ?? null;
}

/** True when the four points, in order, turn the same way at every corner. */
function convex(p: Point[]): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const a = p[i]!;
    const b = p[(i + 1) % 4]!;
    const c = p[(i + 2) % 4]!;
    const cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x);
    if (cross === 0) return false;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return true;
}
