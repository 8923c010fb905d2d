// The zoom of a scan on /correctDetail: what a pinch, a drag and a tap on a question do to the part
// of the scan shown. The view never leaves the page, keeps the page's proportions, and the point
// under the fingers stays under them.
import { describe, expect, it } from 'vitest';
import { clampView, fitTo, MAX_ZOOM, panBy, zoomAt, zoomOf } from '../../src/pages/aiCorrect/scanZoom';

const base = { x: 0, y: 0, w: 2480, h: 3508 }; // an A4 page at 300 dpi

describe('scan zoom', () => {
  it('keeps the point under the fingers where it was', () => {
    const view = zoomAt(base, base, 2, 0.25, 0.75);
    expect(zoomOf(view, base)).toBeCloseTo(2);
    // The image point a quarter across and three quarters down is still there after the zoom.
    expect(view.x + 0.25 * view.w).toBeCloseTo(0.25 * base.w);
    expect(view.y + 0.75 * view.h).toBeCloseTo(0.75 * base.h);
  });

  it('does not zoom out past the whole page nor in past ten times', () => {
    expect(zoomAt(base, base, 0.5)).toEqual(base);
    let view = base;
    for (let i = 0; i < 20; i++) view = zoomAt(view, base, 2);
    expect(zoomOf(view, base)).toBeCloseTo(MAX_ZOOM);
  });

  it('drags the image with the finger and stops at the page edge', () => {
    const view = zoomAt(base, base, 4); // a quarter of the width, in the middle
    // On an element 310 px wide a 31 px drag to the right moves a tenth of the view to the left.
    const moved = panBy(view, base, 31, 0, 310);
    expect(moved.x).toBeCloseTo(view.x - view.w / 10);
    expect(moved.y).toBeCloseTo(view.y);
    const far = panBy(view, base, 100_000, 100_000, 310);
    expect(far.x).toBe(0);
    expect(far.y).toBe(0);
    const other = panBy(view, base, -100_000, -100_000, 310);
    expect(other.x + other.w).toBeCloseTo(base.w);
    expect(other.y + other.h).toBeCloseTo(base.h);
  });

  it('fits a question with a margin, in the page proportions', () => {
    const question = { x: 200, y: 1200, w: 1800, h: 220 };
    const view = fitTo(question, base);
    expect(view.w / view.h).toBeCloseTo(base.w / base.h);
    expect(view.x).toBeLessThanOrEqual(question.x);
    expect(view.x + view.w).toBeGreaterThanOrEqual(question.x + question.w);
    expect(view.y).toBeLessThanOrEqual(question.y);
    expect(view.y + view.h).toBeGreaterThanOrEqual(question.y + question.h);
    expect(zoomOf(view, base)).toBeGreaterThan(1);
  });

  it('brings a view that fell outside the page back onto it', () => {
    const view = clampView({ x: -500, y: 9000, w: 620, h: 877 }, base);
    expect(view.x).toBe(0);
    expect(view.y + view.h).toBeCloseTo(base.h);
  });
});
