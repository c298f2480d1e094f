import cliProgress from 'cli-progress';
import type { Clock } from '../../core/kernel/index.ts';

/** Receives the progress of a run. */
export interface ProgressReporter {
  /** @param total - events expected, when known */
  start(total: number | undefined): void;
  /** @param events - events handled so far */
  update(events: number): void;
  stop(): void;
}

/** Where and how progress is shown. */
export interface ProgressOptions {
  /** Where to write (stderr, usually). */
  readonly stream: NodeJS.WritableStream & { readonly isTTY?: boolean };
  /** Wall time for events/s and ETA: progress is display, not simulation, so it may be real time. */
  readonly clock: Clock;
  /** Plain lines at most this often, in wall ms (default 2000). */
  readonly lineEveryMs?: number;
}

function rate(events: number, ms: number): number {
  return ms > 0 ? Math.round((events * 1000) / ms) : 0;
}

function formatEta(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  return s >= 3600
    ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
    : s >= 60
      ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
      : `${s}s`;
}

/**
 * A progress bar (cli-progress) with events/s and ETA on a terminal; plain lines
 * (`backtest: 120000/1000000 events (12.0 %), 830000 ev/s, ETA 1s`) when the stream is not one.
 * @param options - stream, wall clock, line interval
 * @returns the reporter
 */
export function createProgressReporter(options: ProgressOptions): ProgressReporter {
  return options.stream.isTTY === true ? barReporter(options) : lineReporter(options);
}

function barReporter(options: ProgressOptions): ProgressReporter {
  const bar = new cliProgress.SingleBar(
    {
      stream: options.stream,
      format: 'backtest [{bar}] {percentage}% | {value}/{total} events | {speed} ev/s | ETA {eta_formatted}',
      hideCursor: true,
      etaBuffer: 50,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = 0;
  return {
    start(total) {
      started = options.clock.now();
      bar.start(total ?? 0, 0, { speed: 0 });
    },
    update(events) {
      bar.update(events, { speed: rate(events, options.clock.now() - started) });
    },
    stop() {
      bar.stop();
    },
  };
}

function lineReporter(options: ProgressOptions): ProgressReporter {
  const every = options.lineEveryMs ?? 2000;
  let started = 0;
  let lastLine = 0;
  let total: number | undefined;
  let latest = 0;
  const line = (events: number): void => {
    const elapsed = options.clock.now() - started;
    const speed = rate(events, elapsed);
    const share = total === undefined || total === 0 ? '' : ` (${((events * 100) / total).toFixed(1)} %)`;
    const eta = total === undefined || speed === 0 ? '' : `, ETA ${formatEta((total - events) / speed)}`;
    options.stream.write(
      `backtest: ${events}${total === undefined ? '' : `/${total}`} events${share}, ${speed} ev/s${eta}\n`,
    );
  };
  return {
    start(t) {
      total = t;
      started = options.clock.now();
      lastLine = started;
    },
    update(events) {
      latest = events;
      const now = options.clock.now();
      if (now - lastLine >= every) {
        lastLine = now;
        line(events);
      }
    },
    stop() {
      line(latest);
    },
  };
}
