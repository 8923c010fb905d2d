import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLEAN_MIX, fillingSvg, randomFilling } from '../../server/grading/corpus/generate.js';
import { rng } from '../../server/grading/corpus/random.js';
import { sampleMathSheet, sampleStudents } from '../../server/grading/corpus/sampleSheets.js';
import { textWidth } from '../../server/grading/layout/font.js';
import { buildLayout, decodeGray, getOcr, nameLine, recognisePage, renderSheetPdf } from '../../server/grading/index.js';

// The printed PDF, rasterised by poppler (Debian package poppler-utils, installed by npm's pretest) exactly as a printer
// driver would, must be readable with the layout that produced it, and must show every glyph.

const DPI = 200;
const layout = buildLayout(sampleMathSheet());

describe('printed PDF (rasterised with pdftoppm)', () => {
  let dir: string;
  const pages: Buffer[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'grading-pdf-'));
    writeFileSync(join(dir, 'sheet.pdf'), await renderSheetPdf(layout));
    execFileSync('pdftoppm', ['-r', String(DPI), '-gray', '-png', join(dir, 'sheet.pdf'), join(dir, 'p')]);
    for (let i = 1; i <= sampleStudents.length; i++) pages.push(readFileSync(join(dir, `p-${i}.png`)));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints every character of the rare names 喆 堃 昇 玥 (no blank glyphs)', async () => {
    for (const [i, s] of sampleStudents.entries()) {
      const g = await decodeGray(pages[i]!);
      const at = layout.pages[0]!.nameAt!;
      const line = nameLine(layout, { sheetId: layout.sheetId, page: 1, studentId: s.id })!;
      const ch = [...s.name].at(-1)!;
      const x0 = at.x + textWidth(line.slice(0, line.indexOf(ch)), at.size);
      const px = DPI / 25.4;
      let ink = 0;
      for (let y = Math.round((at.y - at.size) * px); y < Math.round(at.y * px); y++)
        for (let x = Math.round(x0 * px); x < Math.round((x0 + at.size) * px); x++) if (g.data[y * g.width + x]! < 128) ink++;
      expect(ink, `${s.name} 的"${ch}"`).toBeGreaterThan(40);
    }
  });

  it('prints the title legibly: OCR reads it back', async () => {
    const title = await sharp(pages[0]!).extract({ left: 110, top: 90, width: 900, height: 80 }).greyscale().raw().toBuffer({ resolveWithObject: true });
    const [r] = await (await getOcr()).recognise([{ width: title.info.width, height: title.info.height, data: new Uint8Array(title.data) }]);
    expect(r!.text).toBe(layout.title);
  });

  it('is its own recognition template: pencil marks on the printed page read correctly', async () => {
    const f = randomFilling(layout, { sheetId: layout.sheetId, page: 1, studentId: sampleStudents[1]!.id }, rng(9), CLEAN_MIX);
    const meta = await sharp(pages[1]!).metadata();
    const marks = `<svg xmlns="http://www.w3.org/2000/svg" width="${meta.width}" height="${meta.height}" viewBox="0 0 ${layout.widthMm} ${layout.heightMm}">${fillingSvg(layout, f, rng(9))}</svg>`;
    const scan = await sharp(pages[1]!).composite([{ input: Buffer.from(marks), blend: 'multiply' }]).jpeg({ quality: 85 }).toBuffer();
    const res = recognisePage(await decodeGray(scan), (id) => (id === layout.sheetId ? layout : undefined));
    if (!res.ok) throw new Error(res.error);
    expect(res.student.studentId).toBe(sampleStudents[1]!.id);
    for (const it of res.items) {
      const order = it.bubbles.map((b) => b.label);
      const expected = (f.objective[it.no] ?? []).map((m) => m.label).sort((a, b) => order.indexOf(a) - order.indexOf(b)).join('');
      expect(it.answer, `第 ${it.no} 题`).toBe(expected);
    }
  });
});
