import cliProgress from 'cli-progress';
import type { CliIo } from './cli-io.ts';

/** Shows how many of a sweep's backtests are done. */
export interface SweepProgress {
  /** @param done - backtests finished so far */
  update(done: number): void;
  stop(): void;
}

/**
 * A progress bar (cli-progress) with the count and ETA when stderr is a terminal; otherwise one
 * plain line per finished backtest (`sweep: 3/16 backtests done`), so logs stay readable.
 * @param stderr - where progress goes
 * @param total - backtests in the sweep
 * @returns the progress display, started
 */
export function sweepProgress(stderr: CliIo['stderr'], total: number): SweepProgress {
  if (stderr.isTTY !== true) {
    return {
      update: (done) => stderr.write(`sweep: ${done}/${total} backtests done\n`),
      stop: () => undefined,
    };
  }
  const bar = new cliProgress.SingleBar(
    {
      stream: stderr as NodeJS.WritableStream,
      format: 'sweep [{bar}] {value}/{total} backtests | ETA {eta_formatted}',
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return { update: (done) => bar.update(done), stop: () => bar.stop() };
}
