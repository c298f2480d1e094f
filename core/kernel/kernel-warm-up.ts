import { BAR_INTERVAL_MS, type BarInterval, type MarketEvent } from '../model/index.ts';
import type { Clock } from './clock.ts';
import type { Scheduler } from './scheduler.ts';
import { VirtualClock } from './virtual-clock.ts';

/**
 * A warm-up, as Lean's `SetWarmUp`: the strategies see history through their usual hooks and
 * streams, `ctx.warmingUp` is true, and every intent they emit is denied (`kernel.warmUp`), so
 * strategy code needs no branch to be safe. Then trading starts.
 */
export interface KernelWarmUp {
  /** How much history the warm-up covers, ms. */
  readonly periodMs: number;
  /**
   * Aligns the warm-up's start on this grid (a bar interval): a warm-up of 20 bars of 1h starts
   * on an hour, so it holds 20 whole bars. Absent: no alignment.
   */
  readonly alignMs?: number;
  /**
   * History replayed before the market feed is subscribed (paper and live runs): batches of
   * market events in receive-time order. The events received in the period before the run's
   * clock at start are delivered; older ones and those at or after that time (the live feed's)
   * are left out. Absent: the caller feeds the warm-up through the market feed itself and calls
   * `Kernel.endWarmUp` (backtests, where the warm-up is the first part of the replay).
   */
  readonly history?: AsyncIterable<readonly MarketEvent[]>;
  /**
   * The bar intervals the live feed sends after a warm-up on history: its bars of them keep their
   * precedence over the bars Keel builds (see `BarAggregator.goLive`), the history's bars of other
   * intervals do not. Default: 1m, the klines Keel's paper and live sessions subscribe to.
   */
  readonly liveBarIntervals?: readonly BarInterval[];
}

/** How much of a warm-up period the history covered (paper and live runs). */
export interface WarmUpCoverage {
  /** The warm-up's start: history before it is left out, epoch ms. */
  readonly from: number;
  /** The run's start: history at or after it is left out (the live feed has it), epoch ms. */
  readonly until: number;
  /** Events of the run's instruments delivered. */
  readonly events: number;
  /** Start of the first of those (a bar's open time, else the receive time); undefined when none. */
  readonly first: number | undefined;
  /** Receive time of the last of those; undefined when none. */
  readonly last: number | undefined;
  /**
   * The run's instruments whose bars the strategies watch that the history held nothing to build
   * them of in the period, in the run's order: no trade, and no bar of the watched interval or a
   * finer one that divides it (quotes build no bars; 1h bars build no 5m bar). An instrument is
   * named alone when that holds for every interval watched of it, else with the interval
   * (`BTCUSDT 5m`).
   */
  readonly uncovered: readonly string[];
  /**
   * The instruments (or instrument and interval, as in {@link uncovered}) whose watched bars the
   * history held trades or bars to build of, but not reaching over the period on their own (see
   * {@link coversWarmUp}), in the run's order.
   */
  readonly short: readonly string[];
  /** Syms the history held events of in the period that are not the run's instruments, sorted: they count for nothing. */
  readonly otherSyms: readonly string[];
  /**
   * True when the events of the run's instruments reach from `from` to `until` within one
   * alignment step (or 1 % of the period, at least a minute).
   */
  readonly reaches: boolean;
  /**
   * True when the events reach over the period ({@link reaches}) and so do the bars and trades of
   * every instrument whose bars the strategies watch.
   */
  readonly complete: boolean;
}

/** Start of an event in time: a bar's open, any other event's receive time. */
export function eventStart(event: MarketEvent): number {
  return event.kind === 'bar' ? event.openTime : event.recvTs;
}

/**
 * The reason of every denial during a warm-up.
 * @param periodMs - the warm-up period
 * @returns a sentence for `onDenied` and the run's denials
 */
export function warmUpDenialReason(periodMs: number): string {
  return `intents are refused while the strategy warms up on ${formatPeriod(periodMs)} of history (ctx.warmingUp is true); it trades from the first event after the warm-up`;
}

/**
 * A period for people: `20 h`, `90 min`, `2 d`, `45 s`.
 * @param ms - the period
 * @returns the text
 */
export function formatPeriod(ms: number): string {
  const round = (x: number): number => Math.round(x * 10) / 10;
  if (ms >= 86_400_000 && ms % 86_400_000 === 0) return `${ms / 86_400_000} d`;
  if (ms >= 3_600_000) return `${round(ms / 3_600_000)} h`;
  if (ms >= 60_000) return `${round(ms / 60_000)} min`;
  return `${round(ms / 1000)} s`;
}

/**
 * The kernel's scheduler during and after a warm-up on history: virtual time following the
 * history's events while warming up (deterministic, whatever the run's own clock), then the
 * run's scheduler. Timers set during the warm-up stay set; those due by the run's start fire
 * during it (their intents denied), the later ones on the run's time.
 */
export class WarmUpScheduler implements Scheduler {
  readonly clock: Clock;
  private readonly virtual = new VirtualClock(0);
  private warming = true;

  /**
   * @param run - the run's scheduler, used once the warm-up ends
   */
  constructor(private readonly run: Scheduler) {
    this.clock = { now: () => (this.warming ? this.virtual.now() : run.clock.now()) };
  }

  /** True while warming up (virtual time), else the run scheduler's. */
  get followsEventTime(): boolean {
    return this.warming || this.run.followsEventTime;
  }

  /** @param ts - event time, epoch ms */
  advanceTo(ts: number): void {
    if (this.warming) this.virtual.advanceTo(ts);
    else this.run.advanceTo(ts);
  }

  /**
   * @param at - epoch ms
   * @param wake - what to call then
   */
  wakeAt(at: number, wake: () => void): void {
    if (!this.warming) this.run.wakeAt(at, wake);
  }

  cancelWake(): void {
    this.run.cancelWake();
  }

  /** @returns the run scheduler's time, warming up or not */
  runNow(): number {
    return this.run.clock.now();
  }

  /** Ends the warm-up: from now on the run's clock and timers. */
  end(): void {
    this.warming = false;
  }
}

/**
 * The part of a warm-up period the history reaches: `from` is `until` less the period, put on
 * the alignment grid first.
 * @param warmUp - the warm-up
 * @param until - the run's start, epoch ms
 * @returns epoch ms
 */
export function warmUpFrom(warmUp: Pick<KernelWarmUp, 'periodMs' | 'alignMs'>, until: number): number {
  const align = warmUp.alignMs;
  // The bar closing exactly at `until` is the live feed's: the grid step before it ends the warm-up.
  const base = align === undefined || align <= 0 ? until : Math.floor((until - 1) / align) * align;
  return base - warmUp.periodMs;
}

/**
 * Whether the events delivered cover the warm-up: they start within one step of `from` and end
 * within one step of `until` (a step: the alignment, else 1 % of the period and at least a minute).
 * @returns true when covered
 */
export function coversWarmUp(
  warmUp: Pick<KernelWarmUp, 'periodMs' | 'alignMs'>,
  from: number,
  until: number,
  first: number | undefined,
  last: number | undefined,
): boolean {
  if (first === undefined || last === undefined) return false;
  const step = warmUp.alignMs ?? Math.max(60_000, warmUp.periodMs / 100);
  return first <= from + step && last >= until - step;
}

/** A (sym, interval) of bars the strategies watch. */
export interface WatchedBars {
  readonly sym: string;
  readonly interval: BarInterval;
}

/** The first start and last receive time of some events. */
interface Span {
  first: number;
  last: number;
}

/**
 * Replays a warm-up's history: the events received in [from, until), in order, each handed to
 * `deliver`; stops early when `stopped` says so. Only events of the run's instruments count as
 * coverage: the kernel hands strategies no other sym's market data. The bars the strategies watch
 * by the end must each have trades, or bars of their interval or a finer one that divides it
 * (what builds them), reaching over the period.
 * @param history - batches of market events in receive-time order
 * @param warmUp - the warm-up (period and alignment)
 * @param window - the warm-up's start ({@link warmUpFrom}), the run's start, the run's
 *   instruments, and the syms the strategies watch bars of (asked once the history is replayed)
 * @param deliver - hands one event to the kernel
 * @param stopped - true once the kernel stopped
 * @returns how much of the period the history covered
 * @throws what reading the history throws
 */
export async function replayHistory(
  history: AsyncIterable<readonly MarketEvent[]>,
  warmUp: Pick<KernelWarmUp, 'periodMs' | 'alignMs'>,
  window: {
    readonly from: number;
    readonly until: number;
    readonly syms: readonly string[];
    readonly watched: () => readonly WatchedBars[];
  },
  deliver: (event: MarketEvent) => void,
  stopped: () => boolean,
): Promise<WarmUpCoverage> {
  const { from, until } = window;
  const runSyms = new Set(window.syms);
  // Each run instrument's trades and bars of each interval (what builds bars): first start, last time.
  const spans = new Map<string, Map<'trade' | BarInterval, Span>>();
  const others = new Set<string>();
  let events = 0;
  let first: number | undefined;
  let last: number | undefined;
  let done = false;
  for await (const batch of history) {
    if (stopped()) break;
    for (const event of batch) {
      // In receive-time order: the rest is the live feed's.
      if (event.recvTs >= until) {
        done = true;
        break;
      }
      const start = eventStart(event);
      if (start < from) continue;
      deliver(event);
      if (!runSyms.has(event.sym)) {
        others.add(event.sym);
        continue;
      }
      if (event.kind === 'bar' || event.kind === 'trade') {
        const bySource = spans.get(event.sym) ?? new Map<'trade' | BarInterval, Span>();
        spans.set(event.sym, bySource);
        const source = event.kind === 'bar' ? event.interval : 'trade';
        const span = bySource.get(source);
        if (span === undefined) bySource.set(source, { first: start, last: event.recvTs });
        else span.last = event.recvTs;
      }
      first ??= start;
      last = event.recvTs;
      events++;
    }
    if (done) break;
  }
  const watched = window.watched();
  const uncovered: string[] = [];
  const short: string[] = [];
  for (const sym of window.syms) {
    const intervals = [...new Set(watched.filter((w) => w.sym === sym).map((w) => w.interval))];
    const built = intervals.map((interval) => ({ interval, span: buildingSpan(spans.get(sym), interval) }));
    const none = built.filter((b) => b.span === undefined);
    if (intervals.length > 0 && none.length === intervals.length) uncovered.push(sym);
    else for (const b of none) uncovered.push(`${sym} ${b.interval}`);
    const fallShort = built.filter(
      (b) => b.span !== undefined && !coversWarmUp(warmUp, from, until, b.span.first, b.span.last),
    );
    if (fallShort.length > 0 && fallShort.length === intervals.length) short.push(sym);
    else for (const b of fallShort) short.push(`${sym} ${b.interval}`);
  }
  const reaches = coversWarmUp(warmUp, from, until, first, last);
  return {
    from,
    until,
    events,
    first,
    last,
    uncovered,
    short,
    otherSyms: [...others].sort(),
    reaches,
    complete: reaches && uncovered.length === 0 && short.length === 0,
  };
}

/**
 * The span of the events of a sym that build its bars of `interval`: trades, and bars of that
 * interval or a finer one that divides it.
 * @returns undefined when there are none
 */
function buildingSpan(
  bySource: ReadonlyMap<'trade' | BarInterval, Span> | undefined,
  interval: BarInterval,
): Span | undefined {
  if (bySource === undefined) return undefined;
  const ms = BAR_INTERVAL_MS[interval];
  let out: Span | undefined;
  for (const [source, span] of bySource) {
    if (source !== 'trade' && ms % BAR_INTERVAL_MS[source] !== 0) continue;
    if (out === undefined) out = { ...span };
    else {
      out.first = Math.min(out.first, span.first);
      out.last = Math.max(out.last, span.last);
    }
  }
  return out;
}
