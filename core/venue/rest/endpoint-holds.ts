import { monotonicOf, type TimerPort } from '../timer-port.ts';
import type { ClosableSleeps } from './closable-sleeps.ts';

/**
 * The endpoints the venue asked to wait for (a 429 with `Retry-After`): each is held until then,
 * on the injected timer, so no call to it, a first request or a retry, goes out before the venue
 * said it may. Other endpoints are not held. The waits end, refused, when the client closes.
 */
export class EndpointHolds {
  /** Endpoint -> when its hold ends, on the timer's monotonic reading (a wall step moves no hold). */
  private readonly until = new Map<string, number>();

  /**
   * @param timer - time (fake in tests)
   * @param sleeps - the client's waits, on its timer, that its close ends
   */
  constructor(
    private readonly timer: Pick<TimerPort, 'now' | 'monotonic'>,
    private readonly sleeps: ClosableSleeps,
  ) {}

  /**
   * Holds an endpoint's calls for a while; a hold already longer stays.
   * @param endpoint - the endpoint's name
   * @param ms - how long from now
   */
  hold(endpoint: string, ms: number): void {
    const end = monotonicOf(this.timer) + ms;
    if (end > (this.until.get(endpoint) ?? Number.NEGATIVE_INFINITY)) this.until.set(endpoint, end);
  }

  /**
   * @param endpoint - the endpoint's name
   * @returns whether its calls are held now
   */
  isHeld(endpoint: string): boolean {
    const end = this.until.get(endpoint);
    if (end === undefined) return false;
    if (end > monotonicOf(this.timer)) return true;
    this.until.delete(endpoint);
    return false;
  }

  /**
   * Waits until an endpoint's hold is over, a hold made meanwhile included.
   * @param endpoint - the endpoint's name
   * @returns when its calls may go out
   * @throws the close's reason when the client closes meanwhile (see {@link ClosableSleeps})
   */
  async wait(endpoint: string): Promise<void> {
    while (this.isHeld(endpoint)) {
      const left = (this.until.get(endpoint) as number) - monotonicOf(this.timer);
      await this.sleeps.sleep(left);
    }
  }
}
