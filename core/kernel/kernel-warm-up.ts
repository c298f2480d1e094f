import type { MarketEvent } from '../model/index.ts';
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
   * The run's instruments whose bars the strategies watch that the history held no bar or trade
   * of in the period (quotes build no bars), in the run's order.
   */
  readonly uncovered: readonly string[];
  /**
   * The instruments whose bars the strategies watch that the history held bars or trades of, but
   * not reaching over the period on their own (see {@link coversWarmUp}), in the run's order.
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

/**
 * Replays a warm-up's history: the events received in [from, until), in order, each handed to
 * `deliver`; stops early when `stopped` says so. Only events of the run's instruments count as
 * coverage: the kernel hands strategies no other sym's market data. The instruments whose bars
 * the strategies watch by the end must each have bars or trades reaching over the period.
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
    readonly watched: () => readonly string[];
  },
  deliver: (event: MarketEvent) => void,
  stopped: () => boolean,
): Promise<WarmUpCoverage> {
  const { from, until } = window;
  const runSyms = new Set(window.syms);
  // Each run instrument's bars and trades (what builds bars): its own first start and last time.
  const spans = new Map<string, { first: number; last: number }>();
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
        const span = spans.get(event.sym);
        if (span === undefined) spans.set(event.sym, { first: start, last: event.recvTs });
        else span.last = event.recvTs;
      }
      first ??= start;
      last = event.recvTs;
      events++;
    }
    if (done) break;
  }
  const watched = new Set(window.watched());
  const uncovered = window.syms.filter((sym) => watched.has(sym) && !spans.has(sym));
  const short = window.syms.filter((sym) => {
    const span = spans.get(sym);
    return (
      watched.has(sym) && span !== undefined && !coversWarmUp(warmUp, from, until, span.first, span.last)
    );
  });
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
