// Projective transform between two planes (layout millimetres -> image pixels). Four point
// pairs determine it exactly; more are solved in the least-squares sense. A homography, unlike an
// affine transform, also models a phone held at an angle over the page.

export type Homography = readonly number[]; // 3x3 row-major, h[8] = 1
export interface Point {
  x: number;
  y: number;
}

export function solveHomography(from: Point[], to: Point[]): Homography {
  if (from.length < 4 || from.length !== to.length) throw new Error('need at least 4 point pairs');
  // Normal equations A^T A h = A^T b for the 8 unknowns.
  const ata = Array.from({ length: 8 }, () => new Array<number>(8).fill(0));
  const atb = new Array<number>(8).fill(0);
  const add = (row: number[], b: number) => {
    for (let i = 0; i < 8; i++) {
      atb[i]! += row[i]! * b;
      for (let j = 0; j < 8; j++) ata[i]![j]! += row[i]! * row[j]!;
    }
  };
  from.forEach((p, k) => {
    const q = to[k]!;
    add([p.x, p.y, 1, 0, 0, 0, -p.x * q.x, -p.y * q.x], q.x);
    add([0, 0, 0, p.x, p.y, 1, -p.x * q.y, -p.y * q.y], q.y);
  });
  return [...gaussSolve(ata, atb), 1];
}

function gaussSolve(a: number[][], b: number[]): number[] {
  const n = b.length;
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[pivot]![c]!)) pivot = r;
    [a[c], a[pivot]] = [a[pivot]!, a[c]!];
    [b[c], b[pivot]] = [b[pivot]!, b[c]!];
    const d = a[c]![c]!;
    if (Math.abs(d) < 1e-12) throw new Error('degenerate point configuration');
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = a[r]![c]! / d;
      if (f === 0) continue;
      for (let k = c; k < n; k++) a[r]![k]! -= f * a[c]![k]!;
      b[r]! -= f * b[c]!;
    }
  }
  return b.map((v, i) => v / a[i]![i]!);
}

export function apply(h: Homography, x: number, y: number): Point {
  const w = h[6]! * x + h[7]! * y + 1;
  return { x: (h[0]! * x + h[1]! * y + h[2]!) / w, y: (h[3]! * x + h[4]! * y + h[5]!) / w };
}

export function invert(h: Homography): Homography {
  const [a, b, c, d, e, f, g, i, j] = h as [number, number, number, number, number, number, number, number, number];
  const A = e * j - f * i;
  const B = -(d * j - f * g);
  const C = d * i - e * g;
  const det = a * A + b * B + c * C;
  const m = [A, -(b * j - c * i), b * f - c * e, B, a * j - c * g, -(a * f - c * d), C, -(a * i - b * g), a * e - b * d].map((v) => v / det);
  return m.map((v) => v / m[8]!);
}
