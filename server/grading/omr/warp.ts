import { sample, type GrayImage } from '../image/gray.js';
import type { Homography } from './homography.js';
import type { Rect } from '../layout/types.js';

/** Resamples a layout rectangle (mm) into an upright image at `pxPerMm`, through `h` (mm -> px). */
export function warpRect(img: GrayImage, h: Homography, r: Rect, pxPerMm: number): GrayImage {
  const width = Math.max(1, Math.round(r.w * pxPerMm));
  const height = Math.max(1, Math.round(r.h * pxPerMm));
  const data = new Uint8Array(width * height);
  // homography.apply() written out, in the same order of operations (the same pixels): a point
  // object per pixel was most of the page's short-lived garbage (QR crops: ~40k pixels each).
  const [h0, h1, h2, h3, h4, h5, h6, h7] = h as [number, number, number, number, number, number, number, number];
  for (let y = 0; y < height; y++) {
    const my = r.y + (y + 0.5) / pxPerMm;
    for (let x = 0; x < width; x++) {
      const mx = r.x + (x + 0.5) / pxPerMm;
      const w = h6 * mx + h7 * my + 1;
      data[y * width + x] = sample(img, (h0 * mx + h1 * my + h2) / w, (h3 * mx + h4 * my + h5) / w);
    }
  }
  return { width, height, data };
}
