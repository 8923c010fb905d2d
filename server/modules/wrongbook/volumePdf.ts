// The 错题卷 PDF (runs on a heavy-work thread): per section (the class, or one student) a header,
// the questions — re-typeset with paper printing's own layout, or the student's cropped scan — and
// that section's answer sheet pages from the grading engine. A section starts on a new page. A
// student's section opens with their own answer sheet (only their questions, so it is short) and
// the questions follow in the free foot of its last page, so a few questions take one page.
import fontkit from 'fontkit';
import { PDFDocument, rgb } from 'pdf-lib';
import { fontBytes } from '../../grading/layout/font';
import { qrMatrix } from '../../grading/layout/qrMatrix';
import type { PageLayout, SheetLayout } from '../../grading';
import { ApiError } from '../../http/envelope';
import { BODY, Flow, MARGIN, MM, SIZES, printableText, questionLines, wrap, type Line, type PrintQuestion } from '../minerva/paperPdf';
import { QuestionType } from '../../../src/domain/content';

export interface VolumeItem extends PrintQuestion {
  variant: boolean;
  /** PNG of the student's own answer region, printed instead of the stem. */
  scan?: Uint8Array;
}

export interface VolumeDoc {
  title: string;
  className: string;
  layout: SheetLayout;
  sections: {
    /** `familyUrl`: the student's 家长查看 link, printed as a QR code after their questions. */
    student: { name: string; studentNo: string; rosterId: string; familyUrl?: string } | null;
    items: VolumeItem[];
  }[];
  /** Class paper: the roster copies of the sheet printed after the questions. */
  rosterIds: string[];
}

/** Where a sheet page's printed content ends, in mm from the top (corner markers and footer aside). */
export function contentBottom(page: PageLayout, heightMm: number): number {
  let y = 0;
  for (const p of page.primitives) {
    if (p.t === 'rect' && p.fill) continue;
    if (p.t === 'text' && p.y > heightMm - 14) continue;
    y = Math.max(y, p.t === 'rect' ? p.y + p.h : p.t === 'ellipse' ? p.cy + p.ry : p.t === 'line' ? Math.max(p.y1, p.y2) : p.y);
  }
  return Math.max(y, page.qr.y + page.qr.h);
}

/** Questions start on the sheet's last page when at least this much (mm) is left below its content. */
const MIN_FOOT = 30;

export async function renderVolumePdf(input: VolumeDoc): Promise<Uint8Array> {
  const { layout } = input;
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle(printableText(input.title));
  const font = await doc.embedFont(fontBytes('sans'), { subset: true });
  const size = SIZES.A4;
  // Every student's sheet pages at once (one engine render), then copied after their questions.
  const { renderSheetPdf } = await import('../../grading/render/pdf.js');
  // A personalised sheet has each student's own pages (studentPages), so the counts differ.
  const { studentPages } = await import('../../grading/layout/build.js');
  const copiesOf = (id: string) => studentPages(layout, id).map((p) => ({ sheetId: layout.sheetId, page: p.page, studentId: id }));
  const perStudent = input.sections.some((s) => s.student);
  const sectionCopies = perStudent ? input.sections.map((s) => copiesOf(s.student!.rosterId)) : [input.rosterIds.flatMap(copiesOf)];
  const copies = sectionCopies.flat();
  const sheet = await PDFDocument.load(await renderSheetPdf(layout, copies.length ? copies : layout.pages.map((p) => ({ sheetId: layout.sheetId, page: p.page }))));
  const sheetPages = await doc.copyPages(sheet, sheet.getPageIndices());
  const firstPage = sectionCopies.map((_, i) => sectionCopies.slice(0, i).reduce((n, c) => n + c.length, 0));

  // A question reads the same in every student's section: lay its lines out once.
  const linesOf = new Map<string, Line[]>();
  const lines = (item: VolumeItem, width: number, scan: boolean) => {
    const key = `${item.no}:${scan}`;
    let out = linesOf.get(key);
    if (!out) {
      // The mark goes into the stem, so it wraps with it.
      const marked = item.variant ? { ...item, question: { ...item.question, stem: `【举一反三】${item.question.stem}` } } : item;
      out = questionLines(marked, font, width);
      linesOf.set(key, out);
    }
    return out;
  };

  for (const [index, section] of input.sections.entries()) {
    const flow = new Flow(doc, font, size);
    const width = flow.width;
    const mine = perStudent ? sheetPages.slice(firstPage[index], firstPage[index]! + sectionCopies[index]!.length) : sheetPages;
    // A student's own sheet comes first; their questions fill the foot of its last page.
    let onSheet = 0;
    if (perStudent && mine.length) {
      for (const page of mine) doc.addPage(page);
      const last = layout.pages.find((p) => p.page === sectionCopies[index]![mine.length - 1]!.page)!;
      const topMm = contentBottom(last, layout.heightMm) + 6;
      if (layout.heightMm - topMm - 18 >= MIN_FOOT) {
        const page = mine[mine.length - 1]!;
        const y = (layout.heightMm - topMm) * (72 / 25.4);
        page.drawLine({ start: { x: MARGIN, y: y + 2 }, end: { x: size.w - MARGIN, y: y + 2 }, thickness: 0.4, color: rgb(0.6, 0.6, 0.6), dashArray: [3, 3] });
        flow.resume(page, y);
        onSheet = 1;
      }
    }
    const who = section.student ? `姓名：${section.student.name}　学号：${section.student.studentNo}　班级：${input.className}` : `班级：${input.className}　姓名：____________　学号：____________`;
    flow.place([
      // On the sheet page its header already has the title.
      ...(onSheet ? [] : wrap(printableText(input.title), font, 18, width).map((text, i) => ({ text, x: 0, size: 18, before: i ? 0 : 4, centre: true }))),
      // …and the student's name line.
      ...(onSheet ? [] : [{ text: printableText(who), x: 0, size: 11, before: 8, centre: true }]),
      { text: `共 ${section.items.length} 题（含举一反三 ${section.items.filter((i) => i.variant).length} 题）　请将答案写在答题卡${onSheet ? '（本页上方）' : ''}对应题号处，完成后交老师用 AI批改 批阅`, x: 0, size: 9, before: onSheet ? 2 : 6, centre: true, grey: 0.35 },
    ]);
    for (const item of section.items) {
      if (item.scan) {
        // The stem as the bank has it, then what the student wrote there, cut from their scan.
        flow.place([...lines(item, width, true), { text: '原题（你的作答，请订正）：', x: 0, size: 9, before: 2, grey: 0.35 }]);
        const image = await doc.embedPng(item.scan);
        const w = Math.min(width, image.width * 0.5);
        flow.placeImage(image, w, (image.height / image.width) * w);
      } else {
        flow.place(lines(item, width, false));
      }
    }
    if (section.student?.familyUrl) {
      // The family's way to the page: a QR code a phone reads, 30 mm, after the questions.
      const matrix = qrMatrix(section.student.familyUrl);
      const side = 30 * (72 / 25.4);
      const cell = side / (matrix.length + 4);
      flow.place([{ text: '家长扫码查看学习情况、错题答案与解析（链接 30 天内有效，请勿转发）', x: 0, size: 9, before: 6, grey: 0.35 }]);
      flow.placeDrawing(side, (page, x, y) => {
        matrix.forEach((row, r) =>
          row.forEach((dark, c) => {
            if (dark) page.drawRectangle({ x: x + (c + 2) * cell, y: y + side - (r + 3) * cell, width: cell, height: cell, color: rgb(0, 0, 0) });
          }),
        );
      });
    }
    const label = section.student ? `${section.student.name}` : input.className;
    // The sheet page keeps the engine's own footer; question pages get theirs.
    const questionPages = flow.pages.slice(onSheet);
    questionPages.forEach((page, i) => {
      const where = perStudent ? '答题卡见前' : '答题卡见后';
      const footer = printableText(`${input.title}　${label}　第 ${i + 1} 页（共 ${questionPages.length} 页）　${where}`);
      const w = font.widthOfTextAtSize(footer, 8);
      page.drawText(footer, { x: (size.w - w) / 2, y: MARGIN / 2, size: 8, font, color: rgb(0.4, 0.4, 0.4) });
    });
    if (!perStudent) for (const page of mine) doc.addPage(page);
  }
  return doc.save();
}

/** The thread task: what cannot be printed is told to the teacher (422), never a server error. */
export async function renderVolumePaper(input: VolumeDoc): Promise<Uint8Array> {
  try {
    return await renderVolumePdf(input);
  } catch (error) {
    throw new ApiError(422, `错题卷无法生成：${(error as Error).message}`);
  }
}

/** One question of a student's printed 错题本. */
export interface BookItem extends PrintQuestion {
  /** What the student last answered wrong (null: not recorded or left blank). */
  wrongAnswer: string | null;
  answer: string;
  analysis: string;
}

export interface StudentBookDoc {
  title: string;
  /** 姓名 / 班级 / 学科 / 学期: the lines under the title. */
  header: string[];
  items: BookItem[];
}

/** Room to redo a question, in mm: a choice needs a line, a worked answer half a column. */
function redoMm(type: number): number {
  if (type === QuestionType.single || type === QuestionType.multiple || type === QuestionType.judge) return 16;
  if (type === QuestionType.blank) return 28;
  return type === QuestionType.essay ? 90 : 60;
}

/**
 * A student's 错题本 to print: each wrong question, what they answered, then a ruled box to redo
 * it; the right answers and 解析 start on a page of their own at the end, so the student redoes
 * first and checks after (the teacher may hand that page out later).
 */
export async function renderStudentBookPdf(input: StudentBookDoc): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle(printableText(input.title));
  const font = await doc.embedFont(fontBytes('sans'), { subset: true });
  const size = SIZES.A4;
  const flow = new Flow(doc, font, size);
  const width = flow.width;
  flow.place([
    ...wrap(printableText(input.title), font, 18, width).map((text, i) => ({ text, x: 0, size: 18, before: i ? 0 : 4, centre: true })),
    ...input.header.flatMap((line) => wrap(printableText(line), font, 11, width)).map((text, i) => ({ text, x: 0, size: 11, before: i ? 0 : 8, centre: true })),
    { text: `共 ${input.items.length} 道未掌握的错题　请在每题下方的方框内重做，做完再对照最后的答案与解析`, x: 0, size: 9, before: 6, centre: true, grey: 0.35 },
  ]);
  for (const item of input.items) {
    const mine = wrap(`你的作答：${item.wrongAnswer ? printableText(item.wrongAnswer) : '未作答'}`, font, 9, width);
    const h = redoMm(item.question.type) * MM;
    // The question never ends a page with its redo box on the next.
    flow.place([...questionLines(item, font, width), ...mine.map((text, i) => ({ text, x: 0, size: 9, before: i ? 0 : 2, grey: 0.35 }))], h + 4);
    flow.placeDrawing(h, (page, x, y) => {
      page.drawRectangle({ x, y, width, height: h, borderColor: rgb(0.6, 0.6, 0.6), borderWidth: 0.5, borderDashArray: [3, 3] });
      page.drawText('重做：', { x: x + 4, y: y + h - 12, size: 9, font, color: rgb(0.5, 0.5, 0.5) });
    });
  }
  const questionPages = flow.pages.length;
  flow.newPage();
  const answerStart = flow.pages.length - 1;
  flow.place([{ text: '答案与解析', x: 0, size: 16, before: 0, centre: true }]);
  for (const item of input.items) {
    flow.place([
      ...wrap(`${item.no}. 正确答案：${printableText(item.answer || '暂无')}`, font, BODY, width).map((text, i) => ({ text, x: 0, size: BODY, before: i ? 0 : 6 })),
      ...(item.analysis ? wrap(`解析：${printableText(item.analysis)}`, font, 9.5, width) : []).map((text) => ({ text, x: 0, size: 9.5, before: 0, grey: 0.25 })),
    ]);
  }
  flow.pages.forEach((page, i) => {
    const part = i < answerStart ? `第 ${i + 1} 页（共 ${questionPages} 页）` : '答案与解析';
    const footer = printableText(`${input.title}　${part}`);
    const w = font.widthOfTextAtSize(footer, 8);
    page.drawText(footer, { x: (size.w - w) / 2, y: MARGIN / 2, size: 8, font, color: rgb(0.4, 0.4, 0.4) });
  });
  return doc.save();
}

/** The thread task: what cannot be printed is told to the teacher (422), never a server error. */
export async function renderStudentBook(input: StudentBookDoc): Promise<Uint8Array> {
  try {
    return await renderStudentBookPdf(input);
  } catch (error) {
    throw new ApiError(422, `错题本无法生成：${(error as Error).message}`);
  }
}
