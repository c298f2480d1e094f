import type { Observable, Subscription } from 'rxjs';
import type { KeelEvent, MarketEvent, UserEvent, VenueStatus } from '../model/index.ts';
import type { KernelOptions } from './kernel-options.ts';
import { mergeByTime } from './merge-by-time.ts';

/**
 * The kernel's two inputs, User Data and market data: each subscribed at most once. Market data
 * is closed at stop, User Data when the kernel is detached (after stop, what the venue still says,
 * e.g. its answers to `onStop` intents, is folded). Once closed, nothing subscribes again (a
 * strategy that stops the kernel from its `onStart` leaves the market feed unsubscribed).
 */
export class KernelFeeds {
  private readonly market: Observable<MarketEvent>;
  private readonly user: Observable<UserEvent>;
  private readonly status: Observable<VenueStatus> | undefined;
  private subscriptions: Subscription[] = [];
  private marketSubscription: Subscription | undefined;
  private marketClosed = false;
  private closed = false;

  /**
   * @param options - the kernel's sources: market data (one feed, or recorded feeds merged by
   *   time) and User Data (default: the execution port's events)
   * @param push - hands each event to the kernel
   * @param pushStatus - hands each connection change (`options.venueStatus`) to the kernel
   */
  constructor(
    options: Pick<KernelOptions, 'market' | 'user' | 'execution' | 'venueStatus'>,
    private readonly push: (event: KeelEvent) => void,
    private readonly pushStatus: (status: VenueStatus) => void = () => undefined,
  ) {
    this.status = options.venueStatus;
    this.market = Array.isArray(options.market)
      ? mergeByTime(options.market as readonly Observable<MarketEvent>[])
      : (options.market as Observable<MarketEvent>);
    this.user = options.user ?? options.execution.events;
  }

  /**
   * Subscribes to User Data and the venue's connection changes, unless closed.
   * @param fail - called when the source errors
   */
  subscribeUser(fail: (error: unknown) => void): void {
    if (this.closed) return;
    if (this.status !== undefined) this.subscriptions.push(this.status.subscribe(this.pushStatus));
    this.subscriptions.push(this.user.subscribe({ next: this.push, error: fail }));
  }

  /**
   * Subscribes to market data, unless closed.
   * @param done - called when the feed completes
   * @param fail - called when the feed errors
   */
  subscribeMarket(done: () => void, fail: (error: unknown) => void): void {
    if (this.marketClosed) return;
    this.marketSubscription = this.market.subscribe({ next: this.push, error: fail, complete: done });
  }

  /** Unsubscribes from market data, for good; User Data keeps coming. */
  closeMarket(): void {
    this.marketClosed = true;
    this.marketSubscription?.unsubscribe();
    this.marketSubscription = undefined;
  }

  /** Unsubscribes from both inputs, for good. */
  close(): void {
    this.closeMarket();
    this.closed = true;
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.subscriptions = [];
  }
}
