import type { TimerPort } from '../timer-port.ts';

/**
 * The endpoints the venue asked to wait for (a 429 with `Retry-After`): each is held until then,
 * on the injected timer, so no call to it, a first request or a retry, goes out before the venue
 * said it may. Other endpoints are not held.
 */
export class EndpointHolds {
  /** Endpoint -> the timer's time its hold ends. */
  private readonly until = new Map<string, number>();

  /** @param timer - time and timers (fake in tests) */
  constructor(private readonly timer: TimerPort) {}

  /**
   * Holds an endpoint's calls for a while; a hold already longer stays.
   * @param endpoint - the endpoint's name
   * @param ms - how long from now
   */
  hold(endpoint: string, ms: number): void {
    const end = this.timer.now() + ms;
    if (end > (this.until.get(endpoint) ?? Number.NEGATIVE_INFINITY)) this.until.set(endpoint, end);
  }

  /**
   * @param endpoint - the endpoint's name
   * @returns whether its calls are held now
   */
  isHeld(endpoint: string): boolean {
    const end = this.until.get(endpoint);
    if (end === undefined) return false;
    if (end > this.timer.now()) return true;
    this.until.delete(endpoint);
    return false;
  }

  /**
   * Waits until an endpoint's hold is over, a hold made meanwhile included.
   * @param endpoint - the endpoint's name
   * @returns when its calls may go out
   */
  async wait(endpoint: string): Promise<void> {
    while (this.isHeld(endpoint)) {
      const left = (this.until.get(endpoint) as number) - this.timer.now();
      await new Promise<void>((resolve) => this.timer.setTimer(resolve, left));
    }
  }
}
