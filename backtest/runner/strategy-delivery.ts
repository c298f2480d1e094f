import type { Kernel } from '../../core/kernel/index.ts';
import type { MarketEvent, UserEvent } from '../../core/model/index.ts';
import type { SimVenue } from '../sim/index.ts';
import { TransitLine } from './transit-line.ts';

/**
 * Carries the simulated venue's world to the strategies with the latency model's delays, in one
 * time order with the strategies' timers and the venue's own work (arrivals, expiries, funding).
 * The venue matches a recorded event at its receive time; the strategies see it a market-data
 * delay later, and see the venue's User Data at its `recvTs` (venue time plus the User Data
 * delay). Whatever a strategy sends on seeing something reaches the venue at that moment plus
 * order-entry latency. On a tie User Data goes first, as the venue answered before it passed the
 * event on. With both delays zero every event is delivered at once, in the same call. Events go
 * into the kernel by its `push`, as its feeds' subscriptions would put them: a Subject between
 * the two cost a closure, an iterator and a subscriber's call per event, on every event of a run.
 */
export class StrategyDelivery {
  private readonly market = new TransitLine<MarketEvent>();
  private readonly user = new TransitLine<UserEvent>();
  private lastMarketAt = Number.NEGATIVE_INFINITY;

  /**
   * @param kernel - the strategies' kernel (on a virtual scheduler), started: it takes every
   *   event delivered, until it is stopped
   * @param sim - the simulated venue
   */
  constructor(
    private readonly kernel: Kernel,
    private readonly sim: SimVenue,
  ) {}

  /**
   * Takes a User Data event the venue just emitted: delivered now when due now and nothing is
   * ahead of it, otherwise at its `recvTs`.
   * @param event - the venue's event
   */
  fromVenue(event: UserEvent): void {
    if (event.recvTs <= this.sim.now() && this.user.empty && this.market.empty) this.kernel.push(event);
    else this.user.push(event.recvTs, event);
  }

  /**
   * Passes on a recorded event the venue has just matched at its receive time, a market-data
   * delay later (delays never reorder the feed).
   * @param event - the recorded event
   */
  afterVenue(event: MarketEvent): void {
    const at = Math.max(event.recvTs + this.sim.marketDataDelay(), this.lastMarketAt);
    this.lastMarketAt = at;
    if (at <= event.recvTs && this.market.empty && this.user.empty) this.kernel.push(event);
    else this.market.push(at, event);
  }

  /**
   * Delivers everything due by `ts`, fires the strategies' timers due by then and lets the venue
   * do its own work due by then, all in time order, before the venue sees the recorded event of `ts`.
   * The strategies' timers are not held back: one inside the span of a bar the venue has yet to
   * match fires at its time, the strategy seeing only the bars closed by then, and an order it
   * sends reaches the venue inside that bar, so the venue keeps it for the sym's next bar.
   * @param ts - the receive time of the next recorded event, epoch ms
   * @param venueTimersUntil - the venue's timers fire only up to here: the open of a bar the venue
   *   has yet to match, whose span's timers fire after it (see the simulated venue's bar rules)
   */
  catchUp(ts: number, venueTimersUntil: number): void {
    if (
      this.kernel.nextTimerAt <= ts ||
      this.user.nextAt <= ts ||
      this.market.nextAt <= ts ||
      this.sim.nextDueAt(venueTimersUntil) <= ts
    )
      this.runUntil(ts, venueTimersUntil);
  }

  /** Delivers everything still on its way, with the timers and venue work due before each delivery. */
  flush(): void {
    while (!this.market.empty || !this.user.empty) {
      this.runUntil(Math.min(this.market.nextAt, this.user.nextAt), Number.POSITIVE_INFINITY);
    }
  }

  /** Steps, in time order, through the venue's work, the deliveries and the timers due by `ts`. */
  private runUntil(ts: number, venueTimersUntil: number): void {
    const kernel = this.kernel;
    const sim = this.sim;
    for (;;) {
      const deliveryAt = Math.min(this.user.nextAt, this.market.nextAt);
      const at = Math.min(deliveryAt, kernel.nextTimerAt);
      // The venue's own work comes first: it may answer before `at`, and its answers join the line.
      const venueAt = sim.nextDueAt(venueTimersUntil);
      if (venueAt <= ts && venueAt < at) {
        sim.advanceTo(venueAt, Math.min(venueAt, venueTimersUntil));
        continue;
      }
      if (at > ts) return;
      sim.advanceTo(at, Math.min(at, venueTimersUntil));
      // Fires the timers due by then; those at the delivery's own time go before it, as in the kernel.
      kernel.advanceTimers(at);
      if (deliveryAt > at) continue;
      kernel.push(this.user.nextAt <= this.market.nextAt ? this.user.shift() : this.market.shift());
    }
  }
}
