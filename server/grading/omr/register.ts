import jsQR from 'jsqr';
import { sample, type GrayImage } from '../image/gray.js';
import { decodeCopy } from '../layout/qrPayload.js';
import type { PaperSize, SheetCopy, SheetLayout } from '../layout/types.js';
import { findFiducialCandidates, type FiducialResult } from './fiducials.js';
import { apply, solveHomography, type Homography, type Point } from './homography.js';
import { warpRect } from './warp.js';

// Fiducials and QR sit at the same place on every sheet of a paper size, so the page can be
// registered before we know which sheet it is. The fiducials give four candidate orientations;
// the one under which the QR decodes is the true one (this also resolves upside-down scans).

const FID_CENTRE = 6 + 3.5;
const PAPERS: Record<PaperSize, { w: number; h: number }> = { A4: { w: 210, h: 297 }, A3: { w: 420, h: 297 } };
const QR_SIZE = 24;
const QR_SCALE = 6; // px per mm for decoding: the QR's 0.73 mm modules become ~4.4 px
// Tried only when no candidate decodes at QR_SCALE: on a noisy, heavily compressed photo jsQR's
// sampling grid can miss at one scale and hit at another (the engine's corpus has such pages,
// plainly legible, that decode at 5 and 8 px/mm but not at 6).
const QR_RETRY_SCALES = [5, 8];

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

function qrRect(paper: PaperSize) {
  const { w } = PAPERS[paper];
  // Mirrors the QR placement in layout/build.ts with a 4 mm allowance on each side.
  return { x: w - 15 - QR_SIZE - 2 - 4, y: 14 - 4, w: QR_SIZE + 8, h: QR_SIZE + 8 };
}

/**
 * A coarse 12×12 grid of samples over the QR code's own square under `h` (2 mm apart, so it
 * always lands on both black and white modules of a printed code): its total darkness (about half
 * ink where the code is, near paper at the opposite corner) and its spread of grey levels.
 */
function qrGrid(img: GrayImage, h: Homography, paper: PaperSize): { ink: number; spread: number } {
  const r = qrRect(paper);
  let ink = 0;
  let lo = 255;
  let hi = 0;
  for (let i = 0; i < 12; i++)
    for (let j = 0; j < 12; j++) {
      const p = apply(h, r.x + 4 + ((i + 0.5) * QR_SIZE) / 12, r.y + 4 + ((j + 0.5) * QR_SIZE) / 12);
      const g = sample(img, p.x, p.y);
      ink += 255 - g;
      if (g < lo) lo = g;
      if (g > hi) hi = g;
    }
  return { ink, spread: hi - lo };
}

/**
 * Below this spread of grey levels the square holds no code to decode (plain paper, a desk
 * stripe, the area off the image): jsQR itself treats an 8×8 block within 24 levels as one colour
 * (its MIN_DYNAMIC_RANGE), and a decode attempt costs ~8 ms, several per photo whose desk
 * offers false corner marks.
 */
const QR_MIN_SPREAD = 24;

function readQr(img: GrayImage, h: Homography, paper: PaperSize, scale = QR_SCALE): SheetCopy | null {
  if (qrGrid(img, h, paper).spread < QR_MIN_SPREAD) return null;
  const rect = qrRect(paper);
  const crop = warpRect(img, h, rect, scale);
  const rgba = new Uint8ClampedArray(crop.width * crop.height * 4);
  for (let i = 0; i < crop.data.length; i++) {
    const v = crop.data[i]!;
    rgba[i * 4] = rgba[i * 4 + 1] = rgba[i * 4 + 2] = v;
    rgba[i * 4 + 3] = 255;
  }
  const code = jsQR(rgba, crop.width, crop.height, { inversionAttempts: 'dontInvert' });
  return code ? decodeCopy(code.data) : null;
}

export const CORNERS_IMPLAUSIBLE = '无法准确定位答题卡的四个角，请将答题卡平放在纯色桌面上重新拍摄';

function orientations(img: GrayImage, fid: FiducialResult): { paper: PaperSize; h: Homography }[] {
  const c = fid.centres;
  const d = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
  const firstSideLonger = d(c[0]!, c[1]!) + d(c[2]!, c[3]!) > d(c[1]!, c[2]!) + d(c[3]!, c[0]!);
  // Only orientations whose aspect ratio fits the paper are tried: two per paper size.
  const out: { paper: PaperSize; h: Homography }[] = [];
  for (const paper of ['A4', 'A3'] as const) {
    const landscape = PAPERS[paper].w > PAPERS[paper].h;
    const fits = [0, 1, 2, 3].filter((s) => (s % 2 === 0) === (firstSideLonger === landscape));
    for (const shift of fits) {
      const h = solveHomography(fiducialCentres(paper), [0, 1, 2, 3].map((i) => c[(i + shift) % 4]!));
      if (plausibleGeometry(img, fid, h, paper)) out.push({ paper, h });
    }
  }
  return out;
}

/**
 * The four marks must look like one sheet of paper seen by a scanner or a phone: the page they
 * imply is convex, covers a fair share of the frame, has the paper's aspect ratio (within what
 * perspective and ±15° allow), and each mark has the size the mapping predicts for a 7 mm square.
 */
function plausibleGeometry(img: GrayImage, fid: FiducialResult, h: Homography, paper: PaperSize): boolean {
  const { w, h: ph } = PAPERS[paper];
  const page = [apply(h, 0, 0), apply(h, w, 0), apply(h, w, ph), apply(h, 0, ph)];
  const len = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
  const top = len(page[0]!, page[1]!);
  const bottom = len(page[3]!, page[2]!);
  const left = len(page[0]!, page[3]!);
  const right = len(page[1]!, page[2]!);
  const aspect = (top + bottom) / (left + right) / (w / ph);
  if (aspect < 0.7 || aspect > 1.4) return false;
  if (Math.min(top, bottom) / Math.max(top, bottom) < 0.6 || Math.min(left, right) / Math.max(left, right) < 0.6) return false;
  let area = 0;
  for (let i = 0; i < 4; i++) area += page[i]!.x * page[(i + 1) % 4]!.y - page[(i + 1) % 4]!.x * page[i]!.y;
  if (Math.abs(area) / 2 < 0.12 * img.width * img.height) return false;
  // Mapped mark side (7 mm) at each corner against the blob that was found there.
  for (const c of fiducialCentres(paper)) {
    const side = (len(apply(h, c.x - 3.5, c.y), apply(h, c.x + 3.5, c.y)) + len(apply(h, c.x, c.y - 3.5), apply(h, c.x, c.y + 3.5))) / 2;
    if (side < fid.sidePx * 0.6 || side > fid.sidePx * 1.6) return false;
  }
  return true;
}

/**
 * Share of a sample of the page's printed bubble outlines found where the mapping puts them: the
 * ring darker than the paper just outside it. Marked bubbles count too (their ring is dark).
 * Close to 1 under the true mapping; a mapping off by a millimetre or two lands on paper.
 */
export function bubbleOutlineScore(img: GrayImage, h: Homography, layout: SheetLayout, pageNo: number): number | null {
  const page = layout.pages.find((p) => p.page === pageNo);
  if (!page) return null;
  const bubbles = [...page.objective.flatMap((it) => it.bubbles), ...(page.studentNumber?.digits.flat() ?? [])];
  if (bubbles.length < 8) return null;
  const step = Math.max(1, Math.floor(bubbles.length / 60));
  let ok = 0;
  let n = 0;
  for (let k = 0; k < bubbles.length; k += step) {
    const b = bubbles[k]!;
    let ring = 0;
    for (let a = 0; a < 8; a++) {
      const t = (a * Math.PI) / 4;
      // The darkest of three radii tolerates a fraction of a millimetre of registration error.
      ring += Math.min(...[0.85, 1, 1.15].map((f) => {
        const p = apply(h, b.cx + f * b.rx * Math.cos(t), b.cy + f * b.ry * Math.sin(t));
        return sample(img, p.x, p.y);
      }));
    }
    ring /= 8;
    const around = [
      [b.rx + 0.9, 0],
      [-b.rx - 0.9, 0],
      [0, b.ry + 0.9],
      [0, -b.ry - 0.9],
    ].map(([dx, dy]) => {
      const p = apply(h, b.cx + dx!, b.cy + dy!);
      return sample(img, p.x, p.y);
    });
    const outside = around.reduce((s, v) => s + v, 0) / around.length;
    if (outside - ring > Math.max(6, outside * 0.06)) ok++;
    n++;
  }
  return ok / n;
}

/** Below this share of bubble outlines in place, a mapping is not trusted for reading. */
const MIN_OUTLINE_SCORE = 0.85;

/**
 * `known` layouts are the fallback when the QR cannot be read (see matchPrintedBubbles);
 * `lookup` finds the layout a QR names, so its printed bubble outlines can confirm the mapping.
 */
export function register(img: GrayImage, known: SheetLayout[] = [], lookup?: (sheetId: string) => SheetLayout | undefined): Registration | { error: string } {
  const fids = findFiducialCandidates(img);
  if (!fids.length) return { error: '未找到答题卡四角的定位标记，请确认整张答题卡都在画面内' };
  let qrSeen = false;
  let firstCandidates: { paper: PaperSize; h: Homography }[] | null = null;
  const tryQr = (paper: PaperSize, h: Homography, scale: number): Registration | null => {
    const copy = readQr(img, h, paper, scale);
    if (!copy) return null;
    qrSeen = true;
    const layout = lookup?.(copy.sheetId) ?? known.find((l) => l.sheetId === copy.sheetId);
    const score = layout && layout.paper === paper ? bubbleOutlineScore(img, h, layout, copy.page) : null;
    return score === null || score >= MIN_OUTLINE_SCORE ? { paper, copy, h, qrRead: true } : null;
  };
  // The largest quadrilateral first; the next ones when a stripe or a square on the desk was
  // taken for a corner mark and the mapping it gives does not match the printed page.
  for (const fid of fids) {
    const candidates = orientations(img, fid);
    if (!candidates.length) continue;
    firstCandidates ??= candidates;
    // The orientation whose QR square holds the most ink first: an upside-down page then skips a
    // wasted decode of the wrong corner. Only the order of the tries; it decides nothing.
    const ink = candidates.map(({ paper, h }) => qrGrid(img, h, paper).ink);
    const byInk = candidates.map((c, i) => ({ c, ink: ink[i]! })).sort((a, b) => b.ink - a.ink).map((x) => x.c);
    for (const { paper, h } of byInk) {
      const reg = tryQr(paper, h, QR_SCALE);
      if (reg) return reg;
    }
  }
  // No QR at the usual scale: the largest quadrilateral's orientations at the other scales (a
  // second pass, so a normal page pays nothing and a scribbled-over QR only a few tries).
  if (!qrSeen && firstCandidates)
    for (const scale of QR_RETRY_SCALES)
      for (const { paper, h } of firstCandidates) {
        const reg = tryQr(paper, h, scale);
        if (reg) return reg;
      }
  if (qrSeen) return { error: CORNERS_IMPLAUSIBLE };
  const fallback = firstCandidates ? matchPrintedBubbles(img, firstCandidates, known) : null;
  return fallback ?? { error: firstCandidates ? '无法读取答题卡二维码，请重新扫描或拍照' : CORNERS_IMPLAUSIBLE };
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
