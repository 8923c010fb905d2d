// DB ("Differentiable Binarization") post-processing for the PP-OCR detector. The network outputs
// a per-pixel probability that the pixel lies in a text kernel, a region deliberately shrunk
// from the real text line during training. So we: threshold the map, take connected regions,
// score each by its mean probability (rejecting weak ones), and grow each region back out by
// the "unclip" distance D = area · ratio / perimeter, which undoes the training-time shrink.
// Boxes are axis-aligned: answer areas are registered upright before OCR, and homework photos are
// deskewed by the caller's page handling well enough for line-level recognition.

export interface TextBox {
  x: number;
  y: number;
  w: number;
  h: number;
  score: number;
  /** Direction of the region's long axis in degrees (y down, clockwise positive): a text line's slant. */
  angle: number;
}

export interface DbOptions {
  /** Pixel probability above which a pixel belongs to a kernel (PaddleOCR default 0.3). */
  threshold: number;
  /** Minimum mean probability of a region (PaddleOCR default 0.6). */
  boxThreshold: number;
  /** Unclip ratio (PaddleOCR default 1.5). */
  unclipRatio: number;
  /** Regions smaller than this many map pixels on their short side are noise. */
  minSize: number;
}

export const DB_DEFAULTS: DbOptions = { threshold: 0.3, boxThreshold: 0.6, unclipRatio: 1.5, minSize: 3 };

/** `prob` is H×W; returned boxes are in map pixels (the caller rescales to the image). */
export function dbPostprocess(prob: Float32Array, w: number, h: number, opts: DbOptions = DB_DEFAULTS): TextBox[] {
  const seen = new Uint8Array(w * h);
  const stack = new Int32Array(w * h);
  const boxes: TextBox[] = [];
  for (let start = 0; start < w * h; start++) {
    if (seen[start] || prob[start]! <= opts.threshold) continue;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    let n = 0;
    let sum = 0;
    let sx = 0;
    let sy = 0;
    let sxx = 0;
    let syy = 0;
    let sxy = 0;
    let x0 = w;
    let y0 = h;
    let x1 = 0;
    let y1 = 0;
    while (top > 0) {
      const p = stack[--top]!;
      const x = p % w;
      const y = (p - x) / w;
      n++;
      sum += prob[p]!;
      sx += x;
      sy += y;
      sxx += x * x;
      syy += y * y;
      sxy += x * y;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      const push = (q: number) => {
        if (!seen[q] && prob[q]! > opts.threshold) {
          seen[q] = 1;
          stack[top++] = q;
        }
      };
      if (x > 0) push(p - 1);
      if (x < w - 1) push(p + 1);
      if (y > 0) push(p - w);
      if (y < h - 1) push(p + w);
    }
    const bw = x1 - x0 + 1;
    const bh = y1 - y0 + 1;
    if (Math.min(bw, bh) < opts.minSize) continue;
    const score = sum / n;
    if (score < opts.boxThreshold) continue;
    const d = (bw * bh * opts.unclipRatio) / (2 * (bw + bh));
    const nx0 = Math.max(0, x0 - d);
    const ny0 = Math.max(0, y0 - d);
    const nx1 = Math.min(w, x1 + 1 + d);
    const ny1 = Math.min(h, y1 + 1 + d);
    const mx = sx / n;
    const my = sy / n;
    const angle = (0.5 * Math.atan2(2 * (sxy / n - mx * my), sxx / n - mx * mx - (syy / n - my * my)) * 180) / Math.PI;
    boxes.push({ x: nx0, y: ny0, w: nx1 - nx0, h: ny1 - ny0, score, angle });
  }
  return boxes;
}

/** Reading order: top to bottom by line, then left to right. */
export function readingOrder(boxes: TextBox[]): TextBox[] {
  const sorted = [...boxes].sort((a, b) => a.y + a.h / 2 - (b.y + b.h / 2));
  const lines: TextBox[][] = [];
  for (const b of sorted) {
    const line = lines[lines.length - 1];
    const prev = line?.[0];
    if (line && prev && Math.abs(b.y + b.h / 2 - (prev.y + prev.h / 2)) < Math.min(b.h, prev.h) / 2) line.push(b);
    else lines.push([b]);
  }
  return lines.flatMap((l) => l.sort((a, b) => a.x - b.x));
}
