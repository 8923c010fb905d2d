import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup());

// The first render of a lazy screen includes Vite transforming its modules, which on a busy
// 2-core machine takes longer than testing-library's 1 s default; behaviour, not speed, is tested.
configure({ asyncUtilTimeout: 5000 });
