// Waiting for the page to have drawn what a change asked for, instead of sleeping a guessed time.
// After a resize the app re-renders in the frame that reports the new media queries (MUI's
// useMediaQuery), and CSS transitions then run to their end: two animation frames pass that
// re-render, then the document's finite animations are awaited, until a frame starts none.
import type { Page } from 'playwright-core';

export async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    for (;;) {
      await frame();
      await frame();
      const running = document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity);
      if (!running.length) return;
      await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
    }
  });
}
