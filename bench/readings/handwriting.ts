// Hand-drawn maths for the benchmark's held-out fill-ins: every character is a few pen strokes
// (points in a box one unit high, y down, baseline at 1), wobbled per point, slanted and sized per
// character, so no two answers look alike and none comes from a font the engine has seen.

type Stroke = [number, number][];
interface Glyph {
  w: number;
  strokes: Stroke[];
}

function ellipse(cx: number, cy: number, rx: number, ry: number, n = 14): Stroke {
  return Array.from({ length: n + 1 }, (_, i) => [cx + rx * Math.sin((i / n) * 2 * Math.PI), cy - ry * Math.cos((i / n) * 2 * Math.PI)] as [number, number]);
}

const G: Record<string, Glyph> = {
  '0': { w: 0.6, strokes: [ellipse(0.3, 0.5, 0.26, 0.48)] },
  '1': { w: 0.4, strokes: [[[0.08, 0.18], [0.26, 0], [0.26, 1]]] },
  '2': { w: 0.62, strokes: [[[0.05, 0.22], [0.18, 0.03], [0.42, 0.02], [0.54, 0.2], [0.45, 0.45], [0.05, 1], [0.6, 0.98]]] },
  '3': { w: 0.6, strokes: [[[0.05, 0.1], [0.3, 0], [0.5, 0.12], [0.45, 0.35], [0.22, 0.47], [0.5, 0.58], [0.55, 0.82], [0.3, 1], [0.03, 0.9]]] },
  '4': { w: 0.62, strokes: [[[0.42, 0], [0.03, 0.68], [0.6, 0.68]], [[0.44, 0.3], [0.44, 1]]] },
  '5': { w: 0.6, strokes: [[[0.55, 0], [0.12, 0], [0.08, 0.45], [0.35, 0.38], [0.55, 0.55], [0.55, 0.82], [0.3, 1], [0.03, 0.9]]] },
  '6': { w: 0.6, strokes: [[[0.5, 0.03], [0.22, 0.2], [0.06, 0.6], [0.15, 0.95], [0.4, 0.98], [0.55, 0.75], [0.42, 0.52], [0.15, 0.55], [0.07, 0.7]]] },
  '7': { w: 0.6, strokes: [[[0.03, 0.02], [0.58, 0], [0.25, 1]]] },
  '8': { w: 0.6, strokes: [[[0.3, 0.48], [0.09, 0.3], [0.12, 0.06], [0.3, 0], [0.48, 0.06], [0.51, 0.3], [0.3, 0.48], [0.06, 0.7], [0.1, 0.95], [0.3, 1], [0.52, 0.94], [0.55, 0.7], [0.3, 0.48]]] },
  '9': { w: 0.6, strokes: [[[0.52, 0.28], [0.35, 0.46], [0.1, 0.4], [0.06, 0.17], [0.26, 0], [0.48, 0.06], [0.52, 0.28], [0.46, 1]]] },
  x: { w: 0.55, strokes: [[[0.05, 0.4], [0.5, 1]], [[0.5, 0.4], [0.05, 1]]] },
  y: { w: 0.55, strokes: [[[0.05, 0.4], [0.3, 0.85]], [[0.52, 0.4], [0.18, 1.3]]] },
  a: { w: 0.58, strokes: [[[0.5, 0.52], [0.3, 0.4], [0.08, 0.55], [0.08, 0.9], [0.3, 1], [0.5, 0.85]], [[0.5, 0.4], [0.52, 1]]] },
  b: { w: 0.56, strokes: [[[0.08, 0], [0.08, 1]], [[0.08, 0.6], [0.3, 0.4], [0.5, 0.6], [0.45, 0.95], [0.25, 1], [0.08, 0.9]]] },
  n: { w: 0.56, strokes: [[[0.08, 0.4], [0.08, 1]], [[0.08, 0.55], [0.3, 0.4], [0.48, 0.5], [0.5, 1]]] },
  m: { w: 0.72, strokes: [[[0.05, 0.4], [0.05, 1]], [[0.05, 0.55], [0.2, 0.4], [0.33, 0.5], [0.35, 1]], [[0.35, 0.55], [0.5, 0.4], [0.63, 0.5], [0.65, 1]]] },
  c: { w: 0.52, strokes: [[[0.48, 0.47], [0.3, 0.4], [0.08, 0.55], [0.08, 0.88], [0.3, 1], [0.5, 0.92]]] },
  k: { w: 0.52, strokes: [[[0.08, 0], [0.08, 1]], [[0.45, 0.4], [0.08, 0.72], [0.48, 1]]] },
  g: { w: 0.56, strokes: [[[0.5, 0.5], [0.3, 0.4], [0.08, 0.55], [0.1, 0.85], [0.3, 0.9], [0.5, 0.8]], [[0.5, 0.4], [0.5, 1.2], [0.3, 1.35], [0.08, 1.25]]] },
  C: { w: 0.62, strokes: [[[0.56, 0.12], [0.32, 0], [0.06, 0.28], [0.06, 0.72], [0.32, 1], [0.58, 0.9]]] },
  '=': { w: 0.6, strokes: [[[0.05, 0.5], [0.55, 0.5]], [[0.05, 0.76], [0.55, 0.76]]] },
  '+': { w: 0.6, strokes: [[[0.05, 0.63], [0.55, 0.63]], [[0.3, 0.38], [0.3, 0.88]]] },
  '-': { w: 0.5, strokes: [[[0.05, 0.62], [0.45, 0.62]]] },
  '/': { w: 0.45, strokes: [[[0.42, 0], [0.05, 1]]] },
  '.': { w: 0.22, strokes: [[[0.08, 0.94], [0.12, 0.98], [0.09, 1]]] },
  '°': { w: 0.32, strokes: [ellipse(0.15, 0.12, 0.1, 0.1, 10)] },
  '%': { w: 0.72, strokes: [ellipse(0.15, 0.18, 0.1, 0.16, 10), [[0.6, 0], [0.1, 1]], ellipse(0.55, 0.82, 0.1, 0.16, 10)] },
  '(': { w: 0.35, strokes: [[[0.3, 0], [0.1, 0.3], [0.08, 0.7], [0.3, 1.05]]] },
  ')': { w: 0.35, strokes: [[[0.05, 0], [0.25, 0.3], [0.27, 0.7], [0.05, 1.05]]] },
  '<': { w: 0.55, strokes: [[[0.5, 0.38], [0.05, 0.62], [0.5, 0.86]]] },
  '>': { w: 0.55, strokes: [[[0.05, 0.38], [0.5, 0.62], [0.05, 0.86]]] },
  '≥': { w: 0.6, strokes: [[[0.05, 0.3], [0.52, 0.5], [0.05, 0.7]], [[0.08, 0.9], [0.55, 0.78]]] },
  '≤': { w: 0.6, strokes: [[[0.52, 0.3], [0.05, 0.5], [0.52, 0.7]], [[0.05, 0.78], [0.52, 0.9]]] },
  '≠': { w: 0.6, strokes: [[[0.05, 0.5], [0.55, 0.5]], [[0.05, 0.76], [0.55, 0.76]], [[0.45, 0.3], [0.15, 0.95]]] },
  π: { w: 0.7, strokes: [[[0.02, 0.48], [0.15, 0.4], [0.66, 0.39]], [[0.24, 0.4], [0.17, 1]], [[0.48, 0.4], [0.5, 0.95], [0.62, 1]]] },
};

/** Characters the hand can write; √ takes a bar over what follows, ² and ³ are raised and small. */
export const WRITABLE = new Set([...Object.keys(G), '√', '²', '³', '℃']);

export interface Pen {
  /** Character height in mm. */
  size: number;
  /** Grey level of the pencil. */
  tone: number;
  r: () => number;
}

/** SVG paths writing `text` from (x, baseline y), in mm. Returns the paths and the width used. */
export function writeMaths(text: string, x: number, y: number, pen: Pen): { svg: string; width: number } {
  const { r, size } = pen;
  const slant = (r() - 0.5) * 0.25;
  const jitter = 0.035;
  const width = (0.07 + r() * 0.04) * size;
  const paths: string[] = [];
  let at = x;
  const draw = (g: Glyph, scale: number, dy: number) => {
    const s = size * scale * (0.92 + r() * 0.16);
    const lift = dy * size + (r() - 0.5) * 0.06 * size;
    for (const stroke of g.strokes) {
      const pts = stroke.map(([u, v]) => {
        const px = u + (r() - 0.5) * 2 * jitter;
        const py = v + (r() - 0.5) * 2 * jitter;
        return `${(at + px * s + (1 - py) * slant * s).toFixed(2)} ${(y - s + py * s + lift).toFixed(2)}`;
      });
      paths.push(`M ${pts.join(' L ')}`);
    }
    at += (g.w + 0.08 + r() * 0.1) * s;
  };
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === '²' || ch === '³') draw(G[ch === '²' ? '2' : '3']!, 0.5, -0.55);
    else if (ch === '℃') {
      draw(G['°']!, 1, 0);
      draw(G.C!, 1, 0);
    } else if (ch === '√') {
      // The hook, then a bar over the radicand (the characters up to the next non-digit).
      const start = at;
      draw({ w: 0.5, strokes: [[[0.02, 0.62], [0.12, 0.56], [0.25, 1], [0.45, -0.05]]] }, 1, 0);
      let j = i + 1;
      while (j < chars.length && /[\dxa-z]/.test(chars[j]!)) draw(G[chars[j++]!]!, 1, 0);
      const top = y - size * 1.03;
      paths.push(`M ${(start + 0.45 * size).toFixed(2)} ${top.toFixed(2)} L ${(at + 0.05 * size).toFixed(2)} ${(top + (r() - 0.5) * 0.1 * size).toFixed(2)}`);
      i = j - 1;
    } else if (ch === ' ') at += 0.4 * size;
    else draw(G[ch]!, 1, 0);
  }
  return { svg: `<path d="${paths.join(' ')}" fill="none" stroke="rgb(${pen.tone},${pen.tone},${pen.tone})" stroke-width="${width.toFixed(2)}" stroke-linecap="round" stroke-linejoin="round"/>`, width: at - x };
}
