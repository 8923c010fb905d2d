// The one-page 学情诊断 for a parent meeting (runs on a heavy-work thread): the student and term,
// each subject's score rate beside the class's with a weekly trend chart, the strongest and weakest
// knowledge points, the recent exams, the 临界 results and a short plain-language summary. A4 with
// the embedded Noto Sans SC, like the papers and the 错题本. Every list is capped and the summary
// cut to the room left, so it is always one page.
import fontkit from 'fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { fontBytes } from '../../grading/layout/font';
import { ApiError } from '../../http/envelope';
import { MARGIN, MM, SIZES, printableText, wrap } from '../minerva/paperPdf';
import { dateTime, DEFAULT_ZONE, percent, zoneName } from '../../../src/domain/format';
import { classLabel } from '../../../src/domain/school';
import { MASTERY_LEVEL_LABELS, strengthsAndWeaknesses, type StudentHistory } from '../../../src/domain/studentHistory';

export interface DiagnosticDoc {
  history: StudentHistory;
  /** ISO time of printing (shown on the school's clock). */
  printedOn: string;
  /** The school's time zone; China time when absent. */
  zone?: string;
}

const GREY = rgb(0.4, 0.4, 0.4);
const LINE = rgb(0.8, 0.8, 0.8);
/** One colour per subject line of the trend chart (then repeated). */
const PALETTE = [rgb(0.1, 0.31, 0.71), rgb(0.83, 0.18, 0.18), rgb(0.18, 0.49, 0.2), rgb(0.93, 0.42, 0.01), rgb(0.48, 0.12, 0.64), rgb(0, 0.59, 0.53)];
const MAX_EXAMS = 5;
const MAX_POINTS = 5;
const MAX_FLAGS = 3;

class Page {
  y: number;
  readonly left = MARGIN;
  readonly width: number;
  constructor(readonly page: PDFPage, readonly font: PDFFont, readonly size: { w: number; h: number }) {
    this.y = size.h - MARGIN;
    this.width = size.w - 2 * MARGIN;
  }
  /** Text at x (from the left margin) on the current baseline. */
  text(s: string, x: number, size: number, opts: { grey?: boolean; maxWidth?: number; colour?: ReturnType<typeof rgb> } = {}) {
    let t = printableText(s);
    if (opts.maxWidth) while (t.length > 1 && this.font.widthOfTextAtSize(t, size) > opts.maxWidth) t = `${t.slice(0, -2)}…`;
    this.page.drawText(t, { x: this.left + x, y: this.y, size, font: this.font, color: opts.colour ?? (opts.grey ? GREY : rgb(0, 0, 0)) });
  }
  centre(s: string, size: number, grey = false) {
    const t = printableText(s);
    this.page.drawText(t, { x: (this.size.w - this.font.widthOfTextAtSize(t, size)) / 2, y: this.y, size, font: this.font, color: grey ? GREY : rgb(0, 0, 0) });
  }
  down(pt: number) {
    this.y -= pt;
  }
  heading(s: string) {
    this.down(20);
    this.text(s, 0, 12.5);
    this.page.drawLine({ start: { x: this.left, y: this.y - 4 }, end: { x: this.left + this.width, y: this.y - 4 }, thickness: 0.6, color: LINE });
    this.down(6);
  }
}

/** The weekly score rates of each subject as lines on a 0–100 % grid. */
function trendChart(p: Page, subjects: StudentHistory['subjects'], height: number) {
  const weeks = [...new Set(subjects.flatMap((s) => s.weeks.map((w) => w.week)))].sort();
  const axis = 26;
  const x0 = p.left + axis;
  const w = p.width - axis - 4;
  const y0 = p.y - height;
  for (const v of [0, 0.6, 0.9, 1]) {
    const y = y0 + v * height;
    p.page.drawLine({ start: { x: x0, y }, end: { x: x0 + w, y }, thickness: v === 0.6 || v === 0.9 ? 0.5 : 0.3, color: LINE, dashArray: v === 0.6 || v === 0.9 ? [2, 2] : undefined });
    p.page.drawText(`${v * 100}%`, { x: p.left, y: y - 3, size: 7, font: p.font, color: GREY });
  }
  if (weeks.length) {
    const step = weeks.length > 1 ? w / (weeks.length - 1) : 0;
    const xOf = (week: string) => x0 + (weeks.length > 1 ? weeks.indexOf(week) * step : w / 2);
    // Week labels, thinned so they never overlap.
    const every = Math.max(1, Math.ceil(weeks.length / 10));
    weeks.forEach((week, i) => {
      if (i % every) return;
      const label = week.slice(5);
      p.page.drawText(label, { x: xOf(week) - p.font.widthOfTextAtSize(label, 7) / 2, y: y0 - 10, size: 7, font: p.font, color: GREY });
    });
    subjects.forEach((s, k) => {
      const colour = PALETTE[k % PALETTE.length]!;
      const pts = s.weeks.filter((wk) => wk.scoreRate !== null).map((wk) => ({ x: xOf(wk.week), y: y0 + wk.scoreRate! * height }));
      for (let i = 1; i < pts.length; i++) p.page.drawLine({ start: pts[i - 1]!, end: pts[i]!, thickness: 1.4, color: colour });
      for (const pt of pts) p.page.drawCircle({ x: pt.x, y: pt.y, size: 1.8, color: colour });
    });
  }
  p.y = y0 - 12;
}

export async function renderDiagnosticPdf(input: DiagnosticDoc): Promise<Uint8Array> {
  const h = input.history;
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const title = `${h.student.name}的学情诊断报告`;
  doc.setTitle(printableText(title));
  const font = await doc.embedFont(fontBytes('sans'), { subset: true });
  const size = SIZES.A4;
  const p = new Page(doc.addPage([size.w, size.h]), font, size);
  const bottom = MARGIN + 6 * MM;

  p.down(6);
  p.centre('学情诊断报告', 18);
  p.down(20);
  p.centre(`姓名：${h.student.name}　学号：${h.student.studentNo}　班级：${classLabel(h.student.gradeName, h.student.className)}　学期：${h.termLabel}`, 10);
  p.down(14);
  p.centre(`学科：${h.subjectNames.join('、') || '—'}`, 9, true);

  // 一、各学科得分率, with the trend.
  p.heading('一、各学科得分率与趋势');
  const cols = [0, 110, 220, 330];
  p.down(12);
  ['学科', '本人得分率', '班级得分率', '作业和考试'].forEach((t, i) => p.text(t, cols[i]!, 9, { grey: true }));
  if (!h.subjects.length) {
    p.down(14);
    p.text('本学期还没有已批改的作业或考试。', 0, 10);
  }
  h.subjects.slice(0, PALETTE.length).forEach((s, k) => {
    p.down(14);
    p.page.drawRectangle({ x: p.left, y: p.y + 1, width: 8, height: 3, color: PALETTE[k % PALETTE.length]! });
    p.text(s.name, 12, 10, { maxWidth: 95 });
    p.text(percent(s.scoreRate), cols[1]!, 10);
    p.text(percent(s.classRate), cols[2]!, 10);
    p.text(`${s.works} 次`, cols[3]!, 10);
  });
  if (h.subjects.length) {
    p.down(10);
    p.text('每周得分率（虚线为及格 60% 与优秀 90%）', 0, 8, { grey: true });
    p.down(6);
    trendChart(p, h.subjects.slice(0, PALETTE.length), 110);
  }

  // 二、知识点 strengths and weaknesses side by side.
  p.heading('二、知识点掌握');
  const { strong, weak } = strengthsAndWeaknesses(h.points, MAX_POINTS);
  const half = p.width / 2;
  p.down(12);
  p.text(`优势知识点（${MASTERY_LEVEL_LABELS.strong}）`, 0, 9.5, { colour: rgb(0.18, 0.49, 0.2) });
  p.text(`薄弱知识点（${MASTERY_LEVEL_LABELS.weak}）`, half, 9.5, { colour: rgb(0.83, 0.18, 0.18) });
  const rowsOf = Math.max(1, strong.length, weak.length);
  for (let i = 0; i < rowsOf; i++) {
    p.down(13);
    const line = (pt: (typeof strong)[number] | undefined, x: number, empty: string) => {
      if (!pt) return i === 0 && p.text(empty, x, 9.5, { grey: true });
      p.text(pt.name, x, 9.5, { maxWidth: half - 120 });
      p.text(`${percent(pt.scoreRate)}（${pt.items} 题）`, x + half - 110, 9.5);
    };
    line(strong[i], 0, '暂无（需答对 85% 以上且至少 3 题）');
    line(weak[i], half, '暂无明显薄弱点');
  }

  // 三、近期考试.
  p.heading('三、近期考试');
  const examCols = [0, 62, 270, 340, 400];
  p.down(12);
  ['日期', '考试', '得分', '等级', '班级平均'].forEach((t, i) => p.text(t, examCols[i]!, 9, { grey: true }));
  if (!h.exams.length) {
    p.down(14);
    p.text('本学期还没有考试成绩。', 0, 10);
  }
  for (const e of h.exams.slice(0, MAX_EXAMS)) {
    p.down(14);
    p.text(e.examDate, examCols[0]!, 9.5);
    p.text(e.title, examCols[1]!, 9.5, { maxWidth: examCols[2]! - examCols[1]! - 8 });
    p.text(e.score === null ? '—' : `${e.score} / ${e.fullMarks}`, examCols[2]!, 9.5);
    p.text(e.band ?? '—', examCols[3]!, 9.5);
    p.text(e.classAverage === null ? '—' : String(e.classAverage), examCols[4]!, 9.5);
  }

  // 四、临界提醒.
  p.heading('四、临界提醒');
  if (!h.critical.length) {
    p.down(13);
    p.text('本学期考试没有处在等级边缘（差 5% 满分以内）的成绩。', 0, 9.5);
  }
  for (const c of h.critical.slice(0, MAX_FLAGS)) {
    p.down(13);
    p.text(`${c.examDate}　${c.title}：差 ${c.gap} 分达到${c.boundary}`, 0, 9.5, { maxWidth: p.width });
  }

  // 五、总结: as many lines as the page has room for.
  p.heading('五、总结与建议');
  const lines = h.summary.flatMap((s) => wrap(printableText(s), font, 10, p.width));
  const room = Math.floor((p.y - bottom - 16) / 15);
  for (const line of lines.slice(0, Math.max(0, room))) {
    p.down(15);
    p.text(line, 0, 10);
  }

  const footer = `打印时间：${dateTime(input.printedOn, input.zone ?? DEFAULT_ZONE)}（${zoneName(input.zone ?? DEFAULT_ZONE)}）　本报告依据本学期已批改的作业和考试生成，仅供家校沟通使用`;
  p.y = MARGIN / 2;
  p.centre(footer, 7.5, true);
  return doc.save();
}

/** The thread task: what cannot be printed is told to the teacher (422), never a server error. */
export async function renderDiagnostic(input: DiagnosticDoc): Promise<Uint8Array> {
  try {
    return await renderDiagnosticPdf(input);
  } catch (error) {
    throw new ApiError(422, `学情诊断报告无法生成：${(error as Error).message}`);
  }
}
