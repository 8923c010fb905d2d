// 反馈单: one A4 page per student of an answer-sheet task (runs on a heavy-work thread): the task,
// the student's name, class and number, the score over the total, every question's points (those
// short of full marks in red), then each 解答题 as the scan shows it — the crop of its region with the
// marker's pen drawn over it in red (✓ ✗ circles, underlines and words, kept as fractions of the
// region) and the rubric items applied — and the teacher's comment. A4 with the embedded Noto Sans
// SC, like the 学情诊断 and the papers. Crops share the room left, so a page never runs over.
import fontkit from 'fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';
import { fontBytes } from '../../grading/layout/font';
import { ApiError } from '../../http/envelope';
import { MARGIN, SIZES, printableText, wrap } from '../minerva/paperPdf';
import { dateTime } from '../../../src/domain/format';
import { qrMatrix } from '../../grading/layout/qrMatrix';
import type { Annotation } from '../../../src/domain/marking';
import { GRID } from './feedbackGrid';

/** A 解答题 crop: the JPEG of its region on the scan, and where the region's corners fall on it (fractions). */
export interface FeedbackCrop {
  no: number;
  jpeg: Uint8Array;
  width: number;
  height: number;
  /** Maps a point of the region (fractions) to the crop (fractions). */
  grid: { x: number; y: number }[][];
  marks: Annotation[];
}

export interface FeedbackStudent {
  resultId: number;
  name: string;
  studentNo: string | null;
  className: string | null;
  score: number | null;
  maxScore: number | null;
  items: { no: number; score: number | null; max: number | null }[];
  /** The hand-marked questions, in order: their crop (null when the scan cannot be shown) and rubric items. */
  written: { no: number; score: number | null; max: number | null; crop: FeedbackCrop | null; rubric: { label: string; points: number }[] }[];
  comment: string | null;
  /** The family's page (附家长查看二维码): printed as a QR code at the page's foot. */
  familyUrl?: string;
  /** How many days that link works. */
  familyDays?: number;
}

export interface FeedbackDoc {
  title: string;
  /** ISO time of printing, shown in the school's time zone (`zone`; China time without one). */
  printedOn: string;
  zone?: string;
  students: FeedbackStudent[];
}

const RED = rgb(0.85, 0.11, 0.38);
const GREY = rgb(0.4, 0.4, 0.4);
const LINE = rgb(0.8, 0.8, 0.8);
const BLACK = rgb(0, 0, 0);
/** The smallest crop worth printing, in points (about 1 cm). */
const MIN_CROP = 28;
const pts = (n: number | null) => (n === null ? '—' : String(Math.round(n * 100) / 100));

/** A point of the region (fractions) on the crop (fractions), bilinear over the sampled grid. */
function onCrop(grid: FeedbackCrop['grid'], fx: number, fy: number) {
  const gx = Math.min(GRID - 1e-9, Math.max(0, fx * GRID));
  const gy = Math.min(GRID - 1e-9, Math.max(0, fy * GRID));
  const i = Math.floor(gx);
  const j = Math.floor(gy);
  const u = gx - i;
  const v = gy - j;
  const a = grid[j]![i]!;
  const b = grid[j]![i + 1]!;
  const c = grid[j + 1]![i]!;
  const d = grid[j + 1]![i + 1]!;
  return { x: (1 - v) * ((1 - u) * a.x + u * b.x) + v * ((1 - u) * c.x + u * d.x), y: (1 - v) * ((1 - u) * a.y + u * b.y) + v * ((1 - u) * c.y + u * d.y) };
}

function text(page: PDFPage, font: PDFFont, s: string, x: number, y: number, size: number, colour = BLACK, maxWidth?: number) {
  let t = printableText(s);
  if (maxWidth) while (t.length > 1 && font.widthOfTextAtSize(t, size) > maxWidth) t = `${t.slice(0, -2)}…`;
  page.drawText(t, { x, y, size, font, color: colour });
}

/** The pen's marks over a crop drawn at (x, y) bottom-left, w × h points. */
function drawMarks(page: PDFPage, font: PDFFont, crop: FeedbackCrop, x: number, y: number, w: number, h: number) {
  const at = (fx: number, fy: number) => {
    const p = onCrop(crop.grid, fx, fy);
    return { x: x + p.x * w, y: y + h - p.y * h };
  };
  const stroke = Math.max(0.8, Math.min(1.6, w / 300));
  for (const m of crop.marks) {
    if (m.kind === 'check' || m.kind === 'cross') {
      const c = at(m.x, m.y);
      const r = Math.max(5, Math.min(11, h / 8));
      if (m.kind === 'check') {
        page.drawLine({ start: { x: c.x - r * 0.8, y: c.y }, end: { x: c.x - r * 0.2, y: c.y - r * 0.6 }, thickness: stroke * 1.4, color: RED });
        page.drawLine({ start: { x: c.x - r * 0.2, y: c.y - r * 0.6 }, end: { x: c.x + r, y: c.y + r * 0.8 }, thickness: stroke * 1.4, color: RED });
      } else {
        page.drawLine({ start: { x: c.x - r * 0.7, y: c.y - r * 0.7 }, end: { x: c.x + r * 0.7, y: c.y + r * 0.7 }, thickness: stroke * 1.4, color: RED });
        page.drawLine({ start: { x: c.x - r * 0.7, y: c.y + r * 0.7 }, end: { x: c.x + r * 0.7, y: c.y - r * 0.7 }, thickness: stroke * 1.4, color: RED });
      }
    } else if (m.kind === 'text') {
      const p = at(m.x, m.y);
      const size = Math.max(7, Math.min(11, h / 10));
      text(page, font, m.text ?? '', p.x, p.y - size / 3, size, RED, Math.max(20, x + w - p.x));
    } else if (m.kind === 'circle') {
      const a = at(m.x, m.y);
      const b = at(m.x + m.w, m.y + m.h);
      page.drawEllipse({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, xScale: Math.max(1, Math.abs(b.x - a.x) / 2), yScale: Math.max(1, Math.abs(b.y - a.y) / 2), borderColor: RED, borderWidth: stroke });
    } else {
      const a = at(m.x, m.y + m.h);
      const b = at(m.x + m.w, m.y + m.h);
      page.drawLine({ start: a, end: b, thickness: stroke, color: RED });
    }
  }
}

function studentPage(doc: PDFDocument, font: PDFFont, input: FeedbackDoc, s: FeedbackStudent, images: Map<FeedbackCrop, PDFImage>, index: number) {
  const size = SIZES.A4;
  const page = doc.addPage([size.w, size.h]);
  const left = MARGIN;
  const width = size.w - 2 * MARGIN;
  let y = size.h - MARGIN - 4;
  const title = printableText(`${input.title} · 反馈单`);
  const titleSize = 15;
  page.drawText(title, { x: Math.max(left, (size.w - font.widthOfTextAtSize(title, titleSize)) / 2), y, size: titleSize, font });
  y -= 26;
  const who = [`姓名：${s.name}`, s.className ? `班级：${s.className}` : '', s.studentNo ? `学号：${s.studentNo}` : ''].filter(Boolean).join('　　');
  text(page, font, who, left, y, 11, BLACK, width - 120);
  const total = `${pts(s.score)} / ${pts(s.maxScore)} 分`;
  text(page, font, total, left + width - font.widthOfTextAtSize(printableText(total), 16), y - 2, 16, RED);
  y -= 10;
  page.drawLine({ start: { x: left, y }, end: { x: left + width, y }, thickness: 0.6, color: LINE });

  // Every question's points: ten to a row.
  const perRow = 10;
  const cellW = width / perRow;
  const cellH = 26;
  y -= 6;
  s.items.forEach((item, i) => {
    const col = i % perRow;
    const row = Math.floor(i / perRow);
    const cx = left + col * cellW;
    const top = y - row * cellH;
    page.drawRectangle({ x: cx, y: top - cellH, width: cellW, height: cellH, borderColor: LINE, borderWidth: 0.5 });
    text(page, font, `第${item.no}题`, cx + 3, top - 10, 7.5, GREY);
    const short = item.score !== null && item.max !== null && item.score < item.max;
    text(page, font, `${pts(item.score)}/${pts(item.max)}`, cx + 3, top - 21, 9.5, short ? RED : BLACK, cellW - 5);
  });
  y -= Math.ceil(s.items.length / perRow) * cellH + 8;

  // The teacher's comment, at the foot; the 解答题 share what is left above it.
  // A family QR code (22 mm) takes the foot's right; the comment wraps beside it.
  const qrSide = s.familyUrl ? 22 * (72 / 25.4) : 0;
  const commentWidth = qrSide ? width - qrSide - 12 : width;
  const commentLines = s.comment ? wrap(printableText(`老师评语：${s.comment}`), font, 10.5, commentWidth).slice(0, 4) : [];
  const foot = Math.max(MARGIN + 14 + commentLines.length * 16, qrSide ? MARGIN + qrSide + 22 : 0);
  const written = s.written;
  const perHead = 16;
  const rubricLines = written.map((w) => (w.rubric.length ? wrap(printableText(w.rubric.map((r) => `${r.label}（${r.points > 0 ? '+' : ''}${pts(r.points)}）`).join('　')), font, 9, width).slice(0, 2) : []));
  const fixed = written.reduce((sum, _w, i) => sum + perHead + rubricLines[i]!.length * 12 + 8, 0);
  const room = Math.max(0, y - foot - fixed);
  const crops = written.filter((w) => w.crop);
  const share = crops.length ? room / crops.length : 0;
  for (const [i, w] of written.entries()) {
    y -= 13;
    text(page, font, `第 ${w.no} 题`, left, y, 11);
    const got = `${pts(w.score)} / ${pts(w.max)} 分`;
    text(page, font, got, left + 52, y, 11, w.score !== null && w.max !== null && w.score < w.max ? RED : BLACK);
    y -= 3;
    // A crop too small to read (very many 解答题 on one sheet) is left to the paper itself.
    if (w.crop && share >= MIN_CROP) {
      const image = images.get(w.crop)!;
      const natural = { w: width, h: (width * w.crop.height) / w.crop.width };
      const scale = Math.min(1, share / natural.h);
      const dw = natural.w * scale;
      const dh = natural.h * scale;
      y -= dh;
      page.drawImage(image, { x: left, y, width: dw, height: dh });
      page.drawRectangle({ x: left, y, width: dw, height: dh, borderColor: LINE, borderWidth: 0.5 });
      drawMarks(page, font, w.crop, left, y, dw, dh);
    } else {
      y -= 12;
      text(page, font, w.crop ? '（作答见原卷）' : '（原图无法显示）', left, y, 9, GREY);
    }
    for (const line of rubricLines[i]!) {
      y -= 12;
      text(page, font, line, left, y, 9, GREY);
    }
    y -= 5;
  }
  let cy = MARGIN + 14 + (commentLines.length - 1) * 16;
  for (const line of commentLines) {
    page.drawText(line, { x: left, y: cy, size: 10.5, font });
    cy -= 16;
  }
  if (s.familyUrl) {
    const matrix = qrMatrix(s.familyUrl);
    const cell = qrSide / (matrix.length + 2);
    const x0 = left + width - qrSide;
    const y0 = MARGIN;
    matrix.forEach((row, r) =>
      row.forEach((dark, c) => {
        if (dark) page.drawRectangle({ x: x0 + (c + 1) * cell, y: y0 + qrSide - (r + 2) * cell, width: cell, height: cell, color: BLACK });
      }),
    );
    const caption = `家长扫码查看（${s.familyDays ?? 30} 天内有效）`;
    text(page, font, caption, left + width - font.widthOfTextAtSize(caption, 8), y0 + qrSide + 6, 8, GREY);
  }
  text(page, font, `打印于 ${dateTime(input.printedOn, input.zone)} · 第 ${index + 1}/${input.students.length} 页`, left, MARGIN - 10, 8, GREY);
}

export async function renderFeedbackPdf(input: FeedbackDoc): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle(printableText(`${input.title} 反馈单`));
  const font = await doc.embedFont(fontBytes('sans'), { subset: true });
  for (const [i, s] of input.students.entries()) {
    const images = new Map<FeedbackCrop, PDFImage>();
    for (const w of s.written) if (w.crop) images.set(w.crop, await doc.embedJpg(w.crop.jpeg));
    studentPage(doc, font, input, s, images, i);
  }
  return doc.save();
}

/** The thread task: what cannot be printed is told to the teacher (422), never a server error. */
export async function renderFeedback(input: FeedbackDoc): Promise<Uint8Array> {
  try {
    return await renderFeedbackPdf(input);
  } catch (error) {
    throw new ApiError(422, `反馈单无法生成：${(error as Error).message}`);
  }
}

