import sharp from 'sharp';
import { buildLayout } from '../../server/grading/layout/build';
import type { Bubble, SheetLayout, SheetSpec } from '../../server/grading/layout/types';
import { renderPageSvg } from '../../server/grading/render/svg';
import { apply, invert, solveHomography, type Point } from '../../server/grading/omr/homography';

// Held-out answer sheets for the benchmark, written for it and kept apart from the engine's own
// test corpus (server/grading/corpus): another sheet, its own pencil strokes (students fill a
// bubble with back-and-forth strokes, tick it, rub it out), its own scanner and phone. The engine
// was never tuned on these pictures, so they show what a new school would see.

export type CaptureSet = 'scans' | 'photos';

/** What a careful teacher reads from one item, and whether the teacher has to see it anyway. */
export interface ItemTruth {
  no: number;
  answer: string;
  /** Blank, half-filled, two marks on a single choice, or a faint second mark: a teacher decides. */
  mustFlag: boolean;
  /** What is on the paper, e.g. "A:fill B:ghost", to tell where a misreading came from. */
  marks: string;
}

export interface HeldOutSheet {
  jpg: Buffer;
  items: ItemTruth[];
  lightStudent: boolean;
}

const STUDENTS = [
  { id: 'H001', name: '陈思远', className: '八(5)班' },
  { id: 'H002', name: '刘雨桐', className: '八(5)班' },
  { id: 'H003', name: '周子墨', className: '八(5)班' },
];

/** A sheet unlike the sample ones: 45 items, 4-option singles, 4-option multiples, judges. */
export function heldOutLayout(): SheetLayout {
  const items = Array.from({ length: 45 }, (_, i) => {
    const no = i + 1;
    if (no > 38) return { no, type: 'judge' as const };
    if (no > 30) return { no, type: 'multiple' as const, options: 4 };
    return { no, type: 'single' as const, options: 4 };
  });
  const spec: SheetSpec = {
    sheetId: 'H2026R1',
    title: '八年级物理期末模拟',
    paper: 'A4',
    identity: { mode: 'roster', students: STUDENTS },
    sections: [
      { kind: 'objective', title: '一、选择题（2B铅笔填涂，多选题已注明）', items },
      { kind: 'fill', title: '二、填空题', items: [{ no: 46, blanks: 2 }] },
    ],
  };
  return buildLayout(spec);
}

/** The bench's own random numbers (sfc32, a small counter generator), one stream per seed. */
export function seeded(seed: number): () => number {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = ((c << 21) | (c >>> 11)) + t;
    c |= 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return next;
}

const grey = (v: number) => {
  const h = Math.round(Math.max(0, Math.min(255, v))).toString(16).padStart(2, '0');
  return `#${h}${h}${h}`;
};

/** Back-and-forth pencil strokes over the bubble; `cover` < 1 leaves its edge, `half` its right side. */
function scribble(b: Bubble, tone: number, r: () => number, cover = 0.9 + r() * 0.2, half = false): string {
  const cx = b.cx + (r() - 0.5) * 0.35 * b.rx;
  const cy = b.cy + (r() - 0.5) * 0.3 * b.ry;
  const pts: string[] = [];
  const step = 0.32 + r() * 0.12;
  for (let y = -b.ry * cover, k = 0; y <= b.ry * cover; y += step, k++) {
    const w = b.rx * cover * Math.sqrt(Math.max(0, 1 - (y / (b.ry * cover)) ** 2)) + (r() - 0.5) * 0.3;
    const left = cx - w;
    const right = half ? cx + (r() - 0.5) * 0.3 : cx + w;
    pts.push(`${(k % 2 ? right : left).toFixed(2)} ${(cy + y).toFixed(2)}`, `${(k % 2 ? left : right).toFixed(2)} ${(cy + y + step / 2).toFixed(2)}`);
  }
  return `<path d="M ${pts.join(' L ')}" fill="none" stroke="${grey(tone)}" stroke-width="${(0.45 + r() * 0.15).toFixed(2)}" stroke-linecap="round" stroke-linejoin="round"/>`;
}

/** A check mark through the bubble: short stroke down, long stroke up and out to the right. */
function tick(b: Bubble, tone: number, r: () => number): string {
  const s = 0.8 + r() * 0.4;
  const a = `${(b.cx - 0.7 * b.rx * s).toFixed(2)} ${(b.cy - 0.1 * b.ry).toFixed(2)}`;
  const m = `${(b.cx - 0.15 * b.rx * s).toFixed(2)} ${(b.cy + 0.7 * b.ry * s).toFixed(2)}`;
  const e = `${(b.cx + 0.95 * b.rx * s).toFixed(2)} ${(b.cy - 1.15 * b.ry * s).toFixed(2)}`;
  return `<path d="M ${a} L ${m} L ${e}" fill="none" stroke="${grey(tone)}" stroke-width="${(0.3 + r() * 0.2).toFixed(2)}" stroke-linecap="round"/>`;
}

type Mark = { label: string; kind: 'fill' | 'tick' | 'ghost' | 'half' | 'faint' };

/** One student's page: the marks on each item and the truth a teacher would read. */
function studentMarks(layout: SheetLayout, r: () => number, light: boolean): { marks: Map<number, Mark[]>; items: ItemTruth[] } {
  const marks = new Map<number, Mark[]>();
  const items: ItemTruth[] = [];
  for (const it of layout.pages[0]!.objective) {
    const labels = it.bubbles.map((b) => b.label);
    const one = labels[Math.floor(r() * labels.length)]!;
    const others = labels.filter((l) => l !== one);
    const other = others[Math.floor(r() * others.length)]!;
    const u = r();
    let m: Mark[];
    let mustFlag = false;
    // About 14 % of items need a teacher whatever the reader does, as on the sets.
    if (u < 0.03) m = [];
    else if (u < 0.055) m = [{ label: other, kind: 'ghost' }]; // answered, rubbed out, left blank
    else if (u < 0.115) m = [{ label: one, kind: 'fill' }, { label: other, kind: 'ghost' }]; // changed mind
    else if (u < 0.185) m = [{ label: one, kind: 'tick' }];
    else if (u < 0.205 && !light) m = [{ label: one, kind: 'half' }];
    else if (u < 0.23) m = [{ label: one, kind: 'fill' }, { label: other, kind: 'fill' }];
    else if (u < 0.265) m = [{ label: one, kind: 'fill' }, { label: other, kind: 'tick' }]; // a tick beside a mark
    else if (u < 0.285 && !light) m = [{ label: one, kind: 'fill' }, { label: other, kind: 'faint' }];
    else if (it.type === 'multiple') {
      const chosen = labels.filter((l) => l === one || r() < 0.45);
      m = chosen.map((label) => ({ label, kind: 'fill' as const }));
      // Two light marks and the ghost of a third: the student took one back.
      const free = labels.filter((l) => !chosen.includes(l));
      if (light && chosen.length >= 2 && free.length && r() < 0.5) m.push({ label: free[0]!, kind: 'ghost' });
    } else m = [{ label: one, kind: 'fill' }];
    const meant = m.filter((x) => x.kind !== 'ghost');
    if (meant.length === 0 || m.some((x) => x.kind === 'half' || x.kind === 'faint') || (meant.length > 1 && it.type !== 'multiple')) mustFlag = true;
    marks.set(it.no, m);
    const order = labels.filter((l) => meant.some((x) => x.label === l));
    items.push({ no: it.no, answer: order.join(''), mustFlag, marks: m.map((x) => `${x.label}:${x.kind}`).join(' ') });
  }
  return { marks, items };
}

function marksSvg(layout: SheetLayout, marks: Map<number, Mark[]>, r: () => number, light: boolean): string {
  // Pencil darkness as a grey level: a 2B fill, a light-pencil student's fill, what an eraser leaves.
  const full = light ? 150 + r() * 25 : 55 + r() * 45;
  const ghost = light ? 222 + r() * 10 : 205 + r() * 15;
  const parts: string[] = [];
  for (const it of layout.pages[0]!.objective) {
    for (const m of marks.get(it.no) ?? []) {
      const b = it.bubbles.find((x) => x.label === m.label)!;
      const tone = full + (r() - 0.5) * 16;
      if (m.kind === 'fill') parts.push(scribble(b, tone, r));
      else if (m.kind === 'half') parts.push(scribble(b, tone, r, 0.95, true));
      else if (m.kind === 'tick') parts.push(tick(b, light ? tone : tone + r() * 70, r));
      else if (m.kind === 'faint') parts.push(scribble(b, 170 + r() * 25, r, 0.8));
      else parts.push(scribble(b, ghost, r, 0.95 + r() * 0.1));
    }
  }
  return parts.join('');
}

export async function rasterise(layout: SheetLayout, studentId: string | undefined, overlay: string, dpi: number): Promise<{ w: number; h: number; px: Uint8Array }> {
  const svg = renderPageSvg(layout, { sheetId: layout.sheetId, page: 1, ...(studentId ? { studentId } : {}) }, overlay, dpi);
  const { data, info } = await sharp(Buffer.from(svg), { density: 72 }).flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { w: info.width, h: info.height, px: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

export interface Capture {
  rotateDeg: number;
  upsideDown: boolean;
  /** 0–1 phone tilt: the top edge shrinks. */
  tilt: number;
  desk: 'white' | 'stripes';
  /** A hard shadow (a hand, the phone, a book edge): a half-plane darker by this share, with a sharp edge. */
  hardShadow: number;
  /** Soft light falloff across the page. */
  falloff: number;
  /** A bright scan: ink keeps 1 - fade of its contrast. */
  fade: number;
  noise: number;
  blur: number;
  quality: number;
  /** Output size relative to the rendering (a phone photo of a page is about 1500 px wide). */
  zoom: number;
}

function capture(set: CaptureSet, r: () => number, i: number): Capture {
  if (set === 'scans')
    return {
      rotateDeg: (r() - 0.5) * 3,
      upsideDown: i % 10 === 7,
      tilt: 0,
      desk: 'white',
      hardShadow: i % 5 === 2 ? 0.25 + r() * 0.2 : 0,
      falloff: 0,
      fade: i % 4 === 3 ? 0.1 + r() * 0.15 : 0,
      noise: 2 + r() * 4,
      blur: r() < 0.4 ? 0.6 : 0,
      quality: 70 + Math.floor(r() * 20),
      zoom: 1,
    };
  return {
    rotateDeg: (r() * 2 - 1) * 15,
    upsideDown: i % 5 === 1,
    tilt: r() * 0.8,
    desk: 'stripes',
    hardShadow: i % 3 === 0 ? 0.3 + r() * 0.25 : 0,
    falloff: 0.1 + r() * 0.25,
    fade: 0,
    noise: 4 + r() * 6,
    blur: 0.5 + r() * 0.8,
    quality: 55 + Math.floor(r() * 30),
    zoom: 0.85 + r() * 0.15,
  };
}

/** A desk of planks or a striped cloth: bands at an angle, with grain and a knot here and there. */
function deskAt(r: () => number, period: number): (x: number, y: number) => number {
  const th = r() * Math.PI;
  const nx = Math.cos(th);
  const ny = Math.sin(th);
  const dark = 40 + r() * 60;
  const lightV = 150 + r() * 80;
  const duty = 0.3 + r() * 0.3;
  return (x, y) => {
    const s = (x * nx + y * ny) / period;
    const f = s - Math.floor(s);
    const grain = 10 * Math.sin((x * -ny + y * nx) / (period * 0.07) + 7 * Math.sin(s * 3));
    return (f < duty ? dark : lightV) + grain;
  };
}

/** Places the page in the frame (rotation, tilt, desk), then shades, adds noise and encodes. */
export async function photograph(src: { w: number; h: number; px: Uint8Array }, c: Capture, r: () => number): Promise<Buffer> {
  const pad = c.desk === 'stripes' ? 0.15 : 0.04;
  const W = Math.round(src.w * (1 + 2 * pad) * c.zoom);
  const H = Math.round(src.h * (1 + 2 * pad) * c.zoom);
  const a = ((c.rotateDeg + (c.upsideDown ? 180 : 0)) * Math.PI) / 180;
  const cosA = Math.abs(Math.cos(a));
  const sinA = Math.abs(Math.sin(a));
  const scale = c.zoom * Math.min(1, (0.96 * W) / c.zoom / (cosA * src.w + sinA * src.h), (0.96 * H) / c.zoom / (sinA * src.w + cosA * src.h));
  const from: Point[] = [
    { x: 0, y: 0 },
    { x: src.w, y: 0 },
    { x: src.w, y: src.h },
    { x: 0, y: src.h },
  ];
  const to = from.map((p, k) => {
    const sx = (p.x - src.w / 2) * scale * (k < 2 ? 1 - 0.15 * c.tilt : 1);
    const sy = (p.y - src.h / 2) * scale * (1 - 0.04 * c.tilt);
    return { x: W / 2 + sx * Math.cos(a) - sy * Math.sin(a), y: H / 2 + sx * Math.sin(a) + sy * Math.cos(a) };
  });
  const back = invert(solveHomography(from, to));
  const desk = c.desk === 'stripes' ? deskAt(r, (W / 210) * (8 + r() * 20)) : () => 250;
  // Hard shadow: an edge through a point among the bubbles (upper half of the page), darkening one side.
  const sa = r() * Math.PI * 2;
  const sx = Math.cos(sa);
  const sy = Math.sin(sa);
  const through = apply(solveHomography(from, to), src.w * (0.15 + r() * 0.7), src.h * (0.18 + r() * 0.25));
  const sOff = (through.x - W / 2) * sx + (through.y - H / 2) * sy;
  const fa = r() * Math.PI * 2;
  const out = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const q = apply(back, x, y);
      let v: number;
      if (q.x < 0 || q.y < 0 || q.x >= src.w - 1 || q.y >= src.h - 1) v = desk(x, y);
      else {
        const x0 = Math.floor(q.x);
        const y0 = Math.floor(q.y);
        const fx = q.x - x0;
        const fy = q.y - y0;
        const i0 = y0 * src.w + x0;
        v = (src.px[i0]! * (1 - fx) + src.px[i0 + 1]! * fx) * (1 - fy) + (src.px[i0 + src.w]! * (1 - fx) + src.px[i0 + src.w + 1]! * fx) * fy;
        if (c.fade) v = 255 - (255 - v) * (1 - c.fade);
      }
      if (c.falloff) v *= 1 - c.falloff * (0.5 + 0.5 * (((x - W / 2) * Math.cos(fa) + (y - H / 2) * Math.sin(fa)) / Math.max(W, H)));
      if (c.hardShadow && (x - W / 2) * sx + (y - H / 2) * sy > sOff) v *= 1 - c.hardShadow;
      v += (r() + r() + r() - 1.5) * 2 * c.noise;
      out[y * W + x] = v < 0 ? 0 : v > 255 ? 255 : v;
    }
  }
  let img = sharp(Buffer.from(out), { raw: { width: W, height: H, channels: 1 } });
  if (c.blur >= 0.3) img = img.blur(c.blur);
  return img.jpeg({ quality: c.quality }).toBuffer();
}

/**
 * `count` sheets of one capture set (or only the sheets at `only`, as they are in the full set);
 * every fourth student writes lightly. Seeds differ per set.
 */
export async function heldOutSheets(layout: SheetLayout, set: CaptureSet, count: number, seed = 9100, only?: number[]): Promise<HeldOutSheet[]> {
  const out: HeldOutSheet[] = [];
  for (let i = 0; i < count; i++) {
    if (only && !only.includes(i)) continue;
    const r = seeded(seed + i * 7919 + (set === 'photos' ? 500_000 : 0));
    const light = i % 4 === 1;
    const { marks, items } = studentMarks(layout, r, light);
    const dpi = set === 'scans' ? (i % 2 ? 300 : 200) : 200;
    const page = await rasterise(layout, STUDENTS[i % STUDENTS.length]!.id, marksSvg(layout, marks, r, light), dpi);
    out.push({ jpg: await photograph(page, capture(set, r, i), r), items, lightStudent: light });
  }
  return out;
}
