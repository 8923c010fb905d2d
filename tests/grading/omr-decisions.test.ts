import { describe, expect, it } from 'vitest';
import type { Bubble } from '../../server/grading/layout/types.js';
import { readBubbles, type BubbleMeasure, type PageContext } from '../../server/grading/omr/bubbles.js';
import { readItem } from '../../server/grading/omr/recognise.js';

// The decisions alone, on bubble measures taken from phone photos of light-pencil students (the
// held-out photos of bench/readings/omrSheets.ts): what the page's context and an item's own
// bubbles decide, without rendering a page.

const bubbles = (labels: string[]) => labels.map((label) => ({ label }) as Bubble);
const read = (ms: BubbleMeasure[], ctx: PageContext, labels = ['A', 'B', 'C', 'D'], type: 'single' | 'multiple' = 'single') => readItem(1, type, bubbles(labels), readBubbles(ms, ctx));

// A light-pencil page whose answers (about 0.28 above an empty bubble) are too light for a second
// cluster of the page's levels: every answer is judged by the light-answer rule.
const lightPage: PageContext = { levels: { empty: 0.0731, full: 0.6731 }, peakEmpty: 0.0511, markLevel: 0.2787 };
const lightAnswer = { ink: 0.3739, peak: 0.3947, exits: 2 };
const paper = { ink: 0.0658, peak: 0.0531, exits: 0 };
// What the eraser left of a scribbled answer: a little ink, its darkest part darker than a smear.
const rubbed = { ink: 0.1250, peak: 0.1401, exits: 0 };

describe('the ghost of a rubbed-out answer beside a light-pencil answer', () => {
  it('is left empty and the light answer read, with nothing for the teacher', () => {
    expect(read([rubbed, paper, lightAnswer, paper], lightPage)).toMatchObject({ answer: 'C', flags: [] });
    // Two light answers of a multiple-choice item and the ghost of a third.
    const second = { ink: 0.3354, peak: 0.3582, exits: 0 };
    expect(read([rubbed, second, paper, lightAnswer], lightPage, undefined, 'multiple')).toMatchObject({ answer: 'BD', flags: [] });
  });

  it('still goes to the teacher alone (a blank item whose answer was rubbed out)', () => {
    expect(read([rubbed, paper, paper, paper], lightPage).flags.length).toBeGreaterThan(0);
  });

  it('is not confused with a faint tick: a thin stroke keeps the pencil, beside a light answer it stays for the teacher', () => {
    // As dark at its darkest as the ghost's whole smear is light, over little of the bubble.
    const faintTick = { ink: 0.098, peak: 0.205, exits: 1, exitDeg: 48 };
    const item = read([faintTick, paper, lightAnswer, paper], lightPage);
    expect(item.flags.length, `读成 ${item.answer}`).toBeGreaterThan(0);
  });

  it('is not confused with a light tick of the engine\'s corpus, whose long stroke leaves the bubble', () => {
    const lightTick = { ink: 0.125, peak: 0.17, exits: 1, exitDeg: 48 };
    const item = read([lightTick, paper, lightAnswer, paper], lightPage);
    expect(item.flags.length, `读成 ${item.answer}`).toBeGreaterThan(0);
  });

  it('beside an unsure mark on a 2B page a faint tick stays for the teacher', () => {
    const dark: PageContext = { levels: { empty: 0.0794, full: 0.7032 }, peakEmpty: 0.1321, markLevel: 0.6202 };
    const unsureFill = { ink: 0.503, peak: 0.52, exits: 0 };
    // A small tick that stays inside the outline: 2.27 uneven, 0.36 of the fill's stroke.
    const faintTick = { ink: 0.141, peak: 0.272, exits: 0 };
    const blank = { ink: 0.0852, peak: 0.1382, exits: 0 };
    expect(read([faintTick, blank, unsureFill, blank], dark).flags.length).toBeGreaterThan(0);
  });

  it('is not confused with a second light answer half as dark', () => {
    const half = { ink: 0.21, peak: 0.23, exits: 0 };
    expect(read([half, paper, lightAnswer, paper], lightPage).flags.length).toBeGreaterThan(0);
  });
});

describe('a ghost so faint that paper grain makes it look uneven, beside a clear answer', () => {
  // A light-pencil page light enough to be read by its own levels (a 300 dpi scan).
  const page: PageContext = { levels: { empty: 0.0398, full: 0.3507 }, peakEmpty: 0.0146, markLevel: 0.3108 };
  const answer = { ink: 0.3713, peak: 0.3842, exits: 6 };
  const blank = { ink: 0.0431, peak: 0.016, exits: 0 };
  const ghost = { ink: 0.084, peak: 0.0939, exits: 0 };

  it('is left empty and the answer read without a flag', () => {
    expect(read([blank, blank, answer, ghost], page)).toMatchObject({ answer: 'C', flags: [] });
  });

  it('is left empty without a flag at the very edge of empty too (a fifth of the page\'s fill)', () => {
    const edgePage: PageContext = { levels: { empty: 0.0376, full: 0.4011 }, peakEmpty: 0.0229, markLevel: 0.3608 };
    const fill = { ink: 0.4095, peak: 0.4295, exits: 4 };
    const edgeGhost = { ink: 0.1072, peak: 0.1282, exits: 0 };
    const clean = { ink: 0.0357, peak: 0.0281, exits: 0 };
    expect(read([clean, fill, edgeGhost, clean], edgePage)).toMatchObject({ answer: 'B', flags: [] });
  });

  it('while a light tick beside a fill, as little ink but a pencil stroke, still goes to the teacher', () => {
    // A phone photo of a 2B page: a tick drawn lightly beside the answer (a double on a single choice).
    const dark: PageContext = { levels: { empty: 0.0794, full: 0.7032 }, peakEmpty: 0.1321, markLevel: 0.6202 };
    const tick = { ink: 0.1503, peak: 0.2864, exits: 1, exitDeg: 49.5 };
    const fill = { ink: 0.6952, peak: 0.7132, exits: 1, exitDeg: -126 };
    const paper = { ink: 0.0852, peak: 0.1382, exits: 0 };
    const item = read([tick, paper, fill, paper], dark);
    expect(item.flags.length, `读成 ${item.answer}`).toBeGreaterThan(0);
    // The same tick drawn a little lighter or more blurred (its stroke 0.9 as dark) still does.
    const lighter = { ...tick, peak: dark.peakEmpty + 0.9 * (tick.peak - dark.peakEmpty) };
    expect(read([lighter, paper, fill, paper], dark).flags.length).toBeGreaterThan(0);
  });
});

describe('a tick beside a light-pencil answer', () => {
  // A phone photo of a light-pencil page: a light fill on D and a tick through B.
  const page: PageContext = { levels: { empty: 0.0717, full: 0.6717 }, peakEmpty: 0.055, markLevel: 0.276 };
  const ms = [
    { ink: 0.0794, peak: 0.0803, exits: 0 },
    { ink: 0.1386, peak: 0.308, exits: 1, exitDeg: 49.5 },
    { ink: 0.0681, peak: 0.0735, exits: 0 },
    { ink: 0.369, peak: 0.3965, exits: 2 },
  ];

  it('reads both marks: two answers of a multiple-choice item without a flag', () => {
    expect(read(ms, page, undefined, 'multiple')).toMatchObject({ answer: 'BD', flags: [] });
  });

  it('and a double on a single choice, for the teacher', () => {
    expect(read(ms, page)).toMatchObject({ answer: 'BD', flags: ['multiple'] });
  });
});
