/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import { availableParallelism } from 'node:os';

// Two entry pages: the product (index.html) and the separate sign-in app (account.html).
// `npm run dev` serves them on port 4000 and proxies /api to the server (SPEC §9).
export default defineConfig({
  plugins: [react()],
  server: {
    port: 4000,
    proxy: { '/api': `http://localhost:${process.env.PORT ?? 3000}` },
  },
  build: {
    outDir: 'dist',
    rollupOptions: {
      input: {
        main: resolve(import.meta.dirname, 'index.html'),
        account: resolve(import.meta.dirname, 'account.html'),
      },
    },
  },
  test: {
    reporters: ['default', './tests/support/summaryReporter.ts'],
    // Vitest's default is one worker fewer than the cores: one file at a time on a 2-core machine.
    // The files wait on databases, servers and browsers as much as they compute, so two side by side
    // nearly halve the suite there.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // One convention: tests live under tests/<kind>. Each kind is a project with its own environment.
    projects: [
      // Unit files share their worker's loaded modules (isolate: false): they hold no state between
      // files, and re-importing for each file was half their CPU time (measured: 16.3 → 8.2 s).
      // Component files stay isolated: a screen's lazy import still loading when its file ended was
      // then reported against the next file's torn-down environment.
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', isolate: false } },
      {
        extends: true,
        test: {
          name: 'components',
          include: ['tests/components/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['tests/components/setup.ts'],
          // A react-admin screen rendered in jsdom takes 1–3 s of CPU; Vitest's 5 s default failed
          // whichever test ran while the API tests beside it were busiest.
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        // API files share their worker's loaded modules (isolate: false): each builds its own app on
        // its own database, and importing the whole server again for every file cost more CPU than
        // most of the files' tests.
        // The seeded demo they copy is made once, first (apiSetup).
        test: { name: 'api', include: ['tests/api/**/*.test.ts'], environment: 'node', isolate: false, testTimeout: 30_000, hookTimeout: 60_000, globalSetup: ['tests/support/apiSetup.ts'] },
      },
      {
        extends: true,
        test: { name: 'grading', include: ['tests/grading/**/*.test.ts'], environment: 'node', testTimeout: 120_000, hookTimeout: 120_000 },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 90_000,
          hookTimeout: 180_000,
          // The browser runs after the other projects: sharing 2 cores with the OCR grading tests
          // made screens miss their waits. Two browser files run side by side, each with its own
          // server and browser; the build and seeded data they share are made once, first.
          globalSetup: ['tests/support/e2eSetup.ts'],
          maxWorkers: 2,
          // Browser files share their worker's loaded modules, as API files do: each keeps its server
          // and browser in its own variables and closes both at its end, and importing Playwright and
          // the grading engine again for every file cost 40 s of the run (Vitest's import time,
          // measured: 40.6 → 5.4 s).
          isolate: false,
          sequence: { groupOrder: 1 },
          expect: { poll: { timeout: 15_000, interval: 100 } },
        },
      },
    ],
  },
});
