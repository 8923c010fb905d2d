import '@testing-library/jest-dom/vitest';
import { afterAll, afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import NProgress from 'nprogress';
import { PROGRESS_BAR } from '../../src/domain/enums';

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup());
// A screen still loading when a file's last test ends leaves the progress bar trickling; its next
// tick would touch a document that jsdom has already torn down. No status: the loop stops. A bar
// finishing then still fades out and removes itself on timers (two steps of PROGRESS_BAR.speed), so
// the file ends once it is gone: the removal once ran after the teardown ("document is not defined").
afterAll(async () => {
  const shown = NProgress.isRendered();
  NProgress.status = null;
  if (!shown) return;
  const gone = Date.now() + 5000;
  while (NProgress.isRendered() && Date.now() < gone) await new Promise((r) => setTimeout(r, 50));
  if (NProgress.isRendered()) NProgress.remove();
  // The step queued after the removal, if any, runs one step later.
  await new Promise((r) => setTimeout(r, PROGRESS_BAR.speed));
});

// The first render of a lazy screen includes Vite transforming its modules, which on a busy
// 2-core machine takes longer than testing-library's 1 s default; behaviour, not speed, is tested.
configure({ asyncUtilTimeout: 5000 });
