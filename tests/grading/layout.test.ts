import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { sampleA3Sheet, sampleChineseSheet, sampleMathSheet, sampleStudents } from '../../server/grading/corpus/sampleSheets.js';
import { textWidth } from '../../server/grading/layout/font.js';
import { buildLayout, decodeCopy, encodeCopy, missingGlyphs, renderSheetPdf, type Rect, type SheetLayout } from '../../server/grading/index.js';

describe('answer-sheet layout', () => {
  it('lays out 100 objective items on A3 with 2 to 7 options and keeps every bubble on the page', () => {
    const layout = buildLayout(sampleA3Sheet());
    const items = layout.pages.flatMap((p) => p.objective);
    expect(items.map((i) => i.no)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(new Set(items.map((i) => i.bubbles.length))).toEqual(new Set([2, 4, 5, 7]));
    for (const p of layout.pages)
      for (const b of p.objective.flatMap((i) => i.bubbles)) {
        expect(b.cx - b.rx).toBeGreaterThan(14);
        expect(b.cx + b.rx).toBeLessThan(layout.widthMm - 14);
        expect(b.cy + b.ry).toBeLessThan(layout.heightMm - 14);
      }
  });

  it('gives judge items √/× bubbles and anonymous sheets a student-number grid', () => {
    const layout = buildLayout(sampleChineseSheet());
    const judge = layout.pages[0]!.objective.find((i) => i.type === 'judge')!;
    expect(judge.bubbles.map((b) => b.label)).toEqual(['√', '×']);
    expect(layout.pages[0]!.studentNumber!.digits).toHaveLength(8);
    expect(layout.pages[0]!.studentNumber!.digits[0]!.map((b) => b.label).join('')).toBe('0123456789');
  });

  it('splits a long essay grid across pages and keeps the cell count', () => {
    const layout = buildLayout(sampleChineseSheet());
    const blocks = layout.pages.flatMap((p) => p.essay);
    expect(layout.pages.length).toBeGreaterThan(1);
    const cells = blocks.reduce((n, b) => n + b.rows * b.columns, 0);
    expect(cells).toBeGreaterThanOrEqual(800);
    expect(blocks[1]!.firstCell).toBe(blocks[0]!.rows * blocks[0]!.columns);
  });

  it('keeps printed text and bubbles clear of the QR code and the corner markers', () => {
    const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
    for (const layout of [buildLayout(sampleMathSheet()), buildLayout(sampleChineseSheet()), buildLayout(sampleA3Sheet())]) {
      for (const page of layout.pages) {
        const keepOut = [{ ...page.qr }, ...page.fiducials];
        const things: Rect[] = page.primitives.flatMap((p) => {
          if (p.t === 'text') {
            const w = textWidth(p.text, p.size);
            return [{ x: p.anchor === 'middle' ? p.x - w / 2 : p.x, y: p.y - p.size, w, h: p.size * 1.2 }];
          }
          if (p.t === 'ellipse') return [{ x: p.cx - p.rx, y: p.cy - p.ry, w: 2 * p.rx, h: 2 * p.ry }];
          return [];
        });
        for (const t of things) for (const k of keepOut) expect(overlaps(t, k), `${layout.sheetId} 第${page.page}页 ${JSON.stringify(t)}`).toBe(false);
      }
    }
  });

  it('never leaves a section title at the foot of a column with its first question in the next', () => {
    // Sheets whose sections end at every height of the page, so some title falls near the bottom.
    for (let short = 20; short <= 120; short += 5) {
      for (const kind of ['objective', 'fill', 'short', 'essay'] as const) {
        const last =
          kind === 'objective' ? { kind, title: '三、选择题', items: [{ no: 3, type: 'single' as const, options: 4 }] }
          : kind === 'fill' ? { kind, title: '三、填空题', items: [{ no: 3, blanks: 2 }] }
          : kind === 'short' ? { kind, title: '三、解答题', items: [{ no: 3, heightMm: 50 }] }
          : { kind, no: 3, title: '三、作文', cells: 200, prompt: '以“成长”为题写一篇作文', minChars: 150 };
        const layout = buildLayout({
          sheetId: 'S2026T01', title: '版面测试', paper: 'A4', identity: { mode: 'roster', students: sampleStudents.slice(0, 1) },
          sections: [
            { kind: 'short', title: '一、解答题', items: [{ no: 1, heightMm: 100 }] },
            { kind: 'short', title: '二、解答题', items: [{ no: 2, heightMm: short }] },
            last,
          ],
        });
        const tops = layout.pages.map((p) => [
          ...p.objective.flatMap((i) => i.bubbles.map((b) => b.cy - b.ry)),
          ...p.fill.flatMap((f) => f.boxes.map((b) => b.y)),
          ...p.short.map((r) => r.rect.y),
          ...p.essay.map((e) => e.origin.y),
        ]);
        layout.pages.forEach((page, n) => {
          for (const title of page.primitives.filter((pr) => pr.t === 'text' && /^[一二三]、/.test(pr.text))) {
            const y = (title as { y: number }).y;
            const below = tops[n]!.filter((top) => top > y - 5 && top < y + 12);
            expect(below.length, `${kind}: ${(title as { text: string }).text} at ${y} mm (二 ${short} mm)`).toBeGreaterThan(0);
          }
        });
      }
    }
  });

  it('is its own recognition template: the JSON round-trips exactly', () => {
    const layout = buildLayout(sampleMathSheet());
    const copy: SheetLayout = JSON.parse(JSON.stringify(layout));
    expect(copy).toEqual(layout);
  });

  it('rejects more than 100 objective items and option counts outside 2–7, in Chinese', () => {
    const spec = sampleA3Sheet();
    const s0 = spec.sections[0]!;
    if (s0.kind !== 'objective') throw new Error('unexpected');
    expect(() => buildLayout({ ...spec, sections: [{ ...s0, items: [...s0.items, { no: 101, type: 'single' }] }] })).toThrow('客观题最多 100 道');
    expect(() => buildLayout({ ...spec, sections: [{ ...s0, items: [{ no: 1, type: 'single', options: 8 }] }] })).toThrow('选项数必须在 2 到 7 之间');
  });

  it('encodes sheet id, page and student in the QR payload', () => {
    expect(decodeCopy(encodeCopy({ sheetId: 'S1', page: 2, studentId: '20240101' }))).toEqual({ sheetId: 'S1', page: 2, studentId: '20240101' });
    expect(decodeCopy(encodeCopy({ sheetId: 'S1', page: 1 }))).toEqual({ sheetId: 'S1', page: 1 });
    expect(decodeCopy('https://example.com')).toBeNull();
  });
});

describe('printable PDF', () => {
  it('prints one page per student with rare name characters, font subset to a small file', async () => {
    expect(missingGlyphs('张喆李堃王昇赵玥')).toEqual([]);
    const layout = buildLayout(sampleMathSheet());
    const bytes = await renderSheetPdf(layout);
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(sampleStudents.length * layout.pages.length);
    const [w, h] = [doc.getPage(0).getWidth(), doc.getPage(0).getHeight()];
    expect(w).toBeCloseTo((210 / 25.4) * 72, 1);
    expect(h).toBeCloseTo((297 / 25.4) * 72, 1);
    // The full font is 10 MB; a subset for one class is far smaller.
    expect(bytes.length).toBeLessThan(600_000);
  });

  it('refuses to print a name the font cannot draw instead of printing empty boxes', async () => {
    const layout = buildLayout(sampleMathSheet([{ id: '1', name: '小明😀' }]));
    await expect(renderSheetPdf(layout)).rejects.toThrow('字体缺少以下字符');
  });
});
