import { beforeAll, describe, expect, it } from 'vitest';
import type { Degradation } from '../../server/grading/corpus/degrade.js';
import { CLEAN_MIX, makeScan, randomFilling } from '../../server/grading/corpus/generate.js';
import { homeworkPhoto } from '../../server/grading/corpus/homeworkPhoto.js';
import { rng } from '../../server/grading/corpus/random.js';
import { sampleChineseSheet } from '../../server/grading/corpus/sampleSheets.js';
import { charAccuracy } from '../../server/grading/corpus/textMetrics.js';
import { ctcGreedyDecode } from '../../server/grading/ocr/ctc.js';
import { dbPostprocess } from '../../server/grading/ocr/dbPostprocess.js';
import {
  buildLayout,
  decodeGray,
  getOcr,
  readEssay,
  readFillBoxes,
  readHomeworkPhoto,
  recognisePage,
  type EssayText,
  type FillBoxText,
} from '../../server/grading/index.js';

describe('CTC decoding', () => {
  it('merges repeated steps, drops blanks and keeps a real double character', () => {
    const charset = ['', '好', '学', ' '];
    // steps: 好 好 blank 好 学 blank  ->  "好好学"
    const best = [1, 1, 0, 1, 2, 0];
    const probs = new Float32Array(best.length * 4);
    best.forEach((c, t) => {
      probs.fill(0.02, t * 4, t * 4 + 4);
      probs[t * 4 + c] = 0.94;
    });
    const r = ctcGreedyDecode(probs, 0, best.length, 4, charset);
    expect(r.text).toBe('好好学');
    expect(r.charConfidence).toHaveLength(3);
    expect(r.confidence).toBeCloseTo(0.94, 5);
  });
});

describe('CTC spaces', () => {
  it('drops spaces from handwriting gaps beside Chinese or inside numbers, keeps them between words', () => {
    const charset = ['', '还', '剩', '3', '个', '1', '0', 'a', 'b', ' '];
    const decode = (ids: number[]) => {
      const probs = new Float32Array(ids.length * charset.length);
      ids.forEach((c, t) => (probs[t * charset.length + c] = 1));
      return ctcGreedyDecode(probs, 0, ids.length, charset.length, charset);
    };
    expect(decode([1, 2, 3, 9, 4]).text).toBe('还剩3个');
    expect(decode([5, 9, 6, 0, 6]).text).toBe('100');
    const r = decode([7, 9, 8]);
    expect(r.text).toBe('a b');
    expect(r.charConfidence).toHaveLength(3);
  });
});

describe('DB post-processing', () => {
  it('turns probability blobs into grown boxes and drops weak ones', () => {
    const w = 40;
    const h = 20;
    const prob = new Float32Array(w * h);
    for (let y = 5; y < 9; y++) for (let x = 4; x < 24; x++) prob[y * w + x] = 0.9; // strong text kernel
    for (let y = 14; y < 17; y++) for (let x = 30; x < 36; x++) prob[y * w + x] = 0.4; // weak: below box threshold
    const boxes = dbPostprocess(prob, w, h);
    expect(boxes).toHaveLength(1);
    const b = boxes[0]!;
    // Unclip distance = area·1.5/perimeter = 20·4·1.5/48 = 2.5 px on every side.
    expect(b.x).toBeCloseTo(1.5, 5);
    expect(b.w).toBeCloseTo(25, 5);
    expect(b.h).toBeCloseTo(9, 5);
    expect(b.angle).toBeCloseTo(0, 5);
  });
});

describe('OCR of written answers on the answer sheet', () => {
  const layout = buildLayout(sampleChineseSheet());
  const paragraphs = [
    '我的老师姓王，她是一位温和可亲的语文老师。她每天都早早地来到学校，认真地批改我们的作业。',
    '记得有一次我生病了，王老师放学后专门到我家给我补课，让我非常感动。老师就像一盏明灯，照亮了我前进的道路。',
  ];
  const essay = paragraphs.join('\n');
  let fills: FillBoxText[];
  let essays: EssayText[];
  let fillMs: number;

  beforeAll(async () => {
    const f = randomFilling(layout, { sheetId: layout.sheetId, page: 1 }, rng(3), CLEAN_MIX);
    f.fill = { 11: ['举头望明月', '低头思故乡'], 12: ['海内存知己', ''] };
    f.essay = essay;
    const jpg = await makeScan(layout, f, { rotateDeg: 3, noise: 5, blur: 0.6, jpegQuality: 70 }, 3);
    const reading = recognisePage(await decodeGray(jpg), (id) => (id === layout.sheetId ? layout : undefined));
    if (!reading.ok) throw new Error(reading.error);
    const ocr = await getOcr();
    const t = performance.now();
    fills = await readFillBoxes(reading, ocr);
    fillMs = (performance.now() - t) / fills.length;
    essays = await readEssay(reading, ocr);
  });

  it('reads handwritten fill-in boxes exactly and reports the empty one as blank', () => {
    expect(fills.map((f) => f.text)).toEqual(['举头望明月', '低头思故乡', '海内存知己', '']);
    expect(fills[3]!.blank).toBe(true);
    expect(fills.slice(0, 3).every((f) => f.confidence > 0.8)).toBe(true);
    expect(fillMs).toBeLessThan(400);
  });

  it('reads the essay grid with at least 90 % of characters right, keeping its paragraphs', () => {
    expect(essays).toHaveLength(1);
    const read = essays[0]!.text.replace(/^\n/, '').split('\n');
    expect(read).toHaveLength(2);
    read.forEach((p, i) => expect(charAccuracy(paragraphs[i]!, p)).toBeGreaterThan(0.9));
  });

  it('shares one OCR engine per process', async () => {
    expect(await getOcr()).toBe(await getOcr());
  });
});

describe('homework photo without our sheet', () => {
  const photos: [string, Degradation][] = [
    ['turned by 8° on a desk', { rotateDeg: 8, perspective: 0.3, background: 90, noise: 4, jpegQuality: 80 }],
    ['upside down and slanted', { rotateDeg: 183, background: 200, noise: 4, jpegQuality: 80 }],
  ];
  for (const [name, d] of photos) {
    it(`${name}: attaches answers to their questions and flags what it cannot place`, async () => {
      const photo = await homeworkPhoto(
        [
          { text: '1．小明有5个苹果，吃了2个，还剩几个？', hand: false },
          { text: '还剩3个苹果', hand: true },
          { text: '2．用“美丽”造句。', hand: false },
          { text: '公园里的花很美丽', hand: true },
          { text: '5．这道题不在作业里', hand: false },
        ],
        11,
        d,
      );
      const r = await readHomeworkPhoto(photo, [
        { no: 1, text: '小明有5个苹果，吃了2个，还剩几个？' },
        { no: 2, text: '用“美丽”造句。' },
        { no: 3 },
      ]);
      const a1 = r.answers.find((a) => a.no === 1)!;
      const a2 = r.answers.find((a) => a.no === 2)!;
      expect(charAccuracy('还剩3个苹果', a1.text)).toBeGreaterThan(0.8);
      expect(charAccuracy('公园里的花很美丽', a2.text)).toBeGreaterThan(0.8);
      expect(r.missing).toEqual([3]);
      expect(r.unaligned.map((l) => l.text).join('')).toContain('不在作业里');
    });
  }
});
