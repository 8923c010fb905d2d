// The marker's pen drawn over a scan (网上阅卷 annotations): red, as a teacher's pen on paper. Marks
// are kept as fractions of their question's region on the layout (src/domain/marking.ts), carried to
// the image by the same page transform as the regions, and back from the screen when drawn.
import type { Annotation } from '../../domain/marking';
import type { ViewRect } from '../../dataProvider/correct';

export interface Point {
  x: number;
  y: number;
}

export const PEN = '#d81b60';

/** A 3×3 page transform (row-major, h[8] = 1) inverted: image pixels back to layout units. */
export function invertTransform(h: number[]): number[] | null {
  const [a, b, c, d, e, f, g, k, l] = [...h.slice(0, 8), h[8] ?? 1] as number[];
  const A = e * l - f * k;
  const B = -(d * l - f * g);
  const C = d * k - e * g;
  const det = a * A + b * B + c * C;
  if (!det) return null;
  const inv = [A, -(b * l - c * k), b * f - c * e, B, a * l - c * g, -(a * f - c * d), C, -(a * k - b * g), a * e - b * d];
  return inv.map((v) => v / det);
}

export const applyTransform = (m: number[], { x, y }: Point): Point => {
  const w = m[6]! * x + m[7]! * y + m[8]!;
  return { x: (m[0]! * x + m[1]! * y + m[2]!) / w, y: (m[3]! * x + m[4]! * y + m[5]!) / w };
};

/** A point of the layout as a fraction of a region, kept on the region. */
export const fractionOf = (rect: ViewRect, p: Point): Point => ({
  x: Math.min(1, Math.max(0, (p.x - rect.x) / rect.w)),
  y: Math.min(1, Math.max(0, (p.y - rect.y) / rect.h)),
});

/**
 * The mark a stroke of the pen makes: a tap puts ✓/✗/text where it landed, and a circle or an
 * underline of a usual size around it; a drag gives the circle or the underline its extent.
 */
export function markOf(kind: Annotation['kind'], from: Point, to: Point, text?: string): Annotation {
  const dragged = Math.abs(to.x - from.x) > 0.02 || Math.abs(to.y - from.y) > 0.02;
  if (kind === 'check' || kind === 'cross' || kind === 'text') return { kind, x: to.x, y: to.y, w: 0, h: 0, ...(kind === 'text' ? { text } : {}) };
  if (!dragged) {
    const w = kind === 'circle' ? 0.12 : 0.3;
    const h = kind === 'circle' ? 0.14 : 0.04;
    return { kind, x: Math.max(0, Math.min(1 - w, to.x - w / 2)), y: Math.max(0, Math.min(1 - h, to.y - h / 2)), w, h };
  }
  const x = Math.min(from.x, to.x);
  const y = Math.min(from.y, to.y);
  return { kind, x, y, w: Math.abs(to.x - from.x), h: kind === 'underline' ? Math.max(0.01, Math.abs(to.y - from.y)) : Math.abs(to.y - from.y) };
}

/** The marks of one region, in image pixels; `unit` keeps strokes and letters the same size on screen. */
export function PenMarks({ marks, rect, project, unit, no }: { marks: Annotation[]; rect: ViewRect; project: (p: Point) => Point; unit: number; no: number }) {
  const at = (fx: number, fy: number) => project({ x: rect.x + fx * rect.w, y: rect.y + fy * rect.h });
  return (
    <g data-testid="pen-marks" data-no={no} pointerEvents="none">
      {marks.map((m, i) => {
        const key = `${m.kind}-${i}`;
        const common = { 'data-testid': 'pen-mark', 'data-kind': m.kind } as const;
        if (m.kind === 'check' || m.kind === 'cross' || m.kind === 'text') {
          const p = at(m.x, m.y);
          const big = m.kind !== 'text';
          return (
            <text key={key} {...common} x={p.x} y={p.y} fontSize={(big ? 34 : 18) * unit} fontWeight={big ? 700 : 500} fill={PEN} dominantBaseline="middle" textAnchor={big ? 'middle' : 'start'}>
              {m.kind === 'check' ? '✓' : m.kind === 'cross' ? '✗' : m.text}
            </text>
          );
        }
        if (m.kind === 'circle') {
          const a = at(m.x, m.y);
          const b = at(m.x + m.w, m.y + m.h);
          return <ellipse key={key} {...common} cx={(a.x + b.x) / 2} cy={(a.y + b.y) / 2} rx={Math.abs(b.x - a.x) / 2} ry={Math.abs(b.y - a.y) / 2} fill="none" stroke={PEN} strokeWidth={2.5 * unit} />;
        }
        const a = at(m.x, m.y + m.h);
        const b = at(m.x + m.w, m.y + m.h);
        return <line key={key} {...common} x1={a.x} y1={a.y} x2={b.x} y2={b.y} stroke={PEN} strokeWidth={2.5 * unit} strokeLinecap="round" />;
      })}
    </g>
  );
}
