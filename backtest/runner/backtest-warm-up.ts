import { eventStart, formatPeriod } from '../../core/kernel/index.ts';
import type { MarketEvent } from '../../core/model/index.ts';

/** A replay window, epoch ms (see `BacktestRunOptions.window`). */
type ReplayWindow = { readonly from?: number; readonly to?: number };

/** A backtest's warm-up: how long, and the bar grid its end is put on. */
export interface BacktestWarmUpOptions {
  /** The warm-up's length, ms. */
  readonly periodMs: number;
  /** A bar interval the warm-up is counted in: its end falls on that grid (whole bars). */
  readonly alignMs?: number;
}

/** What a backtest's warm-up held, for the report. */
export interface BacktestWarmUp {
  readonly periodMs: number;
  /** The bar interval it is counted in, ms (`BacktestWarmUpOptions.alignMs`), if any. */
  readonly alignMs?: number;
  /** Start of the first event the strategies warmed up on (a bar's open, else its receive time). */
  readonly from: number;
  /** Where trading started: the first event whose start is at or after it is the first traded on. */
  readonly until: number;
  /** Events the strategies saw during the warm-up. */
  readonly events: number;
  /**
   * With the warm-up counted in bars (`alignMs`): how many bars of that interval held an event
   * (a bar of the grid the data is in; closed markets, nights and weekends hold none).
   */
  readonly bars?: number;
}

/**
 * The window the recordings are read over: with a warm-up and a window start, the window reaches
 * back by the warm-up's period (the warm-up is the part of the recordings before the start).
 * @param window - the replay window
 * @param warmUp - the warm-up, if any
 * @returns the window to read
 */
export function windowWithWarmUp(
  window: ReplayWindow | undefined,
  warmUp: BacktestWarmUpOptions | undefined,
): ReplayWindow | undefined {
  if (warmUp === undefined || window?.from === undefined) return window;
  return { ...window, from: window.from - warmUp.periodMs };
}

/**
 * Where the warm-up ends: the window's start when one is set, else one period after the first
 * event's start, put on the bar grid first so the period holds exactly its whole bars: the open
 * of the bar the first event falls in when the data is whole from that open (the recordings
 * started at or before it: a recording starting on the minute whose first quote came 1 ms after),
 * else the next bar's open (the first bar is partial, and not counted).
 * @param window - the replay window
 * @param warmUp - the warm-up
 * @param first - the first event read
 * @param wholeFrom - where the recordings' data is whole from (their start), epoch ms
 * @returns epoch ms
 */
export function warmUpEnd(
  window: ReplayWindow | undefined,
  warmUp: BacktestWarmUpOptions,
  first: MarketEvent,
  wholeFrom: number,
): number {
  if (window?.from !== undefined) return window.from;
  const start = eventStart(first);
  const align = warmUp.alignMs;
  if (align === undefined || align <= 0) return start + warmUp.periodMs;
  const open = Math.floor(start / align) * align;
  return (open >= wholeFrom ? open : open + align) + warmUp.periodMs;
}

/**
 * Feeds the warm-up: every event starting before `until` goes to `deliver`, in order.
 * @param firstBatch - the first batch read
 * @param readAhead - reads the next batch (undefined at the end)
 * @param until - the warm-up's end ({@link warmUpEnd})
 * @param deliver - hands one event to the strategies
 * @param alignMs - the bar interval the warm-up is counted in: the bars of that grid that hold an
 *   event within the period (a partial bar before it, not) are counted
 * @param periodMs - the warm-up's length
 * @returns the events after the warm-up in the batch that held its end (undefined when the
 *   recordings ended first), the number of events fed and the start of the first
 */
export async function feedWarmUp(
  firstBatch: readonly MarketEvent[],
  readAhead: () => Promise<readonly MarketEvent[] | undefined>,
  until: number,
  deliver: (event: MarketEvent) => void,
  alignMs: number | undefined,
  periodMs: number,
): Promise<{
  readonly rest: readonly MarketEvent[] | undefined;
  readonly events: number;
  readonly first: number;
  /** Bars of the `alignMs` grid that held an event (0 without a grid). */
  readonly bars: number;
}> {
  let events = 0;
  let bars = 0;
  let bar = Number.NaN;
  const first = firstBatch[0] === undefined ? until : eventStart(firstBatch[0]);
  let batch: readonly MarketEvent[] | undefined = firstBatch;
  while (batch !== undefined) {
    for (let i = 0; i < batch.length; i++) {
      const event = batch[i] as MarketEvent;
      const start = eventStart(event);
      if (start >= until) return { rest: batch.slice(i), events, first, bars };
      deliver(event);
      events++;
      if (alignMs !== undefined && start >= until - periodMs && Math.floor(start / alignMs) !== bar) {
        bar = Math.floor(start / alignMs);
        bars++;
      }
    }
    batch = await readAhead();
  }
  return { rest: undefined, events, first, bars };
}

/**
 * The report's words on a warm-up.
 * @param warmUp - what it held
 * @returns an assumption for the report
 */
export function warmUpAssumption(warmUp: BacktestWarmUp): string {
  const { alignMs, periodMs } = warmUp;
  const length =
    alignMs === undefined
      ? formatPeriod(periodMs)
      : `${Math.round(periodMs / alignMs)} bars of ${formatPeriod(alignMs)} (${formatPeriod(periodMs)})`;
  const start = warmUp.until - periodMs;
  const partial =
    warmUp.from < start
      ? ` (those before ${iso(start)} make a partial first bar, flagged partial and not counted)`
      : '';
  return `Warm-up of ${length}: the strategies saw the ${warmUp.events} events from ${iso(warmUp.from)} to ${iso(warmUp.until)}${partial} through their usual hooks with ctx.warmingUp true and every intent denied (kernel.warmUp); trading, the equity curve, the metrics and buy & hold start after it.`;
}

/**
 * A warning when the recordings hold less than the warm-up's period before the window's start,
 * or, counted in bars, fewer bars with data than asked for (bars x interval is calendar time).
 * @param warmUp - what the warm-up held
 * @param alignMs - the bar interval the warm-up is counted in, if any
 * @returns the warning, or undefined when the period was covered
 */
export function warmUpShortfall(warmUp: BacktestWarmUp, alignMs: number | undefined): string | undefined {
  const step = alignMs ?? Math.max(60_000, warmUp.periodMs / 100);
  const covered = warmUp.events === 0 ? 0 : warmUp.until - warmUp.from;
  if (covered < warmUp.periodMs - step)
    return `warm-up: the recordings cover only ${formatPeriod(Math.max(0, covered))} of the ${formatPeriod(warmUp.periodMs)} warm-up before ${iso(warmUp.until)} (${warmUp.events} events); indicators may not be ready when trading starts`;
  if (alignMs === undefined || warmUp.bars === undefined) return undefined;
  const asked = Math.round(warmUp.periodMs / alignMs);
  if (warmUp.bars >= asked) return undefined;
  return `warm-up: ${asked} bars of ${formatPeriod(alignMs)} span ${formatPeriod(warmUp.periodMs)}, in which the recordings held data in ${warmUp.bars} bars only (a market that closes, nights, weekends); an indicator of ${asked} bars is not ready when trading starts: ask for more bars (e.g. ${Math.ceil((asked * asked) / Math.max(1, warmUp.bars))})`;
}

/** Thrown by a backtest whose warm-up takes every event of the recordings, leaving nothing to trade on. */
export class WarmUpTookEverythingError extends Error {
  /**
   * @param periodMs - the warm-up's length
   * @param until - where it ends, epoch ms
   * @param events - the events it took: all of them
   */
  constructor(
    readonly periodMs: number,
    readonly until: number,
    readonly events: number,
  ) {
    super(
      `backtest: the warm-up of ${formatPeriod(periodMs)} (to ${iso(until)}) takes all ${events} events of the recordings, leaving nothing to trade on; shorten warmUp or replay more data`,
    );
    this.name = 'WarmUpTookEverythingError';
  }
}

function iso(ts: number): string {
  return new Date(ts).toISOString();
}
