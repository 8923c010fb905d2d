import '@testing-library/jest-dom/vitest';
import { afterAll, afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import NProgress from 'nprogress';

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup());
// A screen still loading when a file's last test ends leaves the progress bar trickling; its next
// tick would touch a document that jsdom has already torn down. No status: the loop stops.
afterAll(() => {
  NProgress.status = null;
});

// The first render of a lazy screen includes Vite transforming its modules, which on a busy
// 2-core machine takes longer than testing-library's 1 s default; behaviour, not speed, is tested.
configure({ asyncUtilTimeout: 5000 });
