import sharp, { type Metadata } from 'sharp';

/** 8-bit greyscale raster, row-major, 0 = black. */
export interface GrayImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * The most pixels an uploaded image or scanned page may have: a 48-megapixel phone photo or an A4
 * page at 600 dpi (35 MP) fit; a small file that would unpack to gigabytes of pixels does not.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;

/** An image refused for its size, with the reason to show the teacher. */
export class ImageTooLarge extends Error {
  constructor(width: number, height: number) {
    super(`图片尺寸过大（${width}×${height}），请使用不超过${MAX_IMAGE_PIXELS / 10_000}万像素的照片或扫描件`);
  }
}

/** The image's header, refused when over the pixel limit (nothing is decoded). */
export async function checkImageSize(input: Buffer | Uint8Array): Promise<Metadata> {
  const meta = await sharp(input, { limitInputPixels: false }).metadata();
  const { width = 0, height = 0 } = meta;
  if (width * height > MAX_IMAGE_PIXELS) throw new ImageTooLarge(width, height);
  return meta;
}

/**
 * Decodes JPEG/PNG/WebP/TIFF, honouring EXIF orientation (phone photos), to greyscale on white.
 * Colour input keeps only its green channel: for pencil and ink on paper it is nearly the same as
 * luma, and libvips' greyscale() (via a device-independent colour space) costs more than the JPEG
 * decode itself, which matters at 20+ sheets per second.
 */
export async function decodeGray(input: Buffer | Uint8Array): Promise<GrayImage> {
  const meta = await checkImageSize(input);
  let img = sharp(input, { limitInputPixels: MAX_IMAGE_PIXELS }).rotate();
  if (meta.hasAlpha) img = img.flatten({ background: '#ffffff' });
  const channels = (meta.channels ?? 3) - (meta.hasAlpha ? 1 : 0);
  img = channels >= 3 ? img.extractChannel(1) : img.extractChannel(0);
  const { data, info } = await img.raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  if (info.channels !== 1) throw new Error(`unexpected channel count ${info.channels}`);
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

/**
 * Downscale by an integer factor, averaging a 2×2 subsample of each f×f block: a quarter of the
 * reads of a full box filter (this runs on every page at 20+ pages/s), and smooth enough for
 * finding blobs several blocks wide.
 */
export function downscale(img: GrayImage, f: number, into?: Uint8Array): GrayImage {
  const w = Math.floor(img.width / f);
  const h = Math.floor(img.height / f);
  // `into` (at least w·h long) saves a per-page allocation; the result then shares it.
  const out = into ? into.subarray(0, w * h) : new Uint8Array(w * h);
  const src = img.data;
  const a = Math.floor(f / 4);
  const b = Math.min(f - 1, Math.floor((3 * f) / 4));
  for (let y = 0; y < h; y++) {
    const r0 = (y * f + a) * img.width;
    const r1 = (y * f + b) * img.width;
    for (let x = 0; x < w; x++) {
      const c0 = x * f + a;
      const c1 = x * f + b;
      out[y * w + x] = (src[r0 + c0]! + src[r0 + c1]! + src[r1 + c0]! + src[r1 + c1]! + 2) >> 2;
    }
  }
  return { width: w, height: h, data: out };
}

/** Bilinear sample; outside the image reads as white paper. */
export function sample(img: GrayImage, x: number, y: number): number {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  if (x0 < 0 || y0 < 0 || x0 >= img.width - 1 || y0 >= img.height - 1) return 255;
  const fx = x - x0;
  const fy = y - y0;
  const i = y0 * img.width + x0;
  const d = img.data;
  const top = d[i]! + (d[i + 1]! - d[i]!) * fx;
  const bottom = d[i + img.width]! + (d[i + img.width + 1]! - d[i + img.width]!) * fx;
  return top + (bottom - top) * fy;
}

/** Bilinear resize to exactly w × h. */
export function resize(img: GrayImage, w: number, h: number): GrayImage {
  const data = new Uint8Array(w * h);
  const sx = img.width / w;
  const sy = img.height / h;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) data[y * w + x] = sampleClamped(img, (x + 0.5) * sx - 0.5, (y + 0.5) * sy - 0.5);
  }
  return { width: w, height: h, data };
}

function sampleClamped(img: GrayImage, x: number, y: number): number {
  const cx = Math.min(Math.max(x, 0), img.width - 1.001);
  const cy = Math.min(Math.max(y, 0), img.height - 1.001);
  const x0 = Math.floor(cx);
  const y0 = Math.floor(cy);
  const fx = cx - x0;
  const fy = cy - y0;
  const d = img.data;
  const i = y0 * img.width + x0;
  const right = x0 + 1 < img.width ? 1 : 0;
  const down = y0 + 1 < img.height ? img.width : 0;
  const top = d[i]! + (d[i + right]! - d[i]!) * fx;
  const bottom = d[i + down]! + (d[i + down + right]! - d[i + down]!) * fx;
  return top + (bottom - top) * fy;
}

/** Cuts a rectangle out of `img`; any part outside the image is white paper. */
export function crop(img: GrayImage, x: number, y: number, w: number, h: number): GrayImage {
  const ox = Math.floor(x);
  const oy = Math.floor(y);
  const cw = Math.max(1, Math.round(w));
  const ch = Math.max(1, Math.round(h));
  const data = new Uint8Array(cw * ch).fill(255);
  const sx0 = Math.max(0, ox);
  const sx1 = Math.min(img.width, ox + cw);
  if (sx1 <= sx0) return { width: cw, height: ch, data };
  for (let r = 0; r < ch; r++) {
    const sy = oy + r;
    if (sy < 0 || sy >= img.height) continue;
    data.set(img.data.subarray(sy * img.width + sx0, sy * img.width + sx1), r * cw + (sx0 - ox));
  }
  return { width: cw, height: ch, data };
}

/** Rotates clockwise by `deg` about the centre onto a canvas large enough to keep every corner. */
export function rotate(img: GrayImage, deg: number): GrayImage {
  const a = (deg * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const width = Math.ceil(Math.abs(img.width * cos) + Math.abs(img.height * sin));
  const height = Math.ceil(Math.abs(img.width * sin) + Math.abs(img.height * cos));
  const data = new Uint8Array(width * height);
  const cx = img.width / 2;
  const cy = img.height / 2;
  for (let y = 0; y < height; y++) {
    const dy = y - height / 2;
    for (let x = 0; x < width; x++) {
      const dx = x - width / 2;
      // Inverse rotation: where in the source this output pixel comes from.
      data[y * width + x] = sample(img, cx + dx * cos + dy * sin, cy - dx * sin + dy * cos);
    }
  }
  return { width, height, data };
}
