import sharp from 'sharp';
import { sample, type GrayImage } from '../image/gray.js';
import { apply, invert, solveHomography, type Point } from '../omr/homography.js';

// Turns a perfect rendering into what a school scanner or a phone delivers.

export interface Degradation {
  /** Rotation in degrees (scanner feed skew or a hand-held phone). */
  rotateDeg?: number;
  upsideDown?: boolean;
  /** 0–1: how far corners move toward a phone-photo trapezoid. */
  perspective?: number;
  /** Gaussian blur sigma in output pixels. */
  blur?: number;
  /** Standard deviation of additive sensor noise, in grey levels. */
  noise?: number;
  /** 0–1: depth of a soft shadow across the page (phone held over the sheet). */
  shadow?: number;
  /**
   * A hard shadow (a hand, the phone, a book edge, a scanner lid left open): one side of a straight
   * edge darker by `depth` (0–1), the edge sharp but for the capture's blur. It passes through the
   * page point at fractions `at` of its width and height, at `angle` radians in the frame. Given as
   * parameters (not drawn from the degradation's random stream) so adding it changes nothing else.
   */
  hardShadow?: { depth: number; angle: number; at: [number, number] };
  jpegQuality?: number;
  /** 0–1: a scan exposed too brightly; every ink on the page loses this share of its contrast. */
  fade?: number;
  /** Grey level around the page (a desk under a phone photo); white, like a scanner lid, by default. */
  background?: number;
  /**
   * A striped or patterned desk around a phone photo: dark stripes, and near some page corners a
   * stripe segment cut square, the size of a corner mark (what fooled the corner finder).
   */
  stripedDesk?: boolean;
}

/** Desk pattern in output pixels: stripes plus square segments beside the page corners. */
function stripedDesk(corners: Point[], side: number, r: () => number): (x: number, y: number) => number {
  const theta = r() * Math.PI;
  const nx = Math.cos(theta);
  const ny = Math.sin(theta);
  const period = side * (2.5 + r() * 2);
  const dark = 25 + r() * 40;
  const light = 170 + r() * 60;
  const cx = corners.reduce((s, c) => s + c.x, 0) / 4;
  const cy = corners.reduce((s, c) => s + c.y, 0) / 4;
  // About half the corners get a square 0.6–1.8 mark sides outward along the diagonal.
  const squares = corners
    .filter(() => r() < 0.5)
    .map((c) => {
      const dx = c.x - cx;
      const dy = c.y - cy;
      const len = Math.hypot(dx, dy);
      const out = side * (0.6 + r() * 1.2);
      const s = side * (0.85 + r() * 0.35);
      return { x: c.x + (dx / len) * out, y: c.y + (dy / len) * out, half: s / 2, a: r() * 0.5 };
    });
  return (x, y) => {
    for (const q of squares) {
      const u = x - q.x;
      const v = y - q.y;
      const ru = Math.abs(u * Math.cos(q.a) + v * Math.sin(q.a));
      const rv = Math.abs(-u * Math.sin(q.a) + v * Math.cos(q.a));
      if (ru <= q.half && rv <= q.half) return dark;
      // A light margin keeps the square a blob of its own, apart from the stripes.
      if (ru <= q.half * 2.2 && rv <= q.half * 2.2) return light;
    }
    const t = ((x * nx + y * ny) / period) % 1;
    return (t < 0 ? t + 1 : t) < 0.35 ? dark : light;
  };
}

function gaussian(r: () => number): number {
  return (r() + r() + r() + r() - 2) * Math.sqrt(3);
}

/** Warps, shades and adds noise in one pass, then blurs and encodes as JPEG with sharp. */
export async function degrade(src: GrayImage, d: Degradation, r: () => number): Promise<Buffer> {
  // A desk photo shows more of the desk around the page than a scanner bed.
  const pad = d.stripedDesk ? 0.12 : 0.06;
  const W = Math.round(src.width * (1 + 2 * pad));
  const H = Math.round(src.height * (1 + 2 * pad));
  const cx = W / 2;
  const cy = H / 2;
  const angle = (((d.rotateDeg ?? 0) + (d.upsideDown ? 180 : 0)) * Math.PI) / 180;
  // Shrink rotated pages so their corners stay inside the frame, as a scanner bed would.
  const cosA = Math.abs(Math.cos(angle));
  const sinA = Math.abs(Math.sin(angle));
  const scale = Math.min(1, (0.98 * W) / (cosA * src.width + sinA * src.height), (0.98 * H) / (sinA * src.width + cosA * src.height));
  const corners: Point[] = [
    { x: 0, y: 0 },
    { x: src.width, y: 0 },
    { x: src.width, y: src.height },
    { x: 0, y: src.height },
  ];
  const p = d.perspective ?? 0;
  const to = corners.map((c, i) => {
    // Top edge narrower than bottom: the phone is tilted toward the top of the page.
    const sx = (c.x - src.width / 2) * scale * (i < 2 ? 1 - 0.18 * p : 1) + (r() - 0.5) * p * 0.03 * src.width;
    const sy = (c.y - src.height / 2) * scale * (1 - 0.05 * p) + (r() - 0.5) * p * 0.03 * src.height;
    return { x: cx + sx * Math.cos(angle) - sy * Math.sin(angle), y: cy + sx * Math.sin(angle) + sy * Math.cos(angle) };
  });
  const back = invert(solveHomography(corners, to));
  // A corner mark is 7 mm of the page's 210 mm (A4) or 420 mm (A3) width.
  const markPx = ((7 / (src.width > src.height ? 420 : 210)) * src.width * scale);
  const desk = d.stripedDesk ? stripedDesk(to, markPx, r) : null;
  const out = new Uint8Array(W * H);
  const noise = d.noise ?? 0;
  const shadow = d.shadow ?? 0;
  const fade = d.fade ?? 0;
  const sAngle = r() * Math.PI * 2;
  const ux = Math.cos(sAngle);
  const uy = Math.sin(sAngle);
  const hard = d.hardShadow;
  const hx = Math.cos(hard?.angle ?? 0);
  const hy = Math.sin(hard?.angle ?? 0);
  const through = hard ? apply(solveHomography(corners, to), hard.at[0] * src.width, hard.at[1] * src.height) : { x: 0, y: 0 };
  const hOff = through.x * hx + through.y * hy;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const q = apply(back, x, y);
      const outside = q.x < 0 || q.y < 0 || q.x > src.width - 1 || q.y > src.height - 1;
      let v = outside ? (desk ? desk(x, y) : (d.background ?? 255)) : sample(src, q.x, q.y);
      if (fade > 0) v = 255 - (255 - v) * (1 - fade);
      if (shadow > 0) {
        const t = ((x - cx) * ux + (y - cy) * uy) / Math.max(W, H) + 0.5;
        v *= 1 - shadow * Math.min(1, Math.max(0, t * 1.3 - 0.2));
      }
      if (hard && x * hx + y * hy > hOff) v *= 1 - hard.depth;
      if (noise > 0) v += gaussian(r) * noise;
      out[y * W + x] = v < 0 ? 0 : v > 255 ? 255 : v;
    }
  }
  let img = sharp(Buffer.from(out), { raw: { width: W, height: H, channels: 1 } });
  if (d.blur && d.blur >= 0.3) img = img.blur(d.blur);
  return img.jpeg({ quality: d.jpegQuality ?? 85 }).toBuffer();
}
