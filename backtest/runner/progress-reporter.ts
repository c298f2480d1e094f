import cliProgress from 'cli-progress';
import type { Clock } from '../../core/kernel/index.ts';

/**
 * Receives the progress of a run, measured in event time: how many events a run will replay is
 * only known once it has read them (records that are not market data and events outside the
 * window are skipped), while the event time it spans is read from the recordings' tails.
 */
export interface ProgressReporter {
  /** @param spanMs - event time the run replays (first event to the recordings' end, cut at the window's end), when known */
  start(spanMs: number | undefined): void;
  /**
   * @param events - events replayed so far
   * @param doneMs - event time replayed so far: the latest event's time minus the first one's
   */
  update(events: number, doneMs: number): void;
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
 * A progress bar (cli-progress) of the event time replayed, with events/s and ETA, on a terminal;
 * plain lines (`backtest: 120000 events, 12.0 % of event time, 830000 ev/s, ETA 7s`) when the
 * stream is not one. The ETA assumes the events are spread evenly over event time. When the run's
 * span is unknown, both only count events and their rate: no share, no ETA.
 * @param options - stream, wall clock, line interval
 * @returns the reporter
 */
export function createProgressReporter(options: ProgressOptions): ProgressReporter {
  return options.stream.isTTY === true ? barReporter(options) : lineReporter(options);
}

/** The bar's line when the run's span is known: the share of event time done and the ETA. */
const SPAN_FORMAT =
  'backtest [{bar}] {percentage}% of event time | {events} events | {speed} ev/s | ETA {eta_formatted}';
/** The bar's line when it is not: a counter, as the plain lines then are (no share, no ETA). */
const COUNTER_FORMAT = 'backtest {events} events | {speed} ev/s';

function barReporter(options: ProgressOptions): ProgressReporter {
  let bar: cliProgress.SingleBar | undefined;
  let known = false;
  let started = 0;
  return {
    start(spanMs) {
      started = options.clock.now();
      known = spanMs !== undefined && spanMs > 0;
      bar = new cliProgress.SingleBar(
        {
          stream: options.stream,
          format: known ? SPAN_FORMAT : COUNTER_FORMAT,
          hideCursor: true,
          etaBuffer: 50,
          fps: 5,
        },
        cliProgress.Presets.shades_classic,
      );
      bar.start(known ? (spanMs as number) : 0, 0, { speed: 0, events: 0 });
    },
    update(events, doneMs) {
      bar?.update(known ? doneMs : events, { speed: rate(events, options.clock.now() - started), events });
    },
    stop() {
      bar?.stop();
    },
  };
}

function lineReporter(options: ProgressOptions): ProgressReporter {
  const every = options.lineEveryMs ?? 2000;
  let started = 0;
  let lastLine = 0;
  let span: number | undefined;
  let latest = 0;
  let latestMs = 0;
  let printed = '';
  const line = (events: number, doneMs: number): void => {
    const elapsed = options.clock.now() - started;
    const speed = rate(events, elapsed);
    const known = span !== undefined && span > 0;
    const share = known ? Math.min(1, doneMs / (span as number)) : undefined;
    const shareText = share === undefined ? '' : `, ${(share * 100).toFixed(1)} % of event time`;
    const eta =
      share === undefined || share === 0 ? '' : `, ETA ${formatEta(((1 - share) * elapsed) / share / 1000)}`;
    const text = `backtest: ${events} events${shareText}, ${speed} ev/s${eta}\n`;
    // The last line of a run that ends just after a timed line would repeat it word for word.
    if (text !== printed) options.stream.write(text);
    printed = text;
  };
  return {
    start(spanMs) {
      span = spanMs;
      started = options.clock.now();
      lastLine = started;
    },
    update(events, doneMs) {
      latest = events;
      latestMs = doneMs;
      const now = options.clock.now();
      if (now - lastLine >= every) {
        lastLine = now;
        line(events, doneMs);
      }
    },
    stop() {
      line(latest, latestMs);
    },
  };
}
