import type { ProgressReporter } from './progress-reporter.ts';

/**
 * What a run must undo when it ends, finished, failed or cancelled: the recordings' readers it
 * left open, its kernel (stopped), the gate listeners it added, the progress it showed. Each is
 * undone once, the last added first, however often {@link RunTeardown.run} is called.
 */
export class RunTeardown {
  private readonly steps: (() => unknown)[] = [];

  /**
   * Adds a step.
   * @param step - undoes one thing (may return a Promise, awaited)
   */
  add(step: () => unknown): void {
    this.steps.push(step);
  }

  /**
   * A reporter passing everything to `reporter` whose `stop` the teardown calls when the run
   * started it and ended without stopping it (a failed run: a TTY bar's timer would keep the
   * process alive).
   * @param reporter - the caller's reporter
   * @returns the reporter to give the run
   */
  progress(reporter: ProgressReporter): ProgressReporter {
    let running = false;
    const stop = (): void => {
      if (!running) return;
      running = false;
      reporter.stop();
    };
    this.add(stop);
    return {
      start: (spanMs) => {
        running = true;
        reporter.start(spanMs);
      },
      update: (events, doneMs) => reporter.update(events, doneMs),
      stop,
    };
  }

  /**
   * Runs the steps, the last added first. A step that throws does not keep the others from
   * running, nor hides the run's own error: what it undoes is of no more use to the run.
   */
  async run(): Promise<void> {
    for (const step of this.steps.splice(0).reverse()) {
      try {
        await step();
      } catch {
        // Undone as far as it goes: the run's result (or its error) stands.
      }
    }
  }
}
