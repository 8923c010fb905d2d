/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';

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
    // One convention: tests live under tests/<kind>. Each kind is a project with its own environment.
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' } },
      {
        extends: true,
        test: {
          name: 'components',
          include: ['tests/components/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['tests/components/setup.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'api', include: ['tests/api/**/*.test.ts'], environment: 'node', testTimeout: 30_000, hookTimeout: 60_000 },
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
          fileParallelism: false,
          // The browser runs after the other projects: sharing 2 cores with the OCR grading tests
          // made screens miss their waits. Polls wait as long as a loaded machine needs to draw.
          sequence: { groupOrder: 1 },
          expect: { poll: { timeout: 15_000, interval: 100 } },
        },
      },
    ],
  },
});
