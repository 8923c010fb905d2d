import { textToSvg } from '../layout/font.js';
import { encodeCopy } from '../layout/qrPayload.js';
import { qrMatrix } from '../layout/qrMatrix.js';
import type { Primitive, SheetCopy, SheetLayout } from '../layout/types.js';
import { nameLine } from './copyText.js';

const grey = (g = 0) => {
  const v = Math.round(g * 255);
  return `rgb(${v},${v},${v})`;
};

function primitiveSvg(p: Primitive): string {
  switch (p.t) {
    case 'text':
      return textToSvg(p.text, p.x, p.y, p.size, { anchor: p.anchor ?? 'start', fill: grey(p.grey) });
    case 'rect':
      return p.fill
        ? `<rect x="${p.x}" y="${p.y}" width="${p.w}" height="${p.h}" fill="${grey(p.grey)}"/>`
        : `<rect x="${p.x}" y="${p.y}" width="${p.w}" height="${p.h}" fill="none" stroke="${grey(p.grey)}" stroke-width="${p.stroke ?? 0.25}"/>`;
    case 'ellipse':
      return `<ellipse cx="${p.cx}" cy="${p.cy}" rx="${p.rx}" ry="${p.ry}" fill="none" stroke="#000" stroke-width="${p.stroke}"/>`;
    case 'line':
      return `<line x1="${p.x1}" y1="${p.y1}" x2="${p.x2}" y2="${p.y2}" stroke="${grey(p.grey)}" stroke-width="${p.stroke}"/>`;
  }
}

export function qrSvg(text: string, x: number, y: number, size: number): string {
  const m = qrMatrix(text);
  // Four modules of quiet zone are part of the printed square, so nothing else can crowd the code.
  const module = size / (m.length + 8);
  const rects: string[] = [];
  m.forEach((row, r) => {
    let c = 0;
    while (c < row.length) {
      if (!row[c]) {
        c++;
        continue;
      }
      const start = c;
      while (c < row.length && row[c]) c++;
      rects.push(`<rect x="${(x + (start + 4) * module).toFixed(3)}" y="${(y + (r + 4) * module).toFixed(3)}" width="${((c - start) * module + 0.01).toFixed(3)}" height="${(module + 0.01).toFixed(3)}"/>`);
    }
  });
  return `<g fill="#000">${rects.join('')}</g>`;
}

/**
 * One page of one copy as SVG in millimetre user units. `overlay` is extra SVG drawn on top
 * (the corpus generator uses it for pencil marks and handwriting).
 */
export function renderPageSvg(layout: SheetLayout, copy: SheetCopy, overlay = '', dpi?: number): string {
  const page = layout.pages.find((p) => p.page === copy.page);
  if (!page) throw new Error(`答题卡 ${layout.sheetId} 没有第 ${copy.page} 页`);
  const body = page.primitives.map(primitiveSvg);
  const line = page.nameAt ? nameLine(layout, copy) : null;
  if (line && page.nameAt) body.push(textToSvg(line, page.nameAt.x, page.nameAt.y, page.nameAt.size));
  body.push(qrSvg(encodeCopy(copy), page.qr.x, page.qr.y, page.qr.w));
  const { widthMm: w, heightMm: h } = layout;
  // With a dpi the size is given in pixels, because librsvg's handling of mm under a custom
  // density is not linear; without one the page keeps its physical size.
  const size = dpi ? `width="${Math.round((w / 25.4) * dpi)}" height="${Math.round((h / 25.4) * dpi)}"` : `width="${w}mm" height="${h}mm"`;
  return `<svg xmlns="http://www.w3.org/2000/svg" ${size} viewBox="0 0 ${w} ${h}"><rect width="${w}" height="${h}" fill="#fff"/>${body.join('')}${overlay}</svg>`;
}
