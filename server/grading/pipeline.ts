import { scoreEssay, type EssayResult } from './essay/index.js';
import type { LlmConfig } from './essay/llm.js';
import { decodeGray, ImageTooLarge } from './image/gray.js';
import { PdfRefused, pdfPageImages } from './image/pdf.js';
import { studentPages } from './layout/build.js';
import type { SheetLayout } from './layout/types.js';
import { getOcr } from './ocr/engine.js';
import { readEssay, readFillBoxes, readShortAnswers, type EssayText, type FillBoxText, type ShortAnswerText } from './ocr/regions.js';
import { recognisePage, type ItemReading, type StudentReading } from './omr/recognise.js';
import { scoreSheet, type AnswerKey, type ItemScore, type SheetScore } from './score/score.js';

// From uploaded files to graded submissions: split PDFs, register and read each page, OCR its
// written answers, gather the pages of one student's sheet, score them against the key. Failures
// are per page, so one bad photo does not sink a class set.

export interface InputFile {
  name: string;
  bytes: Uint8Array;
}

export type PageResult =
  | {
      ok: true;
      source: string;
      sheetId: string;
      page: number;
      student: StudentReading;
      items: ItemReading[];
      pageFlags: string[];
      fills: FillBoxText[];
      shortAnswers: ShortAnswerText[];
      essays: EssayText[];
      needsReview: boolean;
      /** Layout millimetres -> pixels of the decoded image (3x3 row-major), for drawing the reading over the scan. */
      h?: number[];
    }
  | { ok: false; source: string; error: string };

export type ReadPage = Extract<PageResult, { ok: true }>;

/** One student's answer sheet: all its pages, read and scored together. */
export interface Submission {
  sheetId: string;
  studentId: string | null;
  pages: ReadPage[];
  /** Pages of the layout that were not among the uploads. */
  missingPages: number[];
  essays: { no: number; text: string; confidence: number; result: EssayResult }[];
  score: SheetScore | null;
  needsReview: boolean;
}

export interface GradeOptions {
  layouts: SheetLayout[];
  keys?: AnswerKey[];
  /** Skip OCR (objective items only): much faster when a sheet has no written answers to read. */
  ocr?: boolean;
  /** Model for essay review; null for the offline rubric only. Defaults to the LLM_* environment. */
  llm?: LlmConfig | null;
}

type Expanded = { source: string; image: Uint8Array } | { source: string; error: string };

export async function expandInputs(files: InputFile[]): Promise<Expanded[]> {
  const out: Expanded[] = [];
  for (const f of files) {
    const isPdf = Buffer.from(f.bytes.subarray(0, 5)).toString('latin1') === '%PDF-';
    if (!isPdf) {
      out.push({ source: f.name, image: f.bytes });
      continue;
    }
    try {
      for (const p of await pdfPageImages(f.bytes)) {
        const source = `${f.name} 第${p.page}页`;
        out.push('image' in p ? { source, image: p.image } : { source, error: p.error });
      }
    } catch (error) {
      out.push({ source: f.name, error: error instanceof PdfRefused ? error.message : '无法读取 PDF 文件，文件可能已损坏或加密' });
    }
  }
  return out;
}

export async function readPage(source: string, image: Uint8Array, opts: GradeOptions): Promise<PageResult> {
  let gray;
  try {
    gray = await decodeGray(image);
  } catch (error) {
    return { ok: false, source, error: error instanceof ImageTooLarge ? error.message : '无法解码图片，请上传 JPG、PNG 或 PDF 文件' };
  }
  const reading = recognisePage(gray, (id) => opts.layouts.find((l) => l.sheetId === id), opts.layouts);
  if (!reading.ok) return { ok: false, source, error: reading.error };
  const p = reading.page;
  const wantsOcr = (opts.ocr ?? true) && p.fill.length + p.short.length + p.essay.length > 0;
  const text = wantsOcr
    ? await oneAtATime(async () => {
        const ocr = await getOcr();
        return { fills: await readFillBoxes(reading, ocr), shortAnswers: await readShortAnswers(reading, ocr), essays: await readEssay(reading, ocr) };
      })
    : { fills: [], shortAnswers: [], essays: [] };
  return {
    ok: true,
    source,
    sheetId: reading.copy.sheetId,
    page: reading.copy.page,
    student: reading.student,
    items: reading.items,
    pageFlags: reading.pageFlags,
    ...text,
    needsReview: reading.needsReview,
    h: [...reading.h],
  };
}

// OCR of one page already keeps both cores busy (two recognition batches at once); letting the
// pages in flight run OCR together would only multiply its activation memory.
let ocrQueue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
  const run = ocrQueue.then(task, task);
  ocrQueue = run.catch(() => undefined);
  return run;
}

/**
 * The title and whole prompt of an essay from the sheet's 作文题目或要求: the title is the one the
 * prompt names (以“我的老师”为题), or the prompt itself when it is short; the whole prompt is
 * always passed, so copying it out is recognised.
 */
export function essayTopic(prompt: string | undefined): { title?: string; prompt?: string } {
  const text = prompt?.trim();
  if (!text) return {};
  const named = /以\s*[“"《「]([^”"》」]{1,30})[”"》」]\s*为题/.exec(text)?.[1];
  const title = named ?? ([...text].length <= 30 ? text.replace(/^题目[:：]/, '') : undefined);
  return { ...(title ? { title } : {}), prompt: text };
}

/**
 * Groups pages into submissions. Roster sheets carry the student in every page's QR code.
 * Anonymous sheets carry the student number on page 1 only, so their later pages join the page 1
 * of the same sheet read just before them (scanners keep a student's pages together).
 */
export function groupPages(pages: ReadPage[]): ReadPage[][] {
  const groups: ReadPage[][] = [];
  const open = new Map<string, ReadPage[]>();
  for (const p of pages) {
    const fromQr = p.student.source === 'qr' && p.student.studentId;
    const key = fromQr ? `${p.sheetId}|${p.student.studentId}` : p.sheetId;
    const current = open.get(key);
    if (current && (fromQr || p.page > 1) && !current.some((q) => q.page === p.page)) {
      current.push(p);
      continue;
    }
    const group = [p];
    groups.push(group);
    open.set(key, group);
  }
  return groups;
}

export async function scoreSubmission(pages: ReadPage[], opts: GradeOptions, layouts: SheetLayout[]): Promise<Submission> {
  const first = pages[0]!;
  const layout = layouts.find((l) => l.sheetId === first.sheetId)!;
  const sorted = [...pages].sort((a, b) => a.page - b.page);
  const studentId = sorted.find((p) => p.student.studentId)?.student.studentId ?? null;
  const blocks = layout.pages.flatMap((p) => p.essay);
  const key = opts.keys?.find((k) => k.sheetId === first.sheetId);
  // Every essay of the student's sheet is scored: one whose grid was left empty (or whose page
  // was not handed in) is 0 of its full marks, not left out of the total. Without OCR nothing
  // was read, so only the essays read count.
  const expected = (opts.ocr ?? true)
    ? [
        ...studentPages(layout, studentId).flatMap((p) => p.essay.map((b) => b.no)),
        ...Object.entries(key?.items ?? {}).filter(([, k]) => 'essay' in k).map(([no]) => Number(no)),
      ]
    : [];
  const essayNos = [...new Set([...sorted.flatMap((p) => p.essays.map((e) => e.no)), ...expected])].sort((a, b) => a - b);
  const essays: Submission['essays'] = [];
  for (const no of essayNos) {
    const parts = sorted.flatMap((p) => p.essays.filter((e) => e.no === no)).sort((a, b) => a.firstCell - b.firstCell);
    const text = parts.map((e) => e.text).join('').replace(/^\n+/, '');
    const block = blocks.find((b) => b.no === no);
    const keyItem = key?.items[String(no)];
    const fullMarks = keyItem && 'essay' in keyItem ? keyItem.points : 100;
    const opt = { ...essayTopic((keyItem && 'essay' in keyItem ? keyItem.prompt : undefined) ?? block?.prompt), ...(block?.minChars ? { minChars: block.minChars } : {}), fullMarks };
    const result = await scoreEssay(text, opt, opts.llm);
    const weights = parts.map((e) => [...e.text].length);
    const confidence = weights.reduce((s, w, i) => s + w * parts[i]!.confidence, 0) / Math.max(1, weights.reduce((s, w) => s + w, 0));
    essays.push({ no, text, confidence, result });
  }
  let score: SheetScore | null = null;
  if (key) {
    score = scoreSheet(sorted.flatMap((p) => p.items), sorted.flatMap((p) => p.fills), key);
    const essayItems: ItemScore[] = essays.flatMap((e) => {
      const k = key.items[String(e.no)];
      if (!k || !('essay' in k)) return [];
      return [{
        no: e.no,
        given: `${[...e.text].length} 字`,
        expected: '',
        score: e.result.score,
        max: k.points,
        status: e.result.score >= k.points ? 'correct' : e.result.score > 0 ? 'partial' : 'blank',
        // Machine essay marks are a proposal: the teacher confirms them.
        needsReview: true,
        reasons: [e.text.trim() ? '作文为机器评分，请老师确认' : '未识别到作文内容，按未作答计 0 分，请老师确认'],
      } satisfies ItemScore];
    });
    const items = [...score.items, ...essayItems].sort((a, b) => a.no - b.no);
    score = {
      items,
      total: Math.round(items.reduce((s, i) => s + i.score, 0) * 100) / 100,
      max: Math.round(items.reduce((s, i) => s + i.max, 0) * 100) / 100,
      needsReview: items.some((i) => i.needsReview),
    };
  }
  // A personalised sheet's student has only their own pages to hand in.
  const missingPages = studentPages(layout, studentId).map((p) => p.page).filter((n) => !sorted.some((p) => p.page === n));
  return {
    sheetId: first.sheetId,
    studentId,
    pages: sorted,
    missingPages,
    essays,
    score,
    needsReview: studentId === null || missingPages.length > 0 || sorted.some((p) => p.needsReview) || (score?.needsReview ?? false),
  };
}

export interface GradeResult {
  submissions: Submission[];
  /** Pages that could not be read, with the reason in Chinese. */
  failures: Extract<PageResult, { ok: false }>[];
}

/** Pages in flight at once: decoding runs on libuv threads while another page is read on the main thread. */
const IN_FLIGHT = 4;

/** Reads every page of every file, then gathers and scores each student's sheet. */
export async function gradeFiles(files: InputFile[], opts: GradeOptions): Promise<GradeResult> {
  const inputs = await expandInputs(files);
  const results: PageResult[] = new Array(inputs.length);
  let next = 0;
  const worker = async () => {
    while (next < inputs.length) {
      const i = next++;
      const p = inputs[i]!;
      results[i] = 'error' in p ? { ok: false, source: p.source, error: p.error } : await readPage(p.source, p.image, opts);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const read = results.filter((r): r is ReadPage => r.ok);
  const submissions: Submission[] = [];
  for (const g of groupPages(read)) submissions.push(await scoreSubmission(g, opts, opts.layouts));
  return { submissions, failures: results.filter((r): r is Extract<PageResult, { ok: false }> => !r.ok) };
}
