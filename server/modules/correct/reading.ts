// The heavy half of AI correction, run in worker threads (threads/pool.ts): decoding photos and
// PDF pages, recognising sheets, OCR, essay scoring (lane 'grading'), checking uploads and
// rendering printable sheets (lane 'requests'). Plain data in and out; the database stays on the
// main thread (routes.ts, jobs.ts).
import { readFile } from 'node:fs/promises';
import type { AnswerKey, HomeworkQuestion, PageResult, ReadPage, SheetLayout } from '../../grading';
import { TaskType } from '../../grading/statuses';
import { ApiError } from '../../http/envelope';
import { fromEssay, fromHomework, fromSubmission, type GradedWork } from './results';

/** The engine (OCR runtime, image and PDF libraries) loads when a thread first needs it. */
const loadEngine = () => import('../../grading');

/** What reading one file produced: for sheets the pages (scored later), otherwise the graded work. */
export type FileOutcome =
  | { ok: true; pages?: ReadPage[]; failures?: string[]; work?: GradedWork }
  | { ok: false; error: string };

export interface EssayBrief {
  title?: string;
  /** The whole prompt as printed; the title alone does not let the scorer see the prompt copied out. */
  prompt?: string;
  minChars?: number;
  fullMarks?: number;
}

export interface FileToRead {
  taskType: number;
  fileName: string;
  mime: string;
  /** The file's bytes, or where it lies on disk (a local file store: read here, not sent). */
  bytes?: Uint8Array;
  path?: string;
  /** Answer sheets: the layout that printed the sheet. */
  layout?: SheetLayout;
  questions?: HomeworkQuestion[];
  essayBrief?: EssayBrief;
}

export async function readGradingFile(file: FileToRead): Promise<FileOutcome> {
  const { expandInputs, readPage, readHomeworkPhoto, decodeGray, getOcr, scoreEssay, ImageTooLarge } = await loadEngine();
  const bytes = file.bytes ?? new Uint8Array(await readFile(file.path!));
  if (file.taskType === TaskType.answerSheet) {
    if (!file.layout) return { ok: false, error: '答题卡模板不存在' };
    const layouts = [file.layout];
    const pages: ReadPage[] = [];
    const failures: string[] = [];
    for (const input of await expandInputs([{ name: file.fileName, bytes }])) {
      const page: PageResult = 'error' in input ? { ok: false, source: input.source, error: input.error } : await readPage(input.source, input.image, { layouts });
      if (page.ok) pages.push(page);
      else failures.push(page.error);
    }
    if (!pages.length) return { ok: false, error: failures[0] ?? '没有可识别的页面' };
    return { ok: true, pages, failures };
  }
  if (file.mime === 'application/pdf') return { ok: false, error: '作业和作文请上传照片（JPG 或 PNG）' };
  try {
    if (file.taskType === TaskType.homework) {
      return { ok: true, work: fromHomework(await readHomeworkPhoto(bytes, file.questions ?? [])) };
    }
    const brief = file.essayBrief ?? {};
    const lines = await (await getOcr()).read(await decodeGray(bytes));
    const text = lines.map((l) => l.text).join('\n').trim();
    if (!text) return { ok: false, error: '照片中没有识别到文字，请重新拍摄' };
    const fullMarks = brief.fullMarks ?? 100;
    const essay = await scoreEssay(text, {
      ...(brief.title ? { title: brief.title } : {}),
      ...(brief.prompt ? { prompt: brief.prompt } : {}),
      ...(brief.minChars ? { minChars: brief.minChars } : {}),
      fullMarks,
    });
    return { ok: true, work: fromEssay(text, essay, fullMarks) };
  } catch (error) {
    // Too many pixels is the file's fault and will not change on a retry.
    if (error instanceof ImageTooLarge) return { ok: false, error: error.message };
    throw error;
  }
}

/** Gathers each student's pages of an answer-sheet task and scores them against the key. */
export async function scoreSheetPages(input: { pages: ReadPage[]; layout: SheetLayout; key?: AnswerKey }): Promise<{ work: GradedWork; studentKey: string | null }[]> {
  const { groupPages, scoreSubmission } = await loadEngine();
  const opts = { layouts: [input.layout], keys: input.key ? [input.key] : [] };
  const out: { work: GradedWork; studentKey: string | null }[] = [];
  for (const group of groupPages(input.pages)) {
    const submission = await scoreSubmission(group, opts, opts.layouts);
    out.push({ work: fromSubmission(submission), studentKey: submission.studentId });
  }
  return out;
}

/**
 * Why an uploaded photo or scan can never be graded, or null: refused at upload, before it is
 * stored, so the teacher hears of it at once. Pages that merely read badly are grading's to report.
 */
export async function checkScan(input: { path: string; mime: string }): Promise<string | null> {
  // The image modules only: a check has no use for the OCR runtime the whole engine would load.
  const [{ checkImageSize, ImageTooLarge }, { checkPdf }] = await Promise.all([import('../../grading/image/gray.js'), import('../../grading/image/pdf.js')]);
  const bytes = await readFile(input.path);
  if (input.mime === 'application/pdf') return checkPdf(bytes);
  try {
    await checkImageSize(bytes);
    return null;
  } catch (error) {
    return error instanceof ImageTooLarge ? error.message : '图片已损坏，无法读取，请重新拍摄或导出后上传';
  }
}

/** The printable PDF of a sheet; what does not fit or cannot be printed is the layout's to explain. */
export async function renderSheet(layout: SheetLayout): Promise<Uint8Array> {
  const { renderSheetPdf } = await import('../../grading/render/pdf.js');
  try {
    return await renderSheetPdf(layout);
  } catch (error) {
    throw new ApiError(422, (error as Error).message);
  }
}

/**
 * Sharpness of a photo: the variance of its Laplacian on a copy about 1000 px wide (a focused scan
 * of print and pencil gives hundreds or more, a shaken or out-of-focus photo tens), and how much
 * contrast it has at all (a blank sheet is not blurred, only empty).
 */
function sharpness(img: { width: number; height: number; data: Uint8Array }, downscale: (img: never, f: number) => typeof img) {
  const f = Math.max(1, Math.floor(img.width / 1000));
  const g = f > 1 ? downscale(img as never, f) : img;
  const { width: w, height: h, data } = g;
  let n = 0;
  let sum = 0;
  let sq = 0;
  let mean = 0;
  let meanSq = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const lap = data[i - 1]! + data[i + 1]! + data[i - w]! + data[i + w]! - 4 * data[i]!;
      sum += lap;
      sq += lap * lap;
      mean += data[i]!;
      meanSq += data[i]! * data[i]!;
      n++;
    }
  }
  if (!n) return { focus: 0, contrast: 0 };
  const m = mean / n;
  return { focus: sq / n - (sum / n) ** 2, contrast: Math.sqrt(Math.max(0, meanSq / n - m * m)) };
}

/** Below this Laplacian variance a photo with content counts as blurred. */
const BLURRED = 40;

/**
 * Checks an answer-sheet photo at upload, the way grading will read it (corner marks, QR code,
 * the page of the layout), so the teacher hears at once which page will not be read and why,
 * before submitting; null when it reads. PDFs are checked when graded.
 */
export async function checkSheetImage(input: { path: string; layout: SheetLayout }): Promise<string | null> {
  const { decodeGray, recognisePage } = await loadEngine();
  const { downscale } = await import('../../grading/image/gray.js');
  let gray;
  try {
    gray = await decodeGray(await readFile(input.path));
  } catch {
    return '图片已损坏，无法读取，请重新拍摄或导出后上传';
  }
  const reading = recognisePage(gray, (id) => (id === input.layout.sheetId ? input.layout : undefined), [input.layout]);
  if (reading.ok) return null;
  const { focus, contrast } = sharpness(gray, downscale as never);
  return contrast > 6 && focus < BLURRED ? `照片模糊，请对准答题卡重新拍摄（${reading.error}）` : reading.error;
}
