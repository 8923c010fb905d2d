// Compact answer sheets: a week's 24-item exam (objective items in a grid, fill-ins two to a row,
// small 解答 boxes two to a row) is one A4 side per student — the anonymous one too, its 考号 grid
// beside the first questions — every page names its student, a
// personalised sheet prints each student only their own questions, and scans of the compact
// layout still read back (pencil marks and handwriting rendered by the corpus generator).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeScan } from '../../server/grading/corpus/generate.js';
import { buildLayout, buildPersonalLayout, copiesFor, gradeFiles, renderSheetPdf, studentPages, type SectionSpec, type SheetSpec } from '../../server/grading/index.js';
import { paperSheetSpec, type PrintPaper } from '../../server/modules/minerva/paperPdf.js';
import { newSection, toSheetSections, type DesignSection } from '../../src/pages/aiCorrect/sheetDesign.js';

const students = [
  { id: 'R1', name: '张喆', className: '七(1)班', studentNo: '202610101' },
  { id: 'R2', name: '李想', className: '七(1)班', studentNo: '202610102' },
];
const roster = { mode: 'roster' as const, students };

/** Text of each page of a PDF (pdftotext, pages split at form feeds). */
function pdfPages(bytes: Uint8Array): string[] {
  const dir = mkdtempSync(join(process.env.TMPDIR ?? tmpdir(), 'sheet-'));
  writeFileSync(join(dir, 's.pdf'), bytes);
  return execFileSync('pdftotext', ['-layout', join(dir, 's.pdf'), '-']).toString().split('\f').filter((p) => p.trim());
}

/** The designer's 24-item exam: 20 single choice and 4 解答 of the default (small) size. */
function designedExam(): SheetSpec {
  const design: DesignSection[] = [{ ...(newSection('objective') as Extract<DesignSection, { kind: 'objective' }>), count: 20 }, { ...(newSection('short') as Extract<DesignSection, { kind: 'short' }>), count: 4 }];
  return { sheetId: 'S24', title: '七年级数学周测', paper: 'A4', identity: roster, sections: toSheetSections(design) };
}

/** The demo exam's shape from its paper: 12 choice, 8 fill-ins, 4 ten-point 解答. */
function demoExamSpec(digits?: number): SheetSpec {
  const q = (no: number, type: number, points: number) => ({ no, points, question: { type, stem: type === 4 ? '计算：____' : '题', options: type === 1 ? [{ key: 'A', text: '1' }, { key: 'B', text: '2' }, { key: 'C', text: '3' }, { key: 'D', text: '4' }] : null } });
  const paper: PrintPaper = {
    id: 1,
    title: '七年级数学第一次月考',
    durationMinutes: 90,
    totalPoints: 100,
    sections: [
      { title: '选择题', questions: Array.from({ length: 12 }, (_, i) => q(i + 1, 1, 3)) },
      { title: '填空题', questions: Array.from({ length: 8 }, (_, i) => q(i + 13, 4, 3)) },
      { title: '解答题', questions: Array.from({ length: 4 }, (_, i) => q(i + 21, 5, 10)) },
    ],
  };
  return paperSheetSpec(paper, 'A4', 'E1', digits);
}

describe('a compact answer sheet', () => {
  it('fits the designed 24-item exam with 4 small 解答 on one A4 side, a page per student', async () => {
    const layout = buildLayout(designedExam());
    expect(layout.pages).toHaveLength(1);
    // The objective items sit in a grid: several columns of bubbles across the page.
    const columns = new Set(layout.pages[0]!.objective.map((o) => Math.round(o.bubbles[0]!.cx)));
    expect(columns.size).toBeGreaterThanOrEqual(4);
    const pages = pdfPages(await renderSheetPdf(layout));
    expect(pages).toHaveLength(students.length);
    expect(pages[1]).toContain('李想');
  });

  it('fits the demo exam (12 choice, 8 fill-ins two to a row, 4 ten-point 解答) on one side too', () => {
    const layout = buildLayout({ ...demoExamSpec(), identity: roster });
    expect(layout.pages).toHaveLength(1);
    const fills = layout.pages[0]!.fill;
    expect(new Set(fills.map((f) => f.boxes[0]!.y)).size).toBe(4);
  });

  it('names the student on every page of a longer sheet, and numbers its pages', async () => {
    const sections: SectionSpec[] = [
      { kind: 'objective', title: '一、选择题', items: Array.from({ length: 30 }, (_, i) => ({ no: i + 1, type: 'single' as const })) },
      { kind: 'short', title: '二、解答题', items: [31, 32, 33].map((no) => ({ no, heightMm: 130 })) },
    ];
    const layout = buildLayout({ sheetId: 'S2', title: '期中', paper: 'A4', identity: roster, sections });
    expect(layout.pages.length).toBeGreaterThan(1);
    for (const page of layout.pages) expect(page.nameAt).toBeDefined();
    const pages = pdfPages(await renderSheetPdf(layout, copiesFor(layout)));
    expect(pages).toHaveLength(students.length * layout.pages.length);
    pages.forEach((text, i) => {
      const s = students[Math.floor(i / layout.pages.length)]!;
      expect(text).toContain(s.name);
      expect(text).toContain(s.studentNo);
      expect(text).toContain(`共 ${layout.pages.length} 页`);
    });
    // Anonymous copies: the 考号 grid on page 1, write-in lines for people on later pages.
    const anonymous = buildLayout({ sheetId: 'S3', title: '期中', paper: 'A4', identity: { mode: 'anonymous', digits: 9 }, sections });
    const [, second] = pdfPages(await renderSheetPdf(anonymous));
    expect(second).toMatch(/姓名.*考号/);
  });

  it('fits the anonymous demo exam on one A4 side too: the 考号 grid beside the first questions, read back from a scan', async () => {
    const layout = buildLayout(demoExamSpec(9));
    expect(layout.pages).toHaveLength(1);
    const page = layout.pages[0]!;
    expect(page.short.map((s) => s.no)).toEqual([21, 22, 23, 24]);
    // The questions start about as high as on a roster copy (half a row lower, so the two never
    // print bubbles in the same place): the grid takes no height of its own.
    const top = (p: typeof page) => Math.min(...p.objective.flatMap((o) => o.bubbles.map((b) => b.cy)));
    expect(top(page) - top(buildLayout({ ...demoExamSpec(), identity: roster }).pages[0]!)).toBeCloseTo(3.25, 5);
    // Nothing printed for a question overlaps the grid or the QR code.
    const grid = page.studentNumber!.digits.flat();
    const gridBox = { x: Math.min(...grid.map((b) => b.cx - b.rx)) - 3, y: page.qr.y + page.qr.h, w: 0, h: Math.max(...grid.map((b) => b.cy + b.ry)) - page.qr.y - page.qr.h };
    gridBox.w = Math.max(...grid.map((b) => b.cx + b.rx)) - gridBox.x;
    const rects = [
      ...page.objective.flatMap((o) => o.bubbles.map((b) => ({ x: b.cx - b.rx, y: b.cy - b.ry, w: 2 * b.rx, h: 2 * b.ry }))),
      ...page.fill.flatMap((f) => f.boxes),
      ...page.short.map((s) => s.rect),
    ];
    const overlaps = (a: { x: number; y: number; w: number; h: number }, b: typeof a) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
    expect(rects.filter((r) => overlaps(r, gridBox) || overlaps(r, page.qr))).toEqual([]);
    expect(pdfPages(await renderSheetPdf(layout))).toHaveLength(1);

    const objective = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [i + 1, [{ label: 'DCBA'[i % 4]!, style: 'full' as const }]]));
    const scan = await makeScan(layout, { copy: { sheetId: 'E1', page: 1 }, studentNumber: '202610102', objective, fill: { 13: ['-3'], 20: ['5'] } }, { rotateDeg: -1.5, noise: 3 }, 11);
    const { submissions, failures } = await gradeFiles([{ name: 'scan.jpg', bytes: scan }], { layouts: [layout] });
    expect(failures).toEqual([]);
    const [sub] = submissions;
    expect(sub!.studentId).toBe('202610102');
    expect(sub!.pages[0]!.items.map((it) => it.answer)).toEqual(Array.from({ length: 12 }, (_, i) => 'DCBA'[i % 4]));
    const fills = sub!.pages[0]!.fills;
    expect(fills.find((f) => f.no === 13)?.text).toBe('-3');
    expect(fills.find((f) => f.no === 20)?.text).toBe('5');
  }, 120_000);

  it('gives the 考号 grid as many digits as asked (the school’s 学号 length)', () => {
    const layout = buildLayout(demoExamSpec(9));
    expect(layout.pages[0]!.studentNumber!.digits).toHaveLength(9);
  });

  it('prints a personalised sheet with only each student’s own questions', () => {
    const base: SheetSpec = { sheetId: 'V1', title: '错题卷', paper: 'A4', identity: roster, sections: [] };
    const layout = buildPersonalLayout(base, [
      { studentId: 'R1', sections: [{ kind: 'objective', title: '一、选择题', items: [{ no: 1, type: 'single' }, { no: 3, type: 'single' }] }] },
      { studentId: 'R2', sections: [{ kind: 'objective', title: '一、选择题', items: [{ no: 2, type: 'single' }] }, { kind: 'short', title: '二、解答题', items: [{ no: 4, heightMm: 40 }] }] },
    ]);
    expect(studentPages(layout, 'R1').flatMap((p) => p.objective.map((o) => o.no))).toEqual([1, 3]);
    expect(studentPages(layout, 'R2').flatMap((p) => [...p.objective.map((o) => o.no), ...p.short.map((s) => s.no)])).toEqual([2, 4]);
    expect(copiesFor(layout)).toEqual([
      { sheetId: 'V1', page: 1, studentId: 'R1' },
      { sheetId: 'V1', page: 2, studentId: 'R2' },
    ]);
  });

  it('reads scans of the compact layout back: bubbles in the grid, paired fill-ins, the student', async () => {
    const layout = buildLayout({ ...demoExamSpec(), identity: roster });
    const objective = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [i + 1, [{ label: 'ABCD'[i % 4]!, style: 'full' as const }]]));
    const scan = await makeScan(layout, { copy: { sheetId: 'E1', page: 1, studentId: 'R2' }, objective, fill: { 13: ['12'], 14: ['7'] } }, { rotateDeg: 1.2, noise: 3 }, 7);
    const { submissions, failures } = await gradeFiles([{ name: 'scan.jpg', bytes: scan }], { layouts: [layout] });
    expect(failures).toEqual([]);
    const [sub] = submissions;
    expect(sub!.studentId).toBe('R2');
    expect(sub!.missingPages).toEqual([]);
    const read = sub!.pages[0]!.items.map((it) => it.answer);
    expect(read).toEqual(Array.from({ length: 12 }, (_, i) => 'ABCD'[i % 4]));
    const fills = sub!.pages[0]!.fills;
    expect(fills.find((f) => f.no === 13)?.text).toBe('12');
    expect(fills.find((f) => f.no === 14)?.text).toBe('7');
  }, 120_000);
});
