// The 错题卷 PDF (runs on a heavy-work thread): per section (the class, or one student) a header,
// the questions — re-typeset with paper printing's own layout, or the student's cropped scan — and
// then that section's answer sheet pages from the grading engine. A section starts on a new page.
import fontkit from 'fontkit';
import { PDFDocument, rgb } from 'pdf-lib';
import { fontBytes } from '../../grading/layout/font';
import type { SheetLayout } from '../../grading';
import { ApiError } from '../../http/envelope';
import { Flow, MARGIN, SIZES, printableText, questionLines, wrap, type Line, type PrintQuestion } from '../minerva/paperPdf';

export interface VolumeItem extends PrintQuestion {
  variant: boolean;
  /** PNG of the student's own answer region, printed instead of the stem. */
  scan?: Uint8Array;
}

export interface VolumeDoc {
  title: string;
  className: string;
  layout: SheetLayout;
  sections: { student: { name: string; studentNo: string; rosterId: string } | null; items: VolumeItem[] }[];
  /** Class paper: the roster copies of the sheet printed after the questions. */
  rosterIds: string[];
}

export async function renderVolumePdf(input: VolumeDoc): Promise<Uint8Array> {
  const { layout } = input;
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle(printableText(input.title));
  const font = await doc.embedFont(fontBytes('sans'), { subset: true });
  const size = SIZES.A4;
  // Every student's sheet pages at once (one engine render), then copied after their questions.
  const { renderSheetPdf } = await import('../../grading/render/pdf.js');
  const copies = input.sections.some((s) => s.student)
    ? input.sections.flatMap((s) => layout.pages.map((p) => ({ sheetId: layout.sheetId, page: p.page, studentId: s.student!.rosterId })))
    : input.rosterIds.flatMap((id) => layout.pages.map((p) => ({ sheetId: layout.sheetId, page: p.page, studentId: id })));
  const sheet = await PDFDocument.load(await renderSheetPdf(layout, copies.length ? copies : layout.pages.map((p) => ({ sheetId: layout.sheetId, page: p.page }))));
  const sheetPages = await doc.copyPages(sheet, sheet.getPageIndices());
  const perSection = input.sections.some((s) => s.student) ? layout.pages.length : sheetPages.length;

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
    const who = section.student ? `姓名：${section.student.name}　学号：${section.student.studentNo}　班级：${input.className}` : `班级：${input.className}　姓名：____________　学号：____________`;
    flow.place([
      ...wrap(printableText(input.title), font, 18, width).map((text, i) => ({ text, x: 0, size: 18, before: i ? 0 : 4, centre: true })),
      { text: printableText(who), x: 0, size: 11, before: 8, centre: true },
      { text: `共 ${section.items.length} 题（含举一反三 ${section.items.filter((i) => i.variant).length} 题）　请将答案写在答题卡上，完成后交老师用 AI批改 批阅`, x: 0, size: 9, before: 6, centre: true, grey: 0.35 },
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
    const label = section.student ? `${section.student.name}` : input.className;
    flow.pages.forEach((page, i) => {
      const footer = printableText(`${input.title}　${label}　第 ${i + 1} 页（共 ${flow.pages.length} 页）　答题卡见后`);
      const w = font.widthOfTextAtSize(footer, 8);
      page.drawText(footer, { x: (size.w - w) / 2, y: MARGIN / 2, size: 8, font, color: rgb(0.4, 0.4, 0.4) });
    });
    const mine = section.student ? sheetPages.slice(index * perSection, (index + 1) * perSection) : sheetPages;
    for (const page of mine) doc.addPage(page);
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
