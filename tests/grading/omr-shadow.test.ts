import { describe, expect, it } from 'vitest';
import type { Degradation } from '../../server/grading/corpus/degrade.js';
import { CLEAN_MIX, randomFilling } from '../../server/grading/corpus/generate.js';
import { rng } from '../../server/grading/corpus/random.js';
import { math, read, silentErrors } from './omrSheet';

// A hard shadow edge (a hand or the phone over the page, a scanner lid left open) across the
// bubbles: the part of a bubble in shadow must not read as pencil, and a mark in the shadow must
// still read as a mark. Each sample is judged against the paper on its own side of the edge.

describe('a hard shadow edge across the bubbles', () => {
  // Slanting edges through the bubble block, on a phone photo and a scan.
  const cases: [string, Degradation, number][] = [
    ['手机拍照', { perspective: 0.6, rotateDeg: 4, noise: 5, blur: 0.8, jpegQuality: 75, hardShadow: { depth: 0.4, angle: 2.2, at: [0.6, 0.35] } }, 81],
    ['扫描（盖板未合）', { rotateDeg: -1.5, noise: 4, jpegQuality: 80, hardShadow: { depth: 0.35, angle: 2.9, at: [0.4, 0.35] } }, 82],
    // The edge runs through the top-left corner mark: the shadowed paper beside it must not pull the
    // mark's centre (and with it every bubble of the left column) towards the shadow.
    ['手机拍照（阴影边缘穿过定位点）', { perspective: 0.6, rotateDeg: 4, noise: 5, blur: 0.8, jpegQuality: 75, hardShadow: { depth: 0.55, angle: -0.6, at: [0.045, 0.032] } }, 83],
    // …and beside it, the shadow over about a third of the paper around the mark.
    ['手机拍照（阴影盖住定位点一角）', { perspective: 0.6, rotateDeg: 4, noise: 5, blur: 0.8, jpegQuality: 75, hardShadow: { depth: 0.55, angle: -0.6, at: [0.055, 0.027] } }, 83],
    // Edges that pass a bubble by, so that the light reaches only a corner of the paper around it
    // while the bubble itself lies in the shadow: judged against that lit corner, the whole bubble
    // read as pencil (before: 第 14、35 题 flagged on the photo, 第 23 题 not read blank on the scan).
    ['手机拍照（亮处只到气泡一角）', { perspective: 0.6, rotateDeg: 4, noise: 5, blur: 0.8, jpegQuality: 75, hardShadow: { depth: 0.31, angle: 5.89, at: [0.756, 0.531] } }, 84],
    ['扫描（亮处只到气泡一角）', { rotateDeg: -1.5, noise: 4, jpegQuality: 80, hardShadow: { depth: 0.48, angle: 2.05, at: [0.535, 0.483] } }, 84],
    // Sharp edges of a scan across bubbles: placed from the gap points alone the edge could be off by
    // a third of a millimetre, and the misplaced strip of shadow read as a stroke (before: 第 4 题,
    // 第 7、15 题 flagged).
    ['扫描（阴影边缘清晰，横穿气泡）', { rotateDeg: -1.5, noise: 4, jpegQuality: 80, hardShadow: { depth: 0.52, angle: 6.09, at: [0.169, 0.454] } }, 84],
    ['扫描（阴影边缘清晰，斜穿气泡）', { rotateDeg: -1.5, noise: 4, jpegQuality: 80, hardShadow: { depth: 0.51, angle: 5.22, at: [0.652, 0.3] } }, 84],
    // …and modelled as sharp as it is: a scan's edge spread over the 0.6 mm of a blurred photo's left
    // a strip just inside the shadow reading as ink (before: 第 26 题 flagged).
    ['扫描（阴影边缘清晰，近乎竖直）', { rotateDeg: -1.5, noise: 4, jpegQuality: 80, hardShadow: { depth: 0.53, angle: 4.59, at: [0.424, 0.291] } }, 84],
  ];
  for (const [name, d, seed] of cases) {
    it(`${name}: answers in and beside the shadow are read without flags, blank rows stay blank`, async () => {
      const f = randomFilling(math, { sheetId: math.sheetId, page: 1, studentId: '20240101' }, rng(seed), { ...CLEAN_MIX, blank: 0.1 });
      const items = await read(f, d, seed);
      expect(silentErrors(f, items)).toEqual([]);
      const blank = items.filter((it) => (f.objective[it.no] ?? []).length === 0);
      expect(blank.length).toBeGreaterThan(0);
      for (const it of blank) expect(it, `第 ${it.no} 题`).toMatchObject({ answer: '', flags: ['blank'] });
      // Every other item is one clear answer: none needs a teacher, whatever the light.
      const needless = items.filter((it) => (f.objective[it.no] ?? []).length > 0 && it.flags.length > 0).map((it) => it.no);
      expect(needless).toEqual([]);
    });
  }
});
