import sharp from 'sharp';
import { textToSvg } from '../layout/font.js';
import { handwriting } from './marks.js';
import { degrade, type Degradation } from './degrade.js';
import { rng } from './random.js';

// A photographed exercise-book page: printed question lines and the student's handwritten answers.

export interface PhotoLine {
  text: string;
  /** Printed (question stems) or handwritten (answers). */
  hand: boolean;
}

export async function homeworkPhoto(lines: PhotoLine[], seed: number, d: Degradation = {}): Promise<Buffer> {
  const r = rng(seed);
  const w = 160;
  const lineH = 14;
  const h = 20 + lines.length * lineH;
  const body = lines
    .map((l, i) => (l.hand ? handwriting(l.text, 12, 20 + i * lineH, 7, r) : textToSvg(l.text, 10, 20 + i * lineH, 5.5)))
    .join('');
  const px = 8; // px per mm: a phone photo of an exercise book at ~200 dpi
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w * px}" height="${h * px}" viewBox="0 0 ${w} ${h}"><rect width="${w}" height="${h}" fill="#fdfcf7"/>${body}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg), { density: 72 }).flatten({ background: '#ffffff' }).greyscale().toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  return degrade({ width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) }, d, r);
}
