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
  jpegQuality?: number;
  /** Grey level around the page (a desk under a phone photo); white, like a scanner lid, by default. */
  background?: number;
}

function gaussian(r: () => number): number {
  return (r() + r() + r() + r() - 2) * Math.sqrt(3);
}

/** Warps, shades and adds noise in one pass, then blurs and encodes as JPEG with sharp. */
export async function degrade(src: GrayImage, d: Degradation, r: () => number): Promise<Buffer> {
  const pad = 0.06;
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
  const out = new Uint8Array(W * H);
  const noise = d.noise ?? 0;
  const shadow = d.shadow ?? 0;
  const sAngle = r() * Math.PI * 2;
  const ux = Math.cos(sAngle);
  const uy = Math.sin(sAngle);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const q = apply(back, x, y);
      const outside = q.x < 0 || q.y < 0 || q.x > src.width - 1 || q.y > src.height - 1;
      let v = outside ? (d.background ?? 255) : sample(src, q.x, q.y);
      if (shadow > 0) {
        const t = ((x - cx) * ux + (y - cy) * uy) / Math.max(W, H) + 0.5;
        v *= 1 - shadow * Math.min(1, Math.max(0, t * 1.3 - 0.2));
      }
      if (noise > 0) v += gaussian(r) * noise;
      out[y * W + x] = v < 0 ? 0 : v > 255 ? 255 : v;
    }
  }
  let img = sharp(Buffer.from(out), { raw: { width: W, height: H, channels: 1 } });
  if (d.blur && d.blur >= 0.3) img = img.blur(d.blur);
  return img.jpeg({ quality: d.jpegQuality ?? 85 }).toBuffer();
}
