import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Degradation } from '../../server/grading/corpus/degrade.js';
import { bubbleTruth, CLEAN_MIX, HARD_MIX, makeScan, randomFilling, type Filling } from '../../server/grading/corpus/generate.js';
import { rng } from '../../server/grading/corpus/random.js';
import { sampleA3Sheet, sampleChineseSheet, sampleMathSheet } from '../../server/grading/corpus/sampleSheets.js';
import { buildLayout, decodeGray, gradeFiles, recognisePage, type ItemReading, type SheetLayout } from '../../server/grading/index.js';

const math = buildLayout(sampleMathSheet());
const chinese = buildLayout(sampleChineseSheet());
const a3 = buildLayout(sampleA3Sheet());
const layouts = [math, chinese, a3];
const lookup = (id: string) => layouts.find((l) => l.sheetId === id);

/** Compares every bubble with the truth; a wrong reading is "silent" when its item is not flagged. */
function audit(layout: SheetLayout, f: Filling, items: ItemReading[]) {
  const truth = bubbleTruth(layout, f);
  let wrong = 0;
  let silent = 0;
  let total = 0;
  for (const it of items)
    for (const b of it.bubbles) {
      total++;
      const t = truth.get(`${it.no}:${b.label}`)!;
      const ok = t === 'ambiguous' ? b.state === 'uncertain' : b.state === t;
      if (!ok) {
        wrong++;
        if (it.flags.length === 0) silent++;
      }
    }
  return { wrong, silent, total };
}

async function read(layout: SheetLayout, f: Filling, d: Degradation, seed: number) {
  const jpg = await makeScan(layout, f, d, seed);
  const res = recognisePage(await decodeGray(jpg), lookup);
  if (!res.ok) throw new Error(res.error);
  return res;
}

describe('OMR on a clean scan', () => {
  let filling: Filling;
  let items: ItemReading[];
  let studentId: string | null;
  beforeAll(async () => {
    filling = randomFilling(math, { sheetId: math.sheetId, page: 1, studentId: '20240103' }, rng(1), CLEAN_MIX);
    const res = await read(math, filling, {}, 1);
    items = res.items;
    studentId = res.student.studentId;
  });

  it('identifies the student from the QR code', () => {
    expect(studentId).toBe('20240103');
  });

  it('reads every marked answer exactly as the student filled it', () => {
    for (const it of items) {
      const expected = (filling.objective[it.no] ?? []).map((m) => m.label);
      const order = it.bubbles.map((b) => b.label);
      expect(it.answer, `第 ${it.no} 题`).toBe(expected.sort((a, b) => order.indexOf(a) - order.indexOf(b)).join(''));
    }
  });

  it('flags blank items for the teacher and nothing else', () => {
    for (const it of items) {
      const blank = (filling.objective[it.no] ?? []).length === 0;
      expect(it.flags, `第 ${it.no} 题`).toEqual(blank ? ['blank'] : []);
    }
  });
});

describe('OMR on degraded scans and phone photos', () => {
  const cases: [string, Degradation][] = [
    ['旋转 15° + 噪声 + 模糊', { rotateDeg: 15, noise: 8, blur: 1 }],
    ['倒置 + JPEG 质量 50', { upsideDown: true, jpegQuality: 50 }],
    ['手机透视 + 阴影', { perspective: 1, shadow: 0.5, rotateDeg: -6, noise: 6 }],
    ['逆时针 12° + 模糊 + 阴影 + JPEG 50', { rotateDeg: -12, blur: 1.5, shadow: 0.35, jpegQuality: 50 }],
    ['手机拍照放在深色桌面上', { perspective: 0.8, rotateDeg: 9, background: 60, shadow: 0.3, noise: 6, jpegQuality: 70 }],
  ];
  for (const [name, d] of cases) {
    it(`${name}: hard cases are flagged, no silent error`, async () => {
      const f = randomFilling(math, { sheetId: math.sheetId, page: 1, studentId: '20240101' }, rng(name.length), HARD_MIX);
      f.strayStrokes = 2;
      const res = await read(math, f, d, name.length);
      expect(res.student.studentId).toBe('20240101');
      const { wrong, silent, total } = audit(math, f, res.items);
      expect(silent).toBe(0);
      expect(wrong / total).toBeLessThan(0.03);
      for (const it of res.items) {
        const marks = f.objective[it.no] ?? [];
        if (marks.length === 2 && marks.every((m) => m.style === 'full') && it.type !== 'multiple') expect(it.flags).toContain('multiple');
        if (marks.some((m) => m.style === 'half')) expect(it.flags).toContain('uncertain');
        if (marks.length === 0) expect(it.flags.length).toBeGreaterThan(0);
      }
    });
  }
});

describe('a QR code scribbled over by the student', () => {
  it('still reads the answers by matching the printed layout, and asks the teacher who it is', async () => {
    const f = randomFilling(math, { sheetId: math.sheetId, page: 1, studentId: '20240102' }, rng(12), CLEAN_MIX);
    f.scribbledQr = true;
    const jpg = await makeScan(math, f, { upsideDown: true, rotateDeg: 4, noise: 5 }, 12);
    const res = recognisePage(await decodeGray(jpg), lookup, layouts);
    if (!res.ok) throw new Error(res.error);
    expect(res.copy).toEqual({ sheetId: math.sheetId, page: 1 });
    expect(res.student.studentId).toBeNull();
    expect(res.pageFlags[0]).toContain('二维码无法识别');
    expect(res.needsReview).toBe(true);
    expect(audit(math, f, res.items).wrong).toBe(0);
  });

  it('gives up rather than guess when no known layout matches', async () => {
    const f = randomFilling(math, { sheetId: math.sheetId, page: 1, studentId: '20240102' }, rng(13), CLEAN_MIX);
    f.scribbledQr = true;
    const res = recognisePage(await decodeGray(await makeScan(math, f, {}, 13)), lookup, [chinese]);
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.error).toContain('无法读取答题卡二维码');
  });
});

describe('anonymous and A3 sheets', () => {
  it('reads the student number from the bubbles', async () => {
    const f = randomFilling(chinese, { sheetId: chinese.sheetId, page: 1 }, rng(5), CLEAN_MIX);
    const res = await read(chinese, f, { rotateDeg: 5, noise: 5 }, 5);
    expect(res.student.source).toBe('bubbles');
    expect(res.student.studentId).toBe(f.studentNumber);
  });

  it('flags a student number with an unfilled digit instead of guessing', async () => {
    const f = randomFilling(chinese, { sheetId: chinese.sheetId, page: 1 }, rng(6), CLEAN_MIX);
    const res = await read(chinese, { ...f, studentNumber: undefined }, {}, 6);
    expect(res.student.studentId).toBeNull();
    expect(res.student.flags[0]).toContain('未填涂');
  });

  it('reads a 100-item A3 sheet', async () => {
    const f = randomFilling(a3, { sheetId: a3.sheetId, page: 1 }, rng(7), CLEAN_MIX);
    const res = await read(a3, f, { rotateDeg: -3, noise: 4 }, 7);
    expect(res.items).toHaveLength(100);
    expect(audit(a3, f, res.items).wrong).toBe(0);
  });
});

describe('multi-page PDF input', () => {
  it('reads every scanned page of a PDF and reports a page that is not a scan', async () => {
    const doc = await PDFDocument.create();
    const fills = ['20240101', '20240102'].map((studentId, i) =>
      randomFilling(math, { sheetId: math.sheetId, page: 1, studentId }, rng(20 + i), CLEAN_MIX),
    );
    for (const [i, f] of fills.entries()) {
      const jpg = await makeScan(math, f, { rotateDeg: i ? 2 : -2, jpegQuality: 75 }, 20 + i);
      const img = await doc.embedJpg(jpg);
      doc.addPage([595, 842]).drawImage(img, { x: 0, y: 0, width: 595, height: 842 });
    }
    doc.addPage([595, 842]).drawText('not a scan');
    const { submissions, failures } = await gradeFiles([{ name: 'class.pdf', bytes: await doc.save() }], { layouts, ocr: false });
    expect(submissions.map((s) => s.studentId)).toEqual(['20240101', '20240102']);
    expect(submissions.map((s) => s.pages[0]!.source)).toEqual(['class.pdf 第1页', 'class.pdf 第2页']);
    expect(failures).toEqual([{ ok: false, source: 'class.pdf 第3页', error: expect.stringContaining('不是扫描图像') }]);
  });

  it('explains in Chinese when a photo has no answer sheet on it', async () => {
    const sharp = (await import('sharp')).default;
    const blank = await sharp({ create: { width: 800, height: 1100, channels: 3, background: '#f4f4f4' } }).jpeg().toBuffer();
    const { submissions, failures } = await gradeFiles([{ name: 'blank.jpg', bytes: blank }], { layouts, ocr: false });
    expect(submissions).toEqual([]);
    expect(failures[0]!.error).toContain('定位标记');
  });
});
