// A paper as a printable PDF: the question pages laid out for A4 (one column) or A3 landscape (two
// columns), followed by the answer sheet the grading engine makes from the paper's questions. The
// sheet's layout is its recognition template, so it is the engine's own, never drawn here.
// Formulas: pdf-lib cannot typeset LaTeX, so a formula prints as readable plain text (x²，a/b，√2).
import fontkit from 'fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';
import { QuestionType } from '../../../src/domain/content';
import { fontBytes, loadFont } from '../../grading/layout/font';
import { ApiError } from '../../http/envelope';
import type { ObjectiveItemSpec, PaperSize, SectionSpec, SheetLayout, SheetSpec } from '../../grading/layout/types';

export interface PrintQuestion {
  no: number;
  points: number;
  question: { type: number; stem: string; options: { key: string; text: string }[] | null; children?: { type: number; stem: string; options: { key: string; text: string }[] | null }[] };
}
export interface PrintPaper {
  id: number;
  title: string;
  durationMinutes: number;
  totalPoints: number;
  sections: { title: string; questions: PrintQuestion[] }[];
}

const ORDINALS = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十'];
const SUPERSCRIPT: Record<string, string> = { '0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹', n: 'ⁿ', '-': '⁻', '+': '⁺' };
const SYMBOLS: Record<string, string> = {
  times: '×', div: '÷', cdot: '·', pm: '±', mp: '∓', le: '≤', leq: '≤', ge: '≥', geq: '≥', ne: '≠', neq: '≠', approx: '≈',
  pi: 'π', rho: 'ρ', alpha: 'α', beta: 'β', gamma: 'γ', theta: 'θ', lambda: 'λ', mu: 'μ', omega: 'ω', Delta: 'Δ', Omega: 'Ω',
  angle: '∠', triangle: '△', odot: '⊙', circ: '°', degree: '°', infty: '∞', because: '∵', therefore: '∴', parallel: '∥',
  perp: '⊥', cong: '≌', sim: '∽', in: '∈', cup: '∪', cap: '∩', rightarrow: '→', to: '→', Rightarrow: '⇒', ldots: '…', cdots: '…',
  percent: '%', quad: ' ', qquad: '  ', left: '', right: '',
};

/** Plain-text reading of one LaTeX formula (the body between $…$). */
export function latexToText(tex: string): string {
  let s = tex;
  // Innermost constructs first, repeated so nested fractions and roots unwrap from the inside out.
  const group = (t: string) => (/^[\w.]+$/.test(t) || /^[\d.]+$/.test(t) ? t : `(${t})`);
  for (let i = 0; i < 10; i++) {
    const before = s;
    s = s
      .replace(/\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}/g, (_, a: string, b: string) => `${group(a.trim())}/${group(b.trim())}`)
      .replace(/\\sqrt\s*\{([^{}]*)\}/g, (_, a: string) => `√${group(a.trim())}`)
      .replace(/\\(?:text|mathrm|mathbf|operatorname|boxed)\s*\{([^{}]*)\}/g, '$1');
    if (s === before) break;
  }
  s = s
    .replace(/\^\s*\{?\\circ\}?/g, '°')
    // A prefix sign (∠A, △ABC) eats the space after it, as TeX does; operators keep theirs.
    .replace(/\\(angle|triangle|odot)\s*/g, (_, name: string) => SYMBOLS[name])
    .replace(/\\([A-Za-z]+)/g, (_, name: string) => (name in SYMBOLS ? SYMBOLS[name] : name))
    .replace(/\\([{}%$&#_,;:! ])/g, (_, c: string) => (',;:! '.includes(c) ? ' ' : c))
    .replace(/\\\\/g, ' ')
    .replace(/\^\s*\{([^{}]*)\}|\^\s*(\S)/g, (_, a: string | undefined, b: string | undefined) => {
      const t = a ?? b ?? '';
      return [...t].every((c) => c in SUPERSCRIPT) ? [...t].map((c) => SUPERSCRIPT[c]).join('') : `^(${t})`;
    })
    .replace(/_\s*\{([^{}]*)\}|_\s*(\S)/g, (_, a: string | undefined, b: string | undefined) => a ?? b ?? '')
    .replace(/[{}]/g, '')
    .replace(/\s+/g, ' ');
  return s.trim();
}

/** A stem or option as printable text: formulas read as plain text, characters without a glyph as "?". */
export function printableText(text: string): string {
  const font = loadFont('sans');
  const plain = text
    .split(/(\$[^$]+\$)/g)
    .map((part) => (part.length > 2 && part.startsWith('$') && part.endsWith('$') ? latexToText(part.slice(1, -1)) : part))
    .join('')
    .replace(/\r\n?/g, '\n');
  return [...plain].map((ch) => (/\s/.test(ch) || font.hasGlyphForCodePoint(ch.codePointAt(0)!) ? ch : '?')).join('');
}

const sectionLabel = (index: number, title: string) => (/^[一二三四五六七八九十]+[、.．]/.test(title) ? title : `${ORDINALS[index] ?? index + 1}、${title}`);
const pointsText = (n: number) => String(Math.round(n * 10) / 10);

/** Blanks of a fill-in: each run of underscores or an empty pair of brackets, at least one, at most four (the sheet's boxes). */
function blanksOf(stem: string): number {
  const n = (stem.match(/_{3,}|（\s*）|\(\s*\)/g) ?? []).length;
  return Math.min(4, Math.max(1, n));
}

/** Minimum length an essay asks for ("不少于600字"), for the size of its grid. */
function essayLength(stem: string): number {
  const m = /不少于\s*(\d{2,4})\s*字/.exec(stem);
  return m ? Math.min(1200, Number(m[1])) : 0;
}

/**
 * The answer sheet of a paper for the engine: objective items as bubbles, fill-ins as boxes,
 * answers as writing boxes sized by their points, an essay as a grid. A paper section whose
 * questions are of several kinds becomes several sheet sections under the same heading.
 */
export function paperSheetSpec(paper: PrintPaper, size: PaperSize, sheetId: string, digits = 8): SheetSpec {
  const sections: SectionSpec[] = [];
  paper.sections.forEach((section, index) => {
    const title = sectionLabel(index, printableText(section.title));
    for (const item of section.questions) {
      const { type, stem, options } = item.question;
      const last = sections[sections.length - 1];
      const sameTitle = last?.title === title;
      if (type === QuestionType.single || type === QuestionType.multiple || type === QuestionType.judge) {
        const objective: ObjectiveItemSpec =
          type === QuestionType.judge
            ? { no: item.no, type: 'judge' }
            : { no: item.no, type: type === QuestionType.single ? 'single' : 'multiple', options: Math.min(7, Math.max(2, options?.length ?? 4)) };
        if (sameTitle && last.kind === 'objective') last.items.push(objective);
        else sections.push({ kind: 'objective', title, items: [objective] });
      } else if (type === QuestionType.blank) {
        const fill = { no: item.no, blanks: blanksOf(stem) };
        if (sameTitle && last.kind === 'fill') last.items.push(fill);
        else sections.push({ kind: 'fill', title, items: [fill] });
      } else if (type === QuestionType.essay) {
        const length = essayLength(stem);
        const cells = Math.max(400, Math.ceil((length ? length * 1.3 : 800) / 100) * 100);
        sections.push({ kind: 'essay', title, no: item.no, cells, ...(length ? { minChars: length } : {}) });
      } else {
        // Room grows with the points a question carries: a 12-point proof needs more than a 4-point one.
        // Up to 12 points the box stays "small" (≤ 60 mm), laid two to a row, so a usual exam fits one side.
        const short = { no: item.no, heightMm: Math.min(120, Math.round(30 + item.points * 2.5)) };
        if (sameTitle && last.kind === 'short') last.items.push(short);
        else sections.push({ kind: 'short', title, items: [short] });
      }
    }
  });
  return { sheetId, title: `${printableText(paper.title)} 答题卡`, paper: size, identity: { mode: 'anonymous', digits }, sections };
}

// Question pages, in points (1/72 inch), origin bottom-left as PDF has it.
export const MM = 72 / 25.4;
export const MARGIN = 18 * MM;
const GUTTER = 12 * MM;
export const BODY = 10.5;
const LEAD = BODY * 1.65;
export const SIZES = { A4: { w: 210 * MM, h: 297 * MM, columns: 1 }, A3: { w: 420 * MM, h: 297 * MM, columns: 2 } } as const;

/** Splits text into lines that fit `width`: CJK breaks anywhere, a Latin word or number stays whole when it can. */
export function wrap(text: string, font: PDFFont, size: number, width: number, indent = 0): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    const tokens = paragraph.match(/[A-Za-z0-9.,'’²³°√()\-+=<>/^]+ ?|./gsu) ?? [''];
    let line = '';
    let room = width - indent;
    for (const token of tokens) {
      if (font.widthOfTextAtSize(line + token, size) <= room) {
        line += token;
        continue;
      }
      if (line) lines.push(line);
      room = width - indent;
      line = '';
      // A token wider than the line (a long formula) is broken by characters.
      for (const ch of token) {
        if (font.widthOfTextAtSize(line + ch, size) > room && line) {
          lines.push(line);
          line = '';
        }
        line += ch;
      }
    }
    lines.push(line.replace(/\s+$/, ''));
  }
  return lines;
}

export interface Line {
  text: string;
  x: number;
  size: number;
  /** Space above the line. */
  before: number;
  centre?: boolean;
  grey?: number;
}

/** The lines of one question: number, stem and points, then the options packed 4, 2 or 1 to a row. */
export function questionLines(item: PrintQuestion, font: PDFFont, width: number): Line[] {
  const label = `${item.no}. `;
  const indent = font.widthOfTextAtSize(label, BODY);
  const stem = wrap(`${printableText(item.question.stem)}（${pointsText(item.points)}分）`, font, BODY, width - indent);
  const lines: Line[] = stem.map((text, i) => ({ text: i === 0 ? label + text : text, x: i === 0 ? 0 : indent, size: BODY, before: i === 0 ? 6 : 0 }));
  optionLines(item.question, font, width, indent, lines);
  // Sub-questions of a 综合, numbered (1), (2)… under their passage.
  (item.question.children ?? []).forEach((child, k) => {
    const label = `(${k + 1}) `;
    const inner = indent + font.widthOfTextAtSize(label, BODY);
    wrap(printableText(child.stem), font, BODY, width - inner).forEach((text, i) => lines.push({ text: i === 0 ? label + text : text, x: i === 0 ? indent : inner, size: BODY, before: i === 0 ? 2 : 0 }));
    optionLines(child, font, width, inner, lines);
  });
  return lines;
}

/** Options packed 4, 2 or 1 to a row, whichever the widest fits; 判断 prints none. */
function optionLines(question: { type: number; options: { key: string; text: string }[] | null }, font: PDFFont, width: number, indent: number, lines: Line[]) {
  const options = question.type === QuestionType.judge ? [] : (question.options ?? []);
  if (options.length) {
    const texts = options.map((o) => `${o.key}. ${printableText(o.text)}`);
    const widest = Math.max(...texts.map((t) => font.widthOfTextAtSize(t, BODY)));
    const room = width - indent;
    const perRow = [4, 2, 1].find((n) => n <= texts.length && widest + 8 <= room / n) ?? 1;
    for (let i = 0; i < texts.length; i += perRow) {
      if (perRow === 1) {
        wrap(texts[i], font, BODY, room - BODY).forEach((text, k) => lines.push({ text, x: indent + (k ? BODY * 1.5 : 0), size: BODY, before: 0 }));
      } else {
        texts.slice(i, i + perRow).forEach((text, k) => lines.push({ text, x: indent + (k * room) / perRow, size: BODY, before: k ? -LEAD : 0 }));
      }
    }
  }
}

/** Places blocks of lines top to bottom, column by column, opening pages as needed. */
export class Flow {
  readonly pages: PDFPage[] = [];
  private column = 0;
  private y = 0;
  constructor(private readonly doc: PDFDocument, private readonly font: PDFFont, private readonly size: (typeof SIZES)[PaperSize]) {}

  get width() {
    return (this.size.w - 2 * MARGIN - (this.size.columns - 1) * GUTTER) / this.size.columns;
  }
  private get left() {
    return MARGIN + this.column * (this.width + GUTTER);
  }
  private next() {
    if (this.pages.length && this.column + 1 < this.size.columns) this.column++;
    else {
      this.pages.push(this.doc.addPage([this.size.w, this.size.h]));
      this.column = 0;
    }
    this.y = this.size.h - MARGIN;
  }
  /** Goes on at the top of a new page (a part that must not share a page with what came before). */
  newPage() {
    this.column = this.size.columns - 1;
    this.next();
  }
  /** Goes on at `y` points on a page drawn elsewhere (the free foot of an answer-sheet page). */
  resume(page: PDFPage, y: number) {
    this.pages.push(page);
    this.column = 0;
    this.y = y;
  }
  private height(lines: Line[]) {
    return lines.reduce((h, l) => h + l.before + (l.size * 1.65), 0);
  }
  /** An image (a scan crop) `h` points tall at the column's left, on a new column when it does not fit. */
  placeImage(image: PDFImage, w: number, h: number) {
    this.placeDrawing(h, (page, x, y) => page.drawImage(image, { x, y, width: w, height: h }));
  }
  /** Room `h` high at the left margin, on this page or the next; `draw` fills it (x, y: its lower left). */
  placeDrawing(h: number, draw: (page: PDFPage, x: number, y: number) => void) {
    if (!this.pages.length) this.next();
    if (this.y - h - 4 < MARGIN + 8 * MM) this.next();
    this.y -= h + 4;
    draw(this.pages[this.pages.length - 1], this.left, this.y);
  }
  /** A block stays together when it fits a column; a longer one runs on into the next. `keep`: room (pt) that must follow it in the column. */
  place(lines: Line[], keep = 0) {
    if (!this.pages.length) this.next();
    const bottom = MARGIN + 8 * MM;
    const h = this.height(lines) + keep;
    if (this.y - h < bottom && h <= this.size.h - MARGIN - bottom) this.next();
    for (const line of lines) {
      const step = line.before + line.size * 1.65;
      if (this.y - step < bottom) this.next();
      this.y -= step;
      const x = line.centre ? this.left + (this.width - this.font.widthOfTextAtSize(line.text, line.size)) / 2 : this.left + line.x;
      const g = line.grey ?? 0;
      if (line.text) this.pages[this.pages.length - 1].drawText(line.text, { x, y: this.y + line.size * 0.35, size: line.size, font: this.font, color: rgb(g, g, g) });
    }
  }
}

/** The whole printable: question pages, then the answer sheet (one anonymous copy of each page). */
export async function renderPaperPdf(input: { paper: PrintPaper; layout: SheetLayout }): Promise<Uint8Array> {
  const { paper, layout } = input;
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle(printableText(paper.title));
  // Upstream fontkit with subsetting, as the engine embeds it (see grading/render/pdf.ts).
  const font = await doc.embedFont(fontBytes('sans'), { subset: true });
  const size = SIZES[layout.paper];
  const flow = new Flow(doc, font, size);
  const width = flow.width;
  const count = paper.sections.reduce((n, s) => n + s.questions.length, 0);
  flow.place([
    ...wrap(printableText(paper.title), font, 18, width).map((text, i) => ({ text, x: 0, size: 18, before: i ? 0 : 4, centre: true })),
    { text: `考试时间：${paper.durationMinutes} 分钟　　满分：${pointsText(paper.totalPoints)} 分　　共 ${count} 题`, x: 0, size: BODY, before: 6, centre: true, grey: 0.25 },
    { text: '姓名：____________　班级：____________　考号：____________', x: 0, size: BODY, before: 8, centre: true },
    { text: '注意：请将答案填写或填涂在答题卡上，选择题用 2B 铅笔填涂，在试卷上作答无效。', x: 0, size: 9, before: 6, centre: true, grey: 0.35 },
  ]);
  paper.sections.forEach((section, index) => {
    const points = section.questions.reduce((s, q) => s + q.points, 0);
    const heading = `${sectionLabel(index, printableText(section.title))}（共 ${section.questions.length} 题，${pointsText(points)} 分）`;
    const [first, ...rest] = section.questions;
    // A heading never ends a column alone: it travels with the section's first question.
    flow.place([...wrap(heading, font, 12, width).map((text, i) => ({ text, x: 0, size: 12, before: i ? 0 : 12 })), ...(first ? questionLines(first, font, width) : [])]);
    for (const item of rest) flow.place(questionLines(item, font, width));
  });
  const questionPages = flow.pages.length;
  flow.pages.forEach((page, i) => {
    const footer = `${printableText(paper.title)}　第 ${i + 1} 页（共 ${questionPages} 页）　答题卡见后`;
    const w = font.widthOfTextAtSize(footer, 8);
    page.drawText(footer, { x: (size.w - w) / 2, y: MARGIN / 2, size: 8, font, color: rgb(0.4, 0.4, 0.4) });
  });

  const { renderSheetPdf } = await import('../../grading/render/pdf.js');
  const sheet = await PDFDocument.load(await renderSheetPdf(layout, layout.pages.map((p) => ({ sheetId: layout.sheetId, page: p.page }))));
  for (const page of await doc.copyPages(sheet, sheet.getPageIndices())) doc.addPage(page);
  return doc.save();
}

/** The thread task: what cannot be printed is told to the teacher (422), never a server error. */
export async function renderPaper(input: { paper: PrintPaper; layout: SheetLayout }): Promise<Uint8Array> {
  try {
    return await renderPaperPdf(input);
  } catch (error) {
    throw new ApiError(422, `试卷无法生成：${(error as Error).message}`);
  }
}
