// Fill-in answers handwritten by the bench's own pen (bench/readings/handwriting.ts, never the
// engine's corpus) into a printed sheet's boxes, scanned and read the real way: a teacher never
// gets a wrong score without a review flag.
import { describe, expect, it } from 'vitest';
import { figuresAt, fillLayout, readFillSamples } from '../../bench/readings/fillins.js';
import { writeMaths } from '../../bench/readings/handwriting.js';
import { seeded, photograph, rasterise } from '../../bench/readings/omrSheets.js';
import { decodeGray } from '../../server/grading/image/gray.js';
import { getOcr } from '../../server/grading/ocr/engine.js';
import { readFillBoxes } from '../../server/grading/ocr/regions.js';
import { recognisePage } from '../../server/grading/omr/recognise.js';
import { DEFAULT_MIN_OCR_CONFIDENCE, scoreFill } from '../../server/grading/score/score.js';

describe('held-out handwritten fill-ins', () => {
  it('sends ink the recogniser cannot read (a lone root sign) to the teacher instead of scoring it blank', { timeout: 120_000 }, async () => {
    const layout = fillLayout();
    const box = layout.pages[0]!.fill[0]!.boxes[0]!;
    const r = seeded(3);
    const ink = writeMaths('√', box.x + 4, box.y + 8, { size: 5, tone: 50, r }).svg;
    const jpg = await photograph(await rasterise(layout, 'F001', ink, 200), { rotateDeg: 0.5, upsideDown: false, tilt: 0, desk: 'white', hardShadow: 0, falloff: 0, fade: 0, noise: 3, blur: 0, quality: 80, zoom: 1 }, r);
    const reading = recognisePage(await decodeGray(jpg), (id) => (id === layout.sheetId ? layout : undefined));
    if (!reading.ok) throw new Error(reading.error);
    const texts = await readFillBoxes(reading, await getOcr());
    expect(texts[0]).toMatchObject({ blank: false });
    expect(texts[1]).toMatchObject({ blank: true });
    const score = scoreFill(1, texts.filter((t) => t.no === 1), { blanks: [['√7'], ['3']], points: 2 }, DEFAULT_MIN_OCR_CONFIDENCE);
    expect(score).toMatchObject({ score: 0, needsReview: true });
  });

  it('reads exponents and roots by the shape of the ink, and leaves plain numbers and fractions as written', { timeout: 120_000 }, async () => {
    const layout = fillLayout();
    const boxes = layout.pages[0]!.fill.flatMap((item) => item.boxes);
    const written = ['5³', '53', 'x²', '2√5', '5/3', '17'];
    const r = seeded(11);
    const ink = written.map((w, i) => writeMaths(w, boxes[i]!.x + 3, boxes[i]!.y + boxes[i]!.h / 2 + 2.5, { size: 5, tone: 45, r }).svg).join('');
    const jpg = await photograph(await rasterise(layout, 'F001', ink, 200), { rotateDeg: 0.8, upsideDown: false, tilt: 0, desk: 'white', hardShadow: 0, falloff: 0, fade: 0, noise: 3, blur: 0, quality: 80, zoom: 1 }, r);
    const reading = recognisePage(await decodeGray(jpg), (id) => (id === layout.sheetId ? layout : undefined));
    if (!reading.ok) throw new Error(reading.error);
    const texts = (await readFillBoxes(reading, await getOcr())).slice(0, written.length).map((t) => t.text);
    expect(texts).toEqual(written);
  });

  it('scores no misreading without review on answers with signs, degrees, powers, roots, π and inequalities', { timeout: 300_000 }, async () => {
    const samples = await readFillSamples(3, 77_000);
    const f = figuresAt(samples, DEFAULT_MIN_OCR_CONFIDENCE);
    expect(f.examples).toEqual([]);
    expect(f.samples).toBe(72);
  });
});
