import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends a vitest run with one plain line, `Tests: N passed, N failed, N skipped`, which CI
 * reads as the run's count whatever the default reporter's colours and layout.
 */
export default class PlainSummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0, pending: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) counts[test.result().state] += 1;
    }
    process.stdout.write(
      `\nTests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
    );
  }
}
