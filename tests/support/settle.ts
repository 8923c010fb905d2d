// Waiting for the page to have drawn what a change asked for, instead of sleeping a guessed time.
// After a resize the app re-renders in the frame that reports the new media queries (MUI's
// useMediaQuery), and CSS transitions then run to their end: two animation frames pass that
// re-render, then the document's finite animations are awaited, until a frame starts none.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

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

/**
 * The teacher header's lists have loaded and the screen shows what they chose: the 学科 picker
 * names the course the stored selection holds, and nothing in the main area is still loading.
 */
export async function selectionSettled(page: Page): Promise<void> {
  const picker = page.getByRole('combobox', { name: '学科' });
  await expect
    .poll(async () => {
      const course = await page.evaluate(() => (JSON.parse(sessionStorage.getItem('xuezhu.teacherSelection') ?? '{}') as { courseName?: string }).courseName);
      return Boolean(course) && (await picker.innerText()).trim() === course && (await page.locator('main .MuiLinearProgress-root').count()) === 0;
    })
    .toBe(true);
}
