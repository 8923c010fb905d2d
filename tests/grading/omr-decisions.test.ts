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

  it('is not confused with a second light answer half as dark', () => {
    const half = { ink: 0.21, peak: 0.23, exits: 0 };
    expect(read([half, paper, lightAnswer, paper], lightPage).flags.length).toBeGreaterThan(0);
  });
});
