import { describe, expect, it } from 'vitest';
import type { Degradation } from '../../server/grading/corpus/degrade.js';
import { makeScan } from '../../server/grading/corpus/generate.js';
import { decodeGray, recognisePage } from '../../server/grading/index.js';
import { corpusFilling, lookup, math } from './omrSheet';

// A legible page must not be rejected. On a noisy phone photo saved at JPEG quality 50, jsQR can
// miss a plainly legible QR code at the usual 6 px/mm and read it at 5 or 8: the page of the tuning
// corpus (server/grading/bench/omrTune.ts, seed 7300, sheet 44) where this happened, rebuilt.

describe('QR code on a noisy, heavily compressed photo', () => {
  it('is read at another scale when the usual one misses', async () => {
    const { f } = corpusFilling(7344);
    const d: Degradation = {
      rotateDeg: 2.054033735767007,
      perspective: 0.5325057647190988,
      blur: 0,
      noise: 10.920017769560218,
      shadow: 0,
      jpegQuality: 50,
      hardShadow: { depth: 0.2897338117007166, angle: 4.564317159570435, at: [0.8024840277153998, 0.18570283494889736] },
    };
    const res = recognisePage(await decodeGray(await makeScan(math, f, d, 7344, 200)), lookup);
    expect(res.ok ? res.pageFlags : res.error).toEqual([]);
    if (res.ok) expect(res.copy.studentId).toBe(f.copy.studentId);
  });
});
