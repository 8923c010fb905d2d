import jsQR from 'jsqr';
import { sample, type GrayImage } from '../image/gray.js';
import { decodeCopy } from '../layout/qrPayload.js';
import type { PaperSize, SheetCopy, SheetLayout } from '../layout/types.js';
import { findFiducials } from './fiducials.js';
import { apply, solveHomography, type Homography, type Point } from './homography.js';
import { warpRect } from './warp.js';

// Fiducials and QR sit at the same place on every sheet of a paper size, so the page can be
// registered before we know which sheet it is. The fiducials give four candidate orientations;
// the one under which the QR decodes is the true one (this also resolves upside-down scans).

const FID_CENTRE = 6 + 3.5;
const PAPERS: Record<PaperSize, { w: number; h: number }> = { A4: { w: 210, h: 297 }, A3: { w: 420, h: 297 } };
const QR_SIZE = 24;
const QR_SCALE = 6; // px per mm for decoding: the QR's 0.73 mm modules become ~4.4 px

export interface Registration {
  paper: PaperSize;
  copy: SheetCopy;
  /** Layout millimetres -> image pixels. */
  h: Homography;
  /** False when the page was identified by its printed layout because the QR was unreadable. */
  qrRead: boolean;
}

function fiducialCentres(paper: PaperSize): Point[] {
  const { w, h } = PAPERS[paper];
  return [
    { x: FID_CENTRE, y: FID_CENTRE },
    { x: w - FID_CENTRE, y: FID_CENTRE },
    { x: w - FID_CENTRE, y: h - FID_CENTRE },
    { x: FID_CENTRE, y: h - FID_CENTRE },
  ];
}

function readQr(img: GrayImage, h: Homography, paper: PaperSize): SheetCopy | null {
  const { w } = PAPERS[paper];
  // Mirrors the QR placement in layout/build.ts with a 4 mm allowance on each side.
  const rect = { x: w - 15 - QR_SIZE - 2 - 4, y: 14 - 4, w: QR_SIZE + 8, h: QR_SIZE + 8 };
  const crop = warpRect(img, h, rect, QR_SCALE);
  const rgba = new Uint8ClampedArray(crop.width * crop.height * 4);
  for (let i = 0; i < crop.data.length; i++) {
    const v = crop.data[i]!;
    rgba[i * 4] = rgba[i * 4 + 1] = rgba[i * 4 + 2] = v;
    rgba[i * 4 + 3] = 255;
  }
  const code = jsQR(rgba, crop.width, crop.height, { inversionAttempts: 'dontInvert' });
  return code ? decodeCopy(code.data) : null;
}

/** `known` layouts are the fallback when the QR cannot be read (see matchPrintedBubbles). */
export function register(img: GrayImage, known: SheetLayout[] = []): Registration | { error: string } {
  const fid = findFiducials(img);
  if (!fid) return { error: '未找到答题卡四角的定位标记，请确认整张答题卡都在画面内' };
  const c = fid.centres;
  const d = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
  const firstSideLonger = d(c[0]!, c[1]!) + d(c[2]!, c[3]!) > d(c[1]!, c[2]!) + d(c[3]!, c[0]!);
  // Only orientations whose aspect ratio fits the paper are tried: two per paper size.
  const attempts: { paper: PaperSize; shift: number }[] = [];
  for (const paper of ['A4', 'A3'] as const) {
    const landscape = PAPERS[paper].w > PAPERS[paper].h;
    const fits = [0, 1, 2, 3].filter((s) => (s % 2 === 0) === (firstSideLonger === landscape));
    for (const shift of fits) attempts.push({ paper, shift });
  }
  const candidates = attempts.map(({ paper, shift }) => ({
    paper,
    h: solveHomography(
      fiducialCentres(paper),
      [0, 1, 2, 3].map((i) => c[(i + shift) % 4]!),
    ),
  }));
  for (const { paper, h } of candidates) {
    const copy = readQr(img, h, paper);
    if (copy) return { paper, copy, h, qrRead: true };
  }
  const fallback = matchPrintedBubbles(img, candidates, known);
  return fallback ?? { error: '无法读取答题卡二维码，请重新扫描或拍照' };
}

/**
 * When the QR code is unreadable (scribbled over, torn, badly creased), the page is matched
 * against the known layouts instead: under the right layout, page and orientation, the printed
 * bubble outlines fall on dark pixels and their centres on light ones. The winner must beat the
 * runner-up clearly, otherwise we give up rather than guess.
 */
function matchPrintedBubbles(img: GrayImage, candidates: { paper: PaperSize; h: Homography }[], known: SheetLayout[]): Registration | null {
  const scored: { score: number; reg: Registration }[] = [];
  for (const layout of known) {
    for (const { paper, h } of candidates) {
      if (paper !== layout.paper) continue;
      for (const page of layout.pages) {
        const bubbles = [...page.objective.flatMap((it) => it.bubbles), ...(page.studentNumber?.digits.flat() ?? [])];
        if (bubbles.length < 8) continue;
        const step = Math.max(1, Math.floor(bubbles.length / 60));
        let contrast = 0;
        let n = 0;
        for (let k = 0; k < bubbles.length; k += step) {
          const b = bubbles[k]!;
          let ring = 0;
          for (let a = 0; a < 8; a++) {
            const t = (a * Math.PI) / 4;
            const p = apply(h, b.cx + b.rx * Math.cos(t), b.cy + b.ry * Math.sin(t));
            ring += sample(img, p.x, p.y);
          }
          const gap = apply(h, b.cx + b.rx + 0.9, b.cy);
          contrast += sample(img, gap.x, gap.y) - ring / 8;
          n++;
        }
        scored.push({ score: contrast / n, reg: { paper, h, copy: { sheetId: layout.sheetId, page: page.page }, qrRead: false } });
      }
    }
  }
  scored.sort((a, b) => b.score - a.score);
  const [best, second] = scored;
  if (!best || best.score < 25 || (second && best.score < 1.5 * second.score)) return null;
  return best.reg;
}
