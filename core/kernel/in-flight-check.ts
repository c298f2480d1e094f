import type { ExecutionPort, OrderTracker } from '../execution/index.ts';
import type { KeelEvent } from '../model/index.ts';
import type { KernelTimers } from './kernel-timers.ts';
import { KERNEL_OWNER } from './kernel-timers.ts';

/**
 * The kernel's periodic look-up of overdue requests (when given an order tracker): on its own timer it asks the
 * order tracker to look up, by caller reference, the orders whose acknowledgement is overdue; the
 * corrective order updates come back through the kernel like any other event.
 */
export class InFlightCheck {
  private lookupRunning = false;

  /**
   * @param tracker - in-flight tracking
   * @param execution - where the look-ups go
   * @param everyMs - how often overdue requests are looked for, in ms of the run's clock
   * @param push - hands an answer to the kernel as an event
   * @param fail - reports a look-up that failed
   */
  constructor(
    private readonly tracker: OrderTracker,
    private readonly execution: ExecutionPort,
    private readonly everyMs: number,
    private readonly push: (event: KeelEvent) => void,
    private readonly fail: (error: unknown) => void,
  ) {}

  /**
   * Sets the kernel's repeating timer for the check.
   * @param timers - the kernel's timers
   * @param now - the run's time, epoch ms
   */
  arm(timers: KernelTimers, now: number): void {
    const every = this.everyMs;
    timers.set(KERNEL_OWNER, now + every, every, 'in-flight');
  }

  /**
   * Looks up overdue requests, unless a look-up is still running or nothing is overdue.
   * @param now - the run's time, epoch ms
   */
  check(now: number): void {
    const tracker = this.tracker;
    if (this.lookupRunning) return;
    const deadline = tracker.nextDeadline();
    if (deadline === undefined || deadline > now) return;
    this.lookupRunning = true;
    tracker.checkTimeouts(this.execution, now).then(
      (events) => {
        this.lookupRunning = false;
        for (const event of events) this.push(event);
      },
      (error: unknown) => {
        this.lookupRunning = false;
        this.fail(error);
      },
    );
  }
}
