// Prints the plain closing line 'tests: N passed, N failed, N skipped' that CI reads,
// after Vitest's own summary.
import type { Reporter, SerializedError, TestCase, TestModule, TestSuite } from 'vitest/node';

/** A hook that failed (a browser that would not launch, say) leaves the tests below it unrun. */
function hookFailed(suite: TestModule | TestSuite): boolean {
  return suite.errors().length > 0;
}

function underFailedHook(test: TestCase): boolean {
  for (let parent: TestModule | TestSuite = test.parent; ; parent = parent.parent) {
    if (hookFailed(parent)) return true;
    if (parent.type === 'module') return false;
  }
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError> = []) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      const failedBefore = failed;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        // A test left unrun because its file or suite failed did not pass: it counts as failed.
        // Skips are only the tests that cannot apply here (PostgreSQL-only ones on PGlite).
        else if (underFailedHook(test)) failed++;
        else skipped++;
      }
      // A file that failed with no test to show for it is still a failure: one that failed to load,
      // or one whose clean-up hook failed after its tests had passed (Vitest fails the run for it).
      if ((module.state() === 'failed' || hookFailed(module)) && failed === failedBefore) failed++;
    }
    // An error thrown outside any test (a rejected promise nobody awaited) fails the run: it counts.
    failed += unhandledErrors.length;
    const errors = unhandledErrors.length ? ` (${unhandledErrors.length} of them errors outside a test)` : '';
    console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped${errors}`);
  }
}
