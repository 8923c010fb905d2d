import { sample, type GrayImage } from '../image/gray.js';
import { apply, type Homography } from './homography.js';
import type { Rect } from '../layout/types.js';

/** Resamples a layout rectangle (mm) into an upright image at `pxPerMm`, through `h` (mm -> px). */
export function warpRect(img: GrayImage, h: Homography, r: Rect, pxPerMm: number): GrayImage {
  const width = Math.max(1, Math.round(r.w * pxPerMm));
  const height = Math.max(1, Math.round(r.h * pxPerMm));
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = apply(h, r.x + (x + 0.5) / pxPerMm, r.y + (y + 0.5) / pxPerMm);
      data[y * width + x] = sample(img, p.x, p.y);
    }
  }
  return { width, height, data };
}
