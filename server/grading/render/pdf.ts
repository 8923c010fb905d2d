// Upstream fontkit 1.9 rather than @pdf-lib/fontkit for embedding: the latter writes TrueType
// subsets with a corrupt short 'loca' table (pdf-lib issue #1232), so most CJK glyphs print blank.
import fontkit from 'fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { fontBytes, missingGlyphs } from '../layout/font.js';
import { encodeCopy } from '../layout/qrPayload.js';
import { qrMatrix } from '../layout/qrMatrix.js';
import type { Primitive, SheetCopy, SheetLayout } from '../layout/types.js';
import { copiesFor, nameLine } from './copyText.js';

const PT = 72 / 25.4;

/** Maps layout millimetres (origin top-left) to PDF points (origin bottom-left). */
class Page {
  constructor(readonly pdf: PDFPage, readonly heightMm: number, readonly font: PDFFont) {}
  x(mm: number) {
    return mm * PT;
  }
  y(mm: number) {
    return (this.heightMm - mm) * PT;
  }
  draw(p: Primitive): void {
    const color = (g = 0) => rgb(g, g, g);
    switch (p.t) {
      case 'text': {
        const size = p.size * PT;
        const w = p.anchor === 'middle' ? this.font.widthOfTextAtSize(p.text, size) : 0;
        this.pdf.drawText(p.text, { x: this.x(p.x) - w / 2, y: this.y(p.y), size, font: this.font, color: color(p.grey) });
        return;
      }
      case 'rect':
        this.pdf.drawRectangle({
          x: this.x(p.x),
          y: this.y(p.y + p.h),
          width: p.w * PT,
          height: p.h * PT,
          ...(p.fill ? { color: color(p.grey) } : { borderColor: color(p.grey), borderWidth: (p.stroke ?? 0.25) * PT }),
        });
        return;
      case 'ellipse':
        this.pdf.drawEllipse({ x: this.x(p.cx), y: this.y(p.cy), xScale: p.rx * PT, yScale: p.ry * PT, borderColor: color(), borderWidth: p.stroke * PT });
        return;
      case 'line':
        this.pdf.drawLine({ start: { x: this.x(p.x1), y: this.y(p.y1) }, end: { x: this.x(p.x2), y: this.y(p.y2) }, thickness: p.stroke * PT, color: color(p.grey) });
        return;
    }
  }
  qr(text: string, r: { x: number; y: number; w: number }): void {
    const m = qrMatrix(text);
    const module = r.w / (m.length + 8);
    m.forEach((row, i) =>
      row.forEach((dark, j) => {
        if (!dark) return;
        // A hair of overlap avoids white seams between modules in some viewers.
        this.pdf.drawRectangle({ x: this.x(r.x + (j + 4) * module), y: this.y(r.y + (i + 5) * module) - 0.05, width: module * PT + 0.1, height: module * PT + 0.1, color: rgb(0, 0, 0) });
      }),
    );
  }
}

/**
 * The printable PDF: every copy of every page, with the CJK font subset to the characters used.
 * Throws (in Chinese) when a character, e.g. a rare name character, has no glyph.
 */
export async function renderSheetPdf(layout: SheetLayout, copies: SheetCopy[] = copiesFor(layout)): Promise<Uint8Array> {
  const allText = layout.pages.flatMap((p) => p.primitives.flatMap((q) => (q.t === 'text' ? [q.text] : []))).join('') +
    copies.map((c) => nameLine(layout, c) ?? '').join('');
  const missing = missingGlyphs(allText);
  if (missing.length) throw new Error(`字体缺少以下字符，无法打印：${missing.join('')}`);

  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle(layout.title);
  const font = await doc.embedFont(fontBytes('sans'), { subset: true });
  for (const copy of copies) {
    const pageLayout = layout.pages.find((p) => p.page === copy.page);
    if (!pageLayout) throw new Error(`答题卡 ${layout.sheetId} 没有第 ${copy.page} 页`);
    const page = new Page(doc.addPage([layout.widthMm * PT, layout.heightMm * PT]), layout.heightMm, font);
    for (const p of pageLayout.primitives) page.draw(p);
    const line = nameLine(layout, copy);
    if (line && pageLayout.nameAt) page.draw({ t: 'text', x: pageLayout.nameAt.x, y: pageLayout.nameAt.y, size: pageLayout.nameAt.size, text: line });
    page.qr(encodeCopy(copy), pageLayout.qr);
  }
  return doc.save();
}
