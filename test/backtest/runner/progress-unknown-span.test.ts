import { describe, expect, it } from 'vitest';
import { createProgressReporter } from '../../../backtest/runner/index.ts';

// When a run's event-time span is unknown (spanOf returns undefined), the plain progress lines
// drop the share and the ETA, and so must the terminal bar: with a total of 0 it would claim
// "100% of event time ... ETA 0s" from the first update to the last.
function aTty(): NodeJS.WritableStream & { text: string } {
  const stream = {
    isTTY: true,
    text: '',
    columns: 120,
    write(chunk: string) {
      this.text += chunk;
      return true;
    },
    cursorTo: () => true,
    clearLine: () => true,
    moveCursor: () => true,
  };
  return stream as unknown as NodeJS.WritableStream & { text: string };
}

describe('progress bar of a run whose span is unknown', () => {
  it('does not claim 100 % done and ETA 0s before any event', () => {
    const stream = aTty();
    const progress = createProgressReporter({ stream, clock: { now: () => 0 } });
    progress.start(undefined);
    progress.update(0, 0);
    progress.update(1000, 60_000);
    progress.stop();
    expect(stream.text).not.toContain('100% of event time');
    expect(stream.text).not.toContain('ETA 0s');
    // A counter instead, as the plain lines are.
    expect(stream.text).toContain('backtest 1000 events |');
  });
});
